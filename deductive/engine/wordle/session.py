"""The assistant for a game played elsewhere: enter each guess and its colours, get advice.

:class:`AssistSession` holds the history and answers with data; :meth:`AssistSession.run`
is the whole dialogue as what to show, so the command line (``deductive wordle assist``)
only reads lines and prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import DeductiveError
from ..feedback import text
from ..params import Param
from .game import Wordle, parse_feedback

__all__ = ["AssistSession", "Advice", "Entry", "HELP"]

#: How to enter a turn (the dialogue's help).
HELP = ("type the guess you played and the colours you saw: 'crane GY..G' (grey also - _ B "
        "or X), 'crane 21002' or 'crane 🟩🟨⬜⬜🟩'; 'undo' takes the last one back, 'quit' "
        "(or end of input) stops")


@dataclass(frozen=True)
class Advice:
    """What is known after the history: the candidates, and the best next guesses."""

    left: int
    shown: list
    answer: str | None
    best: list              # GuessScore, best first (empty once the answer is known)
    candidates: frozenset
    lookahead: str | None = None


@dataclass(frozen=True)
class Entry:
    """The outcome of one line entered: applied (with its guess and code) or why not."""

    applied: bool
    guess: str = ""
    code: int = -1
    solved: bool = False
    error: str = ""


#: :class:`AssistSession`'s ``show`` and ``lookahead_beam`` (its ``metric``, ``pool`` and
#: ``top`` are the scoring's).
ASSIST = (Param("show", 10, "Candidates listed.", int, 0, 200),
          Param("lookahead_beam", 0, "Also show the lookahead solver's pick (a beam search of "
                "this width).", int, low=0, show_default=False, spelling="--lookahead"))


class AssistSession:
    """Advice after each ``guess colours`` entry of a game played elsewhere.

    Parameters
    ----------
    game : Wordle
    metric, pool, top
        How next guesses are ranked and how many are given.
    show : int
        How many candidates :meth:`advice` lists.
    lookahead_beam : int
        Also give the lookahead solver's pick (a beam search of this width); 0: no.

    Examples
    --------
    >>> session = AssistSession(Wordle("fr-seed", "fr-seed"), top=2)
    >>> session.enter("laine _Y_GG").applied
    True
    >>> advice = session.advice()
    >>> advice.left, advice.shown
    (2, ['arene', 'crane'])
    """

    def __init__(self, game: Wordle, *, metric: str = "entropy", pool: str = "all",
                 top: int = 5, show: int = 10, lookahead_beam: int = 0):
        self.game = game
        self.metric, self.pool, self.top, self.show = metric, pool, top, show
        self.history: list[tuple[str, str]] = []
        self.lookahead_beam = lookahead_beam
        self._lookahead = game.solver("lookahead", beam=lookahead_beam) if lookahead_beam else None

    def advice(self) -> Advice:
        """The candidates left and the best next guesses."""
        game = self.game
        state = game.replay(self.history)
        cands = [game.answers[k] for k in state.candidates]
        if len(cands) == 1:
            return Advice(1, cands, cands[0], [], frozenset(cands))
        best = game.best_guesses(self.history, k=self.top, metric=self.metric, pool=self.pool)
        pick = (game.word(self._lookahead.choose(state)) if self._lookahead is not None
                else None)
        return Advice(len(cands), cands[:self.show], None, best, frozenset(cands), pick)

    def enter(self, text: str) -> Entry:
        """Apply ``"crane GY..G"`` (any spelling of the colours) unless it is malformed or
        leaves no answer; the history is unchanged when it is not applied."""
        game = self.game
        try:
            g, code = parse_feedback(game, text)
            entry = (game.word(g), game.format(code))
            state = game.replay(self.history + [entry])
        except DeductiveError as exc:
            return Entry(False, error=str(exc))
        if len(state.candidates) == 0:
            return Entry(False, error=f"no answer fits {entry[0]} {entry[1]} with what came "
                                      "before; check the colours (or undo an earlier entry)")
        self.history.append(entry)
        return Entry(True, entry[0], code, code == game.win_code)

    def undo(self) -> tuple[str, str] | None:
        """Take the last entry back; None if there is none."""
        return self.history.pop() if self.history else None

    def handle(self, line: str) -> tuple[str, object]:
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

    def run(self, read):
        """The whole dialogue as what to show: lines of text, and ``(guess, code)`` for
        each entry applied (the caller draws it). ``read(prompt)`` returns the next line
        typed (``""`` at the end of input)."""
        game = self.game
        yield (f"{len(game.guesses)} guesses, {len(game.answers)} answers"
               f"{', hard mode' if game.hard else ''}; {HELP}; * marks a candidate")
        yield text.advice(self.advice(), self.show, self.lookahead_beam)
        while True:
            kind, what = self.handle(read(f"turn {len(self.history) + 1}> "))
            if kind == "quit":
                return
            if kind == "help":
                yield HELP
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
