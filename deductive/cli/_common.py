"""What every command shares: the error policy, shared options, output helpers."""

from __future__ import annotations

import functools
import json
import re
import sys
import warnings

import click

from ..errors import DeductiveError

EXIT_USAGE = 2


def fail(message: str, code: int = EXIT_USAGE):
    """Print one line on stderr and exit: the policy for every user mistake."""
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    click.echo(f"warning: {message}", err=True)


class Group(click.Group):
    """A click group that turns user errors into one line on stderr and exit status 2.

    Sub-groups use it too (``group_class = type`` hands the class down).
    """

    group_class = type

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            try:
                code = super().main(args, prog_name, complete_var, False, **extra)
            except DeductiveError as exc:
                fail(_as_flags(str(exc)))
            except click.UsageError as exc:
                where = exc.ctx.command_path if exc.ctx else "deductive"
                fail(f"{exc.format_message()} (see '{where} --help')", exc.exit_code)
            except click.ClickException as exc:
                fail(exc.format_message(), exc.exit_code)
            except click.Abort:
                fail("aborted", 130)
            except BrokenPipeError:
                sys.stderr.close()  # a closed pipe (| head) is not an error
                sys.exit(0)
        sys.exit(code if isinstance(code, int) else 0)


def _as_flags(message: str) -> str:
    """Engine errors name parameters in backquotes (`max_guesses`); on the command line
    they are flags (--max-guesses)."""
    return re.sub(r"`(\w+)`", lambda m: "--" + m[1].replace("_", "-"), message)


#: Seeds of numpy's generators: non-negative integers.
SEED = click.IntRange(min=0)


class OutputFile(click.ParamType):
    """A file the command will write, checked when the command line is read, before any
    computation: its folder exists and takes a new file, it is not a folder, and (for
    plots) its extension is a format matplotlib writes."""

    name = "file"

    def __init__(self, plot: bool = False):
        self.plot = plot

    def convert(self, value, param, ctx):
        import os
        import tempfile

        path = os.fspath(value)
        if os.path.isdir(path):
            self.fail(f"{path} is a folder; give a file name", param, ctx)
        if self.plot:
            self._check_format(path, param, ctx)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            self.fail(f"cannot write {path}: the folder {folder} does not exist", param, ctx)
        try:    # the one sure test (permissions, read-only file systems, root or not)
            tempfile.TemporaryFile(dir=folder).close()
            if os.path.exists(path):
                open(path, "ab").close()
        except OSError as exc:
            self.fail(f"cannot write {path} ({exc.strerror}); choose another place", param, ctx)
        return path

    def _check_format(self, path, param, ctx):
        import os

        try:
            from matplotlib.backend_bases import FigureCanvasBase
        except ImportError:
            self.fail("plots need matplotlib: pip install 'deductive[plot]'", param, ctx)
        formats = FigureCanvasBase.get_supported_filetypes()
        extension = os.path.splitext(path)[1].lstrip(".").lower()
        if extension not in formats:
            self.fail(f"{path}: unknown plot format {extension or '(no extension)'!r}; end the "
                      f"name with one of {', '.join('.' + f for f in sorted(formats))}",
                      param, ctx)


def check_lang(ctx, param, value):
    """--lang: a language wordfreq has frequencies for (only the frequency prior uses it)."""
    if value is None:
        return value
    import wordfreq

    languages = sorted(wordfreq.available_languages(wordlist="best"))
    if value not in languages:
        raise click.BadParameter(f"{value!r}: wordfreq has no frequencies for it; choose one "
                                 f"of {', '.join(languages)}", ctx, param)
    return value


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print machine-readable JSON instead of a table.")

cache_dir_option = click.option(
    "--cache-dir", type=click.Path(file_okay=False), default=None,
    help="Cache directory (default: $DEDUCTIVE_CACHE_DIR, else ~/.cache/deductive).",
)


class MemorySize(click.ParamType):
    """A number of bytes: ``8G``, ``500M``, ``1.5GB``, ``64k`` or plain bytes (decimal)."""

    name = "size"
    _UNITS = {"": 1, "b": 1, "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "t": 10 ** 12}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        import re

        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)b?\s*", str(value).lower())
        if not match or float(match.group(1)) <= 0:
            self.fail(f"{value!r} is not a size; write e.g. 8G, 500M or 1.5GB", param, ctx)
        return int(float(match.group(1)) * self._UNITS[match.group(2)])


class MatrixSource:
    """Where a command's pattern matrix comes from: ``--cache-dir``, ``--no-cache`` (or
    ``$DEDUCTIVE_NO_CACHE=1``) and ``--max-memory``; a progress bar while it is built."""

    def __init__(self, cache_dir=None, no_cache=False, max_memory=None):
        self.cache_dir = cache_dir
        self.no_cache = bool(no_cache)
        self.max_memory = max_memory

    def matrix(self, guess_list, answer_list, *, rebuild=False, info=None):
        from ..engine.wordle.patterns import cached_pattern_matrix
        from ._progress import progress

        with progress(len(guess_list), "pattern matrix") as update:
            return cached_pattern_matrix(
                guess_list, answer_list, False if self.no_cache else self.cache_dir,
                rebuild=rebuild, info=info, max_bytes=self.max_memory, progress=update)


def matrix_options(func):
    """--cache-dir, --no-cache and --max-memory, handed to the command as one
    :class:`MatrixSource` (parameter ``source``)."""
    @functools.wraps(func)
    def command(*args, cache_dir, no_cache, max_memory, **kwargs):
        return func(*args, source=MatrixSource(cache_dir, no_cache, max_memory), **kwargs)

    command = click.option(
        "--max-memory", type=MemorySize(), default=None, metavar="SIZE",
        help="Refuse a pattern matrix larger than this (e.g. 8G; default: the memory "
             "available).")(command)
    command = click.option(
        "--no-cache", is_flag=True, envvar="DEDUCTIVE_NO_CACHE",
        help="Compute the matrix in memory; neither read nor write the cache "
             "(also DEDUCTIVE_NO_CACHE=1).")(command)
    return cache_dir_option(command)


def word_list_options(default: str | None = "en"):
    """--guesses, --answers and --length, defined once for every Wordle command."""

    def decorate(func):
        func = click.option(
            "--length", type=click.IntRange(2, 12), default=None,
            help="Word length: builds a built-in list of this length, or keeps only words "
                 "of this length from a file (default 5 for built-in lists).",
        )(func)
        func = click.option(
            "--answers", metavar="FILE|NAME", default=None,
            help="Possible answers: a file or a built-in name (default: the guess source; "
                 "for a built-in name, its answer list).",
        )(func)
        func = click.option(
            "--guesses", metavar="FILE|NAME", default=default, show_default=bool(default),
            help="Allowed guesses: a file (one word per line) or a built-in name "
                 "(en, fr, fr-seed).",
        )(func)
        return func

    return decorate


def load_lists(guesses: str, answers: str | None, length: int | None):
    """Load the guess and answer lists named on the command line."""
    from ..engine.words import load_words

    guess_list = load_words(guesses, role="guesses", length=length)
    if answers in (None, guesses) and guess_list.name == str(guesses):
        return guess_list, guess_list    # one file for both: read (and warned of) once
    answer_list = load_words(answers or guesses, role="answers", length=length)
    return guess_list, answer_list


def _game_options(func):
    """Word lists, --hard, --prior, --lang and the matrix's source: what builds a game."""
    func = click.option("--lang", default=None, callback=check_lang,
                        help="Language of the frequency prior (default: fr for fr lists, "
                             "else en).")(func)
    func = click.option("--prior", type=click.Choice(["uniform", "frequency"]), default="uniform",
                        show_default=True,
                        help="Weights of the answers: used by entropy and weighted averages.")(func)
    func = click.option("--hard", is_flag=True,
                        help="NYT hard mode: keep greens, reuse every revealed letter.")(func)
    func = matrix_options(func)
    return word_list_options(default="en")(func)


def _solver_options(func):
    """--solver, --pool and --seed."""
    func = click.option("--seed", type=SEED, default=0, show_default=True,
                        help="Seed of the random solvers (each answer gets (seed, index)).")(func)
    func = click.option("--pool", type=click.Choice(["all", "candidates"]), default="all",
                        show_default=True,
                        help="Guesses a scoring solver may play: any allowed guess, or only "
                             "the remaining candidates.")(func)
    func = click.option("--solver", "solver_name", default="entropy", show_default=True,
                        help="random, csp, entropy, minimax, expected or lookahead.")(func)
    return func


def game_command(solver: bool = False, check=None):
    """The options that build the command's Wordle game, handed to it as ``game`` (with
    ``solver=True`` also --solver, --pool and --seed, handed over as ``solver`` and
    ``seed``).

    Before the matrix is built or read, the lists are checked, and so are the solver's
    name, an ``opener`` option and whatever ``check(game, options)`` checks on a game that
    has no matrix yet: a mistake costs no computation.
    """

    def decorate(func):
        @functools.wraps(func)
        def command(guesses, answers, length, source, hard, prior, lang, **options):
            from ..engine.wordle.game import Wordle

            name = options.pop("solver_name", None) if solver else None
            pool = options.pop("pool", None) if solver else None
            guess_list, answer_list = load_lists(guesses, answers, length)
            settings = dict(hard=hard, prior=prior, lang=lang, cache_dir=source.cache_dir)
            bare = Wordle(guess_list, answer_list, **settings)   # checks the lists
            if name is not None:
                bare.solvers[name]                  # an unknown name lists the valid ones
            if options.get("opener") is not None:
                bare.guess_index(options["opener"])
            if check is not None:
                check(bare, options)
            game = Wordle(guess_list, answer_list, **settings,
                          matrix=source.matrix(guess_list, answer_list))
            if solver:
                takes_pool = "pool" in game.solvers[name].options
                options["solver"] = game.solver(name, **({"pool": pool} if takes_pool else {}))
            return func(game=game, **options)

        command = _game_options(command)
        return _solver_options(command) if solver else command

    return decorate


_DASK_TIMEOUT = "deductive.dask_timeout"


def _keep_timeout(ctx, param, value):
    ctx.meta[_DASK_TIMEOUT] = value


def _check_scheduler(ctx, param, value):
    """--scheduler: a well-formed address of a scheduler that answers within --timeout,
    checked when the command line is read, before any work (--timeout is read first)."""
    if value is None:
        return value
    from ..distributed.cluster import CONNECT_TIMEOUT, probe_scheduler, scheduler_address

    address, host, port = scheduler_address(value)
    probe_scheduler(address, host, port, ctx.meta.get(_DASK_TIMEOUT, CONNECT_TIMEOUT))
    return address


def dask_timeout() -> float:
    """The --timeout of the running command (seconds a scheduler has to answer)."""
    from ..distributed import CONNECT_TIMEOUT

    return click.get_current_context().meta.get(_DASK_TIMEOUT, CONNECT_TIMEOUT)


def dask_options(func):
    """--workers, --scheduler and --timeout: run the sweep on Dask (extra ``dask``).

    The timeout reaches the command through :func:`dask_timeout`, so that commands keep
    the two parameters they had.
    """
    func = click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0,
                        show_default=True, expose_value=False, callback=_keep_timeout,
                        is_eager=True,
                        help="Seconds the scheduler at --scheduler has to answer.")(func)
    func = click.option("--scheduler", default=None, metavar="ADDRESS",
                        callback=_check_scheduler,
                        help="Run on an existing Dask cluster (tcp://HOST:8786).")(func)
    func = click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Run on a local Dask cluster of this many worker processes.")(func)
    return func
