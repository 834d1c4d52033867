"""Decision-tree search: the tree that minimises the total number of guesses.

``TreeSearch`` is a depth-first branch and bound over candidate sets with memoisation. The
total of a tree over a set S of n answers is n (every answer uses the first guess) plus the
totals of the subtrees of the non-green buckets.

Lower bounds (admissible, checked against brute force in the tests):

* :func:`lower_bound`: 1 for one answer, 3 for two, 2n - 1 for n >= 3 (at most one answer
  is found by the first guess; every other needs at least two).
* :func:`guess_lower_bound`: a guess g that splits S into b buckets (the green one
  included) costs at least ``n + sum(2|B| - 1)`` over its non-green buckets B, that is
  ``3n - [g in S] - b``, since each bucket costs at least ``2|B| - 1`` (exactly so for
  buckets of one or two answers). It is tight when g splits S into buckets of at most two
  answers. Every guess is tried in the order of this bound, so the search stops at the
  first guess whose bound reaches the best total found.

The search at a set S with a ceiling ``beta`` (only a total below it is of use to the
caller):

1. every allowed guess is scored, bounded, filtered and ordered in one compiled call
   (:func:`deductive.kernels.search.split_bounds`: number of buckets, sum of squared
   bucket sizes); only the guesses whose bound is below ``beta`` come back, with the least
   bound left out (a lower bound of the set if none of them succeeds);
2. guesses are tried in the order of their lower bound, then the smaller sum of squared
   bucket sizes (expected size), then the lower guess index; the loop stops at the first
   guess whose bound reaches the best total found (or ``beta``), so no later guess can be
   better;
3. each bucket is searched, largest first, with the ceiling left over once the others'
   lower bounds are counted; a subtree that cannot come in under its ceiling returns a
   lower bound instead of a value, and the guess is dropped.

Memoised results are exact values (with the chosen guess) or proven lower bounds, keyed by
the set's members (and, in hard mode, the guesses still allowed) and the depth left. A
lower bound is reused as a child's bound and as a cut-off when the set is met again.

With ``beam=K`` only the K first guesses of that order are tried at each node: a fast
heuristic. Its values are those of the best tree among the guesses tried, so the search
stays consistent (a memoised beam value is the same whichever path reaches the set).

Ties. Among guesses of equal total the first in the order above is kept. The search
result then minimises the worst case among trees of that total: once the least total T is
known, the search is repeated with ``max_guesses`` one below the worst case found and
ceiling T + 1, until no tree of total T fits (the depth-unlimited results serve as lower
bounds, so these passes are short).
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass

import numpy as np

from ...errors import ArgumentError, DeductiveError
from .matrix import answer_major
from ...kernels.search import split_bounds
from .scoring import COLUMNS_MAX

__all__ = ["TreeSearch", "SearchResult", "lower_bound", "guess_lower_bound", "INFEASIBLE",
           "search_openers", "rank_openers", "search_tag", "search_opener_chunk"]

#: Total reported for a set no tree solves within the guesses left (larger than any real
#: total; a lower bound of at least this much means the same).
INFEASIBLE = 1 << 60


def lower_bound(n: int) -> int:
    """Fewest total guesses any tree needs for n candidates (n >= 1): 1, 3, then 2n - 1."""
    return 2 * n - 1


def _impossible(n: int, depth: int | None) -> bool:
    """Whether no tree solves n candidates within ``depth`` guesses (None: no limit)."""
    return depth is not None and (depth < 1 or (n >= 2 and depth < 2))


def guess_lower_bound(n: int, buckets, in_set):
    """Fewest total guesses of a tree over n candidates that starts with a guess leaving
    ``buckets`` non-empty buckets (green included) and ``in_set`` (whether the guess is a
    candidate): ``3n - in_set - buckets``. Works elementwise on arrays."""
    return 3 * n - np.asarray(in_set, dtype=np.int64) - np.asarray(buckets, dtype=np.int64)


@dataclass
class SearchResult:
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

    @property
    def average(self) -> float:
        return self.total / self.answers

    def as_dict(self) -> dict:
        return {"word": self.opener, "total": self.total, "average": round(self.average, 6),
                "worst": self.worst, "exact": self.exact, "beam": self.beam,
                "seconds": round(self.seconds, 3), "nodes": self.nodes}


@dataclass
class _Entry:
    value: int          # exact total, or a proven lower bound
    exact: bool
    worst: int = 0      # worst case of the tree found (exact entries)
    choice: int = -1    # its first guess (exact entries)


class TreeSearch:
    """Search decision trees of a feedback game (:class:`~.game.FeedbackGame`).

    Parameters
    ----------
    game : FeedbackGame
        Normal or hard mode (hard mode restricts each node's guesses to those allowed).
    beam : int, optional
        Try only the ``beam`` first guesses of the search order per node (a heuristic).
        None: exact.
    max_guesses : int, optional
        Only trees that never need more guesses than this.
    """

    def __init__(self, game, beam: int | None = None, max_guesses: int | None = None):
        if beam is not None and beam < 1:
            raise ArgumentError(f"beam must be at least 1, not {beam}")
        if max_guesses is not None and max_guesses < 1:
            raise ArgumentError(f"max_guesses must be at least 1, not {max_guesses}")
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
        self._no_columns = np.empty((0, 0), self.matrix.dtype)

    def _columns(self, n):
        """The answer-major matrix for a set of n candidates, when it is small enough to
        gain by it (built at the first such node)."""
        return answer_major(self.matrix) if n <= COLUMNS_MAX else None

    # -- keys and splits -------------------------------------------------------------------
    @staticmethod
    def _key(cands, allowed):
        key = cands.tobytes()
        if allowed is not None:
            key += np.packbits(allowed).tobytes()
        return key

    # -- memo ---------------------------------------------------------------------------------
    def _lookup(self, key, depth):
        """(best lower bound, exact entry or None) known for the set at ``depth`` left.

        A tree within d guesses is also one within more, so an entry searched with d >= depth
        left (or unlimited) bounds the set from below, and settles it when its tree fits."""
        bound = 0
        for d, entry in self.memo.get(key, {}).items():
            if d is None or (depth is not None and d >= depth):
                if entry.exact and (depth is None or entry.worst <= depth):
                    return entry.value, entry
                bound = max(bound, entry.value)
        return bound, None

    def _child_bound(self, cands, allowed, depth):
        n = len(cands)
        if _impossible(n, depth):
            return INFEASIBLE
        if n <= 2:
            return lower_bound(n)
        bound, _ = self._lookup(self._key(cands, allowed), depth)
        return max(bound, lower_bound(n))

    # -- search -----------------------------------------------------------------------------
    def solve(self, cands: np.ndarray, allowed=None, depth: int | None = None,
              beta: int = INFEASIBLE) -> tuple[int, int, bool]:
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
        self.memo.setdefault(key, {})[depth] = entry
        return entry.value, entry.worst, entry.exact

    def _order(self, cands, allowed, depth, limit):
        """(guess rows, their lower bounds, least bound left out) in search order: the
        guesses worth trying whose bound is below ``limit`` (all of them with a beam)."""
        n = len(cands)
        rows = self._all_rows if allowed is None else np.flatnonzero(allowed).astype(np.int64)
        columns = self._columns(n)
        return split_bounds(self.matrix, self._no_columns if columns is None else columns,
                            columns is not None, rows, cands, self.game.guess_to_answer,
                            self.patterns.n_codes, limit, depth is not None and depth == 2,
                            self.beam or 0)

    def _search(self, cands, allowed, depth, beta, known):
        rows, bounds, cut = self._order(cands, allowed, depth, beta)
        best, best_worst, choice = INFEASIBLE, 0, -1
        failed = INFEASIBLE            # least lower bound over the guesses that missed the ceiling
        for guess, bound in zip(rows.tolist(), bounds.tolist()):
            limit = min(best, beta)
            if bound >= limit:
                failed = min(failed, bound)
                break
            total, worst, complete = self._guess_total(guess, cands, allowed, depth, limit)
            if complete:
                best, best_worst, choice = total, worst, guess
            else:
                failed = min(failed, total)
        else:                          # every guess below the ceiling tried: the next bound
            failed = min(failed, cut)
        if best < beta:
            return _Entry(best, True, best_worst, choice)
        return _Entry(max(known, beta, min(failed, INFEASIBLE)), False)

    def _guess_total(self, guess, cands, allowed, depth, limit, progress=None):
        """(total, worst, True) of the best trees over ``cands`` that open with ``guess``
        when that total is below ``limit``; else (a lower bound >= limit, 0, False).
        ``progress`` is called with the number of candidates whose subtree is done."""
        child_depth = None if depth is None else depth - 1
        # hard mode: only a set of three or more is searched, so only it needs its guesses
        children = [(grp, self.game.allowed_after(allowed, guess, code) if len(grp) > 2 else None)
                    for code, grp in self.game.split(guess, cands) if code != self.win]
        lows = [self._child_bound(grp, a, child_depth) for grp, a in children]
        running = len(cands) + sum(lows)
        if running >= limit:
            return running, 0, False
        worst, done = 1, len(cands) - sum(len(grp) for grp, _ in children)
        for k in sorted(range(len(children)), key=lambda i: -len(children[i][0])):
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

    def best_guess(self, cands: np.ndarray, allowed=None, depth: int | None = None) -> int:
        """First guess of the best tree (of the beam) over ``cands``; -1 if none fits."""
        if len(cands) <= 2:
            return int(self.game.answer_to_guess[cands[0]])
        value, _, exact = self.solve(cands, allowed, depth)
        if not exact:
            return -1
        return self._lookup(self._key(cands, allowed), depth)[1].choice

    # -- results ------------------------------------------------------------------------------
    def search_opener(self, opener, keep_tree: bool = False, progress=None) -> SearchResult:
        """Search the best tree that starts with ``opener`` (ties: the smaller worst case).

        ``progress``, if given, is called with the number of answers whose subtree is
        searched (of all the answers), as the opener's buckets are done."""
        game = self.game
        start = time.perf_counter()
        first = game.guess_index(opener)
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        depth = self.max_guesses
        total, worst, ok = self._guess_total(first, cands, allowed, depth, INFEASIBLE, progress)
        if not ok:
            where = (f"the {self.beam} best guesses per node (beam={self.beam}) give no "
                     if self.beam is not None else "no ")
            fix = "; widen the beam or raise max_guesses" if self.beam is not None else ""
            raise DeductiveError(f"{where}tree opening with {game.word(first)!r} that "
                                 f"solves every answer within {depth} guesses{fix}")
        # the same total within fewer guesses?
        while worst > 1:
            _, w, ok = self._guess_total(first, cands, allowed, worst - 1, total + 1)
            if not ok:
                break
            depth, worst = worst - 1, w
        tree = self._tree(cands, allowed, depth, first) if keep_tree else None
        return SearchResult(game.word(first), int(total), int(worst), len(cands),
                            self.beam is None, self.beam, time.perf_counter() - start,
                            self.nodes, tree)

    def _tree(self, cands, allowed, depth, guess=None):
        game = self.game
        if guess is None:
            guess = self.best_guess(cands, allowed, depth)
        node = {"guess": game.word(guess), "then": {}}
        for code, grp in self.game.split(guess, cands):
            if code == self.win:
                continue
            node["then"][game.format(code)] = self._tree(
                grp, self.game.allowed_after(allowed, guess, code),
                None if depth is None else depth - 1)
        return node


def search_tag(game, beam, max_guesses) -> dict:
    """The checkpoint tag of an openers search (one entry per opener, keyed by the word),
    in one process or on Dask: the search's settings and the game's identity."""
    identity = game.identity()
    return {"beam": beam, "hard": game.hard, "max_guesses": max_guesses,
            "guesses": identity.get("guesses_sha256"), "answers": identity.get("answers_sha256")}


def search_openers(game, words, *, beam=None, max_guesses=None, checkpoint=None,
                   progress=None) -> list[dict]:
    """Searched totals of several openers (one :class:`TreeSearch` shares its memo among
    them), as ``SearchResult.as_dict()`` rows in the order given. With ``checkpoint`` (a
    path), each finished opener is appended there and a rerun skips those already there."""
    from ...checkpoint import Checkpoint

    searcher = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    store = Checkpoint(checkpoint, search_tag(game, beam, max_guesses))
    done = store.load()
    rows = []
    for k, word in enumerate(words, start=1):
        if word not in done:
            done[word] = searcher.search_opener(word).as_dict()
            store.append(word, done[word])
        rows.append(done[word])
        if progress is not None:
            progress(k)
    return rows


def rank_openers(rows: list[dict], order: list) -> list[dict]:
    """Rows of :func:`search_openers`, best first: total, then worst case, then their
    place in ``order`` (the entropy ranking the openers were taken from)."""
    place = {word: k for k, word in enumerate(order)}
    return sorted(rows, key=lambda r: (r["total"], r["worst"], place[r["word"]]))


#: In a worker: game -> {(beam, max_guesses): memo of the searches of that game}. The
#: openers a worker searches share one memo, as they do in one process; the scattered game
#: is the same object for every task, and its memos go when it does (a memo holds no
#: reference to its game).
_MEMOS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def search_opener_chunk(word, game, beam, max_guesses) -> dict:
    """One opener's row, for a sweep on several processes (a memo per game and settings)."""
    search = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    search.memo = _MEMOS.setdefault(game, {}).setdefault((beam, max_guesses), search.memo)
    return search.search_opener(word).as_dict()
