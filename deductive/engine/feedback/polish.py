"""Polishing a tree: its subtrees searched exactly, and the better ones grafted in.

A beam search keeps only the best-scored guesses at each node, so its tree can be improved
where an exact search is affordable: on the small candidate sets. :func:`polish_tree`
visits every node below the root whose candidate set has between ``min_size`` and
``max_size`` answers, smallest first (ties: the deeper first), and searches the set exactly
(:meth:`TreeSearch.solve`, within the guesses left and, in hard mode, with the guesses
the node allows) with the subtree's current total as the ceiling. A tree with fewer total
guesses replaces the subtree; an equal one does not, so a polished tree is never worse
and only changes where it gains. Smaller subtrees come first, so a larger one is searched
with its improved children's total as its ceiling, and the exact search meets the smaller
sets again in its memo.

When every child of the root was searched (each non-winning bucket of the opener of three
or more answers has ``min_size``..``max_size`` answers, and those of one or two are solved
in 1 and 3 guesses), every subtree under the opener is optimal, so the tree is an optimal
tree for its opener: the result says ``exact``.

A tree that needs more guesses than ``max_guesses`` is first brought within them by
:func:`fit_tree`: only the nodes on the too-deep paths whose guess cannot fit are searched
again, so a tree searched without the limit keeps all it can.

On 12,972 x 12,972 (every guess an answer), from the beam-100 tree of lants within 6
guesses (52,900): the 1,743 subtrees of 3-60 answers were optimal already (89 s); among
the 51 of 61-400, preif at the second guess (174 answers) went from 576 to 572, hence
52,896, the best published figure (README).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np

from ...errors import ArgumentError
from .search import INFEASIBLE, SearchResult, TreeSearch
from .scoring import partition_stats
from .tree import check_tree, tree_document
from .worst import WorstCaseSearch
from ..._deprecated import OldAsDict

__all__ = ["Polish", "fit_tree", "polish_tree", "polish_result"]

#: :func:`fit_tree` searches a node again first under a ceiling of its subtree's total
#: plus this fraction (1/FIT_MARGIN) of it, and only if no tree fits there, under none.
FIT_MARGIN = 50


@dataclass
class Polish(OldAsDict):
    """What :func:`polish_tree` did: the tree (root node), its totals before and after."""

    tree: dict
    before: int
    total: int
    worst: int
    min_size: int
    max_size: int
    subtrees: int                   # the subtrees searched
    improved: int                   # those replaced by a better one (1-2 answers included)
    nodes: int                      # sets the exact search expanded
    exact: bool                     # every subtree under the root is optimal
    seconds: float

    def to_json(self) -> dict:
        return {"min_size": self.min_size, "max_size": self.max_size,
                "subtrees": self.subtrees, "improved": self.improved, "nodes": self.nodes,
                "before": self.before, "after": self.total, "exact": self.exact,
                "seconds": round(self.seconds, 3)}


def polish_tree(game, tree: dict, max_size: int, *, min_size: int = 3,
                max_guesses: int | None = None, memo_bytes: int | None = None,
                beam: int | None = None, progress=None) -> Polish:
    """Search exactly every subtree of ``tree`` with ``min_size``..``max_size`` answers,
    below the root, and graft in those with fewer total guesses.

    Parameters
    ----------
    game : FeedbackGame
        The game the tree plays (normal or hard mode: as the game says).
    tree : dict
        A root node ``{"guess": WORD, "then": {FEEDBACK: NODE}}`` over all of ``game``'s
        answers (checked first, as :func:`~.tree.check_tree` checks a file). Not changed.
    max_size, min_size : int
        The subtrees searched hold ``min_size`` (at least 3) to ``max_size`` answers. A
        subtree of one or two answers that costs more than 1 or 3 guesses is replaced by
        the obvious one without a search.
    max_guesses : int, optional
        Keep every answer within this many guesses (a subtree at guess k gets
        ``max_guesses - k + 1``). A tree that needs more is fitted first
        (:func:`fit_tree`, with ``beam``); ``before`` is still the total of the tree
        given.
    memo_bytes : int, optional
        Cap of the exact search's memo (:class:`TreeSearch`).
    beam : int, optional
        Fit a tree deeper than ``max_guesses`` with this beam (:func:`fit_tree`).
    progress : callable, optional
        Called as ``progress(done, total)``: subtrees searched so far, of all to search.

    Returns
    -------
    Polish
        The polished tree (feedbacks spelled as ``game.format`` spells them), its total
        and worst case, what was searched and improved; ``exact`` when every child of the
        root is optimal (searched, or of one or two answers).
    """
    if min_size < 3:
        raise ArgumentError(f"`min_size` must be at least 3 (smaller sets are solved by any "
                            f"sensible guess), not {min_size}")
    if max_size < min_size:
        raise ArgumentError(f"`max_size` {max_size} is below `min_size` {min_size}; give at "
                            f"least {min_size}")
    start = time.perf_counter()
    depths = check_tree(game, tree_document(game, tree), hard=game.hard).depths
    before = int(depths.sum())
    if max_guesses is not None and int(depths.max()) > max_guesses:
        tree = _fitted(game, tree, max_guesses, beam, memo_bytes)
    search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
    root = {"then": {None: _copy(game, tree)}}     # a holder above the root
    nodes = []                      # (size, -guess number, cands, allowed, holder, label)
    everything = np.ones(len(game.guesses), dtype=bool) if game.hard else None
    stack = [(np.arange(len(game.answers), dtype=np.int64), 1, everything, root["then"], None)]
    exact, improved = True, 0
    while stack:
        cands, k, allowed, holder, label = stack.pop()
        n, node = len(cands), holder[label]
        left = None if max_guesses is None else max_guesses - k + 1
        if k > 1:
            if n <= 2:
                if _cost(game, node, cands) > 2 * n - 1:       # 1 or 3 guesses at most
                    holder[label] = search.tree(cands, allowed, left)
                    improved += 1
                continue
            if min_size <= n <= max_size:
                nodes.append((n, -k, cands, allowed, holder, label))
            elif k == 2:
                exact = False       # a child of the opener left as it was
        g = game.guess_index(node["guess"])
        for code, grp in game.split(g, cands):
            if code != game.win_code:
                stack.append((grp, k + 1, None if allowed is None else
                              game.allowed_after(allowed, g, code), node["then"],
                              game.format(code)))
    nodes.sort(key=lambda x: (x[0], x[1]))
    for done, (n, minus_k, cands, allowed, holder, label) in enumerate(nodes, 1):
        left = None if max_guesses is None else max_guesses + minus_k + 1
        cost = _cost(game, holder[label], cands)
        value, _, ok = search.solve(cands, allowed, left, cost)
        if ok and value < cost:
            holder[label] = search.tree(cands, allowed, left)
            improved += 1
        if progress is not None:
            progress(done, len(nodes))
    polished = root["then"][None]
    depths = check_tree(game, tree_document(game, polished), hard=game.hard).depths
    return Polish(polished, before, int(depths.sum()), int(depths.max()), min_size,
                  max_size, len(nodes), improved, search.nodes, exact,
                  time.perf_counter() - start)


def fit_tree(game, tree: dict, max_guesses: int, *, beam: int | None = None,
             memo_bytes: int | None = None) -> dict:
    """A copy of ``tree`` that solves every answer within ``max_guesses``, changed only
    where it must be.

    A node whose subtree is too deep has its children fitted first, the largest first; where
    a child cannot be fitted (no tree from its guess within the guesses left) the node itself
    is searched again (:meth:`TreeSearch.solve` within the guesses left, and in hard mode
    with the guesses the node allows) and its best tree replaces it. So the opener is kept,
    and every subtree that fitted already is kept as it was: :func:`polish_tree` then
    improves what the fitting left.

    The search is exact by default: first under a ceiling of the subtree's total plus 2%
    (:data:`FIT_MARGIN`), which prunes most guesses, then under none. With ``beam`` (for
    sets too large for an exact search): of the guesses by largest bucket, the first
    ``beam`` that the worst-case search (:class:`~.worst.WorstCaseSearch`) shows to fit,
    each followed by the beam's trees of its buckets (searched without the limit, then
    fitted in turn); the cheapest of them. The beam's own search within a limit would try
    up to 1,000 more guesses at each node where none of its beam fits, at every level;
    the worst-case search decides whether a guess fits far sooner.

    Fitting can be out of reach where few guesses fit a large set: each guess that does
    not fit is refuted by a search of its own.

    Parameters
    ----------
    game : FeedbackGame
        The game the tree plays (normal or hard mode: as the game says).
    tree : dict
        A root node over all of ``game``'s answers (checked first). Not changed.
    max_guesses : int
        The most guesses any answer may take.
    beam : int, optional
        Search a node again with this beam (:class:`TreeSearch`), not exactly.
    memo_bytes : int, optional
        Cap of the exact search's memo (:class:`TreeSearch`).

    Returns
    -------
    dict
        The fitted root node, its feedbacks spelled as ``game.format`` spells them.

    Raises
    ------
    ArgumentError
        ``max_guesses`` is below 1, or no tree from the tree's opener (none the beam finds,
        with ``beam``) solves every answer within it.
    """
    if max_guesses < 1:
        raise ArgumentError(f"`max_guesses` must be at least 1, not {max_guesses}")
    check_tree(game, tree_document(game, tree), hard=game.hard)
    return _fitted(game, tree, max_guesses, beam, memo_bytes)


def _fitted(game, tree, max_guesses, beam, memo_bytes) -> dict:
    """:func:`fit_tree` of a tree already checked."""
    search = TreeSearch(game, beam=beam, max_guesses=max_guesses, memo_bytes=memo_bytes)
    worst = None if beam is None else WorstCaseSearch(game)
    everything = np.ones(len(game.guesses), dtype=bool) if game.hard else None
    root = _copy(game, tree)
    if not _fit(game, search, worst, {None: root}, None,
                np.arange(len(game.answers), dtype=np.int64), everything, max_guesses,
                keep=True):
        where = "no tree" if beam is None else f"the beam of {beam} finds no tree"
        fix = "" if beam is None else "widen `beam` or "
        raise ArgumentError(f"{where} from {tree['guess']!r} that solves every answer "
                            f"within {max_guesses} guesses: {fix}give a larger `max_guesses`")
    return root


def _fit(game, search, worst, holder, label, cands, allowed, left, keep=False) -> bool:
    """Fit the subtree ``holder[label]`` over ``cands`` within ``left`` guesses (see
    :func:`fit_tree`), keeping its guess if ``keep``; False when it does not fit."""
    node = holder[label]
    if _depth(game, node, cands) <= left:
        return True
    g = game.guess_index(node["guess"])
    split = [(code, grp) for code, grp in game.split(g, cands) if code != game.win_code]
    if left > 1 and all(_fit(game, search, worst, node["then"], game.format(code), grp,
                             None if allowed is None else game.allowed_after(allowed, g, code),
                             left - 1)
                        for code, grp in sorted(split, key=lambda x: -len(x[1]))):
        return True
    if keep:
        return False
    if worst is not None:
        tree = _research(game, search, worst, cands, allowed, left)
        if tree is not None:
            holder[label] = tree
        return tree is not None
    cost = _cost(game, node, cands)
    for ceiling in (cost + cost // FIT_MARGIN + 1, INFEASIBLE):
        if search.solve(cands, allowed, left, ceiling)[0] < ceiling:
            holder[label] = search.tree(cands, allowed, left)
            return True
    return False


def _research(game, search, worst, cands, allowed, left) -> dict | None:
    """A tree over ``cands`` within ``left`` guesses from a beam (``search.beam`` wide):
    of the guesses by largest bucket, the first ``search.beam`` the worst-case search shows
    to fit, each followed by the beam's trees of its buckets fitted in turn (:func:`_fit`);
    the least total of these, or None when no guess fits."""
    rows = np.arange(len(game.guesses)) if allowed is None else np.flatnonzero(allowed)
    stats = partition_stats(game.patterns, cands, rows)
    best, best_cost, tried = None, INFEASIBLE, 0
    for g in rows[stats.order("minimax")].tolist():
        if tried == search.beam:
            break
        if not worst.guess_fits(g, cands, allowed, left):
            continue
        tried += 1
        node = {"guess": game.word(g), "then": {}}
        for code, grp in game.split(g, cands):
            if code != game.win_code:
                after = None if allowed is None else game.allowed_after(allowed, g, code)
                node["then"][game.format(code)] = search.tree(grp, after, None)
                if not _fit(game, search, worst, node["then"], game.format(code), grp, after,
                            left - 1):
                    break
        else:
            cost = _cost(game, node, cands)
            if cost < best_cost:
                best, best_cost = node, cost
    return best


def _copy(game, node: dict) -> dict:
    """A checked tree's copy, its feedbacks spelled as ``game.format`` spells them."""
    return {"guess": node["guess"],
            "then": {game.format(game.parse(label)): _copy(game, child)
                     for label, child in (node.get("then") or {}).items()}}


def _cost(game, node: dict, cands) -> int:
    """Total guesses of the subtree ``node`` (spelled as ``game.format`` spells feedbacks)
    over the answers ``cands``."""
    return _measure(game, node, cands)[0]


def _depth(game, node: dict, cands) -> int:
    """The most guesses the subtree ``node`` takes over the answers ``cands``."""
    return _measure(game, node, cands)[1]


def _measure(game, node: dict, cands) -> tuple[int, int]:
    """(total, most) guesses of the subtree ``node`` over the answers ``cands``."""
    total = worst = 0
    stack = [(node, cands, 1)]
    while stack:
        node, cands, k = stack.pop()
        total += len(cands)
        worst = max(worst, k)
        for code, grp in game.split(game.guess_index(node["guess"]), cands):
            if code != game.win_code:
                stack.append((node["then"][game.format(code)], grp, k + 1))
    return total, worst


def polish_result(game, result: SearchResult, max_size: int, *, memo_bytes=None,
                  progress=None) -> SearchResult:
    """A searched opener's result after :func:`polish_tree` of its tree, within the
    result's own ``max_guesses``.

    Parameters
    ----------
    result : SearchResult
        From :meth:`TreeSearch.search_opener` with ``keep_tree=True``.
    max_size, memo_bytes, progress
        As :func:`polish_tree` takes them.

    Returns
    -------
    SearchResult
        The polished tree, total and worst case; ``exact`` (and ``lower`` the total) when
        every subtree under the opener is optimal: then the total is the least from the
        opener, but unlike an exact search's the worst case need not be the least among
        the trees of that total. Seconds and nodes are those of both; ``polish`` says
        what was done (:meth:`Polish.to_json`).
    """
    if result.tree is None:
        raise ArgumentError("polishing needs the searched tree: search with keep_tree=True")
    p = polish_tree(game, result.tree, max_size, max_guesses=result.max_guesses,
                    memo_bytes=memo_bytes, progress=progress)
    exact = result.exact or p.exact
    return replace(result, tree=p.tree, total=p.total, worst=p.worst, exact=exact,
                   lower=p.total if exact else result.lower,
                   seconds=result.seconds + p.seconds, nodes=result.nodes + p.nodes,
                   polish=p.to_json())
