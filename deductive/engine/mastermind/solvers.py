"""The peg games' solvers: the core's (:data:`~deductive.engine.feedback.solvers.SOLVERS`)
and Knuth's, in one registry."""

from __future__ import annotations

from typing import Any

from ..feedback.solvers import SOLVERS, ScoringSolver

__all__ = ["MASTERMIND_SOLVERS", "KnuthSolver"]

#: The core's solvers plus Knuth's: minimax over every code, ties to a possible code, then
#: the lowest (his rule; the core's minimax breaks ties the same way, so ``knuth`` is it
#: with Knuth's opener, the lowest code of the form ``1122``).
MASTERMIND_SOLVERS = type(SOLVERS)("solver")
for _name in SOLVERS:
    _e = SOLVERS[_name]
    MASTERMIND_SOLVERS.add(_name, _e.factory, _e.description, options=_e.options)


class KnuthSolver(ScoringSolver):
    """Knuth (1977): minimise the largest bucket over every code; ties to a code that is
    still possible, then to the lowest; first guess ``1122`` (Knuth's opener)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game, "minimax", "all")
        self.name = "knuth"

    def choose(self, state: Any, rng: Any = None) -> int:
        if state.turn == 0 and len(state.candidates) == len(self.game.answers):
            return self.game.knuth_opener()
        return super().choose(state, rng)


MASTERMIND_SOLVERS.add("knuth", KnuthSolver, "Knuth's minimax: opener 1122, ties to a "
                       "possible code, then the lowest")
