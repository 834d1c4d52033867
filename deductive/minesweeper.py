"""Minesweeper through one door: the games of a board, exact mine probabilities of a
position, a player's next move, win-rate benchmarks and a game step by step.

The verbs are those of every game's facade (:mod:`deductive.wordle`) that Minesweeper
has: :func:`game`, :func:`best_move`, :func:`bench` and :func:`session`; its exact
computation is :func:`probabilities` (the exact mine probability of every cell, and the
forced cells). It has no decision tree to search or check. Results are typed objects
with ``to_json()``.

>>> from deductive import minesweeper
>>> p = minesweeper.position("xxx\\nx1x\\nxxx", mines=1)
>>> float(minesweeper.probabilities(p).probabilities[0])
0.125
>>> minesweeper.best_move(p, "least-risk").kind
'guess'
"""

from __future__ import annotations

import numpy as np

from .engine.minesweeper.analysis import Analysis, CountingBudgetError, analyze
from .engine.minesweeper.bench import BenchResult, GameRecord
from .engine.minesweeper.board import (FIRST_CLICK_RULES, PRESETS, Board, Position,
                                       PositionError)
from .engine.minesweeper.compare import Comparison
from .engine.minesweeper.game import Minesweeper
from .engine.minesweeper.players import PLAYERS, Move, Player, make_player
from .engine.minesweeper.session import MinesSession, Step

__all__ = ["game", "position", "probabilities", "best_move", "bench", "session",
           "Minesweeper", "Board", "Position", "PositionError", "PRESETS", "FIRST_CLICK_RULES",
           "Analysis", "CountingBudgetError", "PLAYERS", "Player", "Move", "make_player",
           "BenchResult", "GameRecord", "Comparison", "MinesSession", "Step"]


def game(preset: str = "expert", *, first_click: str = "safe", first_move: str = "corner",
         seed: int = 1000) -> Minesweeper:
    """The games of a board: a preset (``beginner``, ``beginner8``, ``intermediate``,
    ``expert``) or ``ROWSxCOLS/MINES``; ``first_click`` (``safe``, ``zero``, ``none``),
    ``first_move`` (``corner``, ``centre``, ``"R,C"``) and ``seed`` (game g: mines seeded
    ``seed + g``) as in the benchmarks. ``Minesweeper(rows, cols, mines)`` makes one from
    sizes."""
    return Minesweeper.preset(preset, first_click=first_click, first_move=first_move,
                              seed=seed)


def position(text: str, mines: int) -> Position:
    """A position from its text form: one line per row, ``x`` covered, ``0``-``8`` or ``.``
    revealed, ``*`` or ``F`` flagged; ``mines`` is the board's total."""
    return Position.parse(text, mines)


def probabilities(position: Position, *, max_memory: int | None = None) -> Analysis:
    """The exact mine probability of every covered cell (honouring the mine total), the
    cells safe or mines in every arrangement, and the count of arrangements."""
    return analyze(position, max_memory=max_memory)


def best_move(position: Position, player: str | Player = "best", *, seed: int = 0) -> Move:
    """The move ``player`` makes in ``position`` (its random choices drawn with
    ``seed``): the cells to reveal and to flag, and why."""
    made = make_player(player) if isinstance(player, str) else player
    return made.decide(position, np.random.default_rng(seed))


def bench(game: Minesweeper, player: str | Player = "best", games: int = 100) -> BenchResult:
    """Games ``0 .. games - 1`` of ``game`` played by ``player``: the win rate and its 95%
    interval (``to_json()``)."""
    return game.bench(player, games)


def session(game: Minesweeper, player: str | Player = "best", number: int = 0) -> MinesSession:
    """Game ``number`` of ``game`` step by step: :meth:`~MinesSession.steps` yields each
    :class:`Step`."""
    return game.session(player, number)
