"""The Mastermind wing: Mastermind and Bulls and Cows (codes of pegs, black and white
feedback), Knuth's solver and exact searches for the best expected and worst case.

Scoring, solvers, benchmarks, tree search and tree checks are the feedback-game core's
(:mod:`deductive.engine.feedback`).
"""

from .game import (MASTERMIND_SOLVERS, BullsAndCows, Mastermind, all_codes, opener_classes,
                   peg_matrix)
from .results import PegRanking, TreeStats
from . import text  # noqa: F401,E402  (registers the wing's text forms with render)

__all__ = ["Mastermind", "BullsAndCows", "MASTERMIND_SOLVERS", "all_codes", "opener_classes",
           "peg_matrix", "PegRanking", "TreeStats"]
