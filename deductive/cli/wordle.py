"""``deductive wordle ...``: parse, build the game, call the engine, format."""

from __future__ import annotations

import json
import sys

import click

from ..engine.feedback.precompute import second_guesses
from ..engine.feedback.scoring import rank_guesses
from ..engine.feedback.search import TreeSearch, rank_openers, search_openers
from ..engine.feedback.tree import check_tree, load_tree, tree_document
from ..engine.wordle.patterns import feedback, format_pattern, pattern_digits
from ..engine.wordle.session import AssistSession
from ..engine.words import WordList
from ._common import (Group, OutputFile, dask_options, dask_timeout, echo_json, fail,
                      game_command, json_option, load_lists, matrix_options, word_list_options)
from ._progress import progress

_COLOURS = {2: "green", 1: "yellow", 0: "bright_black"}
_METRIC = click.option("--metric", type=click.Choice(["entropy", "minimax", "expected", "buckets"]),
                       default="entropy", show_default=True,
                       help="entropy: most bits; minimax: smallest worst bucket; expected: "
                            "fewest candidates left on average; buckets: most distinct feedbacks.")


def _row(word, code, length):
    return "".join(click.style(f" {ch.upper()} ", fg="black", bg=_COLOURS[d], bold=True)
                   for ch, d in zip(word, pattern_digits(code, length)))


def _write_tree(path, game, tree):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(tree_document(game, tree), fh)


@click.group(cls=Group)
def wordle():
    """Wordle: patterns, the pattern matrix, openers, solvers, search.

    \b
    Examples:
      deductive wordle pattern crane trace
      deductive wordle openers --top 10 --json
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """


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
    click.echo(_row(g, code, len(g)))
    click.echo("  ".join(format_pattern(code, len(g), style)
                         for style in ("letters", "digits", "emoji")) + f"  code {code}")


@wordle.command()
@word_list_options(default=None)
@matrix_options
@click.option("--rebuild", is_flag=True, help="Compute and overwrite the cached file.")
@json_option
def matrix(guesses, answers, length, source, rebuild, as_json):
    """Build (or load from the cache) the guess x answer pattern matrix.

    Reports its shape, dtype, size, the seconds taken and the cache file.

    \b
    Example:
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """
    guess_list, answer_list = load_lists(guesses or "en", answers, length)
    info = {}
    m = source.matrix(guess_list, answer_list, rebuild=rebuild, info=info)
    if as_json:
        return echo_json({"guesses": guess_list.name, "answers": answer_list.name,
                          "shape": list(m.shape), "dtype": str(m.dtype), "bytes": int(m.nbytes),
                          "source": info["source"], "seconds": round(info["seconds"], 4),
                          "cache": info["path"]})
    verb = "loaded from the cache" if info["source"] == "cache" else "built"
    click.echo(f"{m.shape[0]} x {m.shape[1]} {m.dtype} ({m.nbytes / 1e6:.1f} MB), "
               f"{verb} in {info['seconds']:.3f} s")
    click.echo(f"cache: {info['path'] or '(not used)'}")


@wordle.command()
@word_list_options(default="en")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many guesses to list (0: all).")
@_METRIC
@click.option("--hard", is_flag=True,
              help="Hard mode. The first guess is unconstrained, so the ranking is the same.")
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG of the best opener's feedback distribution beside the worst's.")
@matrix_options
@dask_options
@json_option
def openers(guesses, answers, length, top, metric, hard, plot_path, source, workers, scheduler,
            as_json):
    """Rank every allowed guess as a first guess.

    The score of a guess is the Shannon entropy (bits) of its feedback distribution over
    the answers (or another --metric). Ties go to the guess earlier in the guess list.
    Without --guesses/--answers it uses the built-in English lists.

    \b
    Examples:
      deductive wordle openers --top 10
      deductive wordle openers --guesses guesses.txt --answers answers.txt --json
      deductive wordle openers --guesses fr-seed --answers fr-seed
    """
    guess_list, answer_list = load_lists(guesses, answers, length)
    m = source.matrix(guess_list, answer_list)
    if workers or scheduler:
        from ..distributed import dask_client, wordle_openers

        with dask_client(scheduler, workers, dask_timeout()) as client:
            ranked = wordle_openers(client, m, guess_list, metric=metric, top=top or None)
    else:
        ranked = rank_guesses(m, guess_list, metric=metric, top=top or None)
    if plot_path:
        from ..plot import plot_opener_buckets

        worst = rank_guesses(m, guess_list, metric=metric)[-1]
        plot_opener_buckets(m, guess_list, ranked[0].index, worst.index, plot_path, metric)
        click.echo(f"plot: {plot_path}", err=True)
    if as_json:
        return echo_json([score.as_dict() for score in ranked])
    w = max(4, guess_list.length)
    click.echo(f"{len(guess_list)} guesses ({guess_list.name}) over {len(answer_list)} answers "
               f"({answer_list.name}), best {metric} first")
    click.echo(f"{'rank':>5}  {'word':<{w}}  {'entropy':>8}  {'buckets':>7}  {'largest':>7}  "
               f"{'expected':>9}")
    for rank, s in enumerate(ranked, start=1):
        click.echo(f"{rank:>5}  {s.word:<{w}}  {s.entropy:>8.4f}  {s.buckets:>7}  "
                   f"{s.largest:>7}  {s.expected:>9.3f}")


def _answers_subset(game, options):
    if options["answers_subset"] is not None:
        options["answers_subset"] = game.answer_subset(options["answers_subset"])


@wordle.command()
@game_command(solver=True, check=_answers_subset)
@click.option("--opener", default=None, help="Forced first guess (default: the solver's own).")
@click.option("--answers-subset", default=None, metavar="N|FILE|NAME",
              help="Play only these answers (the first N, or a list); candidates still span "
                   "every answer.")
@click.option("--tree", "tree_path", type=OutputFile(), default=None,
              help="Export the decision tree as JSON (deterministic solvers).")
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG histogram of the guess counts.")
@json_option
def bench(game, solver, seed, opener, answers_subset, tree_path, plot_path, as_json):
    """Play every answer with a solver and report the guess-count distribution.

    Deterministic solvers (entropy, minimax, expected) evaluate their decision tree once,
    all answers together. Games needing more than 6 guesses count as fails.

    \b
    Examples:
      deductive wordle bench --solver entropy --opener slate
      deductive wordle bench --solver minimax --opener raise --json
      deductive wordle bench --guesses fr-seed --solver entropy --pool candidates \\
          --opener laine --answers-subset 50
    """
    n = len(game.answers)
    total = n if answers_subset is None else (
        min(answers_subset, n) if isinstance(answers_subset, int) else len(answers_subset))
    with progress(total, f"bench {solver.name}") as update:
        result = game.benchmark(solver, opener=opener, answers=answers_subset, seed=seed,
                                keep_tree=tree_path is not None, progress=update)
    if tree_path:
        _write_tree(tree_path, game, result.tree)
    if plot_path:
        from ..plot import plot_guess_histogram

        plot_guess_histogram(result, plot_path)
    if as_json:
        return echo_json(result.as_dict())
    pool = f", pool {result.solver['pool']}" if "pool" in result.solver else ""
    click.echo(f"solver {solver.name}{pool}, opener {result.opener or '(its own)'}, "
               f"{'hard' if game.hard else 'normal'} mode, {len(result.answers)} answers")
    dist = result.distribution
    scale = max(dist.values()) or 1
    for key, count in dist.items():
        click.echo(f"{key:>6} {count:>6}  {'#' * round(40 * count / scale)}")
    weighted = (f", weighted average {result.weighted_average:.4f}"
                if game.prior != "uniform" else "")
    click.echo(f"total {result.total}, average {result.average:.4f}{weighted}, worst "
               f"{result.worst}, fails {result.fails}, {result.seconds:.2f} s")
    if tree_path:
        click.echo(f"tree: {tree_path}")


@wordle.command("tree-check")
@click.argument("tree_file", type=click.Path(dir_okay=False))
@word_list_options(default="en")
@matrix_options
@click.option("--hard/--normal", default=None,
              help="Check hard-mode rules (default: as the file says).")
@json_option
def tree_check(tree_file, guesses, answers, length, source, hard, as_json):
    """Verify a decision tree against the word lists and print its statistics.

    Rejects a tree that misses an answer, uses a word outside the guess list, has a
    branch no answer reaches, or (hard mode) plays a guess that breaks the rules.

    \b
    Example:
      deductive wordle bench --opener slate --tree slate.json
      deductive wordle tree-check slate.json
    """
    from ..engine.wordle.game import Wordle

    doc = load_tree(tree_file)
    guess_list, answer_list = load_lists(guesses, answers, length)
    game = Wordle(guess_list, answer_list, matrix=source.matrix(guess_list, answer_list))
    r = check_tree(game, doc, hard=hard).as_dict()
    if as_json:
        return echo_json(r)
    click.echo(f"valid {'hard' if r['hard'] else 'normal'}-mode tree: {r['answers']} answers, "
               f"total {r['total']}, average {r['average']:.4f}, worst {r['worst']}, fails "
               f"{r['fails']}, {r['nodes']} nodes")
    click.echo("distribution: " + ", ".join(f"{k}: {v}" for k, v in r["distribution"].items()))


@wordle.command()
@game_command(solver=True)
@click.option("--opener", required=True, help="The first guess.")
@dask_options
@json_option
def second(game, solver, seed, opener, workers, scheduler, as_json):
    """The best second guess for every feedback of an opener.

    \b
    Example:
      deductive wordle second --opener salet --guesses guesses.txt --answers answers.txt
    """
    if workers or scheduler:
        from ..distributed import dask_client, wordle_second

        options = {k: v for k, v in solver.describe().items() if k == "pool"}
        with dask_client(scheduler, workers, dask_timeout()) as client:
            rows = wordle_second(client, game, solver.name, options, opener)
    else:
        n_feedbacks = len(game.split(game.guess_index(opener), game.start().candidates))
        with progress(n_feedbacks, f"second guesses after {opener}") as update:
            rows = second_guesses(game, solver, opener, progress=update)
    if as_json:
        return echo_json({"opener": game.word(game.guess_index(opener)), "solver": solver.name,
                          "hard": game.hard, "feedbacks": rows})
    w = game.length + 2
    click.echo(f"{len(rows)} feedbacks of {opener}; next guess by {solver.name}")
    click.echo(f"{'pattern':<{w}} {'left':>5}  {'guess':<{w}} {'entropy':>8} {'largest':>7}")
    for r in rows:
        click.echo(f"{r['pattern']:<{w}} {r['candidates']:>5}  {r['guess'] or '(solved)':<{w}} "
                   f"{r['entropy']:>8.4f} {r['largest']:>7}")


def _check_answer(game, options):
    if options["answer"] not in game.answers:
        fail(f"--answer {options['answer']!r} is not in the answer list {game.answers.name}")


@wordle.command()
@game_command(solver=True, check=_check_answer)
@click.option("--answer", required=True, help="The secret word.")
@click.option("--opener", default=None, help="Forced first guess.")
def play(game, solver, seed, answer, opener):
    """Play one game against ANSWER and print the coloured grid.

    \b
    Example:
      deductive wordle play --answer crane --solver entropy --opener slate
    """
    moves = game.play(answer, solver, opener=opener, seed=seed)
    for word, code in moves:
        click.echo(f"{_row(word, code, game.length)}  {game.format(code)}")
    verdict = "solved" if len(moves) <= 6 else "solved, but past the 6 allowed guesses,"
    click.echo(f"{verdict} in {len(moves)}")


_ASSIST_HELP = ("type the guess you played and the colours you saw: 'crane GY..G' (grey "
                "also - _ B or X), 'crane 21002' or 'crane 🟩🟨⬜⬜🟩'; 'undo' takes the last "
                "one back, 'quit' (or end of input) stops")


@wordle.command()
@game_command()
@_METRIC
@click.option("--pool", type=click.Choice(["all", "candidates"]), default="all",
              show_default=True, help="Suggest any allowed guess, or only candidates.")
@click.option("--top", type=click.IntRange(1, 50), default=5, show_default=True,
              help="Suggestions shown.")
@click.option("--show", type=click.IntRange(0, 200), default=10, show_default=True,
              help="Candidates listed.")
@click.option("--lookahead", "lookahead_beam", type=click.IntRange(min=0), default=0,
              help="Also show the lookahead solver's pick (a beam search of this width).")
def assist(game, metric, pool, top, show, lookahead_beam):
    """Help with a game played elsewhere: enter each guess and its colours.

    After each entry it shows how many answers remain, some of them, and the best next
    guesses. Works in a terminal and with input piped from a script.

    \b
    Example:
      printf 'slate ..Y..\\ncrony Y.Y..\\n' | deductive wordle assist
    """
    session = AssistSession(game, metric=metric, pool=pool, top=top, show=show,
                            lookahead_beam=lookahead_beam)
    click.echo(f"{len(game.guesses)} guesses, {len(game.answers)} answers"
               f"{', hard mode' if game.hard else ''}; {_ASSIST_HELP}; * marks a candidate")
    _advise(session.advice(), show, lookahead_beam)
    while True:
        if sys.stdin.isatty():
            click.echo(f"turn {len(session.history) + 1}> ", nl=False)
        kind, what = session.handle(sys.stdin.readline())
        if kind == "quit":
            break
        if kind == "help":
            click.echo(_ASSIST_HELP)
        elif kind == "undo":
            click.echo(f"undone: {' '.join(what)}" if what else "nothing to undo")
        elif kind == "entry" and not what.applied:
            click.echo(f"not applied: {what.error}")
        elif kind == "entry":
            click.echo(f"{_row(what.guess, what.code, game.length)}  {game.format(what.code)}")
            if what.solved:
                click.echo(f"solved in {len(session.history)}")
                break
        if (kind == "undo" and what) or (kind == "entry" and what.applied):
            _advise(session.advice(), show, lookahead_beam)


def _advise(advice, show, beam):
    head = ", ".join(advice.shown) + (" ..." if advice.left > len(advice.shown) else "")
    click.echo(f"{advice.left} candidate(s) left" + (f": {head}" if show and advice.left else ""))
    if advice.answer is not None:
        return click.echo(f"the answer is {advice.answer}")
    click.echo("best next: " + ", ".join(
        f"{s.word}{'*' if s.word in advice.candidates else ''} ({s.entropy:.3f} bits, "
        f"largest {s.largest})" for s in advice.best))
    if advice.lookahead is not None:
        click.echo(f"lookahead (beam {beam}) plays: {advice.lookahead}")


def _check_search(game, options):
    if (options["opener"] is None) == (options["n_openers"] is None):
        fail("give --opener WORD or --openers N|all")
    if options["tree_path"] and options["opener"] is None:
        fail("--tree goes with --opener")
    n = options["n_openers"]
    if n is not None and n != "all" and not (n.isdigit() and int(n) >= 1):
        fail(f"--openers {n}: give a number of openers (at least 1) or 'all'")
    if options["prove_best"] and (n is None or options["beam"] is not None):
        fail("--prove-best goes with --openers N|all, without --beam")
    if options["checkpoint"] and options["opener"] is not None:
        fail("--checkpoint goes with --openers")
    if options["prove_best"] and (options["workers"] or options["scheduler"]):
        fail("--prove-best runs in this process (its bound kernel uses every core); drop "
             "--workers/--scheduler")


@wordle.command()
@game_command(check=_check_search)
@click.option("--opener", default=None, help="Search the best tree that opens with this word.")
@click.option("--openers", "n_openers", default=None, metavar="N|all",
              help="Search the N best openers by entropy (or all guesses) and rank them by "
                   "their searched totals.")
@click.option("--prove-best", is_flag=True,
              help="With --openers N: the N best openers among all guesses, proven (every "
                   "other opener shown worse by a bound or a search); with --openers all: "
                   "the best opener(s). Exact only.")
@click.option("--beam", type=click.IntRange(min=1), default=None,
              help="Try only the K best-scored guesses per node (fast heuristic). "
                   "Without it the search is exact.")
@click.option("--max-guesses", type=click.IntRange(min=1), default=None,
              help="Only trees that never need more guesses than this.")
@click.option("--tree", "tree_path", type=OutputFile(), default=None,
              help="Export the tree of --opener as JSON (checked by tree-check).")
@click.option("--checkpoint", type=OutputFile(), default=None,
              help="With --openers: append each opener's row here as it is decided (JSON "
                   "lines: the certificate); a rerun resumes.")
@dask_options
@json_option
def search(game, opener, n_openers, prove_best, beam, max_guesses, tree_path, checkpoint,
           workers, scheduler, as_json):
    """Search the decision tree with the fewest total guesses (ties: smaller worst case).

    \b
    Examples:
      deductive wordle search --opener slate --beam 10              # heuristic
      deductive wordle search --opener slate --tree slate.json      # exact
      deductive wordle search --opener slate --hard --max-guesses 6
      deductive wordle search --openers 10 --beam 10 --json
      deductive wordle search --guesses fr-seed --openers 5 --prove-best    # proven 5 best
      deductive wordle search --guesses fr-seed --openers all --prove-best --checkpoint p.jsonl
    """
    if n_openers is not None:
        return _search_openers(game, n_openers, prove_best, beam, max_guesses, checkpoint,
                               workers, scheduler, as_json)
    with progress(len(game.answers), f"search {opener}") as update:
        r = TreeSearch(game, beam=beam, max_guesses=max_guesses).search_opener(
            opener, keep_tree=tree_path is not None, progress=update)
    if tree_path:
        _write_tree(tree_path, game, r.tree)
    if as_json:
        return echo_json(r.as_dict())
    kind = "exact" if r.exact else f"beam {beam}"
    click.echo(f"{r.opener}: total {r.total}, average {r.average:.4f}, worst {r.worst} "
               f"({kind}{', hard mode' if game.hard else ''}), {r.seconds:.1f} s, {r.nodes} "
               "nodes searched")
    if tree_path:
        click.echo(f"tree: {tree_path}")


def _search_openers(game, n, prove_best, beam, max_guesses, checkpoint, workers, scheduler,
                    as_json):
    n = len(game.guesses) if n == "all" else min(int(n), len(game.guesses))
    if prove_best:
        return _prove_openers(game, 1 if n == len(game.guesses) else n, max_guesses,
                              checkpoint, as_json)
    words = [s.word for s in rank_guesses(game.patterns, top=n)]
    if workers or scheduler:
        from ..distributed import dask_client, wordle_search_openers

        with dask_client(scheduler, workers, dask_timeout()) as client:
            rows = wordle_search_openers(client, game, words, beam=beam,
                                         max_guesses=max_guesses, checkpoint=checkpoint)
    else:
        with progress(len(words), "search openers") as update:
            rows = search_openers(game, words, beam=beam, max_guesses=max_guesses,
                                  checkpoint=checkpoint, progress=update)
    rows = rank_openers(rows, words)
    if as_json:
        return echo_json([{k: v for k, v in r.items() if k not in ("seconds", "nodes")}
                          for r in rows])
    for r in rows:
        click.echo(f"{r['word']:<{game.length + 2}} total {r['total']:>6}  average "
                   f"{r['average']:.4f}  worst {r['worst']}  {'exact' if r['exact'] else 'beam'}")


#: Memory kept for everything but the search memo under --max-memory (the interpreter,
#: word lists, kernels' buffers), beside the matrix and its answer-major copy.
_SEARCH_OVERHEAD = 400_000_000
#: The memo's cap without --max-memory.
_SEARCH_MEMO = 4_000_000_000


def _prove_openers(game, keep, max_guesses, checkpoint, as_json):
    from ..engine.feedback.search import MEMO_ENTRY_BYTES, prove_openers

    budget = click.get_current_context().params.get("max_memory")
    memo = _SEARCH_MEMO
    if budget is not None:
        memo = budget - 2 * game.matrix.nbytes - _SEARCH_OVERHEAD
        if memo < 1000 * MEMO_ENTRY_BYTES:
            need = 2 * game.matrix.nbytes + _SEARCH_OVERHEAD + 1000 * MEMO_ENTRY_BYTES
            fail(f"--max-memory {budget} leaves no room for the search's memo beside the "
                 f"matrix; give at least {need / 1e9:.1f}G")
    with progress(len(game.guesses), "prove openers") as update:
        proof = prove_openers(game, keep, max_guesses=max_guesses, checkpoint=checkpoint,
                              memo_bytes=memo, progress=update)
    ranking = proof.ranking()
    if as_json:
        return echo_json({"best": proof.best(), "ceiling": proof.ceiling,
                          **proof.counts(), "ranking": ranking})
    for r in ranking:
        click.echo(f"{r['word']:<{game.length + 2}} total {r['total']:>6}  average "
                   f"{r['total'] / len(game.answers):.4f}  worst {r['worst']}  exact")
    counts = proof.counts()
    click.echo(f"proven: {counts['openers']} openers, {counts['bound']} ruled out by the "
               f"bound alone, {counts['search']} searched; every other opener needs more "
               f"than {proof.ceiling}; best: {', '.join(proof.best())}")
