"""The ``deductive`` command line.

Its commands are imported only when one runs (or its help is asked for): ``deductive
--help``, ``--version`` and every group's ``--help`` import neither numpy nor numba.
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


def _lazy_group(name: str, commands: dict[str, str], help: str, module: str = "") -> Group:
    """The group ``deductive NAME``: its commands are those :mod:`deductive.cli.NAME` (or
    ``.module``) adds when imported, each known by its short help until one runs."""
    return Group(name, help=help, lazy={command: (f"deductive.cli.{module or name}", short)
                                        for command, short in commands.items()})


#: The commands every feedback game has (:mod:`.feedback`), search aside, with their short help.
_FEEDBACK_COMMANDS = {
    "openers": "Rank every allowed guess as a first guess.",
    "bench": "Play every answer with a solver and report the guess-count distribution.",
    "play": "Play one game against ANSWER and print the grid.",
    "assist": "Help with a game played elsewhere: enter each guess and its feedback.",
    "tree-check": "Verify a decision tree against the game and print its statistics.",
}


#: Wordle's commands, with their short help; importing :mod:`.wordle` adds them to the group.
_WORDLE_COMMANDS = {
    **_FEEDBACK_COMMANDS,
    "pattern": "Show the feedback GUESS gets when the secret is ANSWER.",
    "matrix": "Build (or load from the cache) the guess x answer pattern matrix.",
    "second": "The best second guess for every feedback of an opener.",
    "search": "Search the decision tree with the fewest total guesses (ties: worst case), or "
              "the fewest in the worst case.",
    "verify-ranking": "Check a --prove-best checkpoint file as a proof.",
    "multi": "Multi-board Wordle: random games with the entropy solver (sum of the boards' "
             "entropies; a board whose answer is known is played first).",
    "absurdle": "Absurdle: the adversary keeps the largest bucket (ties: fewest greens, then "
                "yellows, then grey before yellow before green from the first letter).",
}


wordle_group = _lazy_group("wordle", _WORDLE_COMMANDS, help="""\
Wordle: patterns, the pattern matrix, openers, solvers, search.

    \b
    Examples:
      deductive wordle pattern crane trace
      deductive wordle openers --top 10 --json
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """)


def _peg_group(name: str, doc: str, small: str) -> Group:
    """The group of a game of pegs: importing :mod:`.feedback` adds its commands. ``small``
    are the options of a game small enough for a quick example."""
    return _lazy_group(name, {**_FEEDBACK_COMMANDS, "search": "The exact best tree: fewest "
                              "total guesses (expected) or fewest guesses in the worst case."},
                       f"{doc}\n\n\b\nExamples:\n  deductive {name} bench --solver knuth\n"
                       f"  deductive {name} search{small} --objective worst", "feedback")


mastermind_group = _peg_group("mastermind", "Mastermind: codes of pegs (1122), black and "
                              "white feedback (1B2W).", "")
bulls_group = _peg_group("bulls", "Bulls and Cows: numbers of distinct digits (0123), bulls "
                         "and cows (1B2C).", " --digits 3")


#: The cache's commands, with their short help; importing :mod:`.cache` adds them.
_CACHE_COMMANDS = {
    "info": "List the cached matrices: file, shape, dtype, size, word lists, versions.",
    "clear": "Delete the cached matrices (only deductive's own files).",
    "build": "Build the pattern matrix of two word lists into the cache (no-op if already valid).",
}


cache_group = _lazy_group("cache", _CACHE_COMMANDS, help="""\
Inspect, clear or fill the cache of pattern matrices.

    \b
    Examples:
      deductive cache info
      deductive cache build --guesses guesses.txt --answers answers.txt
      deductive cache clear
    """)


#: Hangman's commands, with their short help; importing :mod:`.hangman` adds them.
_HANGMAN_COMMANDS = {
    "sweep": "Rate every word by the misses a strategy makes on it (the original programs' "
             "difficulty).",
    "solve": "Best next letter for PATTERN (``_`` for unknown letters) and the wrong letters.",
    "play": "Play hangman in the terminal: guess letters; 'hint' asks the strategy.",
    "tree-check": "Replay every word of a list against a strategy tree (JSON, from --tree).",
    "evil": "Evil Hangman: the misses a guesser cannot avoid against an adversary.",
}


hangman_group = _lazy_group("hangman", _HANGMAN_COMMANDS, help="""\
Hangman: difficulty sweeps over whole dictionaries, an assistant, a game.

    \b
    Examples:
      deductive hangman sweep --words /usr/share/dict/web2 --length 6
      deductive hangman sweep --words /usr/share/dict/web2 --length 3 --strategy optimal
      deductive hangman evil --words /usr/share/dict/web2 --length 3
      deductive hangman solve _a__e_ --wrong st
      deductive hangman play --length 6
    """)


#: Minesweeper's commands, with their short help; importing :mod:`.mines` adds them.
_MINES_COMMANDS = {
    "probs": "Exact mine probability of every covered cell of a position.",
    "deduce": "List the cells that are safe or mines in every arrangement (row, column from 1).",
    "bench": "Play N games and report the win rate with a 95% confidence interval.",
    "compare": "Players A and B (as --player) on the same games: A - B with its paired 95% "
               "interval (Newcombe) and the sign test on the games only one of them won.",
    "seed-protocol": "The original programs' table: three strategies, 8x8 with 10 mines, first "
                     "click at the centre opening a 0, 50 games, boards seeded 1000+g and players"
                     " 2000+g.",
    "play": "Show one game step by step: the ASCII board after each move.",
    "generate": "Boards that never need a guess from the first click (the exact engine, the mine "
                "count included, always finds a safe cell), each verified by replaying it.",
}


mines_group = _lazy_group("mines", _MINES_COMMANDS, help="""\
Minesweeper: exact probabilities, forced cells, players, benchmarks.

    \b
    Examples:
      deductive mines probs position.txt --mines 99
      deductive mines bench --preset expert --player best --games 1000
      deductive mines seed-protocol
    """)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]}, lazy={
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


for _group in (wordle_group, mastermind_group, bulls_group, cache_group, hangman_group,
               mines_group):
    cli.add_command(_group)


def main(args=None, prog_name="deductive"):
    """Entry point of the console script."""
    cli.main(args=args, prog_name=prog_name)
