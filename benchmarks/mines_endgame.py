"""Speed of Minesweeper's exact endgame: per position (compiled and its Python twin) and
per expert game (a player with a bigger endgame against ``strongest``, same games).

Usage:
  python benchmarks/mines_endgame.py positions [--games 300] [--seed 7] [--twin-up-to 1000]
  python benchmarks/mines_endgame.py games PLAYER [PLAYER ...] [--games 400] [--seed 1000]
      [--first-click safe] [--first-move corner]     (PLAYER@twin: its endgame in Python)

``positions`` plays expert games with a player that leaves every guess to its look-ahead
(``strongest:endgame=1``), keeps the positions where it guesses among 2 to 100,000
arrangements, and times ``endgame_choice`` on each (the JIT warmed first); the twin
(``tests/reference/mines_play.py: mines_endgame_choice``) is timed on those with at most
``--twin-up-to`` arrangements. One line per size class: positions, median and worst
milliseconds, sets of arrangements the search stored. ``games`` plays the same expert games
with each player in turn, game by game (so all run under the same load), and prints games
per second and the median time per game; a player named with ``@twin`` plays its endgame
with the Python twin (the search before it was compiled), to time what compiling saved.
"""

import argparse
import contextlib
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from deductive.engine.minesweeper import analyze, parse_preset  # noqa: E402
from deductive.engine.minesweeper.bench import (first_move_cell, moves, new_game,  # noqa: E402
                                                play_game)
from deductive.engine.minesweeper import best as best_module  # noqa: E402
from deductive.engine.minesweeper.endgame import _endgame_arrays, endgame_choice  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402
from deductive.kernels.mines_endgame import (best_click, enumerate_arrangements,  # noqa: E402
                                             shown_values)

from benchmarks.mines_setup import add_game_options  # noqa: E402

CLASSES = (2, 120, 1000, 5000, 20000, 100000)


def guess_positions(games, seed):
    player, found = make_player("strongest:endgame=1"), []
    for g in range(games):
        board, rng = new_game(*parse_preset("expert"), g, seed=seed)
        board.click(first_move_cell(board.rows, board.cols, "corner"))
        for position, move in moves(board, player, rng):
            if move.kind == "guess" and analyze(position).log_count <= math.log(CLASSES[-1]):
                found.append(position)
    return found


def positions(args):
    from tests.reference import mines_endgame_choice

    found = guess_positions(args.games, args.seed)
    endgame_choice(found[0])                                  # compile or load the kernels
    rows = {}
    for position in found:
        covered, constraints, (adj_ptr, adj), flags, left = _endgame_arrays(position)
        start = time.perf_counter()
        sols = enumerate_arrangements(len(covered), left, *constraints)
        values = shown_values(sols, adj_ptr, adj, flags)
        _, _, states, _ = best_click(values)
        seconds = time.perf_counter() - start
        twin = None
        if len(sols) <= args.twin_up_to:
            start = time.perf_counter()
            mines_endgame_choice(position.rows, position.cols, position.mines,
                                 position.cells.tolist())
            twin = time.perf_counter() - start
        size = next(k for k, top in enumerate(CLASSES[1:]) if len(sols) <= top)
        rows.setdefault(size, []).append((seconds, states, twin, len(position.covered)))
    print("arrangements   positions  covered  median ms  worst ms  sets (median)  twin median ms")
    for size in sorted(rows):
        got = rows[size]
        twins = [t for _, _, t, _ in got if t is not None]
        print(f"{CLASSES[size]:>6}-{CLASSES[size + 1]:<7} {len(got):>9}  "
              f"{statistics.median(c for *_, c in got):>7.0f}  "
              f"{1000 * statistics.median(s for s, *_ in got):>9.3g}  "
              f"{1000 * max(s for s, *_ in got):>8.4g}  "
              f"{statistics.median(n for _, n, *_ in got):>13.0f}  "
              + (f"{1000 * statistics.median(twins):>14.4g}" if twins else f"{'-':>14}"))


@contextlib.contextmanager
def endgame_of(name):
    """The player's endgame as compiled, or (``@twin``) as the Python twin."""
    if not name.endswith("@twin"):
        yield
        return
    from tests.reference import mines_endgame_choice

    compiled = best_module._endgame
    best_module._endgame = lambda p: mines_endgame_choice(p.rows, p.cols, p.mines,
                                                          p.cells.tolist())
    try:
        yield
    finally:
        best_module._endgame = compiled


def games(args):
    rows, cols, mines = parse_preset("expert")
    cell = first_move_cell(rows, cols, args.first_move)
    players = [make_player(name.removesuffix("@twin")) for name in args.players]
    times = [[] for _ in players]
    for g in [-1] + list(range(args.games)):                  # game -1 warms the JIT
        for name, player, kept in zip(args.players, players, times):
            board, rng = new_game(rows, cols, mines, g, seed=args.seed,
                                  first_click=args.first_click)
            with endgame_of(name):
                seconds = play_game(board, player, rng, cell).seconds
            if g >= 0:
                kept.append(seconds)
    for name, kept in zip(args.players, times):
        print(f"{name:<45} {len(kept) / sum(kept):7.1f} games/s  median "
              f"{1000 * statistics.median(kept):6.1f} ms  worst {1000 * max(kept):7.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--twin-up-to", type=int, default=1000)
    p = sub.add_parser("games")
    p.add_argument("players", nargs="+")
    add_game_options(p, games=400, seed=1000)
    args = parser.parse_args()
    positions(args) if args.command == "positions" else games(args)


if __name__ == "__main__":
    main()
