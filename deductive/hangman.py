"""Hangman through one door: the game over one word list, the best next letter, sweeps of
every word by a strategy, the exact optimal strategy and the adversary's value, strategy
tree checks and a game session.

The verbs are those of every game's facade (:mod:`deductive.wordle`): :func:`game`,
:func:`best_move`, :func:`bench` (every word played), :func:`search` (the most words won
with L lives, exactly; :func:`evil`, the fewest misses against an adversary: Hangman's
worst case), :func:`check_tree` and :func:`session`. Results are typed objects with
``to_json()``.

>>> from deductive import hangman
>>> g = hangman.game("bill dill fill gill hill kill mill pill".split())
>>> hangman.search(g, lives=3).wins, hangman.evil(g).misses
(3, 7)
>>> hangman.best_move(g, "_ill").best
'b'
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from typing import Any

from .engine.hangman.exact import ExactHangman, ExactPlay
from .engine.hangman.game import PRIORS, Hangman, LetterStats
from .engine.hangman.results import SweepResult
from .engine.hangman.session import (EvilReport, HangmanSession, OptimalReport, SolveReport,
                                     TreeReport, advise, check_strategy, evil_report,
                                     optimal_report)
from .engine.hangman.strategies import STRATEGIES
from .engine.hangman.trees import TreeCheck, load_tree, tree_document, write_tree
from .engine.hangman.words import HangmanWords, load_hangman_words
from .errors import ArgumentError
from ._deprecated import renamed

__all__ = ["game", "best_move", "bench", "search", "evil", "check_tree", "session",
           "Hangman", "HangmanWords", "load_hangman_words", "STRATEGIES", "PRIORS",
           "LetterStats", "SolveReport", "SweepResult", "OptimalReport", "EvilReport",
           "TreeReport", "TreeCheck", "HangmanSession", "ExactHangman", "ExactPlay",
           "load_tree", "write_tree", "tree_document"]


def game(words: Sequence[str] | str | PathLike[str] = "en", length: int | None = None, *,
         prior: str = "uniform", lang: str = "en") -> Hangman:
    """Hangman over the words of ``words`` of ``length`` letters: a file (one word a
    line: only lowercase a-z words are kept), ``en`` or ``fr`` (the built-in secrets),
    or the words themselves (then ``length`` may be left out if they have one length).
    ``prior``: how the setter picks words (``uniform`` or ``frequency``, in ``lang``)."""
    if length is None:
        if isinstance(words, (str, PathLike)):
            raise ArgumentError(f"`length`: give the word length of the game over {words}")
        return Hangman(list(words), prior=prior, lang=lang)
    return Hangman(load_hangman_words(words, length)[length], prior=prior, lang=lang)


def best_move(game: Hangman, pattern: str, wrong: str = "", *, strategy: str = "min-miss",
              lives: int = 6) -> SolveReport:
    """The strategy's next letter for ``pattern`` (``_`` unknown) and the ``wrong`` letters,
    with the words that fit and every letter's statistics (best hit first)."""
    return advise(game, pattern, wrong, strategy=strategy, lives=lives)


def bench(game: Hangman, strategy: str = "min-miss", lives: int = 6, *,
          exact_limit: int = 16, memory: int | None = None) -> SweepResult:
    """Every word played by ``strategy`` (see :data:`STRATEGIES`): its misses, guesses and
    letters, and the wins with ``lives`` lives (``exact_limit`` is ``best-lives``',
    ``memory``, in bytes, ``optimal``'s)."""
    return game.sweep(strategy, lives, exact_limit=exact_limit, memory=memory)


def search(game: Hangman, lives: int = 6, *, memory: int | None = None) -> OptimalReport:
    """The optimal strategy with ``lives`` lives, by exact search: the most words (prior
    weight) any strategy wins; its tree is :meth:`OptimalReport.tree`."""
    return optimal_report(game, lives, memory=memory)


def evil(game: Hangman, *, memory: int | None = None) -> EvilReport:
    """The fewest misses a guesser can guarantee against an adversary who answers each
    guess with any word still consistent (exact minimax); one more life wins every word.
    The guesser's strategy is :meth:`EvilReport.tree`."""
    return evil_report(game, memory=memory)


def check_tree(game: Hangman, tree: dict[str, Any], lives: int | None = None) -> TreeReport:
    """Replay every word of ``game`` against a strategy tree (``tree()`` of a search, or
    :func:`load_tree`), counting the words won with ``lives`` lives (default: the
    tree's)."""
    return check_strategy(game, tree, lives)


def session(game: Hangman, *, word: str | None = None, seed: int | None = None,
            strategy: str = "min-miss", lives: int = 6, evil: bool = False) -> HangmanSession:
    """One game against ``word`` (default: drawn with ``seed``), or with ``evil`` against
    the adversary: :meth:`~HangmanSession.guess` letters, ask :meth:`~HangmanSession.hint`,
    or let the strategy play (:meth:`~HangmanSession.auto`)."""
    return HangmanSession(game, strategy=strategy, lives=lives, word=word, seed=seed,
                          evil=evil)


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("tree_to_json", "write_json"))    # their names before 0.3
