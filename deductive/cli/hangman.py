"""``deductive hangman ...``: difficulty sweeps, the assistant, and a game in the terminal."""

from __future__ import annotations

import click

from ._common import (
    SEED,
    Group,
    check_lang,
    dask_options,
    dask_timeout,
    echo_json,
    fail,
    json_option,
)


@click.group(cls=Group)
def hangman():
    """Hangman: difficulty sweeps over whole dictionaries, an assistant, a game.

    \b
    Examples:
      deductive hangman sweep --words /usr/share/dict/web2 --length 6
      deductive hangman solve _a__e_ --wrong st
      deductive hangman play --length 6
    """


def _words_option(func):
    return click.option(
        "--words", "words_source", default="en", show_default=True, metavar="FILE|NAME",
        help="A word list (one word per line; only lowercase a-z words are kept, as the "
             "seed does), or en / fr (wordfreq).",
    )(func)


def _strategy_options(func):
    func = click.option("--lang", default="en", show_default=True, callback=check_lang,
                        help="Language of the frequency prior.")(func)
    func = click.option("--prior", type=click.Choice(["uniform", "frequency"]),
                        default="uniform", show_default=True,
                        help="How the setter picks words.")(func)
    func = click.option("--lives", type=click.IntRange(1, 26), default=6, show_default=True,
                        help="The L-th wrong guess loses (a word is won with at most L-1).")(func)
    func = click.option("--strategy", default="min-miss", show_default=True,
                        help="min-miss, max-hit, entropy or best-lives.")(func)
    return func


def _game(words, prior, lang):
    from ..engine.hangman import Hangman

    return Hangman(words, prior=prior, lang=lang)


def _check_strategy(name):
    from ..engine.hangman import _strategy_code

    _strategy_code(name)


@hangman.command()
@_words_option
@click.option("--length", default="all", show_default=True, metavar="N|all",
              help="Word length, or all (each length swept on its own).")
@_strategy_options
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many hardest and easiest words to print.")
@click.option("--exact-limit", type=click.IntRange(0, 64), default=16, show_default=True,
              help="best-lives: exact search on candidate sets up to this size.")
@dask_options
@json_option
def sweep(words_source, length, strategy, lives, prior, lang, top, exact_limit, workers,
          scheduler, as_json):
    """Rate every word by the misses a strategy makes on it (the seed's difficulty).

    Prints the seed's tuples (wrong, guesses, word, letters) for the hardest and easiest
    words, the mean number of misses and the win rate with --lives.

    \b
    Examples:
      deductive hangman sweep --words /usr/share/dict/web2 --length 6
      deductive hangman sweep --words /usr/share/dict/web2 --length 6 --strategy best-lives
      deductive hangman sweep --words en --length all --json
    """
    from ..engine.hangman import load_hangman_words
    from ._progress import progress

    _check_strategy(strategy)
    if length != "all" and not str(length).isdigit():
        fail(f"--length {length!r}: give a number or all")
    lists = load_hangman_words(words_source, length)
    sweeps = []
    if workers or scheduler:
        from ..distributed import dask_client, hangman_sweep_all

        with dask_client(scheduler, workers, dask_timeout()) as client:
            sweeps = hangman_sweep_all(client, lists, strategy, lives=lives, prior=prior,
                                       lang=lang, exact_limit=exact_limit)
    else:
        with progress(len(lists), f"sweep {strategy}") as update:
            for done, (n, words) in enumerate(lists.items(), start=1):
                game = _game(words, prior, lang)
                sweeps.append((n, game.sweep(strategy, lives=lives, exact_limit=exact_limit)))
                update(done)
    import numpy as np

    wrong = np.concatenate([s.wrong for _, s in sweeps])
    seconds = sum(s.seconds for _, s in sweeps)
    total = len(wrong)
    summary = {
        "words": total, "strategy": strategy, "lives": lives, "prior": prior,
        "mean_misses": round(float(wrong.mean()), 6),
        "win_rate": round(float((wrong < lives).mean()), 6),
        "wins": int((wrong < lives).sum()), "seconds": round(seconds, 4),
    }
    if as_json:
        results = sorted(r for _, s in sweeps for r in s.results)
        summary["by_length"] = {str(n): s.as_dict(with_results=False) for n, s in sweeps}
        summary["results"] = [list(r) for r in results]
        echo_json(summary)
        return
    for n, s in sweeps:
        click.echo(f"length {n}: {s.words} words, mean misses {s.mean_misses:.4f}, win rate "
                   f"{100 * s.win_rate:.2f}% with {lives} lives, {s.seconds:.3f} s")
        if top:
            k = min(top, s.words)
            click.echo(f"  {k} easiest:")
            for r in s.results[:k]:
                click.echo(f"    {r}")
            click.echo(f"  {k} hardest:")
            for r in s.results[-k:]:
                click.echo(f"    {r}")
    if len(sweeps) > 1:
        click.echo(f"all lengths: {total} words, mean misses {summary['mean_misses']:.4f}, "
                   f"win rate {100 * summary['win_rate']:.2f}%, {seconds:.2f} s")


@hangman.command()
@click.argument("pattern")
@click.option("--wrong", default="", help="Letters already guessed that are not in the word.")
@_words_option
@_strategy_options
@click.option("--show", type=click.IntRange(0, 500), default=12, show_default=True,
              help="Candidates listed.")
@json_option
def solve(pattern, wrong, words_source, strategy, lives, prior, lang, show, as_json):
    """Best next letter for PATTERN (``_`` for unknown letters) and the wrong letters.

    \b
    Example:
      deductive hangman solve _a__e_ --wrong st --words /usr/share/dict/web2
    """
    from ..engine.hangman import load_hangman_words
    from ..engine.words import fold_word

    _check_strategy(strategy)
    pattern, wrong = fold_word(pattern), fold_word(wrong)    # as word lists are folded
    lists = load_hangman_words(words_source, len(pattern))
    game = _game(next(iter(lists.values())), prior, lang)
    cands = game.candidates(pattern, wrong)
    if not cands:
        fail(f"no word of {words_source} fits {pattern} without {wrong or 'any wrong letter'}; "
             "check the pattern and the letters")
    guessed = wrong + "".join(ch for ch in pattern if ch.isalpha())
    lives_left = lives - len(set(wrong))
    if lives_left < 1:
        fail(f"{len(set(wrong))} wrong letters with {lives} lives: the game is already lost")
    stats = [s for s in game.letter_stats(cands, guessed) if s.containing]
    best = None if len(cands) == 1 else game.best_letter(cands, guessed, strategy, lives_left)
    words = [game.words.words[k] for k in cands]
    if as_json:
        echo_json({"pattern": pattern, "wrong": wrong, "candidates": len(cands),
                   "words": words[:show], "best": best, "strategy": strategy,
                   "letters": [s.__dict__ for s in stats]})
        return
    click.echo(f"{len(cands)} candidate(s): " + ", ".join(words[:show])
               + (" ..." if len(cands) > show else ""))
    if best is None:
        click.echo(f"the word is {words[0]}")
        return
    click.echo(f"best letter ({strategy}, {lives_left} lives left): {best}")
    click.echo(f"{'letter':>6} {'in words':>9} {'P(hit)':>7} {'entropy':>8} {'groups':>6}")
    for s in stats[:10]:
        click.echo(f"{s.letter:>6} {s.containing:>9} {s.hit_probability:>7.3f} "
                   f"{s.entropy:>8.3f} {s.groups:>6}")


@hangman.command()
@_words_option
@click.option("--length", type=click.IntRange(2, 32), default=6, show_default=True)
@_strategy_options
@click.option("--word", default=None, help="The secret word (default: drawn with --seed).")
@click.option("--seed", type=SEED, default=None, help="Seed of the draw (default: random).")
@click.option("--auto", is_flag=True, help="Let the strategy play and show each step.")
def play(words_source, length, strategy, lives, prior, lang, word, seed, auto):
    """Play hangman in the terminal: guess letters; 'hint' asks the strategy.

    \b
    Examples:
      deductive hangman play --length 6
      deductive hangman play --word buzzer --auto --words /usr/share/dict/web2
    """
    import sys

    import numpy as np

    from ..engine.hangman import load_hangman_words

    _check_strategy(strategy)
    lists = load_hangman_words(words_source, length)
    game = _game(lists[length], prior, lang)
    if word is None:
        word = game.words.words[np.random.default_rng(seed).integers(len(game.words))]
    elif word not in set(game.words.words):
        fail(f"--word {word!r} is not in the list {words_source} of {length}-letter words")
    shown = ["_"] * length
    wrong = ""
    interactive = sys.stdin.isatty() and not auto
    click.echo(f"{len(game.words)} words of {length} letters; {lives} lives")
    while True:
        pattern = "".join(shown)
        cands = game.candidates(pattern, wrong)
        click.echo(f"{' '.join(shown)}   wrong: {wrong or '-'}   lives: {lives - len(wrong)}"
                   f"   candidates: {len(cands)}")
        if "_" not in shown or len(cands) == 1:
            click.echo(f"won: {word} with {len(wrong)} miss(es)")
            return
        if len(wrong) >= lives:
            click.echo(f"lost: the word was {word}")
            return
        guessed = wrong + "".join(set(pattern) - {"_"})
        if auto:
            letter = game.best_letter(cands, guessed, strategy, lives - len(wrong))
            click.echo(f"{strategy} guesses {letter}")
        else:
            if interactive:
                click.echo("letter> ", nl=False)
            line = sys.stdin.readline()
            if not line or line.strip().lower() in ("quit", "q"):
                click.echo(f"stopped: the word was {word}")
                return
            letter = line.strip().lower()
            if letter == "hint":
                click.echo(f"hint ({strategy}): "
                           f"{game.best_letter(cands, guessed, strategy, lives - len(wrong))}")
                continue
            if len(letter) != 1 or not "a" <= letter <= "z":
                click.echo("type one letter a-z, 'hint' or 'quit'")
                continue
            if letter in guessed:
                click.echo(f"{letter} was already guessed")
                continue
        if letter in word:
            shown = [ch if ch == letter else s for ch, s in zip(word, shown)]
        else:
            wrong += letter
