"""The Mastermind wing: Mastermind and Bulls and Cows (codes of pegs, black and white
feedback), Knuth's solver and exact searches for the best expected and worst case.

Its rooms, as every wing's: ``game`` (the rules and the feedback), ``solvers`` (the
registry), ``search`` (exact search), ``session`` (the assistant), ``results`` and
``text`` (typed results and their text).

Scoring, solvers, benchmarks, tree search and tree checks are the feedback-game core's
(:mod:`deductive.engine.feedback`).
"""

from .game import BullsAndCows, Mastermind, all_codes, opener_classes, peg_matrix
from .solvers import MASTERMIND_SOLVERS
from .results import PegRanking, TreeStats
from .session import assist
from . import text  # noqa: F401,E402  (registers the wing's text forms with render)

__all__ = ["Mastermind", "BullsAndCows", "MASTERMIND_SOLVERS", "all_codes", "opener_classes",
           "peg_matrix", "PegRanking", "TreeStats", "assist"]
