"""Wordle: feedback codes, the pattern matrix (computed or cached), word lists, rankings.

>>> from deductive import wordle
>>> words = wordle.load_words("fr-seed")
>>> matrix = wordle.pattern_matrix(words, words)     # or cached_pattern_matrix(...)
>>> [score.word for score in wordle.rank_guesses(matrix, words, top=3)]
['laine', 'paire', 'clair']
"""

from .engine.patterns import (
    all_green,
    cached_pattern_matrix,
    feedback,
    format_pattern,
    matrix_key,
    n_patterns,
    parse_pattern,
    pattern_digits,
    pattern_dtype,
    pattern_matrix,
)
from .engine.scoring import METRICS, GuessScore, PartitionStats, partition_stats, rank_guesses
from .engine.words import BUILTIN_NAMES, WordList, builtin_words, fold_word, load_words

__all__ = [
    "feedback",
    "pattern_matrix",
    "cached_pattern_matrix",
    "matrix_key",
    "pattern_dtype",
    "n_patterns",
    "all_green",
    "parse_pattern",
    "format_pattern",
    "pattern_digits",
    "WordList",
    "load_words",
    "builtin_words",
    "fold_word",
    "BUILTIN_NAMES",
    "METRICS",
    "GuessScore",
    "PartitionStats",
    "partition_stats",
    "rank_guesses",
]
