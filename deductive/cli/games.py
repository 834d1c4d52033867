"""``deductive mastermind ...`` and ``deductive bulls ...``: the feedback commands over
Mastermind and Bulls and Cows, and their exact search, built for each game by
:func:`peg_group`."""

from __future__ import annotations

import click

from ..engine.feedback import write_tree
from ..engine.feedback.tree import TREE
from ..engine.mastermind import BullsAndCows, Mastermind, text
from ..engine.mastermind.game import MASTERMIND_SOLVERS
from ..engine.mastermind.search import best_tree, check_tree_file, tree_report
from ..engine.params import Param
from ._common import JSON, Group, game_command, show
from ._progress import progress
from .feedback import Face, feedback_commands

#: The parameters of :func:`best_tree` (kept here while engine/mastermind/ is being edited).
SEARCH = (Param("objective", "expected", type=("expected", "worst")),
          Param("opener", None, "Search only trees opening with this code (default: every "
                "first guess, one per symmetry class)."),
          Param("max_guesses", None, "Only trees that never need more guesses (objective "
                "expected).", int, low=1), TREE.but(help=None))


def _bench(game, result, tree_path):
    stats = tree_report(game, result.tree, solver=result.solver["solver"],
                        opener=result.tree["guess"], seconds=round(result.seconds, 3))
    return stats, text.summary(stats)


def _tree_check(game, doc, path, hard):
    stats = check_tree_file(game, doc, path)
    return stats, text.summary(stats)


def peg_group(name, build, game_params, doc, small, codes):
    """The group of a game of pegs, ``build(**values of game_params)``: the feedback
    commands and ``search``. ``small`` are the options of a game small enough for quick
    examples, ``codes`` a first guess, a feedback to it, and an answer (the help texts'
    examples)."""
    first, feedback, answer = codes
    group = Group(name, help=f"{doc}\n\n\b\nExamples:\n  deductive {name} bench "
                        f"--solver knuth\n  deductive {name} search{small} --objective worst")
    feedback_commands(group, Face(
        name, build, game_params, solver=(MASTERMIND_SOLVERS.param("solver", "entropy"),),
        openers=lambda ranked, game, metric: text.scores(ranked), bench=_bench,
        tree_check=_tree_check, assist=text.assist, keep_trees=True,
        extra={"play": (click.argument("answer"),)},
        examples={"openers": [f"deductive {name} openers --top 5"],
                  "bench": [f"deductive {name} bench --solver knuth --json"],
                  "play": [f"deductive {name} play {answer} --solver knuth"],
                  "assist": [f"printf '{first} {feedback}\\n' | deductive {name} assist"],
                  "tree-check": [f"deductive {name} search{small} --objective worst --tree "
                                 "t.json", f"deductive {name} tree-check t.json{small}"]}))

    @group.command(help="The exact best tree: fewest total guesses (expected) or fewest "
                   f"guesses in the worst case.\n\n\b\nExamples:\n  deductive {name} search"
                   f"{small} --objective worst --tree worst.json\n  deductive {name} search"
                   f"{small} --opener {first[:len(first) - bool(small)]}")
    @game_command(build, game_params, SEARCH, JSON)
    def search(game, objective, opener, max_guesses, tree, json):
        with progress(len(game.openers()), f"{name} search") as update:
            r = best_tree(game, objective, opener, max_guesses, progress=update)
        if tree:
            write_tree(tree, game, r.tree)
        stats = tree_report(game, r.tree, objective=objective, opener=r.opener, exact=r.exact,
                            seconds=round(r.seconds, 3), nodes=r.nodes)
        show(stats, text.summary(stats), json)

    return group


def _mastermind(pegs, colours, no_repeat):
    return Mastermind(pegs, colours, not no_repeat)


mastermind = peg_group("mastermind", _mastermind, (
    Param("pegs", 4, type=int, low=1, high=8), Param("colours", 6, type=int, low=2, high=10),
    Param("no_repeat", False, "Codes of distinct colours.", bool)),
    "Mastermind: codes of pegs (1122), black and white feedback (1B2W).", "",
    ("1123", "1B0W", "3632"))
bulls = peg_group("bulls", lambda digits: BullsAndCows(digits), (Param(
    "digits", 4, "Length of the secret number (distinct digits).", int, 1, 4),),
    "Bulls and Cows: numbers of distinct digits (0123), bulls and cows (1B2C).",
    " --digits 3", ("0123", "1B0C", "7093"))
