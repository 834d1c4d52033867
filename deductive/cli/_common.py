"""What every command shares: the error policy, flags made from the engine's parameters,
the decorator that builds a game, progress bars and output."""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import inspect
import json as _json
import math
import os
import re
import sys
import time
import warnings

import click

from .. import __version__
from .._io import check_output, parse_size
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
                _drop_stdout()
                sys.stderr.close()  # a closed pipe (| head) is not an error
                sys.exit(0)
            except OSError as exc:
                if exc.errno not in _FULL:
                    raise
                _drop_stdout()      # a full or failing device (> /dev/full): one line
                fail(_full(exc))
            try:
                if sys.stdout is not None:      # None: started with stdout closed
                    sys.stdout.flush()
            except OSError as exc:
                _drop_stdout()
                fail(_full(exc))
        sys.exit(code if isinstance(code, int) else 0)


#: The errors of a write that cannot complete (a full disk or quota, a failing device).
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _full(exc: OSError) -> str:
    """One line for a write that could not complete (stdout, a cache or a kernel file;
    the files deductive writes for the user say so themselves: :mod:`deductive._io`)."""
    return (f"cannot write the output ({exc.strerror}): the disk is full or a limit is "
            "reached; free space or write elsewhere")


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of what could not be
    written fails no second time (a second message, exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass        # no real stdout (a test runner's): nothing will flush it


class OutputFile(click.ParamType):
    """A file the command will write, checked when the command line is read, before any
    computation (:func:`deductive._io.check_output`: its folder exists and takes a new
    file, the target is absent or a writable regular file, a symlink is followed) and (for
    plots) its extension is a format matplotlib writes. The file itself is written by
    :func:`deductive._io.write_output`: a completed write or nothing."""

    name = "file"

    def __init__(self, plot: bool = False):
        self.plot = plot

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        try:
            if self.plot and not os.path.isdir(path):
                check_plot_path(path)
            check_output(path)
        except DeductiveError as exc:
            self.fail(str(exc), param, ctx)
        return path


class MemorySize(click.ParamType):
    """A number of bytes: ``8G``, ``500M``, ``1.5GB``, ``64k`` or plain bytes (decimal)."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        size = parse_size(value)
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


#: The largest value of a number whose :class:`Param` states no upper bound (documented in
#: docs/reliability.md): beyond these a run only exhausts memory or time.
CEILINGS = {"games": 10 ** 6, "boards": 64, "workers": 4 * (os.cpu_count() or 1),
            "timeout": 86_400.0, "max_guesses": 100, "mines": 1 << 20}
CEILING = 10 ** 12


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
        high = p.high if p.high is not None else p.type(CEILINGS.get(p.name, CEILING))
        kw["type"] = (click.IntRange if p.type is int else FiniteRange)(p.low, high)
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
    """Record word lists a command read (objects with ``name``, ``len()`` and ``sha256`` or
    ``words``) for its --json provenance; lists without words are left out."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta.setdefault(_LISTS, []).extend(lists)


def _list_info(words) -> dict:
    digest = getattr(words, "sha256", None)
    if digest is None:
        digest = hashlib.sha256("\n".join(words.words).encode()).hexdigest()
    return {"name": getattr(words, "name", None), "sha256": digest, "size": len(words)}


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def provenance(ctx: click.Context | None = None) -> dict:
    """What made a --json document: the package version, the word lists read (name,
    SHA-256 of the words joined by newlines, size), the command's parameters as given and
    the seconds since the command line was read."""
    ctx = ctx or click.get_current_context()
    lists = list(ctx.meta.get(_LISTS, []))
    game = ctx.meta.get(_GAME)
    lists += [w for w in (getattr(game, "guesses", None), getattr(game, "answers", None))
              if hasattr(w, "sha256")]
    seen, rows = set(), []
    for info in map(_list_info, lists):
        if (info["name"], info["sha256"]) not in seen:
            seen.add((info["name"], info["sha256"]))
            rows.append(info)
    start = ctx.meta.get(_START, time.perf_counter())
    return {"deductive": __version__, "command": ctx.command_path, "lists": rows,
            "parameters": {k: _plain(v) for k, v in ctx.params.items()},
            "elapsed_s": round(time.perf_counter() - start, 3)}


def show(data, text, json: bool = False) -> None:
    """Print ``data`` as JSON with --json (with its :func:`provenance`: a dict gains its
    keys, a list becomes ``{"results": data, ...}``), else ``text``."""
    if not json:
        click.echo(text)
        return
    made = provenance()
    doc = {**data, **made} if isinstance(data, dict) else {"results": data, **made}
    click.echo(_json.dumps(doc, indent=2, ensure_ascii=False))


def read_line(prompt: str = "") -> str:
    """The next line of stdin ('' at its end), after ``prompt`` on a terminal."""
    if prompt and sys.stdin.isatty():
        click.echo(prompt, nl=False)
    return sys.stdin.readline()
