"""The commands every feedback game has -- openers, bench, play, assist, tree-check --
written once over a :class:`~deductive.engine.feedback.FeedbackGame`, for each game as
its :class:`Face` (Wordle, Mastermind, Bulls and Cows) describes it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import click

from ..distributed import wordle_openers
from ..engine.feedback import load_tree, rank_guesses, text, write_tree
from ..engine.feedback.bench import OPENER
from ..engine.feedback.scoring import METRIC, TOP
from ..engine.feedback.tree import TREE
from ..engine.params import Param
from ..plot import plot_guess_histogram, plot_opener_buckets
from ._common import JSON, Cluster, game_command, options, read_line, show
from ._progress import progress

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
    build: Callable             # the game, from the values of the options below
    game_options: tuple         # click options (their names: build's parameters)
    solver: tuple               # the options that pick its solver
    openers: Callable           # (ranked, game, metric) -> text
    bench: Callable             # (game, result, tree path) -> (data, text)
    tree_check: Callable        # (game, tree document, path, hard) -> (data, text)
    assist: Callable            # (game, read, **options) -> lines, or (guess, code) to draw
    examples: dict              # command -> the help's example lines
    extra: dict = field(default_factory=dict)   # command -> the options the game adds
    keep_trees: bool = False    # bench reports the checked tree


def feedback_commands(group, face: Face) -> None:
    """Add openers, bench, play, assist and tree-check of ``face``'s game to ``group``."""

    def command(name, *decorators, solver=False):
        examples = face.examples[name]
        help_text = (f"{_HELP[name]}\n\n\b\nExample{'s' * (len(examples) > 1)}:\n"
                     + "\n".join(f"  {line}" for line in examples))
        return options(group.command(name, help=help_text), game_command(
            face.build, *face.game_options, *(face.solver if solver else ()), *decorators,
            *face.extra.get(name, ())))

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
        show([s.as_dict() for s in ranked], face.openers(ranked, game, metric), json)

    @command("bench", OPENER, TREE, JSON, solver=True)
    def bench(game, solver, opener, tree, json, seed=0, answers_subset=None, plot=None):
        n = len(game.answers)
        total = n if answers_subset is None else (
            min(answers_subset, n) if isinstance(answers_subset, int) else len(answers_subset))
        with progress(total, f"bench {solver.name}") as update:
            result = game.benchmark(solver, opener=opener, answers=answers_subset, seed=seed,
                                    keep_tree=bool(tree) or face.keep_trees, progress=update)
        if tree:
            write_tree(tree, game, result.tree)
        if plot:
            plot_guess_histogram(result, plot)
        show(*face.bench(game, result, tree), json)

    @command("play", solver=True)
    def play(game, solver, answer, seed=0, opener=None):
        moves = game.play(answer, solver, opener=opener, seed=seed)
        click.echo("\n".join([row(game, word, code) for word, code in moves]
                             + [text.verdict(game, len(moves))]))

    @command("assist", Param("top", 5, "Suggestions shown.", int, 1, 50))
    def assist(game, **settings):
        for item in face.assist(game, read_line, **settings):
            click.echo(item if isinstance(item, str) else row(game, *item))

    @command("tree-check", click.argument("tree_file", type=click.Path(dir_okay=False)), JSON)
    def tree_check(game, tree_file, json, check_hard=None):
        show(*face.tree_check(game, load_tree(tree_file), tree_file, check_hard), json)
