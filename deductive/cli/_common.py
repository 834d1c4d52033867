"""What every command shares: the error policy, flags made from the engine's parameters,
the decorator that builds a game, progress bars and output."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json as _json
import math
import os
import re
import sys
import time
import warnings

import click

from .. import _io
from ..distributed import DASK, Cluster
from ..engine.params import Param
from ..engine.words import frequency_languages
from ..engine.wordle import patterns
from ..errors import DeductiveError
from ..plot import check_plot_path

#: A bar appears only once a job has run this long: quick jobs stay quiet.
DELAY = 0.5
#: --json, for every command with a table a script may want; --plot, for those that draw.
JSON = Param("json", False, "Print machine-readable JSON instead of a table.", bool)
PLOT = Param("plot", None, "Write a PNG of the result.", kind="plot")


def fail(message: str, code: int = 2):
    """Print one line on stderr and exit: the policy for every user mistake."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _flags(text: str) -> str:
    """Engine texts name parameters in backquotes (`max_guesses`): here they are flags."""
    return re.sub(r"`(\w+)`", lambda m: "--" + m[1].replace("_", "-"), text)


class Group(click.Group):
    """A click group that turns user errors into one line on stderr and exit status 2.

    Engine errors name parameters in backquotes (`max_guesses`); on the command line they
    are flags (--max-guesses). Sub-groups use the class too (``group_class = type``).
    """

    group_class = type

    def invoke(self, ctx):
        ctx.meta.setdefault(_START, time.perf_counter())
        return super().invoke(ctx)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        with warnings.catch_warnings():
            warnings.showwarning = lambda message, *_: click.echo(f"warning: {message}", err=True)
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except DeductiveError as exc:
                fail(_flags(str(exc)))
            except click.UsageError as exc:
                where = exc.ctx.command_path if exc.ctx else "deductive"
                fail(f"{exc.format_message()} (see '{where} --help')", exc.exit_code)
            except click.ClickException as exc:
                fail(exc.format_message(), exc.exit_code)
            except click.Abort:
                fail("aborted", 130)
            except BrokenPipeError:
                _io.drop_stdout()
                sys.stderr.close()  # a closed pipe (| head) is not an error
                sys.exit(0)
            except OSError as exc:  # a full or failing device (> /dev/full): one line
                if exc.errno not in _io.FULL:
                    raise
                fail(_io.unwritable(exc))
            if message := _io.flush_stdout():
                fail(message)
        sys.exit(code if isinstance(code, int) else 0)


class OutputFile(click.ParamType):
    """A file the command will write, checked before any computation (:func:`deductive.
    _io.check_output`) and (for plots) its extension is a format matplotlib writes."""

    name = "file"

    def __init__(self, plot: bool = False):
        self.plot = plot

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        try:
            if self.plot and not os.path.isdir(path):
                check_plot_path(path)
            _io.check_output(path)
        except DeductiveError as exc:
            self.fail(str(exc), param, ctx)
        return path


class MemorySize(click.ParamType):
    """A number of bytes: ``8G``, ``500M``, ``1.5GB``, ``64k`` or plain bytes (decimal)."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        size = _io.parse_size(value)
        if size is None:
            self.fail(f"{value!r} is not a size; write e.g. 8G, 500M or 1.5GB", param, ctx)
        return size


class FiniteRange(click.FloatRange):
    """A float within its range and finite: NaN and infinities are refused when the
    command line is read (NaN compares false with any bound and would pass a range)."""

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if not math.isfinite(value):
            self.fail(f"{value} is not a finite number", param, ctx)
        return value


def _check_lang(ctx, param, value):
    """--lang: a language wordfreq has frequencies for (only the frequency prior uses it)."""
    if value is None:
        return value
    languages = frequency_languages()
    if value not in languages:
        raise click.BadParameter(f"{value!r}: wordfreq has no frequencies for it; choose one "
                                 f"of {', '.join(languages)}", ctx, param)
    return value


#: What a :class:`Param`'s ``kind`` means on the command line.
_KINDS = {"output": dict(type=OutputFile()), "plot": dict(type=OutputFile(plot=True)),
          "size": dict(type=MemorySize()), "lang": dict(callback=_check_lang),
          "file": dict(type=click.Path(dir_okay=False)),
          "folder": dict(type=click.Path(file_okay=False))}


def flag(p: Param):
    """The click option of an engine :class:`Param`."""
    shown = p.default is not None if p.show_default is None else p.show_default
    kw = dict(default=p.default, help=p.help and _flags(p.help), metavar=p.metavar,
              required=p.required, envvar=p.envvar, show_default=shown, **_KINDS.get(p.kind, {}))
    if p.required and p.default is None:
        del kw["default"]       # click >= 8.3 takes an explicit None as a value given
    if p.type is bool:
        kw.update({} if "/" in p.flag else {"is_flag": True})
    elif isinstance(p.type, tuple):
        kw["type"] = click.Choice(p.type)
    elif p.type in (int, float):
        kw["type"] = (click.IntRange if p.type is int else FiniteRange)(*p.bounds)
    elif p.type is not str:
        kw["type"] = p.type
    return click.option(p.flag, p.name, **kw)


def options(*items):
    """One decorator of ``items`` (click decorators, :class:`Param` s, tuples of them),
    applied as if stacked in the order listed."""
    decorators = [options(*d) if isinstance(d, tuple) else flag(d) if isinstance(d, Param)
                  else d for d in items]
    return lambda func: functools.reduce(lambda f, d: d(f), reversed(decorators), func)


def gather(name: str, factory, *items):
    """The options ``items`` define, handed to the command as one argument: ``name =
    factory(**their values)`` (the factory's parameters name the values it takes)."""
    keys = set(inspect.signature(factory).parameters)

    def decorate(func):
        @functools.wraps(func)
        def command(**kwargs):
            made = factory(**{k: kwargs.pop(k) for k in list(kwargs) if k in keys})
            return func(**{name: made}, **kwargs)
        return options(*items)(command)
    return decorate


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
    if a terminal, once the job has run ``delay`` seconds (a loaded cache shows nothing)."""
    stream = sys.stderr
    if not stream.isatty() or (total is not None and total <= 1):
        yield lambda done, total=None: None
        return
    start = time.perf_counter()
    with contextlib.ExitStack() as stack:
        state = {"bar": None, "done": 0}

        def update(done: int, total: int | None = total):
            bar = state["bar"]
            if bar is None:
                if time.perf_counter() - start < delay or not total:
                    return
                bar = state["bar"] = stack.enter_context(click.progressbar(
                    length=total, label=label, file=stream, show_eta=True, show_percent=True))
            bar.update(done - state["done"])
            state["done"] = done

        yield update


#: Keys of ``click.Context.meta`` (shared by a command's contexts): when the command line
#: started being read, the game a command built, the word lists it read.
_START, _GAME, _LISTS = "deductive.start", "deductive.game", "deductive.lists"


def note_lists(*lists) -> None:
    """Record word lists a command read (or a function giving them, called only for
    --json), for its --json provenance (:func:`deductive._io.provenance`)."""
    click.get_current_context().meta.setdefault(_LISTS, []).extend(lists)


def show(data, text, json: bool = False) -> None:
    """Print ``data`` as JSON with --json, with its provenance (a dict gains its keys, a
    list becomes ``{"results": data, ...}``): the lists noted and the game's, else ``text``."""
    if json:
        ctx, lists = click.get_current_context(), []
        for item in ctx.meta.get(_LISTS, []):
            lists += item() if callable(item) else [item]
        game = ctx.meta.get(_GAME)
        lists += [w for w in (getattr(game, "guesses", 0), getattr(game, "answers", 0))
                  if hasattr(w, "sha256")]
        made = _io.provenance(lists, ctx.command_path, ctx.params, ctx.meta.get(_START))
        data = {**data, **made} if isinstance(data, dict) else {"results": data, **made}
    click.echo(_json.dumps(data, indent=2, ensure_ascii=False) if json else text)


def read_line(prompt: str = "") -> str:
    """The next line of stdin ('' at its end), after ``prompt`` on a terminal."""
    if prompt and sys.stdin.isatty():
        click.echo(prompt, nl=False)
    return sys.stdin.readline()
