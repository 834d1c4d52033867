"""One way to show a result, as JSON and as text.

Every result a command shows is a typed object with ``to_json()``: what ``--json`` prints
and what a program reads. Its text, what a person reads, is :func:`render` of the same
object. Each game writes its text forms once, in its own ``text`` module
(``engine/<game>/text.py``), which registers one function per result type; the two results
that belong to no game (the cache's summary, the built-in lists) have theirs here. The
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
import warnings
from typing import Any, Protocol, runtime_checkable

from ..cache import CacheSummary
from .words import ListTable

__all__ = ["Result", "render", "OldAsDict"]


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


class OldAsDict:
    """Base of the result types that had ``as_dict()``, the old name of ``to_json()``
    (0.2.0): it still answers, with a DeprecationWarning."""

    def as_dict(self, *args: Any, **kwargs: Any) -> Any:
        """Deprecated: :meth:`to_json`."""
        warnings.warn(f"{type(self).__name__}.as_dict() is deprecated; use to_json()",
                      DeprecationWarning, stacklevel=2)
        return self.to_json(*args, **kwargs)      # type: ignore[attr-defined]


@render.register
def _cache_summary(summary: CacheSummary) -> str:
    """The directory, then one line per file (a temporary file says whose it is)."""
    lines = [f"cache directory: {summary.directory}"]
    if not summary.entries:
        lines.append("no cached matrices")
    for entry in summary.entries:
        size = f"{entry['bytes'] / 1e6:.1f} MB"
        if entry["status"] != "ok":
            lines.append(f"  {entry['path']}  {size}  {entry['status']}")
            continue
        shape = " x ".join(str(n) for n in entry["shape"])
        lines.append(f"  {entry['path']}  {shape} {entry['dtype']}  {size}  guesses "
                     f"{entry['guesses_name']}, answers {entry['answers_name']}  kernel "
                     f"v{entry['kernel_version']}  {entry['created']}")
    live = set(summary.live)
    for path in summary.temporary_files:
        what = "a write in progress" if path in live else "left by a process that stopped"
        lines.append(f"  {path}  (temporary: {what})")
    return "\n".join(lines)


@render.register
def _list_table(table: ListTable) -> str:
    """One line per list: name, role, length, size, the digest's first 16 digits, source."""
    width = max((len(r.name) for r in table.rows), default=0)
    return "\n".join(f"{r.name:<{width}}  {r.role:<7}  {r.length:>2}  {r.size:>6,}  "
                     f"{r.sha256[:16]}  {r.source}" for r in table.rows)
