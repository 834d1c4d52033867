"""Bulls and Cows through one door: secret numbers of distinct digits, bulls (digits in
place) and cows (digits elsewhere). It is Mastermind without repetition over ten digits,
so the verbs are :mod:`deductive.mastermind`'s: :func:`game`, :func:`best_move`,
:func:`bench`, :func:`search`, :func:`check_tree`, :func:`session` (and :func:`play`).

>>> from deductive import bulls
>>> g = bulls.game(3)
>>> len(g.answers), bulls.best_move(g, [("012", "1B1C")]).left
(720, 42)
"""

from __future__ import annotations

from ._deprecated import renamed
from .engine.mastermind.game import BullsAndCows
from .mastermind import (SOLVERS, Advice, AssistSession, BenchResult, Entry, GuessScore,
                         SearchResult, TreeError, TreeReport, best_move, bench, check_tree,
                         load_tree, play, search, session, tree_document, write_tree)

__all__ = ["game", "best_move", "bench", "search", "check_tree", "play", "session",
           "BullsAndCows", "SOLVERS", "Advice", "Entry", "AssistSession", "GuessScore",
           "BenchResult", "SearchResult", "TreeReport", "TreeError", "load_tree",
           "write_tree", "tree_document"]


def game(digits: int = 4) -> BullsAndCows:
    """Bulls and Cows with secret numbers of ``digits`` distinct digits (1 to 4; 0 may
    lead); feedback reads ``1B2C``."""
    return BullsAndCows(digits)


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("BenchmarkResult",))     # its name before 0.2.0
