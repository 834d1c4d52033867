"""Mastermind through one door: the game of ``pegs`` pegs and ``colours`` colours, its best
next guesses, benchmarks (Knuth's solver among them), the exact best trees (fewest total
guesses, or fewest in the worst case), tree checks and the assistant.

The verbs are those of every game's facade (:mod:`deductive.wordle`): :func:`game`,
:func:`best_move`, :func:`bench`, :func:`search`, :func:`check_tree`, :func:`session`
(and :func:`play`). Results are typed objects with ``to_json()``.

>>> from deductive import mastermind
>>> g = mastermind.game(4, 6)
>>> r = mastermind.bench(g, "knuth")
>>> r.total, r.worst
(5801, 5)
>>> mastermind.best_move(g, [("1122", "1B0W")]).left
256
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._deprecated import renamed
from .engine.feedback.bench import BenchResult
from .engine.feedback.facade import best_move, bench, check_tree, play, session
from .engine.feedback.scoring import GuessScore
from .engine.feedback.search import SearchResult
from .engine.feedback.session import Advice, AssistSession, Entry
from .engine.feedback.tree import TreeError, TreeReport, load_tree, tree_document, write_tree
from .engine.mastermind.solvers import MASTERMIND_SOLVERS as SOLVERS
from .engine.mastermind.game import BullsAndCows, Mastermind
from .engine.mastermind.search import best_tree

__all__ = ["game", "best_move", "bench", "search", "check_tree", "play", "session",
           "Mastermind", "BullsAndCows", "SOLVERS", "Advice", "Entry", "AssistSession",
           "GuessScore", "BenchResult", "SearchResult", "TreeReport", "TreeError",
           "load_tree", "write_tree", "tree_document"]


def game(pegs: int = 4, colours: int = 6, *, repeat: bool = True) -> Mastermind:
    """Mastermind with ``pegs`` pegs (1 to 8) and ``colours`` colours (2 to 10, spelled
    ``1`` .. ``9``, ``0``); ``repeat``: whether a code may repeat a colour. Every code is
    both a guess and an answer; feedback reads ``1B2W``."""
    return Mastermind(pegs, colours, repeat)


def search(game: Mastermind, opener: str | None = None, *, objective: str = "expected",
           max_guesses: int | None = None,
           progress: Callable[[int], Any] | None = None) -> SearchResult:
    """The exact best tree, kept in the result: ``expected``, the fewest total guesses
    (over every first guess, one per symmetry class, or from ``opener``; ``max_guesses``
    caps the depth), or ``worst``, the fewest guesses in the worst case.

    Examples
    --------
    >>> from deductive import mastermind
    >>> r = mastermind.search(mastermind.game(3, 3))
    >>> r.opener, r.total, r.worst
    ('112', 73, 4)
    """
    return best_tree(game, objective, opener, max_guesses, progress=progress)


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("BenchmarkResult",))     # its name before 0.2.0
