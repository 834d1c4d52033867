"""One Minesweeper game of a benchmark, step by step (``deductive mines play``).

>>> from deductive.engine.minesweeper.session import MinesSession
>>> session = MinesSession("beginner", "least-risk", game=3)
>>> steps = list(session.steps())
>>> steps[-1].over and session.won in (True, False)
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..params import Param
from .bench import first_move_cell, moves, new_game
from .board import Position, parse_preset, where
from .players import Move, Player, make_player

__all__ = ["MinesSession", "Step"]


@dataclass(frozen=True)
class Step:
    """One move of a session: its number (from 1), the position the player decided on, the
    move, and the board drawn after it (:meth:`Board.draw`, the mines shown once lost)."""

    number: int
    position: Position
    move: Move
    picture: str
    over: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-able data: the number, the move (its fields), the picture and whether the
        game is over (the position is the picture's)."""
        return {"number": self.number, "move": self.move.to_json(), "picture": self.picture,
                "over": self.over}


#: :class:`MinesSession`'s ``game``.
GAME = Param("game", 0, "Game number g (mines seeded `seed` + g).", int, low=0)


class MinesSession:
    """Game ``game`` of a benchmark (the same board and player generator as game ``game`` of
    ``run_bench`` with these arguments), its first click made.

    Parameters
    ----------
    spec : str
        A preset or ``ROWSxCOLS/MINES`` (:func:`parse_preset`).
    player : str or Player
        A player or its name in :data:`deductive.engine.minesweeper.players.PLAYERS`.
    game, seed, first_click, first_move
        As in :func:`deductive.engine.minesweeper.bench.run_bench`.
    """

    def __init__(self, spec: str, player: str | Player = "best", game: int = 0, *,
                 seed: int = 1000, first_click: str = "safe", first_move: str = "corner"):
        self.player = make_player(player) if isinstance(player, str) else player
        rows, cols, mines = parse_preset(spec)
        self.board, self._rng = new_game(rows, cols, mines, game, seed=seed,
                                         first_click=first_click)
        self.first_cell = first_move_cell(rows, cols, first_move)
        self.board.click(self.first_cell)
        self._moves = moves(self.board, self.player, self._rng)
        self._played = 0

    def picture(self) -> str:
        """The board now, in the position format with row and column numbers."""
        return self.board.draw(show_mines=self.board.lost)

    def where(self, cell: int) -> str:
        """``row R, column C`` (from 1) of a flat cell index."""
        return where(cell, self.board.cols)

    def steps(self) -> Iterator[Step]:
        """Play the game to its end, yielding a :class:`Step` after each move."""
        for position, move in self._moves:
            self._played += 1
            yield Step(self._played, position, move, self.picture(), self.board.over)

    @property
    def won(self) -> bool:
        return self.board.won
