"""The Wordle wing: feedback codes and the cached matrix, the game and its hard mode, the
``csp`` solver, the assist session and the chunk functions of its sweeps.

Everything else (scoring, solvers, benchmarks, search, trees) is the feedback-game core's
(:mod:`deductive.engine.feedback`), which Wordle is one client of.
"""

from .game import PRIORS, State, Wordle, hard_mode_allowed, parse_feedback
from .patterns import (all_green, available_memory, cached_pattern_matrix, check_matrix_memory,
                       feedback, format_pattern, matrix_bytes, matrix_key, n_patterns,
                       parse_pattern, pattern_digits, pattern_dtype, pattern_matrix)
from .solvers import WORDLE_SOLVERS
from . import text  # noqa: F401,E402  (registers the wing's text forms with render)

__all__ = ["Wordle", "State", "PRIORS", "hard_mode_allowed", "parse_feedback",
           "WORDLE_SOLVERS", "all_green", "available_memory", "cached_pattern_matrix",
           "check_matrix_memory", "feedback", "format_pattern", "matrix_bytes", "matrix_key",
           "n_patterns", "parse_pattern", "pattern_digits", "pattern_dtype", "pattern_matrix"]
