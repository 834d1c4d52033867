"""Progress bars on a terminal, silence when piped."""

from __future__ import annotations

import contextlib
import sys

import click


@contextlib.contextmanager
def progress(total: int, label: str):
    """Yield ``update(done)``; draws a bar on stderr only when stderr is a terminal."""
    if not sys.stderr.isatty() or total <= 1:
        yield lambda done: None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr,
                           show_eta=True, show_percent=True) as bar:
        state = {"done": 0}

        def update(done: int):
            bar.update(done - state["done"])
            state["done"] = done

        yield update
