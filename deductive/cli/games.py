"""``deductive mastermind ...`` and ``deductive bulls ...``: one set of feedback-game
commands, built for each game by :func:`feedback_group`."""

from __future__ import annotations

import functools
import json
import sys

import click

from ..engine.feedback import check_tree, load_tree, rank_guesses, tree_document
from ..engine.mastermind import BullsAndCows, Mastermind
from ..engine.mastermind.search import SymmetricSearch, WorstCaseSearch, optimal
from ._common import Group, OutputFile, echo_json, fail, json_option
from ._progress import progress


def _report(game, tree, extra=None) -> dict:
    """The checked tree's statistics (keys as for Wordle) with ``extra`` first."""
    return {**(extra or {}), **check_tree(game, tree_document(game, tree)).as_dict()}


def _show(stats, as_json, tree_path=None, game=None, tree=None):
    if tree_path:
        with open(tree_path, "w", encoding="utf-8") as fh:
            json.dump(tree_document(game, tree), fh)
    if as_json:
        return echo_json(stats)
    head = ", ".join(f"{k} {stats[k]}" for k in ("solver", "opener", "objective") if k in stats)
    click.echo(f"{head}: total {stats['total']}, average {stats['average']:.4f}, worst "
               f"{stats['worst']}" + (f", {stats['seconds']} s" if "seconds" in stats else ""))
    click.echo("distribution: " + ", ".join(f"{k}: {v}" for k, v in stats["distribution"].items()))


def feedback_group(name, build, options, doc, small, codes):
    """A click group of ``openers, bench, search, play, assist, tree-check`` for the game
    ``build(**options)``; ``options`` are click decorators defining those options,
    ``small`` the options of a game small enough for quick examples, ``codes`` a first
    guess, a feedback to it, and an answer (the help texts' examples)."""
    first, feedback, answer = codes

    def game_command(func):
        @functools.wraps(func)
        def command(**kwargs):
            game = build(**{k: kwargs.pop(k) for k in list(kwargs) if k in build.keys})
            for key in ("opener", "answer"):
                if kwargs.get(key) is not None:
                    game.guess_index(kwargs[key])      # a code outside the game: exit 2 now
            if kwargs.get("solver_name") is not None:
                kwargs["solver"] = game.solver(kwargs.pop("solver_name"))
            return func(game, **kwargs)

        for option in reversed(options):
            command = option(command)
        return command

    solver_option = click.option("--solver", "solver_name", default="entropy",
                                 show_default=True, help="knuth, entropy, minimax, expected, "
                                 "random or lookahead.")

    @click.group(name, cls=Group, help=f"{doc}\n\n\b\nExamples:\n  deductive {name} bench "
                 f"--solver knuth\n  deductive {name} search{small} --objective worst")
    def group():
        pass

    @group.command(help=f"Rank every code as a first guess.\n\n\b\nExample:\n  deductive "
                   f"{name} openers --top 5")
    @game_command
    @click.option("--top", type=click.IntRange(min=0), default=10, show_default=True)
    @click.option("--metric", type=click.Choice(["entropy", "minimax", "expected", "buckets"]),
                  default="entropy", show_default=True)
    @json_option
    def openers(game, top, metric, as_json):
        ranked = rank_guesses(game.patterns, metric=metric, top=top or None)
        if as_json:
            return echo_json([s.as_dict() for s in ranked])
        for s in ranked:
            click.echo(f"{s.word}  entropy {s.entropy:.4f}  buckets {s.buckets}  largest "
                       f"{s.largest}  expected {s.expected:.3f}")

    @group.command(help=f"Play every code with a solver.\n\n\b\nExample:\n  deductive {name} "
                   "bench --solver knuth --json")
    @game_command
    @solver_option
    @click.option("--opener", default=None, help="Forced first guess.")
    @click.option("--tree", "tree_path", type=OutputFile(), default=None)
    @json_option
    def bench(game, solver, opener, tree_path, as_json):
        r = game.benchmark(solver, opener=opener, keep_tree=True)
        _show(_report(game, r.tree, {"solver": solver.name, "opener": r.tree["guess"],
                                     "seconds": round(r.seconds, 3)}),
              as_json, tree_path, game, r.tree)

    @group.command(help="The exact best tree: fewest total guesses (expected) or fewest "
                   f"guesses in the worst case.\n\n\b\nExamples:\n  deductive {name} search"
                   f"{small} --objective worst --tree worst.json\n  deductive {name} search"
                   f"{small} --opener {first[:len(first) - bool(small)]}")
    @game_command
    @click.option("--objective", type=click.Choice(["expected", "worst"]), default="expected",
                  show_default=True)
    @click.option("--opener", default=None, help="Search only trees opening with this code "
                  "(default: every first guess, one per symmetry class).")
    @click.option("--max-guesses", type=click.IntRange(min=1), default=None,
                  help="Only trees that never need more guesses (objective expected).")
    @click.option("--tree", "tree_path", type=OutputFile(), default=None)
    @json_option
    def search(game, objective, opener, max_guesses, tree_path, as_json):
        if objective == "worst":
            if opener or max_guesses:
                fail("--objective worst takes neither --opener nor --max-guesses")
            r = WorstCaseSearch(game).search(keep_tree=True)
        elif opener is not None:
            r = SymmetricSearch(game, max_guesses=max_guesses).search_opener(opener, True)
        else:
            with progress(len(game.openers()), f"{name} search") as update:
                r, _ = optimal(game, keep_tree=True, max_guesses=max_guesses, progress=update)
        _show(_report(game, r.tree, {"objective": objective, "opener": r.opener,
                                     "exact": r.exact, "seconds": round(r.seconds, 3),
                                     "nodes": r.nodes}), as_json, tree_path, game, r.tree)

    @group.command(help=f"Play one game against ANSWER.\n\n\b\nExample:\n  deductive {name} "
                   f"play {answer} --solver knuth")
    @click.argument("answer")
    @game_command
    @solver_option
    def play(game, answer, solver):
        moves = game.play(answer, solver)
        for word, code in moves:
            click.echo(f"{word}  {game.format(code)}")
        click.echo(f"solved in {len(moves)}")

    @group.command(help="Help with a game played elsewhere: enter each guess and its "
                   f"feedback ('{first} {feedback}'); 'quit' stops.\n\n\b\nExample:\n  "
                   f"printf '{first} {feedback}\\n' | deductive {name} assist")
    @game_command
    @click.option("--top", type=click.IntRange(1, 50), default=5, show_default=True)
    def assist(game, top):
        history = []
        while True:
            left = game.candidates(history)
            click.echo(f"{len(left)} code(s) left: {' '.join(left[:10])}"
                       + (" ..." if len(left) > 10 else ""))
            if len(left) == 1:
                return click.echo(f"the answer is {left[0]}")
            click.echo("best next: " + ", ".join(f"{s.word} ({s.entropy:.3f} bits)" for s in
                                                 game.best_guesses(history, k=top)))
            line = sys.stdin.readline()
            if not line.strip() or line.strip().lower() in ("quit", "q"):
                return
            entry = tuple(line.split(None, 1))
            try:
                if len(entry) != 2:
                    raise ValueError("write a guess and its feedback, e.g. 1122 1B2W")
                game.replay(history + [entry])
                if not game.candidates(history + [entry]):
                    raise ValueError("no code fits all the feedback; check the last entry")
                history.append(entry)
            except (ValueError, KeyError) as exc:
                click.echo(f"not applied: {exc}")

    @group.command("tree-check", help="Verify a decision tree against the game.\n\n\b\n"
                   f"Example:\n  deductive {name} search{small} --objective worst --tree "
                   f"t.json\n  deductive {name} tree-check t.json{small}")
    @click.argument("tree_file", type=click.Path(dir_okay=False))
    @game_command
    @json_option
    def tree_check(game, tree_file, as_json):
        doc = load_tree(tree_file)
        if doc.get("format") != f"deductive-{game.name}-tree" or any(
                doc.get(k) != v for k, v in game.identity().items()):
            fail(f"{tree_file} is not a tree of this game ({doc.get('format')}, "
                 f"{ {k: doc.get(k) for k in game.identity()} })")
        _show(check_tree(game, doc).as_dict(), as_json)

    return group


def _mastermind(pegs, colours, no_repeat):
    return Mastermind(pegs, colours, not no_repeat)


def _bulls(digits):
    return BullsAndCows(digits)


_mastermind.keys, _bulls.keys = ("pegs", "colours", "no_repeat"), ("digits",)

mastermind = feedback_group("mastermind", _mastermind, [
    click.option("--pegs", type=click.IntRange(1, 8), default=4, show_default=True),
    click.option("--colours", type=click.IntRange(2, 10), default=6, show_default=True),
    click.option("--no-repeat", is_flag=True, help="Codes of distinct colours.")],
    "Mastermind: codes of pegs (1122), black and white feedback (1B2W).", "",
    ("1123", "1B0W", "3632"))
bulls = feedback_group("bulls", _bulls, [
    click.option("--digits", type=click.IntRange(1, 4), default=4, show_default=True,
                 help="Length of the secret number (distinct digits).")],
    "Bulls and Cows: numbers of distinct digits (0123), bulls and cows (1B2C).",
    " --digits 3", ("0123", "1B0C", "7093"))
