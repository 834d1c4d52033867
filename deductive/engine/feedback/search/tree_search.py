"""The depth-first driver of the exact (or beam) tree search: :class:`TreeSearch` and the
:class:`SearchResult` of one opener (the algorithm: :mod:`deductive.engine.feedback.search`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ....errors import ArgumentError, DeductiveError
from ....kernels.search import split_bounds, unisolated
from ..matrix import answer_major
from ..scoring import COLUMNS_MAX
from ..tree import check_tree, tree_document
from .bounds import INFEASIBLE, _impossible, counting_bounds, lower_bound, opener_bounds
from .memo import MEMO_ENTRY_BYTES, SearchMemo, _Entry
from ...._deprecated import OldAsDict

#: A node leaves unscored the guesses whose bound from its parent's bucket counts (a
#: guess makes no more buckets of a subset) passes its ceiling by this percentage of the
#: set's size (see :func:`~deductive.kernels.search.split_bounds`). Skipping closer to
#: the ceiling saves more scoring but gives the memo weaker bounds for refuted sets: 25
#: was the fastest of 10-40 on the exact salet search (3.8 s -> 1.85 s).
CAP_MARGIN = 25

#: Guesses a node's first scoring returns, the first of its search order: most nodes are
#: settled by their first guess, and sorting all the others cost more than scoring them
#: (:func:`~deductive.kernels.search.split_bounds`). The rest are scored again only when
#: the head is tried and the next bound is still below the ceiling.
SCAN_HEAD = 32

#: Guesses past the beam a beam search tries at a node where no guess of the beam has a
#: tree within the guesses left (``max_guesses``), until as many as the beam have one.
BEAM_FALLBACK = 1000


@dataclass
class SearchResult(OldAsDict):
    """A searched tree for one opener."""

    opener: str
    total: int
    worst: int
    answers: int
    exact: bool
    beam: int | None
    seconds: float
    nodes: int
    tree: dict | None = None
    lower: int | None = None            # a proven lower bound of the opener's least total
    polish: dict | None = None          # :meth:`.polish.Polish.to_json`, if polished
    max_guesses: int | None = None      # the limit the tree was searched within
    objective: str | None = None        # "worst": the least worst case's search (JSON says so)
    hard: bool = False                  # searched under hard-mode rules (the text says so)

    @property
    def average(self) -> float:
        return self.total / self.answers

    def to_json(self) -> dict:
        row = {"word": self.opener, "total": self.total, "average": round(self.average, 6),
               "worst": self.worst, "exact": self.exact, "beam": self.beam,
               "seconds": round(self.seconds, 3), "nodes": self.nodes}
        if self.lower is not None:
            row["lower"] = self.lower
        if self.polish is not None:
            row["polish"] = self.polish
        return row if self.objective is None else {"objective": self.objective, **row}


class TreeSearch(SearchMemo):
    """Search decision trees of a feedback game (:class:`~.game.FeedbackGame`).

    Parameters
    ----------
    game : FeedbackGame
        Normal or hard mode (hard mode restricts each node's guesses to those allowed).
        (Typed ``Any``: the game's solvers import this module through the search.)
    beam : int, optional
        Try only the ``beam`` first guesses of the search order per node (a heuristic;
        with ``max_guesses``, a node where none of them has a tree within the guesses left
        tries the next ones, up to :data:`BEAM_FALLBACK`). None: exact.
    max_guesses : int, optional
        Only trees that never need more guesses than this.
    memo_bytes : int, optional
        Cap on the memo's estimated size (None: no cap). Past it, the entries of the
        smallest sets (the cheapest to search again) go until half the cap is left.
    """

    #: Remember the game's allowed_after (off where a subclass's rules keep their own).
    cache_rules = True

    def __init__(self, game: Any, beam: int | None = None,
                 max_guesses: int | None = None, memo_bytes: int | None = None) -> None:
        if beam is not None and beam < 1:
            raise ArgumentError(f"`beam` must be at least 1, not {beam}")
        if max_guesses is not None and max_guesses < 1:
            raise ArgumentError(f"`max_guesses` must be at least 1, not {max_guesses}")
        if memo_bytes is not None and memo_bytes < MEMO_ENTRY_BYTES:
            raise ArgumentError(f"`memo_bytes` must be at least {MEMO_ENTRY_BYTES}, not "
                                f"{memo_bytes}")
        self.memo_bytes = memo_bytes
        self._memo_used = 0
        self.evictions = 0
        self.game = game
        self.beam = beam
        self.max_guesses = max_guesses
        self.patterns = game.patterns
        self.matrix = game.matrix
        self.win = game.win_code
        # set key -> {depth left (None: unlimited): _Entry}
        self.memo: dict = {}
        self.nodes = 0
        self._all_rows = np.arange(self.matrix.shape[0], dtype=np.int64)
        self.floor = counting_bounds(self.matrix.shape[1], self.patterns.spread)
        self.probe = True
        self._no_columns = np.empty((0, 0), self.matrix.dtype)
        self._no_cap = np.empty(0, np.int64)
        self._flags = np.empty(self.matrix.shape[1], np.int64)    # scratch of unisolated
        self._stamps = np.zeros(self.patterns.n_codes + 1, np.int64)
        self._root_cap = None           # every guess's buckets over all the answers
        self._caps: list = []           # bucket counts of the sets being searched, outermost first
        # hard mode: distinct masks by their bits; (mask key, guess, code) and (mask key,
        # rule key) -> mask; (guess, code) -> rule key
        self._masks: dict = {}
        self._after: dict = {}
        self._rules: dict = {}
        self._masks_used = 0
        self._mask_ids = 0

    def _columns(self, n):
        """The answer-major matrix for a set of n candidates, when it is small enough to
        gain by it (built at the first such node)."""
        return answer_major(self.matrix) if n <= COLUMNS_MAX else None

    def _children(self, guess, cands, allowed, depth):
        """``[(set, allowed)]`` of the non-winning feedbacks of ``guess``, and a lower bound
        of each set's total at ``depth``: the memo's or the floor's, or 2m for a set of m
        answers none of which isolates the others (INFEASIBLE if no tree fits). Hard mode:
        only a set of three or more is searched, so only it needs its guesses."""
        children, lows = [], []
        if depth is not None and depth < 2:          # one guess left (or none)
            for code, grp in self.game.split(guess, cands):
                if code != self.win:
                    children.append((grp, None))
                    lows.append(INFEASIBLE if _impossible(len(grp), depth)
                                else lower_bound(len(grp)))
            return children, lows
        memo, floor, win = self.memo, self.floor, self.win
        ordered, codes, starts = self.game.groups(guess, cands)
        flags = self._flags[:len(codes)]
        unisolated(ordered, starts, self.matrix, self.game.answer_to_guess, self._stamps,
                   flags)
        starts = starts.tolist()
        for k, code in enumerate(codes.tolist()):
            if code == win:
                continue
            grp = ordered[starts[k]:starts[k + 1]]
            m = len(grp)
            if m <= 2:
                children.append((grp, None))
                lows.append(lower_bound(m))
                continue
            a = None if allowed is None else self._allowed_after(allowed, guess, code)
            children.append((grp, a))
            key = self._key(grp, a)
            # a set no answer of which isolates the others needs 2m (unisolated)
            low = max(int(floor[m]), 2 * m) if flags[k] else int(floor[m])
            if key in memo:
                low = max(low, self._lookup(key, depth)[0])
            lows.append(low)
        return children, lows

    # -- search -----------------------------------------------------------------------------
    def solve(self, cands: np.ndarray, allowed: np.ndarray | None = None,
              depth: int | None = None, beta: int = INFEASIBLE) -> tuple[int, int, bool]:
        """(total, worst, exact) of the best tree for the sorted answer indices ``cands``
        with at most ``depth`` guesses; when no tree costs less than ``beta``, a lower bound
        ``>= beta`` with exact False instead. No tree within ``depth``: a total of at least
        :data:`INFEASIBLE`."""
        n = len(cands)
        if _impossible(n, depth):
            return INFEASIBLE, INFEASIBLE, False
        if n <= 2:
            return lower_bound(n), n, True
        key = self._key(cands, allowed)
        bound, hit = self._lookup(key, depth)
        if hit is not None:
            return hit.value, hit.worst, True
        if bound >= beta:
            return bound, 0, False
        self.nodes += 1
        entry = self._search(cands, allowed, depth, beta, bound)
        self._store(key, depth, entry)
        return entry.value, entry.worst, entry.exact

    def _order(self, cands, allowed, depth, limit):
        """(guess rows, their lower bounds, least bound left out) in search order: the
        guesses worth trying whose bound is below ``limit`` (all of them with a beam)."""
        return self._split(cands, allowed, depth, limit, self._no_cap)[:3]

    def _split(self, cands, allowed, depth, limit, cap, head=0, beam=None):
        """:meth:`_order`, and each allowed row's number of buckets (or its ``cap``: see
        :func:`~deductive.kernels.search.split_bounds`, and its ``head``); ``beam`` 0
        lifts the search's beam."""
        n = len(cands)
        rows = self._all_rows if allowed is None else getattr(allowed, "rows", None)
        if rows is None:
            rows = np.flatnonzero(allowed).astype(np.int64)
        columns = self._columns(n)
        return split_bounds(self.matrix, self._no_columns if columns is None else columns,
                            columns is not None, rows, cands, self.game.guess_to_answer,
                            self.patterns.n_codes, self.floor, limit,
                            depth is not None and depth == 2,
                            (self.beam or 0) if beam is None else beam, cap,
                            limit + CAP_MARGIN * n // 100, head)

    def _search(self, cands, allowed, depth, beta, known):
        # the parent's bucket counts cap this set's (a subset of its set)
        caps = self._caps
        cap = caps[-1] if caps else self._no_cap
        rows, bounds, cut, buckets = self._split(cands, allowed, depth, beta, cap, SCAN_HEAD)
        caps.append(buckets)
        beyond = None
        if self.beam and depth is not None:
            beyond = lambda: self._split(cands, allowed, depth, beta, self._no_cap,  # noqa: E731
                                         beam=0)[:3]
        try:
            entry = self._scan(cands, allowed, depth, rows.tolist(), bounds.tolist(), cut,
                               beta, known,
                               lambda: self._split(cands, allowed, depth, beta, cap)[:3],
                               beyond)
        finally:
            caps.pop()
        return entry

    def _scan(self, cands, allowed, depth, rows, bounds, cut, beta, known, rest=None,
              beyond=None):
        """The best guess of ``rows`` (in search order, with their ``bounds``; ``cut`` the
        least bound of those left out) if its total is below ``beta``, else a bound.
        ``rows`` may be the head of the list (:data:`SCAN_HEAD`); once it is tried and
        ``cut`` is still below the ceiling, ``rest()`` gives the whole list.

        A beam whose every guess has no tree within the guesses left (``beyond()`` given:
        the whole order below the ceiling, its bounds and the least bound left out) tries
        the next guesses of that order, up to :data:`BEAM_FALLBACK` of them, until as
        many as the beam have improved on the best tree found (the best is kept)."""
        # [best total, its worst case, its guess, least lower bound over the guesses that
        # missed the ceiling]
        found = [INFEASIBLE, 0, -1, INFEASIBLE]
        start = 0
        while True:
            if not self._try(zip(rows[start:], bounds[start:]), cands, allowed, depth, beta,
                             found):   # every guess below the ceiling tried: the next bound
                if rest is not None and cut < min(found[0], beta):
                    start = len(rows)  # the head was not enough: the whole list, past it
                    every, their_bounds, cut = rest()
                    rows, bounds, rest = every.tolist(), their_bounds.tolist(), None
                    continue
                found[3] = min(found[3], cut)
            break
        if beyond is not None and found[0] >= INFEASIBLE and found[3] >= INFEASIBLE:
            # every guess of the beam below INFEASIBLE was tried (a bound that stopped the
            # loop sooner would have made the least bound finite); the rest of the order is new
            tried = set(rows)
            every, their_bounds, cut = beyond()
            rows = [(g, b) for g, b in zip(every.tolist(), their_bounds.tolist())
                    if g not in tried]
            if not self._try(rows[:BEAM_FALLBACK], cands, allowed, depth, beta, found,
                             self.beam):
                # those left out at the ceiling cost at least the least of their bounds
                found[3] = min(found[3], cut)   # (past the cap: not the beam's, as in the beam)
        best, best_worst, choice, failed = found
        if best < beta:
            return _Entry(best, True, best_worst, choice)
        return _Entry(max(known, beta, min(failed, INFEASIBLE)), False)

    def _try(self, guesses, cands, allowed, depth, beta, found, enough=None) -> bool:
        """Try ``guesses`` (``(guess, bound)`` in search order) under the ceiling
        ``min(best, beta)``, updating ``found`` (``[best total, worst, guess, least bound
        of the guesses that missed]``) in place. True when stopped early: at a bound that
        reaches the ceiling, or once ``enough`` guesses have improved on the best."""
        fits = 0
        for guess, bound in guesses:
            limit = min(found[0], beta)
            if bound >= limit:
                found[3] = min(found[3], bound)
                return True
            total, worst, complete = self._guess_total(guess, cands, allowed, depth, limit)
            if complete:
                found[:3] = total, worst, guess
                fits += 1
                if fits == enough:
                    return True
            else:
                found[3] = min(found[3], total)
        return False

    def _guess_total(self, guess, cands, allowed, depth, limit, progress=None):
        """(total, worst, True) of the best trees over ``cands`` that open with ``guess``
        when that total is below ``limit``; else (a lower bound >= limit, 0, False).
        ``progress`` is called with the number of candidates whose subtree is done."""
        child_depth = None if depth is None else depth - 1
        children, lows = self._children(guess, cands, allowed, child_depth)
        running = len(cands) + sum(lows)
        if running >= limit:
            return running, 0, False
        # largest first: the likeliest to pass the ceiling. With no ceiling nothing is cut,
        # and smallest first lets the larger sets meet the smaller ones' memo entries
        # (measured on the exact Bulls and Cows search: README).
        sign = 1 if limit >= INFEASIBLE else -1
        by_size = sorted(range(len(children)), key=lambda i: sign * len(children[i][0]))
        if self.probe:
            running = self._probe(children, lows, by_size, child_depth, limit - running)
            running += len(cands)
            if running >= limit:
                return running, 0, False
        worst, done = 1, len(cands) - sum(len(grp) for grp, _ in children)
        for k in by_size:
            grp, a = children[k]
            running -= lows[k]
            value, sub_worst, exact = self.solve(grp, a, child_depth, limit - running)
            running += value
            if not exact or running >= limit:
                return running, 0, False
            worst = max(worst, 1 + sub_worst)
            if progress is not None:
                done += len(grp)
                progress(done)
        return running, worst, True

    def _probe(self, children, lows, by_size, depth, slack):
        """Raise the children's bounds ``lows`` (in place) towards refuting their guess:
        each child of three or more answers is searched only to its share of ``slack`` (the
        total the guess's bound may still rise before it reaches its ceiling), in
        proportion to its size, largest first; stops once the shares are spent. Returns
        the sum of the new bounds.

        A guess is refuted when its children's bounds add up to its ceiling; a child
        searched with all the slack as its ceiling is mostly solved exactly, whereas
        proving a fraction of the slack for each child costs far less. Bounds are exact
        values or proven ones, so the totals found do not change, only the work."""
        weight = sum(len(children[k][0]) for k in by_size if len(children[k][0]) > 2)
        left = slack
        for k in by_size:
            grp, a = children[k]
            if len(grp) <= 2 or left <= 0:
                continue
            share = -(-slack * len(grp) // weight)
            value, _, _ = self.solve(grp, a, depth, lows[k] + share)
            left -= value - lows[k]
            lows[k] = value
        return sum(lows)

    def best_guess(self, cands: np.ndarray, allowed: np.ndarray | None = None,
                   depth: int | None = None) -> int:
        """First guess of the best tree (of the beam) over ``cands``; -1 if none fits."""
        if len(cands) <= 2:
            return int(self.game.answer_to_guess[cands[0]])
        value, _, exact = self.solve(cands, allowed, depth)
        if not exact:
            return -1
        return self._lookup(self._key(cands, allowed), depth)[1].choice

    # -- results ------------------------------------------------------------------------------
    def opener_total(self, first: int, limit: int = INFEASIBLE,
                     progress: Callable[[int], object] | None = None,
                     least_worst: bool = True) -> tuple[int, int, int | None, bool]:
        """(total, worst, depth, True) of the best trees opening with guess index ``first``
        when that total is below ``limit`` (worst: the least worst case among them, found
        within ``depth`` guesses); else (a lower bound >= limit, 0, None, False).

        With ``least_worst`` False the worst case is not minimised: ``worst`` is that of
        the tree the search found, which may depend on what the memo held, and ``depth``
        the search's own limit (on 12,972 answers, whether tares's least total fits within
        six guesses is a search of its own, open)."""
        game = self.game
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        depth = self.max_guesses
        if self.beam is None:           # cap the first buckets' buckets (the same root
            if self._root_cap is None:  # for every opener: counted once)
                self._root_cap = self._split(cands, allowed, None, 0, self._no_cap)[3]
            self._caps.append(self._root_cap)
        try:
            total, worst, ok = self._guess_total(first, cands, allowed, depth, limit,
                                                 progress)
            if not ok:
                return total, 0, None, False
            if not least_worst:
                return total, worst, depth, True
            # the same total within fewer guesses? (a beam may even find a smaller one
            # there: its fallback tries other guesses; the total is then that tree's)
            while worst > 1:
                t, w, ok = self._guess_total(first, cands, allowed, worst - 1, total + 1)
                if not ok:
                    break
                depth, worst, total = worst - 1, w, t
            return total, worst, depth, True
        finally:
            del self._caps[:]

    def search_opener(self, opener: str | int, keep_tree: bool = False,
                      progress: Callable[[int], object] | None = None) -> SearchResult:
        """Search the best tree that starts with ``opener`` (ties: the smaller worst case).

        ``progress``, if given, is called with the number of answers whose subtree is
        searched (of all the answers), as the opener's buckets are done."""
        game = self.game
        start = time.perf_counter()
        first = game.guess_index(opener)
        total, worst, depth, ok = self.opener_total(first, progress=progress)
        if not ok:
            where = (f"the {self.beam} best guesses per node (`beam` {self.beam}, and up to "
                     f"{BEAM_FALLBACK} more where none fits) give no "
                     if self.beam is not None else "no ")
            fix = "; widen `beam` or raise `max_guesses`" if self.beam is not None else ""
            raise DeductiveError(f"{where}tree opening with {game.word(first)!r} that "
                                 f"solves every answer within {self.max_guesses} guesses{fix}")
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        tree = self.tree(cands, allowed, depth, first) if keep_tree else None
        if tree is not None and self.beam is not None:
            # a beam's memo may have lost entries to its cap and met them again under
            # other ceilings: count the tree exported
            depths = check_tree(game, tree_document(game, tree)).depths
            total, worst = int(depths.sum()), int(depths.max())
        # a beam's tree is a ceiling; the opener's depth-two bound (it holds under
        # max_guesses and in hard mode) is its floor
        lower = int(total) if self.beam is None else int(opener_bounds(game, [first])[0])
        return SearchResult(game.word(first), int(total), int(worst), len(cands),
                            self.beam is None, self.beam, time.perf_counter() - start,
                            self.nodes, tree, lower, max_guesses=self.max_guesses,
                            hard=bool(getattr(game, "hard", False)))

    def tree(self, cands: np.ndarray, allowed: np.ndarray | None = None,
             depth: int | None = None, guess: int | None = None) -> dict[str, Any]:
        """The best tree (of the beam) over ``cands`` within ``depth`` guesses as a root
        node ``{"guess": WORD, "then": {FEEDBACK: NODE}}`` (:mod:`.tree`); ``guess``: its
        first guess, else the best one (:meth:`best_guess`)."""
        game = self.game
        if guess is None:
            guess = self.best_guess(cands, allowed, depth)
        node = {"guess": game.word(guess), "then": {}}
        for code, grp in self.game.split(guess, cands):
            if code == self.win:
                continue
            node["then"][game.format(code)] = self.tree(
                grp, self._allowed_after(allowed, guess, code),
                None if depth is None else depth - 1)
        return node
