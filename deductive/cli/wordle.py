"""``deductive wordle ...``: feedback patterns, the pattern matrix, opener rankings."""

from __future__ import annotations

import click

from ._common import (
    Group,
    OutputFile,
    dask_options,
    dask_timeout,
    echo_json,
    fail,
    game_options,
    json_option,
    load_lists,
    make_game,
    make_solver,
    matrix_options,
    solver_options,
    word_list_options,
)
from ._progress import progress

_COLOURS = {2: "green", 1: "yellow", 0: "bright_black"}


@click.group(cls=Group)
def wordle():
    """Wordle: patterns, the pattern matrix, openers.

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
    from ..engine.patterns import feedback, format_pattern, pattern_digits
    from ..engine.words import WordList

    words = WordList([guess, answer], name="the command line")
    if len(words) == 1:
        guess_word = answer_word = words[0]
    else:
        guess_word, answer_word = words
    code = feedback(guess_word, answer_word)
    length = len(guess_word)
    cells = "".join(
        click.style(f" {ch.upper()} ", fg="black", bg=_COLOURS[d], bold=True)
        for ch, d in zip(guess_word, pattern_digits(code, length))
    )
    click.echo(cells)
    click.echo(
        f"{format_pattern(code, length)}  {format_pattern(code, length, 'digits')}  "
        f"{format_pattern(code, length, 'emoji')}  code {code}"
    )


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
    if guesses is None:
        guesses = "en"
    guess_list, answer_list = load_lists(guesses, answers, length)
    info = {}
    result = source.matrix(guess_list, answer_list, rebuild=rebuild, info=info)
    report = {
        "guesses": guess_list.name, "answers": answer_list.name,
        "shape": list(result.shape), "dtype": str(result.dtype), "bytes": int(result.nbytes),
        "source": info["source"], "seconds": round(info["seconds"], 4), "cache": info["path"],
    }
    if as_json:
        echo_json(report)
        return
    verb = "loaded from the cache" if info["source"] == "cache" else "built"
    click.echo(
        f"{result.shape[0]} x {result.shape[1]} {result.dtype} ({result.nbytes / 1e6:.1f} MB), "
        f"{verb} in {info['seconds']:.3f} s"
    )
    click.echo(f"cache: {info['path'] or '(not used)'}")


@wordle.command()
@word_list_options(default="en")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many guesses to list (0: all).")
@click.option("--metric", type=click.Choice(["entropy", "minimax", "expected", "buckets"]),
              default="entropy", show_default=True,
              help="entropy: most bits; minimax: smallest worst bucket; expected: fewest "
                   "candidates left on average; buckets: most distinct feedbacks.")
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
    from ..engine.scoring import rank_guesses

    guess_list, answer_list = load_lists(guesses, answers, length)
    result = source.matrix(guess_list, answer_list)
    if workers or scheduler:
        from ..distributed import dask_client, wordle_openers

        with dask_client(scheduler, workers, dask_timeout()) as client:
            ranked = wordle_openers(client, result, guess_list, metric=metric, top=top or None)
    else:
        ranked = rank_guesses(result, guess_list, metric=metric, top=top or None)
    if plot_path:
        from ..plot import plot_opener_buckets

        worst = rank_guesses(result, guess_list, metric=metric)[-1]
        plot_opener_buckets(result, guess_list, ranked[0].index, worst.index, plot_path, metric)
        click.echo(f"plot: {plot_path}", err=True)
    if as_json:
        echo_json([score.as_dict() for score in ranked])
        return
    click.echo(f"{len(guess_list)} guesses ({guess_list.name}) over {len(answer_list)} answers "
               f"({answer_list.name}), best {metric} first")
    click.echo(f"{'rank':>5}  {'word':<{max(4, guess_list.length)}}  {'entropy':>8}  "
               f"{'buckets':>7}  {'largest':>7}  {'expected':>9}")
    for rank, score in enumerate(ranked, start=1):
        click.echo(f"{rank:>5}  {score.word:<{max(4, guess_list.length)}}  {score.entropy:>8.4f}  "
                   f"{score.buckets:>7}  {score.largest:>7}  {score.expected:>9.3f}")


def _grid_row(game, word, code):
    from ..engine.patterns import pattern_digits

    cells = "".join(
        click.style(f" {ch.upper()} ", fg="black", bg=_COLOURS[d], bold=True)
        for ch, d in zip(word, pattern_digits(code, game.length))
    )
    return f"{cells}  {game.format(code)}"


def _answers_subset(game, spec):
    """--answers-subset: a number N (the first N answers) or a word-list file/name."""
    import os

    if spec is None:
        return None
    if spec.strip().isdigit():
        if int(spec) < 1:
            fail(f"--answers-subset {spec}: give at least 1 answer (or a word list)")
        return int(spec)
    from ..engine.words import load_words

    # a file is read as it is: words of another length are an error naming their line,
    # not silently left out; a built-in name is taken at the game's length
    subset = load_words(spec, role="answers",
                        length=None if os.path.exists(spec) else game.length)
    if subset.length != game.length:
        fail(f"--answers-subset {spec}: its words have {subset.length} letters, the game's "
             f"{game.length}")
    missing = [w for w in subset if w not in game.answers]
    if missing:
        fail(f"--answers-subset: {len(missing)} word(s) are not answers ({', '.join(missing[:5])})")
    return list(subset)


@wordle.command()
@game_options
@solver_options
@click.option("--opener", default=None, help="Forced first guess (default: the solver's own).")
@click.option("--answers-subset", default=None, metavar="N|FILE|NAME",
              help="Play only these answers (the first N, or a list); candidates still span "
                   "every answer.")
@click.option("--tree", "tree_path", type=OutputFile(), default=None,
              help="Export the decision tree as JSON (deterministic solvers).")
@click.option("--plot", "plot_path", type=OutputFile(plot=True), default=None,
              help="Write a PNG histogram of the guess counts.")
@json_option
def bench(guesses, answers, length, source, hard, prior, lang, solver_name, pool, seed,
          opener, answers_subset, tree_path, plot_path, as_json):
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
    import json as _json

    chosen = {}
    game = make_game(guesses, answers, length, source, hard, prior, lang, solver=solver_name,
                     opener=opener, check=lambda bare: chosen.update(
                         subset=_answers_subset(bare, answers_subset)))
    solver = make_solver(game, solver_name, pool)
    subset = chosen["subset"]
    total = len(game.answers) if subset is None else (
        min(subset, len(game.answers)) if isinstance(subset, int) else len(subset))
    with progress(total, f"bench {solver_name}") as update:
        result = game.benchmark(solver, opener=opener, answers=subset, seed=seed,
                                keep_tree=tree_path is not None, progress=update)
    if tree_path:
        from ..engine.tree import tree_document

        with open(tree_path, "w", encoding="utf-8") as fh:
            _json.dump(tree_document(game, result.tree), fh)
    if plot_path:
        from ..plot import plot_guess_histogram

        plot_guess_histogram(result, plot_path)
    if as_json:
        echo_json(result.as_dict())
        return
    mode = "hard" if hard else "normal"
    extra = f", pool {pool}" if solver_name in ("entropy", "minimax", "expected") else ""
    click.echo(f"solver {solver_name}{extra}, opener {result.opener or '(its own)'}, {mode} mode, "
               f"{len(result.answers)} answers")
    dist = result.distribution
    scale = max(dist.values()) or 1
    for key, count in dist.items():
        click.echo(f"{key:>6} {count:>6}  {'#' * round(40 * count / scale)}")
    weighted = f", weighted average {result.weighted_average:.4f}" if prior != "uniform" else ""
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

    Rejects a tree that misses an answer, uses a word outside the guess list, or (hard
    mode) plays a guess that breaks the rules.

    \b
    Example:
      deductive wordle bench --opener slate --tree slate.json
      deductive wordle tree-check slate.json
    """
    from ..engine.tree import check_tree, load_tree

    doc = load_tree(tree_file)
    game = make_game(guesses, answers, length, source, False, "uniform", None)
    report = check_tree(game, doc, hard=hard).as_dict()
    if as_json:
        echo_json(report)
        return
    click.echo(f"valid {'hard' if report['hard'] else 'normal'}-mode tree: {report['answers']} "
               f"answers, total {report['total']}, average {report['average']:.4f}, worst "
               f"{report['worst']}, fails {report['fails']}, {report['nodes']} nodes")
    click.echo("distribution: " + ", ".join(f"{k}: {v}" for k, v in report["distribution"].items()))


@wordle.command()
@game_options
@solver_options
@click.option("--opener", required=True, help="The first guess.")
@dask_options
@json_option
def second(guesses, answers, length, source, hard, prior, lang, solver_name, pool, seed,
           opener, workers, scheduler, as_json):
    """The best second guess for every feedback of an opener.

    \b
    Example:
      deductive wordle second --opener salet --guesses guesses.txt --answers answers.txt
    """
    from ..engine.precompute import second_guesses

    game = make_game(guesses, answers, length, source, hard, prior, lang, solver=solver_name,
                     opener=opener)
    solver = make_solver(game, solver_name, pool)
    if workers or scheduler:
        from ..distributed import dask_client, wordle_second

        options = {"pool": pool} if solver_name in ("entropy", "minimax", "expected") else {}
        with dask_client(scheduler, workers, dask_timeout()) as client:
            rows = wordle_second(client, game, solver_name, options, opener)
    else:
        from ..engine.bench import _split

        n_feedbacks = sum(1 for _ in _split(game, game.start(), game.guess_index(opener)))
        with progress(n_feedbacks, f"second guesses after {opener}") as update:
            rows = second_guesses(game, solver, opener, progress=update)
    if as_json:
        echo_json({"opener": game.guesses[game.guess_index(opener)], "solver": solver_name,
                   "hard": hard, "feedbacks": rows})
        return
    click.echo(f"{len(rows)} feedbacks of {opener}; next guess by {solver_name}")
    click.echo(f"{'pattern':<{game.length + 2}} {'left':>5}  {'guess':<{game.length + 2}} "
               f"{'entropy':>8} {'largest':>7}")
    for row in rows:
        click.echo(f"{row['pattern']:<{game.length + 2}} {row['candidates']:>5}  "
                   f"{row['guess'] or '(solved)':<{game.length + 2}} {row['entropy']:>8.4f} "
                   f"{row['largest']:>7}")


@wordle.command()
@game_options
@solver_options
@click.option("--answer", required=True, help="The secret word.")
@click.option("--opener", default=None, help="Forced first guess.")
def play(guesses, answers, length, source, hard, prior, lang, solver_name, pool, seed,
         answer, opener):
    """Play one game against ANSWER and print the coloured grid.

    \b
    Example:
      deductive wordle play --answer crane --solver entropy --opener slate
    """
    def check(bare):
        if answer not in bare.answers:
            fail(f"--answer {answer!r} is not in the answer list {bare.answers.name}")

    game = make_game(guesses, answers, length, source, hard, prior, lang, solver=solver_name,
                     opener=opener, check=check)
    solver = make_solver(game, solver_name, pool)
    moves = game.play(answer, solver, opener=opener, seed=seed)
    for word, code in moves:
        click.echo(_grid_row(game, word, code))
    verdict = "solved" if len(moves) <= 6 else "solved, but past the 6 allowed guesses,"
    click.echo(f"{verdict} in {len(moves)}")


_ASSIST_HELP = ("type the guess you played and the colours you saw: 'crane GY..G' (grey "
                "also - _ B or X), 'crane 21002' or 'crane 🟩🟨⬜⬜🟩'; 'undo' takes the last "
                "one back, "
                "'quit' (or end of input) stops")


@wordle.command()
@game_options
@click.option("--metric", type=click.Choice(["entropy", "minimax", "expected", "buckets"]),
              default="entropy", show_default=True, help="How next guesses are ranked.")
@click.option("--pool", type=click.Choice(["all", "candidates"]), default="all",
              show_default=True, help="Suggest any allowed guess, or only candidates.")
@click.option("--top", type=click.IntRange(1, 50), default=5, show_default=True,
              help="Suggestions shown.")
@click.option("--show", type=click.IntRange(0, 200), default=10, show_default=True,
              help="Candidates listed.")
@click.option("--lookahead", "lookahead_beam", type=click.IntRange(min=0), default=0,
              help="Also show the lookahead solver's pick (a beam search of this width).")
def assist(guesses, answers, length, source, hard, prior, lang, metric, pool, top, show,
           lookahead_beam):
    """Help with a game played elsewhere: enter each guess and its colours.

    After each entry it shows how many answers remain, some of them, and the best next
    guesses. Works in a terminal and with input piped from a script.

    \b
    Example:
      printf 'slate ..Y..\\ncrony Y.Y..\\n' | deductive wordle assist
    """
    import sys

    from ..engine.game import parse_feedback
    from ..errors import DeductiveError

    game = make_game(guesses, answers, length, source, hard, prior, lang)
    interactive = sys.stdin.isatty()
    history = []
    lookahead = game.solver("lookahead", beam=lookahead_beam) if lookahead_beam else None

    def report():
        state = game.replay(history)
        cands = [game.answers[k] for k in state.candidates]
        head = ", ".join(cands[:show]) + (" ..." if len(cands) > show else "")
        click.echo(f"{len(cands)} candidate(s) left" + (f": {head}" if show and cands else ""))
        if len(cands) == 1:
            click.echo(f"the answer is {cands[0]}")
            return
        best = game.best_guesses(history, k=top, metric=metric, pool=pool)
        cand_set = set(cands)
        click.echo("best next: " + ", ".join(
            f"{s.word}{'*' if s.word in cand_set else ''} ({s.entropy:.3f} bits, "
            f"largest {s.largest})" for s in best))
        if lookahead is not None:
            click.echo(f"lookahead (beam {lookahead_beam}) plays: "
                       f"{game.guesses[lookahead.choose(state)]}")

    click.echo(f"{len(game.guesses)} guesses, {len(game.answers)} answers"
               f"{', hard mode' if hard else ''}; {_ASSIST_HELP}; * marks a candidate")
    report()
    while True:
        if interactive:
            click.echo(f"turn {len(history) + 1}> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            break
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.lower() in ("quit", "exit", "q"):
            break
        if text.lower() in ("help", "?"):
            click.echo(_ASSIST_HELP)
            continue
        if text.lower() == "undo":
            if history:
                guess, pattern = history.pop()
                click.echo(f"undone: {guess} {pattern}")
                report()
            else:
                click.echo("nothing to undo")
            continue
        try:
            g, code = parse_feedback(game, text)
            entry = (game.guesses[g], game.format(code))
            state = game.replay(history + [entry])
        except DeductiveError as exc:
            click.echo(f"not applied: {exc}")
            continue
        if len(state.candidates) == 0:
            click.echo(f"not applied: no answer fits {entry[0]} {entry[1]} with what came "
                       "before; check the colours (or undo an earlier entry)")
            continue
        history.append(entry)
        click.echo(_grid_row(game, *[game.guesses[g], code]))
        if code == game.win_code:
            click.echo(f"solved in {len(history)}")
            break
        report()


@wordle.command()
@game_options
@click.option("--opener", default=None, help="Search the best tree that opens with this word.")
@click.option("--openers", "n_openers", type=click.IntRange(min=1), default=None,
              help="Rank the N best openers by entropy by their searched totals.")
@click.option("--beam", type=click.IntRange(min=1), default=None,
              help="Try only the K best-scored guesses per node (fast heuristic). "
                   "Without it the search is exact.")
@click.option("--max-guesses", type=click.IntRange(min=1), default=None,
              help="Only trees that never need more guesses than this.")
@click.option("--tree", "tree_path", type=OutputFile(), default=None,
              help="Export the tree of --opener as JSON (checked by tree-check).")
@click.option("--checkpoint", type=OutputFile(), default=None,
              help="With --openers: append each finished opener here; a rerun resumes.")
@dask_options
@json_option
def search(guesses, answers, length, source, hard, prior, lang, opener, n_openers, beam,
           max_guesses, tree_path, checkpoint, workers, scheduler, as_json):
    """Search the decision tree with the fewest total guesses (ties: smaller worst case).

    \b
    Examples:
      deductive wordle search --opener slate --beam 10              # heuristic
      deductive wordle search --opener slate --tree slate.json      # exact
      deductive wordle search --opener slate --hard --max-guesses 6
      deductive wordle search --openers 10 --beam 10 --json
    """
    import json as _json

    from ..engine.scoring import rank_guesses
    from ..engine.search import TreeSearch

    if (opener is None) == (n_openers is None):
        fail("give --opener WORD or --openers N")
    if tree_path and opener is None:
        fail("--tree goes with --opener")
    game = make_game(guesses, answers, length, source, hard, prior, lang, opener=opener)
    searcher = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    if opener is not None:
        with progress(len(game.answers), f"search {opener}") as update:
            result = searcher.search_opener(opener, keep_tree=tree_path is not None,
                                            progress=update)
        if tree_path:
            from ..engine.tree import tree_document

            with open(tree_path, "w", encoding="utf-8") as fh:
                _json.dump(tree_document(game, result.tree), fh)
        if as_json:
            echo_json(result.as_dict())
            return
        kind = "exact" if result.exact else f"beam {beam}"
        click.echo(f"{result.opener}: total {result.total}, average {result.average:.4f}, worst "
                   f"{result.worst} ({kind}{', hard mode' if hard else ''}), "
                   f"{result.seconds:.1f} s, {result.nodes} nodes searched")
        if tree_path:
            click.echo(f"tree: {tree_path}")
        return
    candidates = [s.word for s in rank_guesses(game.matrix, game.guesses, top=n_openers)]
    if workers or scheduler:
        from ..distributed import dask_client, wordle_search_openers

        with dask_client(scheduler, workers, dask_timeout()) as client:
            rows = wordle_search_openers(client, game, candidates, beam=beam,
                                         max_guesses=max_guesses, checkpoint=checkpoint)
        _print_openers(game, rows, candidates, as_json)
        return
    from ..checkpoint import Checkpoint, search_tag

    store = Checkpoint(checkpoint, search_tag(game, beam, max_guesses))
    done = store.load()
    rows = []
    with progress(len(candidates), "search openers") as update:
        for k, word in enumerate(candidates, start=1):
            if word not in done:
                done[word] = searcher.search_opener(word).as_dict()
                store.append(word, done[word])
            rows.append(done[word])
            update(k)
    _print_openers(game, rows, candidates, as_json)


def _print_openers(game, rows, candidates, as_json):
    """Openers best first (total, then worst case, then entropy rank)."""
    rows = sorted(rows, key=lambda r: (r["total"], r["worst"], candidates.index(r["word"])))
    if as_json:
        echo_json([{k: v for k, v in r.items() if k not in ("seconds", "nodes")} for r in rows])
        return
    for r in rows:
        click.echo(f"{r['word']:<{game.length + 2}} total {r['total']:>6}  average "
                   f"{r['average']:.4f}  worst {r['worst']}  {'exact' if r['exact'] else 'beam'}")
