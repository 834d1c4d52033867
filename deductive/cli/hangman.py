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
      deductive hangman sweep --words /usr/share/dict/web2 --length 3 --strategy optimal
      deductive hangman evil --words /usr/share/dict/web2 --length 3
      deductive hangman solve _a__e_ --wrong st
      deductive hangman play --length 6
    """


def _words_option(func):
    return click.option(
        "--words", "words_source", default="en", show_default=True, metavar="FILE|NAME",
        help="A word list (one word per line; only lowercase a-z words are kept, as the "
             "seed does), or en / fr (wordfreq).",
    )(func)


def _strategy_options(func, lives_all=False):
    func = click.option("--lang", default="en", show_default=True, callback=check_lang,
                        help="Language of the frequency prior.")(func)
    func = click.option("--prior", type=click.Choice(["uniform", "frequency"]),
                        default="uniform", show_default=True,
                        help="How the setter picks words.")(func)
    if lives_all:
        func = click.option("--lives", default="6", show_default=True, metavar="L|all",
                            help="The L-th wrong guess loses (a word is won with at most "
                                 "L-1); all: L = 1 to 10.")(func)
    else:
        func = click.option("--lives", type=click.IntRange(1, 26), default=6,
                            show_default=True,
                            help="The L-th wrong guess loses (a word is won with at most "
                                 "L-1).")(func)
    func = click.option("--strategy", default="min-miss", show_default=True,
                        help="min-miss, max-hit, entropy, best-lives or optimal.")(func)
    return func


def _memory_option(func):
    return click.option("--memory", type=click.FloatRange(0.01, 1024), default=4.0,
                        show_default=True, metavar="GB",
                        help="optimal / evil: memory budget of the search's memo (past it the "
                             "memo evicts: slower, never wrong).")(func)


def _lives_list(lives: str) -> list:
    if lives == "all":
        return list(range(1, 11))
    if not lives.isdigit() or not 1 <= int(lives) <= 26:
        fail(f"--lives {lives!r}: give a number from 1 to 26, or all")
    return [int(lives)]


def _write_json(path, doc):
    """Write JSON to ``path`` through a temporary file, so that a crash leaves no half file."""
    import json
    import os

    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError as exc:
        fail(f"{path}: cannot write ({exc.strerror}); choose another path")


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
@lambda func: _strategy_options(func, lives_all=True)
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many hardest and easiest words to print.")
@click.option("--exact-limit", type=click.IntRange(0, 64), default=16, show_default=True,
              help="best-lives: exact search on candidate sets up to this size.")
@click.option("--tree", "tree_path", type=click.Path(dir_okay=False), default=None,
              help="optimal: write the strategy as a JSON tree (one length, one L; check "
                   "it with hangman tree-check).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Record each finished length in FILE (JSON lines); a rerun with the same "
                   "arguments skips them.")
@_memory_option
@dask_options
@json_option
def sweep(words_source, length, strategy, lives, prior, lang, top, exact_limit, tree_path,
          checkpoint, memory, workers, scheduler, as_json):
    """Rate every word by the misses a strategy makes on it (the seed's difficulty).

    Prints the seed's tuples (wrong, guesses, word, letters) for the easiest and the
    hardest words (hardest first), the mean number of misses and the win rate with
    --lives; with --lives all, the wins for L = 1 to 10. The optimal strategy is an exact
    search: the most words any strategy wins with L lives.

    \b
    Examples:
      deductive hangman sweep --words /usr/share/dict/web2 --length 6
      deductive hangman sweep --words /usr/share/dict/web2 --length 6 --strategy best-lives
      deductive hangman sweep --words /usr/share/dict/web2 --length 2 --strategy optimal \\
          --lives all
      deductive hangman sweep --words /usr/share/dict/web2 --length 3 --strategy optimal \\
          --tree tree3.json
      deductive hangman sweep --words en --length all --json
    """
    from ..checkpoint import Checkpoint
    from ..engine.hangman import Hangman, SweepResult, load_hangman_words, sweep_chunk, sweep_tag
    from ._progress import progress

    _check_strategy(strategy)
    lives_list = _lives_list(lives)
    if length != "all" and not str(length).isdigit():
        fail(f"--length {length!r}: give a number or all")
    if tree_path and (strategy != "optimal" or length == "all" or len(lives_list) > 1
                      or workers or scheduler or checkpoint):
        fail("--tree needs --strategy optimal, one --length, one --lives, and no --workers, "
             "--scheduler or --checkpoint")
    budget = int(memory * 2 ** 30)
    lists = load_hangman_words(words_source, length)
    if workers or scheduler:
        from ..distributed import dask_client, hangman_sweep_all

        with dask_client(scheduler, workers, dask_timeout()) as client:
            sweeps = hangman_sweep_all(client, lists, strategy, lives=lives_list, prior=prior,
                                       lang=lang, exact_limit=exact_limit,
                                       checkpoint=checkpoint, memory=budget)
    else:
        store = Checkpoint(checkpoint, sweep_tag(lists, strategy, lives_list, prior, lang,
                                                 exact_limit))
        done = store.load()
        sweeps = []
        with progress(len(lists), f"sweep {strategy}") as update:
            for k, (n, words) in enumerate(lists.items(), start=1):
                if tree_path:
                    game = Hangman(words, prior=prior, lang=lang)
                    game.exact(budget)
                    result = game.sweep(strategy, lives=lives_list[0])
                    from ..engine.hangman_exact import tree_to_json

                    _write_json(tree_path, tree_to_json(result.exact, words.words,
                                                        source=words.name))
                    sweeps.append((n, [result]))
                else:
                    part = done.get(str(n))
                    if part is None:
                        part = sweep_chunk(words, strategy, lives_list, prior, lang,
                                           exact_limit, budget)
                        store.append(str(n), part)
                    sweeps.append((n, [SweepResult.from_dict(part[str(x)])
                                       for x in lives_list]))
                update(k)
    if len(lives_list) == 1:
        _print_sweep([(n, rs[0]) for n, rs in sweeps], strategy, lives_list[0], prior, top,
                     as_json)
    else:
        _print_lives_table(sweeps, strategy, lives_list, prior, as_json)


def _print_sweep(sweeps, strategy, lives, prior, top, as_json):
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
                   f"{100 * s.win_rate:.2f}% ({s.wins} won) with {lives} lives, "
                   f"{s.seconds:.3f} s")
        if top:
            k = min(top, s.words)
            click.echo(f"  {k} easiest:")
            for r in s.results[:k]:
                click.echo(f"    {r}")
            click.echo(f"  {k} hardest, hardest first:")
            for r in reversed(s.results[-k:]):
                click.echo(f"    {r}")
    if len(sweeps) > 1:
        click.echo(f"all lengths: {total} words, mean misses {summary['mean_misses']:.4f}, "
                   f"win rate {100 * summary['win_rate']:.2f}%, {seconds:.2f} s")


def _print_lives_table(sweeps, strategy, lives_list, prior, as_json):
    if as_json:
        echo_json({"strategy": strategy, "prior": prior, "lives": lives_list,
                   "by_length": {str(n): {str(x): r.as_dict(with_results=False)
                                          for x, r in zip(lives_list, rs)}
                                 for n, rs in sweeps}})
        return
    for n, rs in sweeps:
        click.echo(f"length {n}: {rs[0].words} words, {strategy}")
        click.echo(f"  {'lives':>5} {'wins':>7} {'win rate':>9} {'mean misses':>12} "
                   f"{'seconds':>8}")
        for x, r in zip(lives_list, rs):
            click.echo(f"  {x:>5} {r.wins:>7} {100 * r.win_rate:>8.2f}% {r.mean_misses:>12.4f} "
                       f"{r.seconds:>8.2f}")


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
@click.option("--evil", is_flag=True,
              help="Play against an adversary who picks no word and answers each guess to "
                   "leave you the most misses it can force (exact minimax).")
def play(words_source, length, strategy, lives, prior, lang, word, seed, auto, evil):
    """Play hangman in the terminal: guess letters; 'hint' asks the strategy.

    \b
    Examples:
      deductive hangman play --length 6
      deductive hangman play --word buzzer --auto --words /usr/share/dict/web2
      deductive hangman play --evil --length 3 --words /usr/share/dict/web2
    """
    import sys

    import numpy as np

    from ..engine.hangman import load_hangman_words

    _check_strategy(strategy)
    lists = load_hangman_words(words_source, length)
    game = _game(lists[length], prior, lang)
    exact = None
    if evil:
        from ..engine.hangman_exact import ExactHangman

        if word is not None:
            fail("--evil: the adversary picks no word in advance; drop --word")
        exact = ExactHangman(game, uniform=True)
        word = game.words.words[0]
    elif word is None:
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
            if evil:
                left = ", ".join(game.words.words[k] for k in cands[:5])
                click.echo(f"lost: the adversary could still answer {left}"
                           + (" ..." if len(cands) > 5 else ""))
            else:
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
        if evil:
            word = _evil_answer(exact, game, cands, pattern, wrong, letter)
        if letter in word:
            shown = [ch if ch == letter else s for ch, s in zip(word, shown)]
        else:
            wrong += letter


@hangman.command("tree-check")
@click.argument("tree_path", metavar="TREE", type=click.Path(dir_okay=False))
@_words_option
@click.option("--lives", type=click.IntRange(1, 26), default=None,
              help="Count wins with these lives (default: the tree's).")
@json_option
def tree_check(tree_path, words_source, lives, as_json):
    """Replay every word of a list against a strategy tree (JSON, from --tree).

    Independent of the search: plain Python follows the tree for each word and checks
    that it ends at the word's own leaf, counting the words won with fewer misses than
    the lives. Exit status 0 if the tree is sound and wins what it claims, 1 if not.

    \b
    Example:
      deductive hangman sweep --words /usr/share/dict/web2 --length 3 --strategy optimal \\
          --tree tree3.json
      deductive hangman tree-check tree3.json --words /usr/share/dict/web2
    """
    import sys

    from ..engine.hangman import load_hangman_words
    from ..engine.hangman_exact import check_tree, load_tree, words_sha256

    tree = load_tree(tree_path)
    length = tree.get("length") if isinstance(tree, dict) else None
    if not isinstance(length, int):
        fail(f"{tree_path}: not a deductive Hangman tree (no length); write one with --tree")
    words = load_hangman_words(words_source, length)[length].words
    check = check_tree(tree, words, lives)
    same_list = tree.get("words_sha256") == words_sha256(words)
    if as_json:
        echo_json({"ok": check.ok, "words": check.words, "wins": check.wins,
                   "lives": check.lives, "claimed_wins": check.claimed_wins,
                   "max_misses": check.max_misses, "same_list": same_list,
                   "errors": check.errors})
    else:
        click.echo(f"{tree_path}: {check.words} words of {length} letters, {check.wins} won "
                   f"with {check.lives} lives ({100 * check.wins / check.words:.2f}%), at "
                   f"most {check.max_misses} misses")
        if not same_list:
            click.echo("note: the tree was made for another word list")
        if check.claimed_wins is not None and check.claimed_wins != check.wins:
            click.echo(f"the tree claims {check.claimed_wins} wins")
        for line in check.errors:
            click.echo(f"  {line}")
        click.echo("ok" if check.ok else "FAILED")
    sys.exit(0 if check.ok else 1)


@hangman.command()
@_words_option
@click.option("--length", type=click.IntRange(1, 32), required=True, help="Word length.")
@click.option("--tree", "tree_path", type=click.Path(dir_okay=False), default=None,
              help="Write the guesser's minimax strategy as a JSON tree.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many of the words the adversary can hold to the end to print.")
@_memory_option
@json_option
def evil(words_source, length, tree_path, top, memory, as_json):
    """Evil Hangman: the misses a guesser cannot avoid against an adversary.

    The adversary picks no word in advance: after each guess it keeps any answer
    consistent with the list. Prints the least number of misses the guesser can
    guarantee (exact, by minimax search), so that one more life wins every word, and the
    words the adversary can keep to the end of the guesser's best strategy.

    \b
    Examples:
      deductive hangman evil --words /usr/share/dict/web2 --length 3
      deductive hangman evil --words /usr/share/dict/web2 --length 6 --tree evil6.json
    """
    import time

    from ..engine.hangman import load_hangman_words
    from ..engine.hangman_exact import ExactHangman, tree_to_json

    words = load_hangman_words(words_source, length)[length]
    game = _game(words, "uniform", "en")
    start = time.perf_counter()
    exact = ExactHangman(game, memory=int(memory * 2 ** 30))
    value = exact.evil_misses()
    play = exact.evil_play()
    seconds = time.perf_counter() - start
    held = sorted(words.words[k] for k in range(len(words)) if play.wrong[k] == value)
    if tree_path:
        _write_json(tree_path, tree_to_json(play, words.words, strategy="evil",
                                            source=words.name))
    if as_json:
        echo_json({"words": len(words), "length": length, "misses": value,
                   "lives_to_win": value + 1, "held": held, "seconds": round(seconds, 3),
                   "search": exact.stats})
        return
    click.echo(f"{words.name}: {len(words)} words. Against an adversary the guesser can "
               f"hold the misses to {value} and no strategy does better: {value + 1} lives "
               f"win every word ({seconds:.1f} s).")
    if top and held:
        click.echo(f"words the adversary can keep to the end ({len(held)}): "
                   + ", ".join(held[:top]) + (" ..." if len(held) > top else ""))


def _evil_answer(exact, game, cands, pattern, wrong, letter):
    """The adversary's answer to ``letter``: the group of candidates (by the positions of
    the letter) that leaves the guesser the most misses it can force, the larger group on
    a tie, then a miss, then the leftmost positions. Returns a word of that group."""
    groups: dict = {}
    for k in cands:
        w = game.words.words[k]
        groups.setdefault(tuple(i for i, ch in enumerate(w) if ch == letter), []).append(k)
    best, best_key = None, None
    for positions, group in groups.items():
        new_pattern = "".join(letter if i in positions else ch for i, ch in enumerate(pattern))
        new_wrong = wrong if positions else wrong + letter
        value = exact.evil_state(group, new_pattern, new_wrong) + (not positions)
        key = (value, len(group), not positions, [-i for i in positions])
        if best_key is None or key > best_key:
            best, best_key = group, key
    return game.words.words[best[0]]
