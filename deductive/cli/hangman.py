"""``deductive hangman ...``: parse, call :mod:`deductive.engine.hangman`, print."""

from __future__ import annotations

import click

from ..distributed import hangman_sweep_all
from ..engine import hangman as h
from ._common import (SEED, Group, check_lang, dask_options, fail, json_option, options,
                      read_line, show)
from ._progress import progress


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


WORDS = click.option(
    "--words", "words_source", default="en", show_default=True, metavar="FILE|NAME",
    help="A word list (one word per line; only lowercase a-z words are kept, as the original "
         "programs do), or en / fr (wordfreq).")
MEMORY = click.option(
    "--memory", type=click.FloatRange(0.01, 1024), default=4.0, show_default=True, metavar="GB",
    help="optimal / evil: memory budget of the search's memo (past it the memo evicts: slower, "
         "never wrong).")
_LIVES_HELP = "The L-th wrong guess loses (a word is won with at most L-1)"


def strategy_options(lives_all=False):
    """--strategy, --lives (with ``lives_all``: also ``all``), --prior and --lang."""
    lives = (dict(default="6", metavar="L|all", help=_LIVES_HELP + "; all: L = 1 to 10.")
             if lives_all else dict(type=click.IntRange(1, 26), default=6, help=_LIVES_HELP + "."))
    return options(
        click.option("--strategy", default="min-miss", show_default=True,
                     help="min-miss, max-hit, entropy, best-lives or optimal."),
        click.option("--lives", show_default=True, **lives),
        click.option("--prior", type=click.Choice(["uniform", "frequency"]), default="uniform",
                     show_default=True, help="How the setter picks words."),
        click.option("--lang", default="en", show_default=True, callback=check_lang,
                     help="Language of the frequency prior."))


@hangman.command()
@WORDS
@click.option("--length", default="all", show_default=True, metavar="N|all",
              help="Word length, or all (each length swept on its own).")
@strategy_options(lives_all=True)
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
@MEMORY
@dask_options
@json_option
def sweep(words_source, length, strategy, lives, prior, lang, top, exact_limit, tree_path,
          checkpoint, memory, cluster, as_json):
    """Rate every word by the misses a strategy makes on it (the original programs' difficulty).

    Prints the tuples (wrong, guesses, word, letters) for the easiest and the
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
    lives_list = h.sweep_lives(strategy, lives, length)
    if tree_path and (strategy != "optimal" or length == "all" or len(lives_list) > 1
                      or cluster or checkpoint):
        fail("--tree needs --strategy optimal, one --length, one --lives, and no --workers, "
             "--scheduler or --checkpoint")
    settings = dict(prior=prior, lang=lang, exact_limit=exact_limit, memory=int(memory * 2 ** 30))
    lists = h.load_hangman_words(words_source, length)
    if tree_path:
        ((n, words),) = lists.items()
        sweeps = [(n, [h.optimal_tree(words, lives_list[0], tree_path, prior=prior, lang=lang,
                                      memory=settings["memory"])])]
    else:
        with progress(len(lists), f"sweep {strategy}") as update:
            sweeps = cluster.run(
                lambda client: hangman_sweep_all(client, lists, strategy, lives=lives_list,
                                                 checkpoint=checkpoint, **settings),
                lambda: h.sweep_lists(lists, strategy, lives_list, checkpoint=checkpoint,
                                      progress=update, **settings))
    report = h.SweepReport(sweeps, strategy, lives_list, prior)
    show(report.as_dict(), "\n".join(report.lines(top)), as_json)


@hangman.command()
@click.argument("pattern")
@click.option("--wrong", default="", help="Letters already guessed that are not in the word.")
@WORDS
@strategy_options()
@click.option("--show", "shown", type=click.IntRange(0, 500), default=12, show_default=True,
              help="Candidates listed.")
@json_option
def solve(pattern, wrong, words_source, strategy, lives, prior, lang, shown, as_json):
    """Best next letter for PATTERN (``_`` for unknown letters) and the wrong letters.

    \b
    Example:
      deductive hangman solve _a__e_ --wrong st --words /usr/share/dict/web2
    """
    report = h.solve(words_source, pattern, wrong, strategy=strategy, lives=lives, prior=prior,
                     lang=lang)
    show(report.as_dict(shown), "\n".join(report.lines(shown)), as_json)


@hangman.command()
@WORDS
@click.option("--length", type=click.IntRange(2, 32), default=6, show_default=True)
@strategy_options()
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
    game = h.Hangman(h.load_hangman_words(words_source, length)[length], prior=prior, lang=lang)
    session = h.HangmanSession(game, strategy=strategy, lives=lives, word=word, seed=seed,
                               evil=evil)
    for line in session.run(lambda: read_line("" if auto else "letter> "), auto):
        click.echo(line)


@hangman.command("tree-check")
@click.argument("tree_path", metavar="TREE", type=click.Path(dir_okay=False))
@WORDS
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
    report = h.tree_check(tree_path, words_source, lives)
    show(report.as_dict(), "\n".join(report.lines()), as_json)
    raise SystemExit(0 if report.check.ok else 1)


@hangman.command()
@WORDS
@click.option("--length", type=click.IntRange(1, 32), required=True, help="Word length.")
@click.option("--tree", "tree_path", type=click.Path(dir_okay=False), default=None,
              help="Write the guesser's minimax strategy as a JSON tree.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many of the words the adversary can hold to the end to print.")
@MEMORY
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
    report = h.evil(words_source, length, memory=int(memory * 2 ** 30))
    if tree_path:
        h.write_json(tree_path, report.tree())
    show(report.as_dict(), "\n".join(report.lines(top)), as_json)
