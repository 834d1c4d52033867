"""The assistant for a Wordle game played elsewhere: enter each guess and its colours, get
advice.

The session is the core's (:mod:`deductive.engine.feedback.session`: it holds the history
and answers with data, :meth:`AssistSession.run` is the whole dialogue as what to show, so
the command line, ``deductive wordle assist``, only reads lines and prints); Wordle adds its
help and how it reads an entry (``crane GY..G``, ``crane 21002``, tiles).
"""

from __future__ import annotations

from ..feedback.session import Advice, AssistSession as _AssistSession, Entry
from ..params import Param
from .game import Wordle, parse_feedback

__all__ = ["AssistSession", "Advice", "Entry", "HELP"]

#: How to enter a turn (the dialogue's help).
HELP = ("type the guess you played and the colours you saw: 'crane GY..G' (grey also - _ B "
        "or X), 'crane 21002' or 'crane 🟩🟨⬜⬜🟩'; 'undo' takes the last one back, 'quit' "
        "(or end of input) stops")


#: :class:`AssistSession`'s ``show`` and ``lookahead_beam`` (its ``metric``, ``pool`` and
#: ``top`` are the scoring's).
ASSIST = (Param("show", 10, "Candidates listed.", int, 0, 200),
          Param("lookahead_beam", 0, "Also show the lookahead solver's pick (a beam search of "
                "this width).", int, low=0, show_default=False, spelling="--lookahead"))


class AssistSession(_AssistSession):
    """Advice after each ``guess colours`` entry of a Wordle game played elsewhere (the
    core's :class:`~deductive.engine.feedback.session.AssistSession`, with Wordle's help
    and its reading of ``crane GY..G``).

    The parameters are the core session's, but ``help`` (Wordle's is :data:`HELP`).

    Examples
    --------
    >>> session = AssistSession(Wordle("fr-seed", "fr-seed"), top=2)
    >>> session.enter("laine _Y_GG").applied
    True
    >>> advice = session.advice()
    >>> advice.left, advice.shown
    (2, ['arene', 'crane'])
    """

    game: Wordle

    def __init__(self, game: Wordle, *, metric: str = "entropy", pool: str = "all",
                 top: int = 5, show: int = 10, lookahead_beam: int = 0):
        super().__init__(game, metric=metric, pool=pool, top=top, show=show,
                         lookahead_beam=lookahead_beam, help=HELP)

    def read_entry(self, text: str) -> tuple[int, int]:
        """``(guess index, code)`` of ``"crane GY..G"`` (any spelling of the colours)."""
        return parse_feedback(self.game, text)
