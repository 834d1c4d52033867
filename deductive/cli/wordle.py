"""``deductive wordle ...``: feedback patterns, the pattern matrix, opener rankings."""

from __future__ import annotations

import time

import click

from ._common import (
    Group,
    cache_dir_option,
    echo_json,
    json_option,
    load_lists,
    word_list_options,
)

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
@cache_dir_option
@click.option("--no-cache", is_flag=True, help="Only compute; neither read nor write the cache.")
@click.option("--rebuild", is_flag=True, help="Compute and overwrite the cached file.")
@json_option
def matrix(guesses, answers, length, cache_dir, no_cache, rebuild, as_json):
    """Build (or load from the cache) the guess x answer pattern matrix.

    Reports its shape, dtype, size, the seconds taken and the cache file.

    \b
    Example:
      deductive wordle matrix --guesses guesses.txt --answers answers.txt
    """
    from ..engine.patterns import cached_pattern_matrix, pattern_matrix

    if guesses is None:
        guesses = "en"
    guess_list, answer_list = load_lists(guesses, answers, length)
    info = {}
    if no_cache:
        start = time.perf_counter()
        result = pattern_matrix(guess_list, answer_list)
        info = {"path": None, "source": "built", "seconds": time.perf_counter() - start}
    else:
        result = cached_pattern_matrix(guess_list, answer_list, cache_dir, rebuild=rebuild,
                                       info=info)
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
@cache_dir_option
@json_option
def openers(guesses, answers, length, top, metric, cache_dir, as_json):
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
    from ..engine.patterns import cached_pattern_matrix
    from ..engine.scoring import rank_guesses

    guess_list, answer_list = load_lists(guesses, answers, length)
    result = cached_pattern_matrix(guess_list, answer_list, cache_dir)
    ranked = rank_guesses(result, guess_list, metric=metric, top=top or None)
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
