"""The rules of a series of Minesweeper games: the board's size and mines, the rule of the
first click, where it is made, and the seed that numbers the games.

:class:`Minesweeper` is what the other wings' game classes are to their games: the one
object a benchmark (:func:`~.bench.run_bench`) and a session (:class:`~.session.MinesSession`)
are made from, checked when it is made.

>>> game = Minesweeper.preset("beginner")
>>> game.spec, game.to_json()["mines"]
('9x9/10', 10)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ...errors import DeductiveError
from .bench import BenchResult, first_move_cell, run_bench
from .board import FIRST_CLICK_RULES, Board, parse_preset
from .players import Player, make_player
from .session import MinesSession

__all__ = ["Minesweeper"]


@dataclass(frozen=True)
class Minesweeper:
    """Games of ``rows`` x ``cols`` cells with ``mines`` mines.

    Parameters
    ----------
    rows, cols, mines : int
        The board (at most 2**20 cells; fewer mines than cells).
    first_click : {"safe", "zero", "none"}
        The first cell is no mine (classic), opens a 0 (modern), or may be a mine.
    first_move : str
        ``corner``, ``centre`` or ``"R,C"`` (from 1).
    seed : int
        Game g places its mines with seed ``seed + g``; its player draws from ``seed +
        1000 + g``.
    """

    rows: int
    cols: int
    mines: int
    first_click: str = "safe"
    first_move: str = "corner"
    seed: int = 1000

    def __post_init__(self) -> None:
        parse_preset(self.spec)                         # the board's own checks
        if self.first_click not in FIRST_CLICK_RULES:
            raise DeductiveError(f"`first_click` {self.first_click!r}: choose one of "
                                 f"{', '.join(FIRST_CLICK_RULES)}")
        first_move_cell(self.rows, self.cols, self.first_move)
        if self.seed < 0:
            raise DeductiveError(f"`seed` {self.seed}: give 0 or more")

    @classmethod
    def preset(cls, spec: str, *, first_click: str = "safe", first_move: str = "corner",
               seed: int = 1000) -> Minesweeper:
        """The games of a preset (``beginner``, ``beginner8``, ``intermediate``, ``expert``)
        or of ``ROWSxCOLS/MINES``."""
        rows, cols, mines = parse_preset(spec)
        return cls(rows, cols, mines, first_click, first_move, seed)

    @property
    def spec(self) -> str:
        """``ROWSxCOLS/MINES``."""
        return f"{self.rows}x{self.cols}/{self.mines}"

    def board(self, number: int = 0) -> Board:
        """Game ``number``'s board, its mines placed (no click made yet)."""
        return Board(self.rows, self.cols, self.mines, seed=self.seed + number,
                     first_click=self.first_click)

    def bench(self, player: str | Player = "best", games: int = 100, *,
              progress: Callable[[int], Any] | None = None) -> BenchResult:
        """Play games ``0 .. games - 1`` with ``player`` (a name, options after a colon,
        or a player)."""
        if games < 1:
            raise DeductiveError(f"`games` {games}: give at least 1")
        made = make_player(player) if isinstance(player, str) else player
        return run_bench(self.spec, made, games, first_click=self.first_click,
                         first_move=self.first_move, seed=self.seed, progress=progress)

    def session(self, player: str | Player = "best", number: int = 0) -> MinesSession:
        """Game ``number`` played step by step (the same game as in :meth:`bench`)."""
        return MinesSession(self.spec, player, number, seed=self.seed,
                            first_click=self.first_click, first_move=self.first_move)

    def to_json(self) -> dict[str, Any]:
        """JSON-able data: the fields."""
        return asdict(self)
