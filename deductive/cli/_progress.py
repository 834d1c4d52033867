"""Progress bars on a terminal, silence when piped."""

from __future__ import annotations

import contextlib
import sys
import time

import click

#: A bar appears only once a job has run this long: quick jobs stay quiet.
DELAY = 0.5


@contextlib.contextmanager
def progress(total: int, label: str, delay: float = DELAY):
    """Yield ``update(done)``; draws a bar on stderr only when stderr is a terminal, and
    only once the job has run ``delay`` seconds (so a loaded cache shows nothing)."""
    stream = sys.stderr
    if not stream.isatty() or total <= 1:
        yield lambda done: None
        return
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        state = {"bar": None, "done": 0}

        def update(done: int):
            bar = state["bar"]
            if bar is None:
                if time.perf_counter() - start < delay:
                    return
                bar = state["bar"] = stack.enter_context(click.progressbar(
                    length=total, label=label, file=stream, show_eta=True, show_percent=True))
            bar.update(done - state["done"])
            state["done"] = done

        yield update
