"""``deductive wordle ...``: the feedback commands over Wordle, its own commands (pattern,
matrix, second, search) and its variants (multi, absurdle)."""

from __future__ import annotations

import dataclasses

import click

from ..distributed import (wordle_least_worst, wordle_prove_openers, wordle_search_openers,
                           wordle_second, wordle_verify_proof)
from ..engine.feedback import TreeSearch, check_tree, rank_guesses, write_tree
from ..engine.feedback.bench import ANSWER, ANSWERS_SUBSET, OPENER
from ..engine.feedback.polish import polish_result
from ..engine.feedback.precompute import SecondGuesses, second_guesses
from ..engine.feedback.scoring import METRIC, Ranking
from ..engine.feedback.search import (OpenerRows, ProofCheck, check_verify, proof_state,
                                      prove_openers, rank_openers, search_openers, verify_proof)
from ..engine.feedback.solvers import POOL, SEED
from ..engine.feedback.worst import least_worst
from ..engine.params import Param
from ..engine.wordle import Wordle
from ..engine.wordle.absurdle import MAX_GUESSES, Absurdle, absurdle_search
from ..engine.wordle.game import RULES
from ..engine.wordle.multi import MULTI, MultiBoard
from ..engine.wordle.patterns import REBUILD, MatrixInfo, feedback, format_pattern, pattern_colours
from ..engine.wordle.search import SEARCH, VERIFY, check_search, memo_bytes, tree_total
from ..engine.wordle.session import ASSIST, AssistSession
from ..engine.wordle.solvers import WORDLE_SOLVERS
from ..engine.words import WORD_LISTS, WordList, load_lists
from . import wordle_group as wordle
from ._common import (JSON, PLOT, Group, dask_options, game_command, matrix_options,
                      note_lists, options, progress, read_line, show)
from .feedback import Face, feedback_commands, tiles


def wordle_game(guesses, answers, length, source, hard=False, prior="uniform", lang=None):
    """The game of the lists named; its matrix comes from ``source`` when first used."""
    lists = load_lists(guesses, answers, length)
    return Wordle(*lists, hard=hard, prior=prior, lang=lang, matrix=source.matrix)


GAME = (WORD_LISTS, matrix_options)
HARD = RULES[0]
SOLVER = (WORDLE_SOLVERS.param("solver", "entropy"), POOL, SEED)


def _search(game, opener, openers, prove_best, within, beam, max_guesses, polish, tree,
            checkpoint, objective, cluster, depth_three=False, ceiling_tree=None):
    n = check_search(opener, openers, prove_best, within, beam, tree, checkpoint, objective,
                     max_guesses, bool(cluster), polish, depth_three, game.hard, ceiling_tree)
    memo = memo_bytes(game.matrix.nbytes, click.get_current_context().params.get(
        "max_memory"), strict=objective == "worst" or prove_best)   # the searches' memos
    if (worst := objective == "worst") or opener is not None:
        with progress(len(game.answers if opener else game.guesses),
                      f"search {opener or 'every opener'}") as update:
            args = (tree is not None, update, memo, checkpoint)
            r = cluster.run(lambda client: wordle_least_worst(client, game, *args),
                            lambda: least_worst(game, opener, *args)) if worst else \
                TreeSearch(game, beam=beam, max_guesses=max_guesses, memo_bytes=memo).search_opener(
                    opener, keep_tree=tree is not None or polish is not None, progress=update)
        if polish is not None:
            with progress(None, f"polish {opener}") as update:
                r = polish_result(game, r, polish, memo_bytes=memo, progress=update)
        if tree:
            write_tree(tree, game, r.tree)
        if worst:
            r = dataclasses.replace(r, objective=objective)
        return r, {"tree": tree, "least": (opener is None) if worst else None}
    n = len(game.guesses) if n == "all" else min(n, len(game.guesses))
    if prove_best:
        settings = dict(keep=1 if n == len(game.guesses) else n, within=within, memo_bytes=memo,
                        max_guesses=max_guesses, checkpoint=checkpoint, depth_three=depth_three,
                        known=ceiling_tree and tree_total(game, ceiling_tree, max_guesses))
        with progress(len(game.guesses), "prove openers") as update:
            settings.update(progress=update, steps=lambda s, k, n: update(k, n, f"proof: {s}"))
            proof = cluster.run(lambda client: wordle_prove_openers(client, game, **settings),
                                lambda: prove_openers(game, **settings))
        return proof, {}
    words = [s.word for s in rank_guesses(game.patterns, top=n)]
    settings = dict(beam=beam, max_guesses=max_guesses, checkpoint=checkpoint)
    with progress(len(words), "search openers") as update:
        rows = rank_openers(cluster.run(
            lambda client: wordle_search_openers(client, game, words, **settings),
            lambda: search_openers(game, words, progress=update, **settings)), words)
    return OpenerRows(rows), {}


WORDLE = Face(
    "wordle", wordle_game, GAME, SOLVER, openers=Ranking.of,
    bench=lambda game, result, tree: (result, {"tree": tree}),
    tree_check=lambda game, doc, path, hard: check_tree(game, doc, hard=hard),
    assist=lambda game, read, **settings: AssistSession(game, **settings).run(read),
    search=_search, about={"search": "Search the decision tree with the fewest total guesses "
                                     "(ties: worst case), or the fewest in the worst case."},
    extra={
        "openers": (HARD, PLOT.but(help="Write a PNG of the best opener's feedback "
                                        "distribution beside the worst's."), dask_options),
        "bench": (RULES, ANSWERS_SUBSET, PLOT.but(help="Write a PNG histogram of the guess "
                                                       "counts.")),
        "play": (RULES, ANSWER, OPENER),
        "assist": (RULES, METRIC, POOL, ASSIST),
        "search": (RULES, SEARCH, dask_options, JSON),
        "tree-check": (Param("check_hard", None, "Check hard-mode rules (default: as the file "
                             "says).", bool, spelling="--hard/--normal"),),
    },
    examples={
        "openers": ["deductive wordle openers --top 10",
                    "deductive wordle openers --guesses guesses.txt --answers answers.txt --json",
                    "deductive wordle openers --guesses fr-seed --answers fr-seed"],
        "bench": ["deductive wordle bench --solver entropy --opener slate",
                  "deductive wordle bench --solver minimax --opener raise --json",
                  "deductive wordle bench --guesses fr-seed --solver entropy --pool candidates "
                  "\\\n      --opener laine --answers-subset 50"],
        "play": ["deductive wordle play --answer crane --solver entropy --opener slate"],
        "assist": ["printf 'slate ..Y..\\ncrony Y.Y..\\n' | deductive wordle assist"],
        "search": [
            "deductive wordle search --opener slate --beam 10              # heuristic",
            "deductive wordle search --opener slate --tree slate.json      # exact",
            "deductive wordle search --opener slate --hard --max-guesses 6",
            "deductive wordle search --opener slate --beam 1 --polish 200  # beam, then exact",
            "deductive wordle search --openers 10 --beam 10 --json",
            "deductive wordle search --guesses fr-seed --openers all --prove-best --checkpoint "
            "p.jsonl",
            "deductive wordle search --guesses fr-seed --openers 5 --prove-best --workers 2",
            "deductive wordle search --opener slate --objective worst     # 5 guesses",
            "deductive wordle search --guesses fr-seed --objective worst --openers all "
            "--checkpoint w.jsonl"],
        "tree-check": ["deductive wordle bench --opener slate --tree slate.json",
                       "deductive wordle tree-check slate.json"],
    })


@wordle.command()
@click.argument("guess")
@click.argument("answer")
def pattern(guess, answer):
    """Show the feedback GUESS gets when the secret is ANSWER.

    Prints the coloured row, then the pattern as letters, digits, emoji and its code
    (sum of digit * 3**position, position 0 least significant).

    \b
    Example:
      deductive wordle pattern crane trace
    """
    words = WordList([guess, answer], name="the command line")
    g, a = (words[0], words[0]) if len(words) == 1 else words
    code = feedback(g, a)
    click.echo(tiles(g, pattern_colours(code, len(g))))
    click.echo("  ".join(format_pattern(code, len(g), style)
                         for style in ("letters", "digits", "emoji")) + f"  code {code}")


@wordle.command()
@options(WORD_LISTS, matrix_options, REBUILD, JSON)
def matrix(guesses, answers, length, source, rebuild, json):
    """Build (or load from the cache) the guess x answer pattern matrix.

    Reports its shape, dtype, size, the seconds taken and the cache file.

    \b
    Example:
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """
    guess_list, answer_list = load_lists(guesses, answers, length)
    note_lists(guess_list, answer_list)
    info = {}
    m = source.matrix(guess_list, answer_list, rebuild=rebuild, info=info)
    show(MatrixInfo(guess_list.name, answer_list.name, m.shape, str(m.dtype), int(m.nbytes),
                    info["source"], info["seconds"], info["path"]), json)


@wordle.command()
@game_command(wordle_game, GAME, RULES, SOLVER, OPENER.but(help="The first guess.",
                                                           required=True), dask_options, JSON)
def second(game, solver, seed, opener, cluster, json):
    """The best second guess for every feedback of an opener.

    \b
    Example:
      deductive wordle second --opener salet --guesses guesses.txt --answers answers.txt
    """
    options = {k: v for k, v in solver.describe().items() if k == "pool"}
    n_feedbacks = len(game.split(game.guess_index(opener), game.start().candidates))
    with progress(n_feedbacks, f"second guesses after {opener}") as update:
        rows = cluster.run(lambda c: wordle_second(c, game, solver.name, options, opener),
                           lambda: second_guesses(game, solver, opener, progress=update))
    show(SecondGuesses(game.word(game.guess_index(opener)), solver.name, game.hard, rows), json)


feedback_commands(wordle, WORDLE)


@wordle.command("verify-ranking")
@game_command(wordle_game, GAME, HARD, click.argument("path", type=click.Path(
    exists=True, dir_okay=False)), VERIFY, SEED.but(help="Sample seed."), dask_options, JSON)
def verify_ranking(game, path, sample, state, checkpoint, seed, cluster, json):
    """Check a --prove-best checkpoint file as a proof. A row per opener, every bound redone,
    exact rows searched again (exit 1 names each wrong row). --state: how far the file is.

    \b
    Examples:
      deductive wordle search --guesses fr-seed --openers 3 --prove-best --checkpoint p.jsonl
      deductive wordle verify-ranking --guesses fr-seed --checkpoint v.jsonl p.jsonl
      deductive wordle verify-ranking --guesses fr-seed --state p.jsonl
    """
    if check_verify(state, checkpoint, bool(cluster)):
        return show(proof_state(game, path), json)
    with progress(None, "verify") as update:
        kw = dict(sample=sample, seed=seed, checkpoint=checkpoint, progress=update)
        check = ProofCheck(cluster.run(lambda c: wordle_verify_proof(c, game, path, **kw),
                                       lambda: verify_proof(game, path, **kw)))
    show(check, json)
    if not check.ok:
        raise SystemExit(1)


@wordle.command()
@game_command(wordle_game, GAME, RULES, MULTI, JSON)
def multi(game, boards, games, seed, json):
    """Multi-board Wordle: random games with the entropy solver (sum of the boards'
    entropies; a board whose answer is known is played first).

    \b
    Example:
      deductive wordle multi --boards 4 --games 1000 --guesses guesses.txt \\
          --answers answers.txt --json
    """
    with progress(games, f"{boards} boards") as update:
        result = MultiBoard(game, boards).run(games, seed, progress=update)
    show(result, json)


@wordle.group(cls=Group)
def absurdle():
    """Absurdle: the adversary keeps the largest bucket (ties: fewest greens, then
    yellows, then grey before yellow before green from the first letter).

    \b
    Examples:
      deductive wordle absurdle search --guesses guesses.txt --answers answers.txt
      printf 'aesir\\nyauld\\ntench\\nwhoop\\n' | deductive wordle absurdle play \\
          --guesses guesses.txt --answers answers.txt
    """


@absurdle.command("search")
@game_command(wordle_game, GAME, RULES, MAX_GUESSES, JSON)
def absurdle_search_command(game, max_guesses, json):
    """The fewest guesses that force a win, proven depth by depth, and a sequence.

    \b
    Example:
      deductive wordle absurdle search --guesses guesses.txt --answers answers.txt
    """
    with progress(max_guesses, "absurdle search") as update:
        result = absurdle_search(Absurdle(game), max_guesses, progress=update)
    show(result, json)


@absurdle.command()
@game_command(wordle_game, GAME, RULES)
def play(game):
    """Play Absurdle: type a guess per line; the adversary answers. Ends on a win.

    \b
    Example:
      printf 'aesir\\nyauld\\ntench\\nwhoop\\n' | deductive wordle absurdle play \\
          --guesses guesses.txt --answers answers.txt
    """
    for line in Absurdle(game).run(read_line):
        click.echo(line)
