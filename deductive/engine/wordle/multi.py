"""Multi-board Wordle (Dordle, Quordle, any k): one guess on k boards at once.

Each board hides its own answer (the k answers of a game are distinct, drawn uniformly);
a guess gets one feedback per board still unsolved, so the feedback of a guess is the
tuple of the boards' codes and the boards' candidate sets shrink independently. A game
allows ``k + 5`` guesses (Dordle 7, Quordle 9) and is won when every board is solved
within them.

The entropy solver scores a guess by the entropy of that tuple over the product of the
boards' candidate sets, which is the sum of its entropies on each board (the boards are
independent). Board-finishing rule: a board whose answer is known (one candidate) is
played at once, the lowest board first. Ties: the larger sum; then a guess that is a
candidate of some board; then the lower index (sums are compared rounded to 1e-9
bits, so that sums equal but for rounding tie). Entropies of a candidate set are kept
while a run lasts (the sets after the opener recur in most games).
"""

from __future__ import annotations

import time
from typing import Any
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ...errors import ArgumentError
from ..feedback.matrix import answer_major
from ..feedback.scoring import COLUMNS_MAX, partition_stats
from ..params import Param
from ..._deprecated import OldAsDict
from ..stats import wilson_interval

__all__ = ["MultiBoard", "MultiResult", "wilson_interval", "multi_chunk"]


@dataclass
class MultiResult(OldAsDict):
    boards: int
    limit: int
    guesses: np.ndarray       # guesses each game needed to solve every board
    seconds: float

    @property
    def wins(self) -> int:
        return int((self.guesses <= self.limit).sum())

    def to_json(self) -> dict:
        """The win rate with its 95% interval, the guesses and their distribution: the form
        ``--json`` prints."""
        n, g = len(self.guesses), self.guesses
        low, high = wilson_interval(self.wins, n)
        return {"boards": self.boards, "games": n, "limit": self.limit,
                "win_rate": round(self.wins / n, 6) if n else 0.0,
                "win_rate_95": [round(low, 6), round(high, 6)], "total": int(g.sum()),
                "average": round(float(g.mean()), 6) if n else 0.0,
                "worst": int(g.max()) if n else 0,
                "distribution": {str(k): int((g == k).sum()) for k in range(1, int(g.max()) + 1)}
                if n else {}, "seconds": round(self.seconds, 3)}


#: :class:`MultiBoard`'s ``boards`` and :meth:`MultiBoard.run`'s ``games`` and ``seed``.
MULTI = (Param("boards", 4, "Boards per game (2 Dordle, 4 Quordle); k + 5 guesses allowed.",
               int, low=1),
         Param("games", 1000, type=int, low=1),
         Param("seed", 0, "Game i draws its answers from the generator (seed, i).", int, low=0))


class MultiBoard:
    """k boards of a Wordle game played with one guess each turn.

    Parameters
    ----------
    game : Wordle
        Lists and pattern matrix (every board uses them).
    boards : int
        Number of boards (1 or more, at most the number of answers).
    cache_size : int
        Candidate sets whose entropies are kept (each costs 8 bytes per guess).
    """

    def __init__(self, game, boards: int, cache_size: int = 4096):
        if not 1 <= boards <= len(game.answers):
            raise ArgumentError(f"`boards` {boards}: give 1 to {len(game.answers)} boards")
        self.game, self.boards, self.limit = game, boards, boards + 5
        self._cache: OrderedDict = OrderedDict()
        self._cache_size = cache_size
        self._is_answer = game.guess_to_answer >= 0

    def _entropy(self, cands: np.ndarray) -> np.ndarray:
        key = cands.tobytes()
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        columns = answer_major(self.game.matrix) if len(cands) <= COLUMNS_MAX else None
        value = partition_stats(self.game.patterns, cands, columns=columns).entropy
        self._cache[key] = value
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return value

    def choose(self, boards: list) -> int:
        """The entropy solver's guess for the candidate sets of the unsolved boards."""
        for cands in boards:
            if len(cands) == 1:
                return int(self.game.answer_to_guess[cands[0]])
        # rounded: equal sums reached in another order tie, whatever the last bits
        score = np.round(sum(self._entropy(c) for c in boards), 9)
        best = np.flatnonzero(score == score.max())
        if len(best) > 1:
            listed = np.zeros(len(self.game.guesses), bool)
            for cands in boards:
                listed[self.game.answer_to_guess[cands]] = True
            if listed[best].any():
                best = best[listed[best]]
        return int(best[0])

    def play(self, answers) -> list[tuple[int, tuple]]:
        """One game against answer indices ``answers``: ``[(guess, codes of the boards
        unsolved before it)]`` until every board is solved."""
        matrix, win = self.game.matrix, self.game.win_code
        every = np.arange(len(self.game.answers), dtype=np.int64)
        boards = {k: every for k in range(len(answers))}
        moves: list[Any] = []
        while boards:
            if len(moves) > 100:
                raise ArgumentError("a game ran past 100 guesses")   # cannot happen
            g = self.choose(list(boards.values()))
            codes = tuple(int(matrix[g, answers[k]]) for k in boards)
            moves.append((g, codes))
            for (k, cands), code in zip(list(boards.items()), codes):
                if code == win:
                    del boards[k]
                else:
                    boards[k] = cands[matrix[g, cands] == code]
        return moves

    def draw(self, games: int, seed: int) -> np.ndarray:
        """``games`` x boards answer indices, distinct within a game, seeded per game."""
        n = len(self.game.answers)
        return np.array([np.random.default_rng([seed, i]).choice(n, self.boards, replace=False)
                         for i in range(games)], dtype=np.int64).reshape(games, self.boards)

    def run(self, games: int, seed: int = 0, progress=None) -> MultiResult:
        """Play ``games`` random games (game i draws from the generator ``(seed, i)``)."""
        if games < 1:
            raise ArgumentError(f"`games` {games}: give at least 1 game")
        start = time.perf_counter()
        guesses = multi_chunk(self, (0, games), seed, progress)
        return MultiResult(self.boards, self.limit, np.array(guesses, np.int64),
                           time.perf_counter() - start)


def multi_chunk(multi: MultiBoard, chunk: tuple[int, int], seed: int, progress=None) -> list:
    """Guesses of games ``chunk = (lo, hi)`` of a seeded run (a sweep's piece of
    :meth:`MultiBoard.run`; game i's answers depend only on ``(seed, i)``)."""
    lo, hi = chunk
    rows = multi.draw(hi, seed)[lo:]
    out = []
    for k, answers in enumerate(rows):
        out.append(len(multi.play(answers.tolist())))
        if progress is not None:
            progress(k + 1)
    return out
