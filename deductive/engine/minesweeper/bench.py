"""Minesweeper games and win-rate benchmarks with reproducible seeds.

Game g of a benchmark with seed S places its mines with seed S + g and gives the player a
generator seeded with S + 1000 + g: the original programs' protocol (boards 1000 + g,
player 2000 + g) is seed 1000 (:func:`original_protocol`). One game loop (:func:`moves`) serves
the benchmarks, their Dask chunks (:func:`bench_chunk`) and the step-by-step session
(:class:`deductive.engine.minesweeper.session.MinesSession`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import DeductiveError
from ..params import Param
from ..stats import wilson_interval
from .board import Board, parse_preset
from .players import make_player
from ..._deprecated import OldAsDict

__all__ = ["GameRecord", "BenchResult", "new_game", "moves", "play_game", "run_bench",
           "bench_chunk", "original_protocol", "ORIGINAL_STRATEGIES", "first_move_cell",
           "first_move_name", "wilson_interval", "FIRST_MOVES", "ProtocolTable"]

#: The named first moves; any cell is ``"R,C"`` (from 1).
FIRST_MOVES = ("corner", "centre")


@dataclass
class GameRecord:
    won: bool
    decisions: dict
    guesses: int
    seconds: float

    def as_row(self) -> list:
        """``[won, decisions, guesses, seconds]``: what a chunk sends back (JSON-ready)."""
        return [self.won, self.decisions, self.guesses, self.seconds]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> "GameRecord":
        won, decisions, guesses, seconds = row
        return cls(bool(won), dict(decisions), int(guesses), float(seconds))


@dataclass
class BenchResult(OldAsDict):
    player: str
    board: tuple
    first_click: str
    first_move: str
    seed: int
    records: list = field(repr=False)

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.records)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple:
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict:
        decisions: dict = {}
        for r in self.records:
            for k, v in r.decisions.items():
                decisions[k] = decisions.get(k, 0) + v
        lo, hi = self.interval
        seconds = sum(r.seconds for r in self.records)
        rows, cols, mines = self.board
        return {
            "player": self.player, "rows": rows, "cols": cols, "mines": mines,
            "first_click": self.first_click, "first_move": self.first_move, "seed": self.seed,
            "games": self.games, "wins": self.wins, "win_rate": round(self.win_rate, 6),
            "ci95": [round(lo, 6), round(hi, 6)],
            "guesses_per_game": round(sum(r.guesses for r in self.records) / max(1, self.games), 4),
            "seconds_per_game": round(seconds / max(1, self.games), 6),
            "decisions": decisions,
        }


def first_move_cell(rows: int, cols: int, how: str) -> int:
    """The flat index of the first click: ``corner`` (row 1, column 1), ``centre`` (row
    ``rows // 2 + 1``, column ``cols // 2 + 1``) or ``"R,C"``, a row and a column counted
    from 1 as everywhere in this wing. D. Hill's "(3,3)" opening counts from 0: ``"4,4"``."""
    how = str(how).strip()
    if how == "corner":
        return 0
    if how in ("centre", "center"):
        return (rows // 2) * cols + cols // 2
    match = re.fullmatch(r"(\d+)\s*,\s*(\d+)", how)
    if not match:
        raise DeductiveError(f"`first_move` {how!r} is not corner, centre or ROW,COL (from 1, "
                             "e.g. 4,4)")
    r, c = int(match[1]), int(match[2])
    if not (1 <= r <= rows and 1 <= c <= cols):
        raise DeductiveError(f"`first_move` {how!r} is off the {rows}x{cols} board; rows go "
                             f"from 1 to {rows}, columns from 1 to {cols}")
    return (r - 1) * cols + (c - 1)


def first_move_name(how: str) -> str:
    """How reports name a first move: ``the corner``, ``the centre``, ``row 4, column 4``."""
    how = str(how).strip()
    if how in ("corner", "centre", "center"):
        return f"the {how}"
    r, c = (int(x) for x in how.split(","))
    return f"row {r}, column {c}"


def new_game(rows: int, cols: int, mines: int, game: int, *, seed: int = 1000,
             first_click: str = "safe"):
    """Game number ``game`` of a benchmark seeded ``seed``: (board, the player's generator)."""
    board = Board(rows, cols, mines, seed=seed + game, first_click=first_click)
    return board, np.random.default_rng(seed + 1000 + game)


def moves(board: Board, player, rng, max_steps: int = 100_000):
    """The game loop: until the game is over, the player decides on the position it sees and
    its move is played. Yields (that position, the move) after each move."""
    steps = 0
    while not board.over:
        steps += 1
        if steps > max_steps:
            raise DeductiveError("a game made no progress; this is a bug in the player")
        position = board.position()
        move = player.decide(position, rng)
        board.apply(move)
        yield position, move


def play_game(board: Board, player, rng, first_cell: int, max_steps: int = 100_000) -> GameRecord:
    """Play one game to the end; count decisions by kind (cells revealed or flagged)."""
    start = time.perf_counter()
    decisions = {"rules": 0, "forced": 0, "guess": 0}
    board.click(first_cell)
    for _, move in moves(board, player, rng, max_steps):
        decisions[move.kind] += len(move.reveal) + len(move.flag)
    return GameRecord(board.won, decisions, decisions["guess"], time.perf_counter() - start)


#: The games :func:`run_bench` plays: the board, the first click's rule, the seeds and the
#: first move; and ``games``, how many.
GAMES = (
    Param("preset", "expert", "beginner (9x9/10), beginner8 (8x8/10), intermediate (16x16/40), "
          "expert (16x30/99), or ROWSxCOLS/MINES."),
    Param("first_click", "safe", "safe: the first cell is no mine (classic); zero: it opens a 0 "
          "(modern); none: mines placed before the click.", ("safe", "zero", "none")),
    Param("seed", 1000, "Game g: mines seeded S+g, player S+1000+g.", int, low=0),
    Param("first_move", "corner", "corner, centre, or ROW,COL counted from 1. Hill's modern "
          "start \"(3,3)\" counts from 0: `first_move` 4,4.", metavar="WHERE"))
N_GAMES = Param("games", 1000, type=int, low=1)
#: Where a benchmark on Dask keeps its finished chunks.
CHECKPOINT = Param("checkpoint", None, "With Dask: append finished chunks here, and skip them "
                   "when rerun.", kind="output")


def run_bench(spec: str, player, games: int, *, first_click: str = "safe",
              first_move: str = "corner", seed: int = 1000, progress=None,
              indices=None) -> BenchResult:
    """Play ``games`` games (or the game numbers in ``indices``) with reproducible seeds."""
    rows, cols, mines = parse_preset(spec)
    cell = first_move_cell(rows, cols, first_move)
    records = []
    numbers = range(games) if indices is None else indices
    for done, g in enumerate(numbers, start=1):
        board, rng = new_game(rows, cols, mines, g, seed=seed, first_click=first_click)
        records.append(play_game(board, player, rng, cell))
        if progress is not None:
            progress(done)
    return BenchResult(player.name, (rows, cols, mines), first_click, first_move, seed, records)


def bench_chunk(chunk, spec: str, player_name: str, first_click: str = "safe",
                first_move: str = "corner", seed: int = 1000) -> list:
    """Games ``lo <= g < hi`` (``chunk = (lo, hi)``) of a benchmark, one
    :meth:`GameRecord.as_row` each: the unit of work of a sweep on Dask
    (:func:`deductive.distributed.mines_bench`)."""
    lo, hi = chunk
    result = run_bench(spec, make_player(player_name), 0, first_click=first_click,
                       first_move=first_move, seed=seed, indices=range(lo, hi))
    return [record.as_row() for record in result.records]


#: The original programs' three strategies, as players, with their labels.
ORIGINAL_STRATEGIES = {"rules-random": "rules + random", "csp-random": "rules + CSP + random",
                       "least-risk": "rules + CSP + probabilities"}


def original_protocol(games: int = 50) -> ProtocolTable:
    """The original programs' table: each of their strategies on their protocol (8x8 with 10
    mines, first click at the centre opening a 0, boards seeded 1000 + g, players 2000 + g).
    One :meth:`BenchResult.to_json` per strategy, with its label under ``strategy``."""
    rows = []
    for name, label in ORIGINAL_STRATEGIES.items():
        result = run_bench("beginner8", make_player(name), games, first_click="zero",
                           first_move="centre", seed=1000)
        rows.append({"strategy": label, **result.to_json()})
    return ProtocolTable(rows, games)


@dataclass(frozen=True)
class ProtocolTable:
    """:func:`original_protocol`'s rows (one per strategy) over ``games`` games."""

    rows: list
    games: int

    def to_json(self) -> list:
        """The rows: the form ``seed-protocol --json`` prints."""
        return self.rows
