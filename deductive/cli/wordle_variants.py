"""``deductive wordle absurdle ...`` and ``deductive wordle multi``: Wordle's variants."""

from __future__ import annotations

import sys

import click

from ..engine.wordle.absurdle import Absurdle, absurdle_search
from ..engine.wordle.multi import MultiBoard
from ..errors import DeductiveError
from ._common import Group, SEED, echo_json, game_command, json_option
from ._progress import progress


@click.group(cls=Group)
def absurdle():
    """Absurdle: the adversary keeps the largest bucket (ties: fewest greens, then
    yellows, then grey before yellow before green from the first letter).

    \b
    Examples:
      deductive wordle absurdle search --guesses guesses.txt --answers answers.txt
      printf 'aesir\\nyauld\\ntench\\nwhoop\\n' | deductive wordle absurdle play \\
          --guesses guesses.txt --answers answers.txt
    """


@absurdle.command()
@game_command()
@click.option("--max-guesses", type=click.IntRange(1, 20), default=8, show_default=True,
              help="Give up beyond this many guesses.")
@json_option
def search(game, max_guesses, as_json):
    """The fewest guesses that force a win, proven depth by depth, and a sequence.

    \b
    Example:
      deductive wordle absurdle search --guesses guesses.txt --answers answers.txt
    """
    with progress(max_guesses, "absurdle search") as update:
        r = absurdle_search(Absurdle(game), max_guesses, progress=update)
    if as_json:
        return echo_json(r.as_dict())
    click.echo(f"{r.guesses} guesses force a win: {' '.join(r.sequence)} (no win within "
               f"{max(r.lower_bounds, default=0)}: proven; {r.seconds:.1f} s, {r.nodes} nodes)")


@absurdle.command()
@game_command()
def play(game):
    """Play Absurdle: type a guess per line; the adversary answers. Ends on a win.

    \b
    Example:
      printf 'aesir\\nyauld\\ntench\\nwhoop\\n' | deductive wordle absurdle play \\
          --guesses guesses.txt --answers answers.txt
    """
    adversary = Absurdle(game)
    cands, turn = adversary.start(), 0
    click.echo(f"{len(cands)} words possible; type a guess per line ('quit' stops)")
    for line in sys.stdin:
        word = line.strip().lower()
        if word in ("quit", "q"):
            break
        if not word:
            continue
        try:
            g = game.guess_index(word)
        except DeductiveError as exc:   # a typo in a game: say so, go on
            click.echo(f"not applied: {exc}")
            continue
        turn += 1
        code, cands = adversary.respond(cands, g)
        click.echo(f"{turn}: {word} {game.format(code)}  {len(cands)} word(s) left")
        if code == adversary.win:
            return click.echo(f"won in {turn}")


@click.command()
@game_command()
@click.option("--boards", type=click.IntRange(min=1), default=4, show_default=True,
              help="Boards per game (2 Dordle, 4 Quordle); k + 5 guesses allowed.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Game i draws its answers from the generator (seed, i).")
@json_option
def multi(game, boards, games, seed, as_json):
    """Multi-board Wordle: random games with the entropy solver (sum of the boards'
    entropies; a board whose answer is known is played first).

    \b
    Example:
      deductive wordle multi --boards 4 --games 1000 --guesses guesses.txt \\
          --answers answers.txt --json
    """
    runner = MultiBoard(game, boards)
    with progress(games, f"{boards} boards") as update:
        r = runner.run(games, seed, progress=update).as_dict()
    if as_json:
        return echo_json(r)
    low, high = r["win_rate_95"]
    click.echo(f"{boards} boards, {games} games: win rate {r['win_rate']:.4f} (95% "
               f"{low:.4f}-{high:.4f}, within {r['limit']}), average {r['average']:.4f}, "
               f"worst {r['worst']}, {r['seconds']:.1f} s")
    click.echo("distribution: " + ", ".join(f"{k}: {v}" for k, v in r["distribution"].items()
                                            if v))
