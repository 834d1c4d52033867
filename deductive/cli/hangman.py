"""``deductive hangman ...``: parse, call :mod:`deductive.engine.hangman`, print."""

from __future__ import annotations

import click

from ..distributed import hangman_sweep_all
from ..engine import hangman as h
from ..engine.hangman.session import CHECK_LIVES, EVIL, SESSION, SOLVE
from ..engine.hangman.sweep import SWEEP
from ..engine.hangman.words import WORDS
from ..engine.params import Param
from ._common import (JSON, dask_options, note_lists, options, progress, read_line, show)
from . import hangman_group as hangman

GB = 2 ** 30


@hangman.command()
@options(WORDS, SWEEP, dask_options, JSON)
def sweep(words, length, strategy, lives, prior, lang, top, exact_limit, tree, checkpoint,
          memory, cluster, json):
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
    lives_list = h.sweep_lives(strategy, lives, length, tree, checkpoint, bool(cluster))
    settings = dict(prior=prior, lang=lang, exact_limit=exact_limit, memory=int(memory * GB))
    lists = h.load_hangman_words(words, length)
    note_lists(*lists.values())
    if tree:
        ((n, words),) = lists.items()
        sweeps = [(n, [h.optimal_tree(words, lives_list[0], tree, prior=prior, lang=lang,
                                      memory=settings["memory"])])]
    else:
        with progress(len(lists), f"sweep {strategy}") as update:
            sweeps = cluster.run(
                lambda client: hangman_sweep_all(client, lists, strategy, lives=lives_list,
                                                 checkpoint=checkpoint, **settings),
                lambda: h.sweep_lists(lists, strategy, lives_list, checkpoint=checkpoint,
                                      progress=update, **settings))
    report = h.SweepReport(sweeps, strategy, lives_list, prior)
    show(report, json, top=top)


@hangman.command()
@options(click.argument("pattern"), SOLVE[0], WORDS, SOLVE[1:], Param(
    "shown", 12, "Candidates listed.", int, 0, 500, spelling="--show"), JSON)
def solve(pattern, wrong, words, strategy, lives, prior, lang, shown, json):
    """Best next letter for PATTERN (``_`` for unknown letters) and the wrong letters.

    \b
    Example:
      deductive hangman solve _a__e_ --wrong st --words /usr/share/dict/web2
    """
    report = h.solve(words, pattern, wrong, strategy=strategy, lives=lives, prior=prior, lang=lang)
    note_lists(lambda: h.load_hangman_words(words, len(report.pattern)).values())
    show(report, json, show=shown)


@hangman.command()
@options(WORDS, SESSION)
def play(words, length, strategy, lives, prior, lang, word, seed, auto, evil):
    """Play hangman in the terminal: guess letters; 'hint' asks the strategy.

    \b
    Examples:
      deductive hangman play --length 6
      deductive hangman play --word buzzer --auto --words /usr/share/dict/web2
      deductive hangman play --evil --length 3 --words /usr/share/dict/web2
    """
    game = h.Hangman(h.load_hangman_words(words, length)[length], prior=prior, lang=lang)
    session = h.HangmanSession(game, strategy=strategy, lives=lives, word=word, seed=seed,
                               evil=evil)
    for line in session.run(lambda: read_line("" if auto else "letter> "), auto):
        click.echo(line)


@hangman.command("tree-check")
@options(click.argument("tree_path", metavar="TREE", type=click.Path(dir_okay=False)), WORDS,
         CHECK_LIVES, JSON)
def tree_check(tree_path, words, lives, json):
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
    report = h.tree_check(tree_path, words, lives)
    note_lists(lambda: h.load_hangman_words(words, report.length).values())
    show(report, json)
    raise SystemExit(0 if report.check.ok else 1)


@hangman.command()
@options(WORDS, EVIL, JSON)
def evil(words, length, tree, top, memory, json):
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
    report = h.evil(words, length, memory=int(memory * GB))
    note_lists(lambda: h.load_hangman_words(words, length).values())
    if tree:
        h.write_tree(tree, report.tree())
    show(report, json, top=top)
