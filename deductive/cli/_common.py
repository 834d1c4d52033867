"""What every command shares: the error policy, shared options, output helpers."""

from __future__ import annotations

import json
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
                fail(str(exc))
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


def echo_json(obj) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


json_option = click.option("--json", "as_json", is_flag=True,
                           help="Print machine-readable JSON instead of a table.")

cache_dir_option = click.option(
    "--cache-dir", type=click.Path(file_okay=False), default=None,
    help="Cache directory (default: $DEDUCTIVE_CACHE_DIR, else ~/.cache/deductive).",
)


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
    answer_list = load_words(answers or guesses, role="answers", length=length)
    return guess_list, answer_list


def game_options(func):
    """Word lists, --hard, --prior, --lang and --cache-dir: what builds a Wordle game."""
    func = click.option("--lang", default=None,
                        help="Language of the frequency prior (default: fr for fr lists, else en).")(func)
    func = click.option("--prior", type=click.Choice(["uniform", "frequency"]), default="uniform",
                        show_default=True,
                        help="Weights of the answers: used by entropy and weighted averages.")(func)
    func = click.option("--hard", is_flag=True,
                        help="NYT hard mode: keep greens, reuse every revealed letter.")(func)
    func = cache_dir_option(func)
    return word_list_options(default="en")(func)


def solver_options(func):
    """--solver, --pool and --seed, defined once."""
    func = click.option("--seed", type=int, default=0, show_default=True,
                        help="Seed of the random solvers (each answer gets (seed, index)).")(func)
    func = click.option("--pool", type=click.Choice(["all", "candidates"]), default="all",
                        show_default=True,
                        help="Guesses a scoring solver may play: any allowed guess, or only "
                             "the remaining candidates.")(func)
    func = click.option("--solver", "solver_name", default="entropy", show_default=True,
                        help="random, csp, entropy, minimax, expected or lookahead.")(func)
    return func


def make_game(guesses, answers, length, cache_dir, hard, prior, lang):
    from ..engine.game import Wordle

    guess_list, answer_list = load_lists(guesses, answers, length)
    return Wordle(guess_list, answer_list, hard=hard, prior=prior, lang=lang,
                  cache_dir=cache_dir)


def make_solver(game, name, pool):
    options = {"pool": pool} if name in ("entropy", "minimax", "expected") else {}
    return game.solver(name, **options)


def dask_options(func):
    """--workers and --scheduler: run the sweep on Dask (extra ``dask``)."""
    func = click.option("--scheduler", default=None, metavar="ADDRESS",
                        help="Run on an existing Dask cluster (tcp://HOST:8786).")(func)
    func = click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Run on a local Dask cluster of this many worker processes.")(func)
    return func
