"""What the game commands share: the decorator that builds a game, where its pattern
matrix comes from, the Dask options, progress bars and output.

The error policy (:mod:`._group`) and the flags (:mod:`._options`) are re-exported here."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json as _json
import sys
import time
from typing import Any

import click

from .. import _io
from ..distributed import DASK, Cluster
from ..engine.render import render
from ..engine.wordle import patterns
from ._group import _START, Group, fail
from ._options import JSON, PLOT, gather, options

__all__ = ["JSON", "PLOT", "Group", "fail", "gather", "options", "game_command",
           "MatrixSource", "matrix_options", "dask_options", "progress", "note_lists", "show",
           "read_line"]

#: A bar appears only once a job has run this long: quick jobs stay quiet.
DELAY = 0.5


def game_command(build, *items):
    """A game's command: ``items`` are its options, and the values of those that ``build``
    takes make the game, handed to the command as ``game``. A solver's options
    (``--solver`` and ``--pool``) are handed over as ``solver``.

    The solver's name, an ``opener``, an ``answer`` and an ``answers_subset`` (which
    becomes the answers it names) are checked before the game's matrix is computed: a
    mistake costs no computation (the matrix is computed when first used).
    """
    def decorate(func):
        @functools.wraps(func)
        def command(game, solver=None, **kwargs):
            if solver is not None:
                game.solvers[solver]                # an unknown name lists the valid ones
            if kwargs.get("opener") is not None:
                game.guess_index(kwargs["opener"])
            if kwargs.get("answer") is not None:
                game.answer_index(kwargs["answer"])
            click.get_current_context().meta[_GAME] = game
            if kwargs.get("answers_subset") is not None:
                kwargs["answers_subset"] = game.answer_subset(kwargs["answers_subset"])
            if solver is not None:
                pool = kwargs.pop("pool", None)
                takes_pool = pool is not None and "pool" in game.solvers[solver].names
                kwargs["solver"] = game.solver(solver, **({"pool": pool} if takes_pool else {}))
            return func(game=game, **kwargs)
        return gather("game", build, *items)(command)
    return decorate


class MatrixSource:
    """Where a command's pattern matrix comes from: ``--cache-dir``, ``--no-cache`` (or
    ``$DEDUCTIVE_NO_CACHE=1``) and ``--max-memory``; a progress bar while it is built."""

    def __init__(self, cache_dir=None, no_cache=False, max_memory=None):
        self.cache_dir, self.no_cache, self.max_memory = cache_dir, bool(no_cache), max_memory

    def matrix(self, guess_list, answer_list, *, rebuild=False, info=None):
        with progress(len(guess_list), "pattern matrix") as update:
            return patterns.cached_pattern_matrix(
                guess_list, answer_list, False if self.no_cache else self.cache_dir,
                rebuild=rebuild, info=info, max_bytes=self.max_memory, progress=update)


#: The pattern matrix's --cache-dir, --no-cache and --max-memory, as one ``source``.
matrix_options = gather("source", MatrixSource, patterns.MATRIX)
#: --workers, --scheduler and --timeout, as one ``cluster``.
dask_options = gather("cluster", Cluster, DASK)


@contextlib.contextmanager
def progress(total: int | None, label: str, delay: float = DELAY):
    """Yield ``update(done)`` (``update(done, total)`` if ``total`` is None); a bar on stderr
    if a terminal, once the job has run ``delay`` seconds (a loaded cache shows nothing).
    ``update(done, total, step)``: a step of the job with a bar of its own (a new bar when
    the total or the step changes)."""
    stream = sys.stderr
    if not stream.isatty() or (total is not None and total <= 1):
        yield lambda done, total=None, step=None: None
        return
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        state: dict[str, Any] = {"bar": None, "done": 0, "shape": None}

        def update(done: int, total: int | None = total, step: str = label):
            if state["bar"] is not None and state["shape"] != (total, step):
                stack.close()           # the next step: a bar of its own
                state.update(bar=None, done=0)
            bar = state["bar"]
            if bar is None:
                if time.perf_counter() - start < delay or not total:
                    return
                bar = state["bar"] = stack.enter_context(click.progressbar(
                    length=total, label=step, file=stream, show_eta=True, show_percent=True))
                state["shape"] = (total, step)
            bar.update(done - state["done"])
            state["done"] = done

        yield update


#: Keys of ``click.Context.meta`` (shared by a command's contexts, like ``_START``): the
#: game a command built, the word lists it read.
_GAME, _LISTS = "deductive.game", "deductive.lists"


def note_lists(*lists) -> None:
    """Record word lists a command read (or a function giving them, called only for
    --json), for its --json provenance (:func:`deductive._io.provenance`)."""
    click.get_current_context().meta.setdefault(_LISTS, []).extend(lists)


def show(result, json: bool = False, **view) -> None:
    """Print a typed result: with --json, its ``to_json()`` (given the ``view`` settings it
    takes) and its provenance (a dict gains its keys, a list becomes ``{"results": data,
    ...}``: the lists noted and the game's); else its text, ``render(result, **view)``."""
    if not json:
        click.echo(render(result, **view))
        return
    takes = inspect.signature(result.to_json).parameters
    data = result.to_json(**{k: v for k, v in view.items() if k in takes})
    ctx = click.get_current_context()
    lists: list[Any] = []
    for item in ctx.meta.get(_LISTS, []):
        lists += item() if callable(item) else [item]
    game = ctx.meta.get(_GAME)
    lists += [w for w in (getattr(game, "guesses", 0), getattr(game, "answers", 0))
              if hasattr(w, "sha256")]
    made = _io.provenance(lists, ctx.command_path, ctx.params, ctx.meta.get(_START))
    data = {**data, **made} if isinstance(data, dict) else {"results": data, **made}
    click.echo(_json.dumps(data, indent=2, ensure_ascii=False))


def read_line(prompt: str = "") -> str:
    """The next line of stdin ('' at its end), after ``prompt`` on a terminal."""
    if prompt and sys.stdin.isatty():
        click.echo(prompt, nl=False)
    return sys.stdin.readline()
