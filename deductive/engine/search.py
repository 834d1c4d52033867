"""Decision-tree search: the tree that minimises the total number of guesses.

``TreeSearch.solve`` is a depth-first search over candidate sets. At a set S of n answers:

* one answer costs 1 guess, two cost 3 (guess one of them);
* a guess that is itself a candidate and splits S into singletons gives the least possible
  cost, 2n - 1; a non-candidate that splits S into singletons gives 2n, which is then
  optimal too (any other guess leaves a pair or worse);
* otherwise the allowed guesses are ordered by a cheap score (the entropy of their split,
  from the compiled integer partition statistics; candidates first on ties, then the lower
  index) and tried in that order: all of them (exact), or the best ``beam`` (heuristic). A
  guess costs n (every answer uses it) plus the cost of each bucket it leaves, and is cut
  off as soon as that sum plus the lower bounds of the buckets still to solve exceeds the
  best found.

Lower bound (admissible, see :func:`lower_bound`, checked against brute force in the
tests): 1 for one answer, 3 for two, 2n - 1 for n >= 3 (at most one answer is found by the
first guess; every other needs at least two).

Ties of total go to the smaller worst case (most guesses for one answer). Solved sets are
memoised by their members (and the guesses still allowed in hard mode, and the depth left
with ``max_guesses``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ..errors import DeductiveError
from .scoring import partition_stats

__all__ = ["TreeSearch", "SearchResult", "lower_bound", "INFEASIBLE"]

INFEASIBLE = (math.inf, math.inf)


def lower_bound(n: int) -> int:
    """Fewest total guesses any tree needs for n candidates (n >= 1)."""
    return 1 if n == 1 else (3 if n == 2 else 2 * n - 1)


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


class TreeSearch:
    """Search decision trees of a :class:`~deductive.engine.game.Wordle` game.

    Parameters
    ----------
    game : Wordle
        Normal or hard mode (hard mode restricts each node's guesses to those allowed).
    beam : int, optional
        Try only the ``beam`` best-scored guesses per node (a heuristic). None: exact.
    max_guesses : int, optional
        Only trees that never need more guesses than this.
    """

    def __init__(self, game, beam: int | None = None, max_guesses: int | None = None):
        if beam is not None and beam < 1:
            raise DeductiveError(f"--beam must be at least 1, not {beam}")
        if max_guesses is not None and max_guesses < 1:
            raise DeductiveError(f"--max-guesses must be at least 1, not {max_guesses}")
        self.game = game
        self.beam = beam
        self.max_guesses = max_guesses
        self.matrix = game.matrix
        self.win = game.win_code
        self.memo: dict = {}
        self.choice: dict = {}
        self.nodes = 0

    # -- search -----------------------------------------------------------------------------
    def _key(self, cands, allowed, depth):
        key = cands.tobytes()
        if allowed is not None:
            key += np.packbits(allowed).tobytes()
        if self.max_guesses is not None:
            key += bytes([depth])
        return key

    def _split(self, guess, cands):
        codes = self.matrix[guess, cands]
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        cuts = np.flatnonzero(np.diff(sorted_codes)) + 1
        groups = np.split(cands[order], cuts)
        keys = sorted_codes[np.concatenate(([0], cuts))]
        return [(int(k), np.sort(g)) for k, g in zip(keys, groups)]

    def _allowed_after(self, allowed, guess, code):
        if allowed is None:
            return None
        from .game import hard_mode_allowed

        game = self.game
        return hard_mode_allowed(game.guesses.codes, game.guess_counts,
                                 game.guesses.codes[guess], code, allowed)

    def solve(self, cands: np.ndarray, allowed=None, depth: int | None = None):
        """(total, worst) of the best tree for the sorted answer indices ``cands``."""
        depth = self.max_guesses if depth is None else depth
        n = len(cands)
        if depth is not None and depth < 1:
            return INFEASIBLE
        if n == 1:
            return (1, 1)
        if n == 2:
            return (3, 2) if depth is None or depth >= 2 else INFEASIBLE
        key = self._key(cands, allowed, depth)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        result = self._search(cands, allowed, depth, key)
        self.memo[key] = result
        return result

    def _search(self, cands, allowed, depth, key):
        game = self.game
        n = len(cands)
        rows = (np.arange(self.matrix.shape[0], dtype=np.int64) if allowed is None
                else np.flatnonzero(allowed).astype(np.int64))
        stats = partition_stats(self.matrix, cands, rows)
        is_cand = game.is_candidate(cands, rows)
        if depth is None or depth >= 2:
            perfect = stats.buckets == n
            if (perfect & is_cand).any():
                self.choice[key] = int(rows[perfect & is_cand][0])
                return (2 * n - 1, 2)
            if perfect.any():
                self.choice[key] = int(rows[perfect][0])
                return (2 * n, 2)
        useful = (stats.buckets > 1) | is_cand
        order = np.lexsort((rows, ~is_cand, stats.xlogx_sum))
        order = order[useful[order]]
        if self.beam is not None:
            order = order[:self.beam]
        best = INFEASIBLE
        for j in order:
            guess = int(rows[j])
            children = [(code, grp) for code, grp in self._split(guess, cands)
                        if code != self.win]
            rest = sum(lower_bound(len(grp)) for _, grp in children)
            if n + rest > best[0]:
                continue
            total, worst = n, 1
            complete = True
            for code, grp in sorted(children, key=lambda item: -len(item[1])):
                rest -= lower_bound(len(grp))
                sub = self.solve(grp, self._allowed_after(allowed, guess, code),
                                 None if depth is None else depth - 1)
                total += sub[0]
                worst = max(worst, 1 + sub[1])
                if total + rest > best[0]:
                    complete = False
                    break
            if complete and (total, worst) < best:
                best = (total, worst)
                self.choice[key] = guess
        return best

    # -- results ------------------------------------------------------------------------------
    def search_opener(self, opener, keep_tree: bool = False) -> SearchResult:
        """Search the best tree that starts with ``opener``."""
        game = self.game
        start = time.perf_counter()
        first = game.guess_index(opener)
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        depth = self.max_guesses
        if depth is not None and depth < 1:
            raise DeductiveError("--max-guesses must be at least 1")
        total, worst = len(cands), 1
        for code, grp in self._split(first, cands):
            if code == self.win:
                continue
            sub = self.solve(grp, self._allowed_after(allowed, first, code),
                             None if depth is None else depth - 1)
            total += sub[0]
            worst = max(worst, 1 + sub[1])
        if math.isinf(total):
            raise DeductiveError(f"no tree opening with {game.guesses[first]!r} solves every "
                                 f"answer within {depth} guesses")
        tree = self._tree(cands, allowed, depth, first) if keep_tree else None
        return SearchResult(game.guesses[first], int(total), int(worst), len(cands),
                            self.beam is None, self.beam, time.perf_counter() - start,
                            self.nodes, tree)

    def _tree(self, cands, allowed, depth, guess=None):
        game = self.game
        if guess is None:
            if len(cands) <= 2:
                guess = int(game.answer_to_guess[cands[0]])
            else:
                guess = self.choice[self._key(cands, allowed, depth)]
        node = {"guess": game.guesses[guess], "then": {}}
        for code, grp in self._split(guess, cands):
            if code == self.win:
                continue
            node["then"][game.format(code)] = self._tree(
                grp, self._allowed_after(allowed, guess, code),
                None if depth is None else depth - 1)
        return node

