"""Wordle: feedback codes, the pattern matrix (computed or cached), word lists, rankings.

Examples
--------
>>> from deductive import wordle
>>> words = wordle.load_words("fr-seed")
>>> matrix = wordle.pattern_matrix(words, words)     # or cached_pattern_matrix(...)
>>> [score.word for score in wordle.rank_guesses(matrix, words, top=3)]
['laine', 'paire', 'clair']
"""

from .engine.feedback.bench import BenchmarkResult
from .engine.feedback.matrix import PatternMatrix
from .engine.feedback.scoring import (
    METRICS,
    GuessScore,
    PartitionStats,
    bucket_counts,
    filter_candidates,
    partition_stats,
    rank_guesses,
)
from .engine.wordle.game import PRIORS, State, Wordle
from .engine.wordle.patterns import (
    all_green,
    available_memory,
    cached_pattern_matrix,
    check_matrix_memory,
    feedback,
    format_pattern,
    matrix_bytes,
    matrix_key,
    n_patterns,
    parse_pattern,
    pattern_digits,
    pattern_dtype,
    pattern_matrix,
)
from .engine.wordle.solvers import WORDLE_SOLVERS as SOLVERS
from .engine.words import BUILTIN_NAMES, WordList, builtin_words, fold_word, load_words

__all__ = ["feedback", "pattern_matrix", "cached_pattern_matrix", "matrix_key", "pattern_dtype",
           "matrix_bytes", "check_matrix_memory", "available_memory", "n_patterns",
           "all_green", "parse_pattern", "format_pattern", "pattern_digits", "PatternMatrix",
           "METRICS", "GuessScore", "PartitionStats", "partition_stats", "rank_guesses",
           "bucket_counts", "filter_candidates", "WordList", "load_words", "builtin_words",
           "fold_word", "BUILTIN_NAMES", "Wordle", "State", "PRIORS", "SOLVERS",
           "BenchmarkResult"]
