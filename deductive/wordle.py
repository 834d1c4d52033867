"""Wordle through one door: the game, its best next guesses, benchmarks, exact search,
tree checks and the assistant, with the feedback codes, the pattern matrix and the word
lists underneath.

Every game's facade (:mod:`deductive.mastermind`, :mod:`deductive.bulls`,
:mod:`deductive.hangman`, :mod:`deductive.minesweeper`) has the same verbs where the game
has them: :func:`game`, :func:`best_move`, :func:`bench`, :func:`search`,
:func:`check_tree` and :func:`session`. Results are typed objects with ``to_json()``.

Examples
--------
>>> from deductive import wordle
>>> g = wordle.game("fr-seed", "fr-seed")
>>> [s.word for s in wordle.best_move(g, top=3).best]
['laine', 'paire', 'clair']
>>> wordle.best_move(g, [("laine", "_Y_GG")]).shown
['arene', 'crane']
>>> words = wordle.load_words("fr-seed")
>>> matrix = wordle.pattern_matrix(words, words)     # or cached_pattern_matrix(...)
>>> [score.word for score in wordle.rank_guesses(matrix, words, top=3)]
['laine', 'paire', 'clair']
"""

from __future__ import annotations

from collections.abc import Callable
from os import PathLike
from typing import Any

from ._deprecated import renamed
from .engine.feedback.bench import BenchResult
from .engine.feedback.facade import best_move, bench, check_tree, play
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
from .engine.feedback.search import SearchResult, TreeSearch
from .engine.feedback.session import Advice, Entry
from .engine.feedback.tree import TreeError, TreeReport, load_tree, tree_document, write_tree
from .engine.feedback.worst import least_worst
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
from .engine.wordle.session import AssistSession
from .engine.wordle.solvers import WORDLE_SOLVERS as SOLVERS
from .engine.words import BUILTIN_NAMES, WordList, builtin_words, fold_word, load_words
from .errors import ArgumentError

__all__ = ["game", "best_move", "bench", "search", "check_tree", "play", "session",
           "Wordle", "State", "PRIORS", "SOLVERS", "Advice", "Entry", "AssistSession",
           "BenchResult", "SearchResult", "TreeSearch", "TreeReport", "TreeError",
           "load_tree", "write_tree", "tree_document",
           "feedback", "pattern_matrix", "cached_pattern_matrix", "matrix_key", "pattern_dtype",
           "matrix_bytes", "check_matrix_memory", "available_memory", "n_patterns",
           "all_green", "parse_pattern", "format_pattern", "pattern_digits", "PatternMatrix",
           "METRICS", "GuessScore", "PartitionStats", "partition_stats", "rank_guesses",
           "bucket_counts", "filter_candidates", "WordList", "load_words", "builtin_words",
           "fold_word", "BUILTIN_NAMES"]

#: What a word list may be given as: a WordList, the words, a file or a built-in name.
Words = WordList | list[str] | tuple[str, ...] | str | PathLike[str]


def game(guesses: Words | None = None, answers: Words | None = None, *, hard: bool = False,
         prior: str = "uniform", lang: str | None = None,
         cache_dir: str | PathLike[str] | None = None) -> Wordle:
    """A Wordle game of two word lists (default: the original lists, ``wordle``: 12,972
    guesses, 2,315 answers; ``answers`` defaults to the answers of a built-in name, or to
    the guesses), normal or NYT ``hard`` mode, with a ``prior`` over the answers
    (``uniform`` or ``frequency``). The pattern matrix is computed (or read from the cache
    in ``cache_dir``) when first needed."""
    return Wordle(guesses, answers, hard=hard, prior=prior, lang=lang, cache_dir=cache_dir)


def search(game: Wordle, opener: str | None = None, *, objective: str = "expected",
           beam: int | None = None, max_guesses: int | None = None,
           memo_bytes: int | None = None,
           progress: Callable[[int], Any] | None = None) -> SearchResult:
    """The best decision tree opening with ``opener``, its tree kept in the result.

    ``objective`` ``expected``: the fewest total guesses (ties: the smaller worst case),
    exactly, or with ``beam`` (the K best-scored guesses per node) as a heuristic;
    ``max_guesses`` caps the depth. ``worst``: the fewest guesses in the worst case, then
    the fewest in total (``opener`` None: over every opener, a long search).
    ``memo_bytes`` caps the search's memo (None: no cap).

    Examples
    --------
    >>> from deductive import wordle
    >>> g = wordle.game("fr-seed", "fr-seed")
    >>> r = wordle.search(g, "laine")
    >>> r.total, r.worst, r.exact, int(wordle.check_tree(g, r.tree).depths.sum())
    (859, 4, True, 859)
    """
    if objective == "worst":
        if beam is not None or max_guesses is not None:
            raise ArgumentError("`objective` worst takes neither `beam` nor `max_guesses`")
        capped = {} if memo_bytes is None else {"memo_bytes": memo_bytes}
        return least_worst(game, opener, keep_tree=True, progress=progress, **capped)
    if objective != "expected":
        raise ArgumentError(f"`objective` {objective!r}: choose expected or worst")
    if opener is None:
        raise ArgumentError("`opener`: give the first guess of the tree to search (the best "
                            "opener over every guess is `deductive wordle search --openers all "
                            "--prove-best`)")
    return TreeSearch(game, beam=beam, max_guesses=max_guesses,
                      memo_bytes=memo_bytes).search_opener(opener, keep_tree=True,
                                                           progress=progress)


def session(game: Wordle, *, top: int = 5, metric: str = "entropy", pool: str = "all",
            show: int = 10, lookahead_beam: int = 0) -> AssistSession:
    """The assistant for a game played elsewhere: enter ``"crane GY..G"`` with
    :meth:`~AssistSession.enter`, read :meth:`~AssistSession.advice` (or run the whole
    dialogue with :meth:`~AssistSession.run`)."""
    return AssistSession(game, top=top, metric=metric, pool=pool, show=show,
                         lookahead_beam=lookahead_beam)


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("BenchmarkResult",))     # its name before 0.2.0
