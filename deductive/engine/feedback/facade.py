"""The verbs every feedback game's facade has (:mod:`deductive.wordle`,
:mod:`deductive.mastermind`, :mod:`deductive.bulls`), written once over a
:class:`~.game.FeedbackGame`: the best next move, a whole-list benchmark, the check of a
tree, a game played by a solver and the assistant. Each facade adds how its game is made
and searched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .bench import BenchResult
from .game import FeedbackGame
from .session import Advice, AssistSession, advise
from .solvers import Solver
from .tree import TreeReport, check_tree as _check_tree, tree_document

__all__ = ["best_move", "bench", "check_tree", "play", "session"]


def best_move(game: FeedbackGame, history: Sequence[tuple[str, str]] = (), *, top: int = 5,
              metric: str = "entropy", pool: str = "all", show: int = 10) -> Advice:
    """The candidates left after ``history`` (``(guess, feedback)`` pairs, the feedback as
    the game spells it) and the ``top`` best next guesses by ``metric`` (an empty history:
    the best openers). Ties go to a guess that is still a candidate, then to the lower
    index."""
    return advise(game, history, top=top, metric=metric, pool=pool, show=show)


def bench(game: FeedbackGame, solver: str | Solver = "entropy", *, opener: str | None = None,
          answers: int | Sequence[str] | None = None, seed: int = 0, keep_tree: bool = False,
          progress: Callable[[int], Any] | None = None) -> BenchResult:
    """Play every answer (or the first ``answers``, or those listed) with ``solver`` (a
    name of the game's registry, or a solver); ``keep_tree`` keeps a deterministic
    solver's decision tree in the result."""
    return game.bench(solver, opener=opener, answers=answers, seed=seed,
                          keep_tree=keep_tree, progress=progress)


def check_tree(game: FeedbackGame, tree: Mapping[str, Any], *,
               hard: bool | None = None) -> TreeReport:
    """Check a decision tree against ``game``: a tree file's document (as
    :func:`~.tree.load_tree` reads it) or a bare root node ``{"guess": ..., "then":
    {...}}`` (a result's ``tree``). ``hard``: check hard-mode rules (default: the
    document's flag, else the game's mode).

    Raises
    ------
    TreeError
        The first problem found (a word outside the guesses, a missed answer, a dead
        branch, a hard-mode violation).
    """
    doc = dict(tree) if "tree" in tree else tree_document(game, dict(tree))
    return _check_tree(game, doc, hard=game.hard if hard is None and "tree" not in tree
                       else hard)


def play(game: FeedbackGame, answer: str, solver: str | Solver = "entropy", *,
         opener: str | None = None, seed: int = 0) -> list[tuple[str, int]]:
    """One game against ``answer``: the ``(guess, feedback code)`` of each turn
    (:meth:`~.game.FeedbackGame.format` spells a code)."""
    return game.play(answer, solver, opener=opener, seed=seed)


def session(game: FeedbackGame, *, top: int = 5, metric: str = "entropy", pool: str = "all",
            show: int = 10) -> AssistSession:
    """The assistant for a game played elsewhere (:class:`~.session.AssistSession`): enter
    each guess and its feedback, get :meth:`~.session.AssistSession.advice`."""
    return AssistSession(game, top=top, metric=metric, pool=pool, show=show)
