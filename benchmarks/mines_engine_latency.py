"""Latency of the probability engine on every position met in N expert games.

Usage: python benchmarks/mines_engine_latency.py [GAMES]   (default 1000)

Plays ``least-risk`` games (expert, first click safe in the corner), keeps every position
where the local rules prove nothing (those the engine is called on), then times
``analyze`` on each, warm, one core. Prints the median, p99 and maximum.
"""

import argparse
import time

import numpy as np

from deductive.engine.minesweeper import Board, analyze
from deductive.engine.minesweeper.players import make_player, rule_deductions


def positions(games):
    player = make_player("least-risk")
    found = []
    for g in range(games):
        board = Board(16, 30, 99, seed=1000 + g, first_click="safe")
        rng = np.random.default_rng(2000 + g)
        board.click(0)
        while not board.over:
            position = board.position()
            safe, mines = rule_deductions(position)
            if not len(safe) and not len(mines):
                found.append(position)
            board.apply(player.decide(position, rng))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="?", type=int, default=1000,
                   help="expert games whose positions are timed (default 1000)")
    games = p.parse_args().games
    found = positions(games)
    analyze(found[0])
    times = []
    for position in found:
        start = time.perf_counter()
        analyze(position)
        times.append(time.perf_counter() - start)
    ms = np.array(times) * 1e3
    print(f"{len(found)} positions from {games} expert games: median {np.median(ms):.3f} ms, "
          f"p99 {np.percentile(ms, 99):.3f} ms, max {ms.max():.3f} ms")


if __name__ == "__main__":
    main()
