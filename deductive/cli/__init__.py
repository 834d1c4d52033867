"""The ``deductive`` command line."""

import os

import click

from .. import __version__
from ..engine._parallel import THREADS, _checked, get_threads, set_threads
from ._common import Group, flag
from .cache import cache
from .feedback import bulls, mastermind
from .hangman import hangman
from .lists import lists
from .mines import mines
from .wordle import wordle

__all__ = ["cli", "main"]


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="deductive")
@flag(THREADS)
def cli(threads):
    """Fast solvers for deduction games: Wordle, Mastermind, Bulls and Cows, Hangman,
    Minesweeper.

    \b
    Examples:
      deductive wordle openers --top 10
      deductive wordle pattern crane trace
      deductive --threads 1 wordle bench --solver entropy --opener raise
      deductive hangman sweep --words /usr/share/dict/web2 --length 6
      deductive mastermind bench --solver knuth
      deductive mines bench --preset expert --player best --games 1000
      deductive cache info
      deductive lists
    """
    if threads is not None:
        set_threads(_checked(threads, "--threads"))
    elif os.environ.get("DEDUCTIVE_THREADS", "").strip():
        get_threads()               # a bad value stops here, before any work


for _group in (wordle, cache, hangman, mines, mastermind, bulls, lists):
    cli.add_command(_group)


def main(args=None, prog_name="deductive"):
    """Entry point of the console script."""
    cli.main(args=args, prog_name=prog_name)
