"""The commands every feedback game has -- openers, bench, play, assist, search,
tree-check -- written once over a :class:`~deductive.engine.feedback.FeedbackGame`, for
each game as its :class:`Face` describes it; and the commands of the peg games (Mastermind,
Bulls and Cows). Wordle's face is in :mod:`.wordle`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import click

from ..distributed import Cluster, wordle_openers
from ..engine.feedback import load_tree, rank_guesses, text, write_tree
from ..engine.feedback.bench import OPENER
from ..engine.feedback.scoring import METRIC, TOP
from ..engine.feedback.tree import TREE
from ..engine.mastermind import BullsAndCows, Mastermind, PegRanking, assist as peg_assist
from ..engine.mastermind.solvers import MASTERMIND_SOLVERS
from ..engine.mastermind.search import PEGS_SEARCH, best_tree, check_tree_file, tree_stats
from ..engine.params import Param
from ..plot import plot_guess_histogram, plot_opener_buckets
from . import bulls_group, mastermind_group
from ._common import JSON, game_command, options, progress, read_line, show

_HELP = {
    "openers": "Rank every allowed guess as a first guess.\n\nThe score of a guess is the "
               "Shannon entropy (bits) of its feedback distribution over the answers (or "
               "another --metric). Ties go to the guess earlier in the guess list.",
    "bench": "Play every answer with a solver and report the guess-count distribution.\n\n"
             "Deterministic solvers (entropy, minimax, expected) evaluate their decision tree "
             "once, all answers together. Games needing more guesses than the rules allow "
             "(Wordle: 6) count as fails.",
    "play": "Play one game against ANSWER and print the grid.",
    "assist": "Help with a game played elsewhere: enter each guess and its feedback.\n\nAfter "
              "each entry it shows how many answers remain, some of them, and the best next "
              "guesses. Works in a terminal and with input piped from a script.",
    "tree-check": "Verify a decision tree against the game and print its statistics.\n\n"
                  "Rejects a tree that misses an answer, uses a guess outside the game, has a "
                  "branch no answer reaches, or (hard mode) plays a guess that breaks the "
                  "rules.",
    "search": "The exact best tree: fewest total guesses (expected) or fewest guesses in the "
              "worst case.",
}
_BACKGROUND = {"green": "green", "yellow": "yellow", "grey": "bright_black"}


def tiles(word: str, colours) -> str:
    """A guess as coloured tiles (``colours``: a game's :meth:`tiles`), or as it is."""
    if colours is None:
        return word
    return "".join(click.style(f" {ch.upper()} ", fg="black", bg=_BACKGROUND[c], bold=True)
                   for ch, c in zip(word, colours))


def row(game, word: str, code: int) -> str:
    """A guess and its feedback, as the game's grid shows them."""
    return f"{tiles(word, game.tiles(code))}  {game.format(code)}"


@dataclass
class Face:
    """One feedback game on the command line."""

    name: str
    build: Callable             # the game, from the values of the parameters below
    game: tuple                 # Params (their names: build's parameters)
    solver: tuple               # the Params that pick its solver
    # each of these gives a typed result to show, and the view its text takes
    openers: Callable           # (ranked, game, metric) -> result
    bench: Callable             # (game, result, tree path) -> (result, view)
    tree_check: Callable        # (game, tree document, path, hard) -> result
    assist: Callable            # (game, read, **options) -> lines, or (guess, code) to draw
    search: Callable            # (game, **values of extra["search"] but json) -> (result, view)
    examples: dict              # command -> the help's example lines
    extra: dict = field(default_factory=dict)   # command -> the parameters the game adds
    about: dict = field(default_factory=dict)   # command -> its help, if not _HELP's
    keep_trees: bool = False    # bench reports the checked tree


def feedback_commands(group, face: Face) -> None:
    """Add openers, bench, play, assist, search and tree-check of ``face``'s game to
    ``group``."""

    def command(name, *items, solver=False):
        examples = face.examples[name]
        help_text = (f"{face.about.get(name, _HELP[name])}\n\n\b\nExample"
                     f"{'s' * (len(examples) > 1)}:\n" + "\n".join(f"  {x}" for x in examples))
        return options(group.command(name, help=help_text), game_command(
            face.build, face.game, face.solver if solver else (), items,
            face.extra.get(name, ())))

    @command("openers", TOP, METRIC, JSON)
    def openers(game, top, metric, json, plot=None, cluster=Cluster()):
        matrix = game.matrix
        ranked = cluster.run(
            lambda client: wordle_openers(client, matrix, game.guesses, metric, top or None),
            lambda: rank_guesses(game.patterns, metric=metric, top=top or None))
        if plot:
            worst = rank_guesses(game.patterns, metric=metric)[-1]
            plot_opener_buckets(matrix, game.guesses, ranked[0].index, worst.index, plot, metric)
            click.echo(f"plot: {plot}", err=True)
        show(face.openers(ranked, game, metric), json)

    @command("bench", OPENER, TREE, JSON, solver=True)
    def bench(game, solver, opener, tree, json, seed=0, answers_subset=None, plot=None):
        n = len(game.answers)
        total = n if answers_subset is None else (
            min(answers_subset, n) if isinstance(answers_subset, int) else len(answers_subset))
        with progress(total, f"bench {solver.name}") as update:
            result = game.bench(solver, opener=opener, answers=answers_subset, seed=seed,
                                    keep_tree=bool(tree) or face.keep_trees, progress=update)
        if tree:
            write_tree(tree, game, result.tree)
        if plot:
            plot_guess_histogram(result, plot)
        result, view = face.bench(game, result, tree)
        show(result, json, **view)

    @command("play", solver=True)
    def play(game, solver, answer, seed=0, opener=None):
        moves = game.play(answer, solver, opener=opener, seed=seed)
        click.echo("\n".join([row(game, word, code) for word, code in moves]
                             + [text.verdict(game, len(moves))]))

    @command("assist", Param("top", 5, "Suggestions shown.", int, 1, 50))
    def assist(game, **settings):
        for item in face.assist(game, read_line, **settings):
            click.echo(item if isinstance(item, str) else row(game, *item))

    @command("search")
    def search(game, json, **values):
        result, view = face.search(game, **values)
        show(result, json, **view)

    @command("tree-check", click.argument("tree_file", type=click.Path(dir_okay=False)), JSON)
    def tree_check(game, tree_file, json, check_hard=None):
        show(face.tree_check(game, load_tree(tree_file), tree_file, check_hard), json)


def _pegs_bench(game, result, tree_path):
    return tree_stats(game, result.tree, solver=result.solver["solver"],
                      opener=result.tree["guess"], seconds=round(result.seconds, 3)), {}


def _pegs_search(game, objective, opener, max_guesses, tree):
    with progress(len(game.openers()), f"{game.name} search") as update:
        r = best_tree(game, objective, opener, max_guesses, progress=update)
    if tree:
        write_tree(tree, game, r.tree)
    return tree_stats(game, r.tree, objective=objective, opener=r.opener, exact=r.exact,
                      seconds=round(r.seconds, 3), nodes=r.nodes), {}


def peg_commands(group, build, game, small, codes):
    """Add its commands to the group of a game of pegs, ``build(**values of game)``.
    ``small`` are the options of a game small enough for quick examples, ``codes`` a first
    guess, a feedback to it, and an answer (the help texts' examples)."""
    name, (first, feedback, answer) = group.name, codes
    feedback_commands(group, Face(
        name, build, game, solver=(MASTERMIND_SOLVERS.param("solver", "entropy"),),
        openers=PegRanking.of, bench=_pegs_bench,
        tree_check=lambda game, doc, path, hard: check_tree_file(game, doc, path),
        assist=peg_assist, search=_pegs_search, keep_trees=True,
        extra={"play": (click.argument("answer"),), "search": (PEGS_SEARCH, JSON)},
        examples={"openers": [f"deductive {name} openers --top 5"],
                  "bench": [f"deductive {name} bench --solver knuth --json"],
                  "play": [f"deductive {name} play {answer} --solver knuth"],
                  "assist": [f"printf '{first} {feedback}\\n' | deductive {name} assist"],
                  "search": [f"deductive {name} search{small} --objective worst --tree "
                             "worst.json", f"deductive {name} search{small} --opener "
                             f"{first[:len(first) - bool(small)]}"],
                  "tree-check": [f"deductive {name} search{small} --objective worst --tree "
                                 "t.json", f"deductive {name} tree-check t.json{small}"]}))


# the groups and their help are in deductive/cli/__init__.py: their --help needs no numpy
peg_commands(mastermind_group, lambda pegs, colours, no_repeat: Mastermind(
    pegs, colours, not no_repeat), (Param("pegs", 4, type=int, low=1, high=8),
                                   Param("colours", 6, type=int, low=2, high=10),
                                   Param("no_repeat", False, "Codes of distinct colours.", bool)),
    "", ("1123", "1B0W", "3632"))
peg_commands(bulls_group, lambda digits: BullsAndCows(digits), (Param(
    "digits", 4, "Length of the secret number (distinct digits).", int, 1, 5),),
    " --digits 3", ("0123", "1B0C", "7093"))
