"""Wordle: feedback codes, the pattern matrix (computed or cached), word lists, rankings.

>>> from deductive import wordle
>>> words = wordle.load_words("fr-seed")
>>> matrix = wordle.pattern_matrix(words, words)     # or cached_pattern_matrix(...)
>>> [score.word for score in wordle.rank_guesses(matrix, words, top=3)]
['laine', 'paire', 'clair']
"""

from .engine.patterns import (
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
from .engine.scoring import (
    METRICS,
    GuessScore,
    PartitionStats,
    bucket_counts,
    filter_candidates,
    partition_stats,
    rank_guesses,
)
from .engine.words import BUILTIN_NAMES, WordList, builtin_words, fold_word, load_words
from .engine.game import PRIORS, State, Wordle
from .engine.solvers import SOLVERS
from .engine.bench import BenchmarkResult

from .engine import patterns as _patterns, scoring as _scoring

__all__ = [*_patterns.__all__, *_scoring.__all__, "WordList", "load_words", "builtin_words",
           "fold_word", "BUILTIN_NAMES", "Wordle", "State", "PRIORS", "SOLVERS",
           "BenchmarkResult"]
