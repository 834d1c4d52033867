"""The game set-up flags the Minesweeper benchmark scripts share, declared once.

``--games``, ``--seed``, ``--first-click`` and ``--first-move`` mean what they mean to
``deductive mines bench`` (choices, defaults and help come from the engine's
:data:`~deductive.engine.minesweeper.bench.GAMES`); each script states its own number of
games and seed, the part of the set-up that differs with what it measures.
"""

import argparse
import re

from deductive.engine.minesweeper.bench import GAMES

_GAMES = {param.name: param for param in GAMES}


def _help(name: str) -> str:
    """The engine's help of ``name``, its backquoted parameter names as flags."""
    return re.sub(r"`(\w+)`", lambda m: "--" + m.group(1).replace("_", "-"), _GAMES[name].help)


def add_game_options(parser: argparse.ArgumentParser, *, games: int, seed: int) -> None:
    """Add the set-up flags to ``parser``, with this script's default ``games`` and
    ``seed``."""
    parser.add_argument("--games", type=int, default=games, help="Games to play.")
    parser.add_argument("--seed", type=int, default=seed, help=_help("seed"))
    click = _GAMES["first_click"]
    parser.add_argument("--first-click", default=click.default, choices=click.type,
                        help=_help("first_click"))
    parser.add_argument("--first-move", default=_GAMES["first_move"].default,
                        help=_help("first_move"))
