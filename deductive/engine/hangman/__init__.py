"""Hangman: word lists, strategies, exact search, sessions and whole-dictionary sweeps.

The wing's modules, each with one job:

:mod:`~deductive.engine.hangman.words`
    Word lists of each length (lowercase a-z words, as the original programs keep them).
:mod:`~deductive.engine.hangman.game`
    :class:`Hangman`: the rules over one list (candidates of a position, letter
    statistics), the prior, and the front door to sweeps and letters.
:mod:`~deductive.engine.hangman.strategies`
    The registry :data:`STRATEGIES` (``min-miss``, ``max-hit``, ``entropy``,
    ``best-lives``, ``optimal``); ties always go to the earliest letter.
:mod:`~deductive.engine.hangman.exact`
    :class:`ExactHangman`: the optimal strategy with L lives and the adversary's value.
:mod:`~deductive.engine.hangman.trees`
    Strategy trees as JSON and their independent check.
:mod:`~deductive.engine.hangman.session`
    A game (:class:`HangmanSession`), the assistant (:func:`solve`), evil Hangman
    (:func:`evil`) and tree checks (:func:`tree_check`), returning data.
:mod:`~deductive.engine.hangman.text`
    The text form of each result (:func:`~deductive.engine.render.render`).
:mod:`~deductive.engine.hangman.sweep`
    The chunk function of sweeps (:func:`sweep_chunk`, run by a process or a Dask task),
    their checkpoint tag and the report of a sweep.
"""

from .exact import DEFAULT_MEMORY, PRIOR_SCALE, ExactHangman, ExactPlay
from .game import PRIORS, Hangman, LetterStats
from .results import SweepResult
from .session import EvilReport, HangmanSession, SolveReport, TreeReport, evil, solve, tree_check
from .strategies import STRATEGIES, Strategy, make_strategy
from . import text  # noqa: F401  (registers the wing's text forms with render)
from .sweep import SweepReport, optimal_tree, sweep_chunk, sweep_lists, sweep_lives, sweep_tag
from .trees import (TreeCheck, check_tree, load_tree, tree_document, words_sha256,
                    write_tree)
from .words import HangmanWords, load_hangman_words
from ..._deprecated import renamed

__all__ = ["HangmanWords", "load_hangman_words", "STRATEGIES", "Strategy", "make_strategy",
           "PRIORS", "SweepResult", "Hangman", "LetterStats", "ExactHangman", "ExactPlay",
           "DEFAULT_MEMORY", "PRIOR_SCALE", "tree_document", "check_tree", "TreeCheck",
           "load_tree", "write_tree", "words_sha256", "HangmanSession", "solve", "SolveReport",
           "evil",
           "EvilReport", "tree_check", "TreeReport", "sweep_chunk", "sweep_tag",
           "sweep_lists", "sweep_lives", "optimal_tree", "SweepReport"]


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("tree_to_json", "write_json"))    # their names before 0.3
