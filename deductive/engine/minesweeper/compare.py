"""Two Minesweeper players on the same games, and the paired difference of their win rates.

Game g is the same board for both players (mines seeded ``seed + g``, as in
:func:`~.bench.run_bench`), so the games one wins and the other loses (the discordant
pairs) carry the whole difference; games both win or both lose say nothing about which is
better. Two statistics come from them:

* the **sign test** (exact McNemar): under "no difference" each discordant game is won by
  A or by B with even odds; the two-sided p-value is ``P(X <= min) + P(X >= max)`` for
  ``X ~ Binomial(discordant, 1/2)``, summed in exact integers;
* the **95% interval of the difference** of win rates A - B, Newcombe's hybrid score
  interval for paired proportions (Newcombe 1998, *Statistics in Medicine* 17, 2635-2650,
  method 10): the Wilson intervals of the two win rates, combined with the correlation of
  the pairs.

Both are far narrower than the unpaired intervals of the two win rates, because most games
are won or lost by both players.
"""

from __future__ import annotations

import math
from typing import Any
from dataclasses import dataclass

from .bench import BenchResult, first_move_cell, new_game, play_game, wilson_interval
from .board import parse_preset
from ..._deprecated import OldAsDict

__all__ = ["Comparison", "compare_players", "sign_test", "paired_difference_interval"]


def sign_test(only_a: int, only_b: int) -> float:
    """Two-sided exact sign test (McNemar) of ``only_a`` games won by A alone against
    ``only_b`` won by B alone: the chance of a split at least this uneven if each such game
    went either way with even odds (1.0 when there is none)."""
    n, low = only_a + only_b, min(only_a, only_b)
    if n == 0:
        return 1.0
    tail, term = 0, 1                   # sum of C(n, k) for k <= low, in exact integers
    for k in range(low + 1):
        tail += term
        term = term * (n - k) // (k + 1)
    return min(1.0, 2 * tail / 2 ** n)     # int / int: correctly rounded at any size


def paired_difference_interval(both: int, only_a: int, only_b: int, neither: int,
                               z: float = 1.959963984540054) -> tuple:
    """95% interval of (A's win rate - B's win rate) on the same games: Newcombe's method 10
    (the Wilson intervals of both rates, combined with the phi correlation of the pairs)."""
    n = both + only_a + only_b + neither
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = (both + only_a) / n, (both + only_b) / n
    l1, u1 = wilson_interval(both + only_a, n, z)
    l2, u2 = wilson_interval(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    delta = p1 - p2
    low = delta - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                                + (u2 - p2) ** 2))
    high = delta + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2)
                                 + (p2 - l2) ** 2))
    return (max(-1.0, low), min(1.0, high))


@dataclass(frozen=True)
class Comparison(OldAsDict):
    """Two :class:`~.bench.BenchResult` of the same games (same board, rules and seed)."""

    a: BenchResult
    b: BenchResult

    def __post_init__(self) -> None:
        same = ("board", "first_click", "first_move", "seed")
        if any(getattr(self.a, k) != getattr(self.b, k) for k in same) or \
                self.a.games != self.b.games:
            raise ValueError("a comparison needs two results of the same games")

    def table(self) -> tuple:
        """(both won, only A won, only B won, neither won)."""
        pairs = [(x.won, y.won) for x, y in zip(self.a.records, self.b.records)]
        return (sum(x and y for x, y in pairs), sum(x and not y for x, y in pairs),
                sum(y and not x for x, y in pairs), sum(not x and not y for x, y in pairs))

    def to_json(self) -> dict:
        both, only_a, only_b, neither = self.table()
        lo, hi = paired_difference_interval(both, only_a, only_b, neither)
        games = self.a.games
        seconds = [sum(r.seconds for r in res.records) for res in (self.a, self.b)]
        return {
            "a": self.a.to_json(), "b": self.b.to_json(), "games": games,
            "both_won": both, "only_a_won": only_a, "only_b_won": only_b, "neither_won": neither,
            "difference": round((only_a - only_b) / games, 6) if games else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)],
            "sign_test_p": float(f"{sign_test(only_a, only_b):.4g}"),
            "time_ratio": round(seconds[0] / seconds[1], 4) if seconds[1] else None,
        }


def compare_players(spec: str, a, b, games: int, *, first_click: str = "safe",
                    first_move: str = "corner", seed: int = 1000, progress=None,
                    indices=None) -> Comparison:
    """Play every game with player ``a`` then player ``b`` (each on a fresh copy of the same
    board, each with its own generator seeded as in :func:`~.bench.run_bench`), so both are
    timed under the same load, and return the :class:`Comparison`."""
    rows, cols, mines = parse_preset(spec)
    cell = first_move_cell(rows, cols, first_move)
    records: tuple[list[Any], list[Any]] = ([], [])
    numbers = range(games) if indices is None else indices
    for done, g in enumerate(numbers, start=1):
        for player, kept in zip((a, b), records):
            board, rng = new_game(rows, cols, mines, g, seed=seed, first_click=first_click)
            kept.append(play_game(board, player, rng, cell))
        if progress is not None:
            progress(done)
    args = ((rows, cols, mines), first_click, first_move, seed)
    return Comparison(BenchResult(a.name, *args, records[0]),
                      BenchResult(b.name, *args, records[1]))
