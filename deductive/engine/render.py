"""One way to show a result, as JSON and as text.

Every result a command shows is a typed object with ``to_json()``: what ``--json`` prints
and what a program reads. Its text, what a person reads, is :func:`render` of the same
object. Each game writes its text forms once, in its own ``text`` module
(``engine/<game>/text.py``), which registers one function per result type (the cache's
summary has its text in Wordle's, the built-in lists theirs beside them). The
command line prints one form or the other (``deductive.cli._common.show``) and never
formats a result itself. ``view`` settings (how many words or rows to show) go to the text
form, and to ``to_json`` where it takes them.

    >>> from deductive.engine.hangman import solve
    >>> report = solve("en", "_a_e", "sti")
    >>> render(report, show=3).splitlines()[0]
    '...candidate(s): ...'
"""

from __future__ import annotations

import functools
from typing import Any, Protocol, runtime_checkable

__all__ = ["Result", "render"]


@runtime_checkable
class Result(Protocol):
    """What every shown result has: its JSON form (plain dicts, lists, numbers, strings)."""

    def to_json(self) -> Any:
        """The JSON form: what ``--json`` prints."""


@functools.singledispatch
def render(result: object, **view: Any) -> str:
    """The text form of ``result``: the function its game's ``text`` module registered for
    its type, given ``view`` (for instance ``top``: how many rows)."""
    raise TypeError(f"no text form for {type(result).__name__}: register one in its game's "
                    "text module (engine/<game>/text.py)")
