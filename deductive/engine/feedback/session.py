"""The assistant for a feedback game played elsewhere: enter each guess and its feedback,
get advice.

:class:`AssistSession` holds the history and answers with data (:class:`Advice`,
:class:`Entry`); :meth:`AssistSession.run` is the whole dialogue as what to show, so a
command line only reads lines and prints. Any :class:`~.game.FeedbackGame` works: an
entry is a guess and its feedback as the game spells it (:meth:`~.game.FeedbackGame.parse`);
Wordle's assistant (:mod:`deductive.engine.wordle.session`) adds its own help text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ...errors import DeductiveError, PatternError
from . import text
from .game import FeedbackGame
from .scoring import GuessScore
from .solvers import Solver

__all__ = ["AssistSession", "Advice", "Entry", "advise", "help_text"]


@dataclass(frozen=True)
class Advice:
    """What is known after the history: the candidates, and the best next guesses."""

    left: int
    shown: list[str]
    answer: str | None
    best: list[GuessScore]          # best first (empty once the answer is known)
    candidates: frozenset[str]
    lookahead: str | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-able data: the count left, those shown, the answer (or None), the best
        guesses (:meth:`GuessScore.to_json`) and the lookahead's pick."""
        return {"left": self.left, "shown": list(self.shown), "answer": self.answer,
                "best": [s.to_json() for s in self.best], "lookahead": self.lookahead}


@dataclass(frozen=True)
class Entry:
    """The outcome of one line entered: applied (with its guess and code) or why not."""

    applied: bool
    guess: str = ""
    code: int = -1
    solved: bool = False
    error: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-able data: the fields as they are."""
        return {"applied": self.applied, "guess": self.guess, "code": self.code,
                "solved": self.solved, "error": self.error}


def advise(game: FeedbackGame, history: Sequence[tuple[str, str]] = (), *, top: int = 5,
           metric: str = "entropy", pool: str = "all", show: int = 10,
           lookahead: Solver | None = None) -> Advice:
    """What is known after ``history`` (``(guess, feedback)`` pairs, any spelling the game
    reads): the candidates left (``show`` of them listed) and, unless one is left, the
    ``top`` best next guesses by ``metric`` (:meth:`~.game.FeedbackGame.best_guesses`)
    and the pick of the solver ``lookahead``, if given."""
    state = game.replay(history)
    cands = [str(game.answers[k]) for k in state.candidates]
    if len(cands) == 1:
        return Advice(1, cands, cands[0], [], frozenset(cands))
    best = game.best_guesses(history, k=top, metric=metric, pool=pool)
    pick = game.word(lookahead.choose(state)) if lookahead is not None else None
    return Advice(len(cands), cands[:show], None, best, frozenset(cands), pick)


def help_text(game: FeedbackGame) -> str:
    """How to enter a turn of ``game``: a guess and its feedback, spelled as the game
    spells them (its first guess and its first feedback that is not a win)."""
    code = 0 if game.win_code else 1
    return (f"type the guess you played and its {game.feedback_name}: "
            f"'{game.word(0)} {game.format(code)}'; 'undo' takes the last one back, 'quit' "
            "(or end of input) stops")


class AssistSession:
    """Advice after each ``guess feedback`` entry of a game played elsewhere.

    Parameters
    ----------
    game : FeedbackGame
    metric, pool, top
        How next guesses are ranked and how many are given.
    show : int
        How many candidates :meth:`advice` lists.
    lookahead_beam : int
        Also give the lookahead solver's pick (a beam search of this width); 0: no.
    help : str, optional
        The dialogue's help (default: :func:`help_text`).
    """

    def __init__(self, game: FeedbackGame, *, metric: str = "entropy", pool: str = "all",
                 top: int = 5, show: int = 10, lookahead_beam: int = 0,
                 help: str | None = None):
        self.game = game
        self.metric, self.pool, self.top, self.show = metric, pool, top, show
        self.history: list[tuple[str, str]] = []
        self.lookahead_beam = lookahead_beam
        self.help = help_text(game) if help is None else help
        self._lookahead = game.solver("lookahead", beam=lookahead_beam) if lookahead_beam else None

    def advice(self) -> Advice:
        """The candidates left and the best next guesses."""
        return advise(self.game, self.history, top=self.top, metric=self.metric,
                      pool=self.pool, show=self.show, lookahead=self._lookahead)

    def read_entry(self, text: str) -> tuple[int, int]:
        """``(guess index, code)`` of a line ``"GUESS FEEDBACK"`` (the feedback as the game's
        parser reads it)."""
        parts = text.split(None, 1)
        if len(parts) != 2:
            raise PatternError(f"expected a guess and its {self.game.feedback_name}, not "
                               f"{text.strip()!r}")
        return self.game.guess_index(parts[0]), self.game.parse(parts[1])

    def enter(self, text: str) -> Entry:
        """Apply ``"GUESS FEEDBACK"`` unless it is malformed or leaves no answer; the history
        is unchanged when it is not applied."""
        game = self.game
        try:
            g, code = self.read_entry(text)
            entry = (game.word(g), game.format(code))
            state = game.replay(self.history + [entry])
        except DeductiveError as exc:
            return Entry(False, error=str(exc))
        if len(state.candidates) == 0:
            return Entry(False, error=f"no answer fits {entry[0]} {entry[1]} with what came "
                                      f"before; check the {game.feedback_name} (or undo an "
                                      "earlier entry)")
        self.history.append(entry)
        return Entry(True, entry[0], code, code == game.win_code)

    def undo(self) -> tuple[str, str] | None:
        """Take the last entry back; None if there is none."""
        return self.history.pop() if self.history else None

    def handle(self, line: str) -> tuple[str, Any]:
        """One line of input: ``("quit", None)`` (also at end of input), ``("help", None)``,
        ``("undo", the entry taken back or None)``, ``("skip", None)`` for a blank line or
        a comment (``#``), else ``("entry", Entry)``."""
        text = line.split("#", 1)[0].strip()
        word = text.lower()
        if not line or word in ("quit", "exit", "q"):
            return "quit", None
        if word in ("help", "?"):
            return "help", None
        if word == "undo":
            return "undo", self.undo()
        return ("entry", self.enter(text)) if text else ("skip", None)

    def run(self, read: Callable[[str], str]) -> Iterator[str | tuple[str, int]]:
        """The whole dialogue as what to show: lines of text, and ``(guess, code)`` for
        each entry applied (the caller draws it). ``read(prompt)`` returns the next line
        typed (``""`` at the end of input)."""
        game = self.game
        yield (f"{len(game.guesses)} guesses, {len(game.answers)} answers"
               f"{', hard mode' if game.hard else ''}; {self.help}; * marks a candidate")
        yield text.advice(self.advice(), self.show, self.lookahead_beam)
        while True:
            kind, what = self.handle(read(f"turn {len(self.history) + 1}> "))
            if kind == "quit":
                return
            if kind == "help":
                yield self.help
            elif kind == "undo":
                yield f"undone: {' '.join(what)}" if what else "nothing to undo"
            elif kind == "entry" and not what.applied:
                yield f"not applied: {what.error}"
            elif kind == "entry":
                yield what.guess, what.code
                if what.solved:
                    yield f"solved in {len(self.history)}"
                    return
            if (kind == "undo" and what) or (kind == "entry" and what.applied):
                yield text.advice(self.advice(), self.show, self.lookahead_beam)
