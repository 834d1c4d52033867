"""The peg games' assistant: a game played elsewhere, helped one entry at a time (the
command line's ``assist``, as Wordle's
:class:`~deductive.engine.wordle.session.AssistSession`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["assist"]


def assist(game: Any, read: Callable[[str], str], top: int = 5) -> Iterator[str]:
    """Help with a game played elsewhere, as the lines to show: the codes left and the
    ``top`` best next guesses, after each ``guess feedback`` line ``read(prompt)``
    returns (an empty line, ``quit`` or the end of input stops)."""
    history: list[tuple[str, ...]] = []
    while True:
        left = game.candidates(history)
        yield (f"{len(left)} code(s) left: {' '.join(left[:10])}"
               + (" ..." if len(left) > 10 else ""))
        if len(left) == 1:
            yield f"the answer is {left[0]}"
            return
        yield "best next: " + ", ".join(f"{s.word} ({s.entropy:.3f} bits)"
                                        for s in game.best_guesses(history, k=top))
        line = read("")
        if not line.strip() or line.strip().lower() in ("quit", "q"):
            return
        entry = tuple(line.split(None, 1))
        try:
            if len(entry) != 2:
                raise ValueError("write a guess and its feedback, e.g. 1122 1B2W")
            game.replay(history + [entry])
            if not game.candidates(history + [entry]):
                raise ValueError("no code fits all the feedback; check the last entry")
            history.append(entry)
        except (ValueError, KeyError) as exc:
            yield f"not applied: {exc}"
