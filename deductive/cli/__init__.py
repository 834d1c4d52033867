"""The ``deductive`` command line.

Its commands are imported only when one runs (or its help is asked for): ``deductive
--help``, ``--version`` and ``deductive wordle --help`` import neither numpy nor numba.
Each lazy command is listed here by where it is defined and its short help (its
docstring's first sentence; ``tests/cli/test_cli_lazy.py`` checks each against the command).
"""

import os

import click

from .. import __version__
from ..engine._parallel import THREADS, _checked, get_threads, set_threads
from ._group import Group
from ._options import flag

__all__ = ["cli", "main"]

#: Wordle's commands, with their short help; importing :mod:`.wordle` adds them to the group.
_WORDLE_COMMANDS = {
    "pattern": "Show the feedback GUESS gets when the secret is ANSWER.",
    "matrix": "Build (or load from the cache) the guess x answer pattern matrix.",
    "second": "The best second guess for every feedback of an opener.",
    "openers": "Rank every allowed guess as a first guess.",
    "bench": "Play every answer with a solver and report the guess-count distribution.",
    "play": "Play one game against ANSWER and print the grid.",
    "assist": "Help with a game played elsewhere: enter each guess and its feedback.",
    "search": "Search the decision tree with the fewest total guesses (ties: worst case), or "
              "the fewest in the worst case.",
    "tree-check": "Verify a decision tree against the game and print its statistics.",
    "verify-ranking": "Check a --prove-best checkpoint file as a proof: a row for every opener "
                      "of the lists, every bound recomputed, the best and a seeded sample of "
                      "exact rows searched again from scratch and their trees checked.",
    "multi": "Multi-board Wordle: random games with the entropy solver (sum of the boards' "
             "entropies; a board whose answer is known is played first).",
    "absurdle": "Absurdle: the adversary keeps the largest bucket (ties: fewest greens, then "
                "yellows, then grey before yellow before green from the first letter).",
}


@click.group("wordle", cls=Group, lazy={
    name: ("deductive.cli.wordle", short) for name, short in _WORDLE_COMMANDS.items()})
def wordle_group():
    """Wordle: patterns, the pattern matrix, openers, solvers, search.

    \b
    Examples:
      deductive wordle pattern crane trace
      deductive wordle openers --top 10 --json
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]}, lazy={
    "cache": ("deductive.cli.cache:cache",
              "Inspect, clear or fill the cache of pattern matrices."),
    "hangman": ("deductive.cli.hangman:hangman",
                "Hangman: difficulty sweeps over whole dictionaries, an assistant, a game."),
    "mines": ("deductive.cli.mines:mines",
              "Minesweeper: exact probabilities, forced cells, players, benchmarks."),
    "mastermind": ("deductive.cli.feedback:mastermind",
                   "Mastermind: codes of pegs (1122), black and white feedback (1B2W)."),
    "bulls": ("deductive.cli.feedback:bulls",
              "Bulls and Cows: numbers of distinct digits (0123), bulls and cows (1B2C)."),
    "lists": ("deductive.cli.lists:lists",
              "The built-in word lists: name, role, length, size, SHA-256 and source."),
})
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


cli.add_command(wordle_group)


def main(args=None, prog_name="deductive"):
    """Entry point of the console script."""
    cli.main(args=args, prog_name=prog_name)
