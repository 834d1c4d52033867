"""What every Minesweeper player is: a :class:`Player` whose turn returns a :class:`Move`.

Each turn a player looks at the position and returns a :class:`Move`: cells to reveal and
cells to flag, and the kind of decision (``rules``: the original programs' two local rules,
``forced``: cells the exact analysis proves, ``guess``: anything else). Every player plays
proven-safe cells before guessing: :meth:`Player.decide` applies the local rules
(:func:`rule_deductions`) and leaves the rest to the player's ``after_rules``. The players
themselves are found by name in :data:`.players.PLAYERS`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .board import Position, neighbours_of

__all__ = ["Move", "Player", "rule_deductions"]


@dataclass
class Move:
    """Cells to reveal and to flag (flat indices), and the kind of decision. A guess also
    says which rule chose it (``reason``: ``random``, ``least risk``, ``endgame``,
    ``fifty-fifty``, ``pseudo 50/50``, ``isolated region``, ``far corner``, ``open corner``,
    ``look-ahead`` or ``dominance``) and, from the exact endgame, the probability of winning
    the game from here (``win``)."""

    kind: str
    reveal: list = field(default_factory=list)
    flag: list = field(default_factory=list)
    probability: float = 0.0      # mine probability of a guessed cell
    reason: str = ""
    win: float | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-able data: the fields, cells as plain ints (flat indices, row-major)."""
        return {"kind": self.kind, "reveal": [int(c) for c in self.reveal],
                "flag": [int(c) for c in self.flag], "probability": float(self.probability),
                "reason": self.reason, "win": None if self.win is None else float(self.win)}


def rule_deductions(position: Position):
    """The original programs' rules: a number whose covered neighbours all must be mines (rule 1) or
    that has all its mines flagged (rule 2). Returns (safe cells, mine cells)."""
    from ...kernels.mines import rule_moves

    safe, mines = rule_moves(position.cells, neighbours_of(position.rows, position.cols))
    return np.flatnonzero(safe), np.flatnonzero(mines)


class Player(abc.ABC):
    """Base class: ``decide(position, rng)`` returns the next :class:`Move`."""

    name = "player"

    def decide(self, position: Position, rng: np.random.Generator) -> Move:
        safe, mines = rule_deductions(position)
        if len(safe) or len(mines):
            return Move("rules", safe.tolist(), mines.tolist())
        return self.after_rules(position, rng)

    @abc.abstractmethod
    def after_rules(self, position: Position, rng: np.random.Generator) -> Move:
        """The move when the local rules prove nothing."""
