"""Win rates of Minesweeper players over many games, with 95% confidence intervals.

Usage: python benchmarks/mines_winrates.py PRESET PLAYER GAMES [--seed S] [--out FILE.json]

Runs the same games as ``deductive mines bench`` (first click safe, in the corner) and
appends a JSON line with the result, so long runs can be split across processes (one per
core) and collected for the README table.
"""

import argparse
import json
import time

from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.players import make_player


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset")
    parser.add_argument("player")
    parser.add_argument("games", type=int)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--first-move", default="corner")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    start = time.perf_counter()
    result = run_bench(args.preset, make_player(args.player), args.games,
                       first_click=args.first_click, first_move=args.first_move, seed=args.seed)
    report = result.to_json()
    report["wall_seconds"] = round(time.perf_counter() - start, 2)
    line = json.dumps(report)
    print(line)
    if args.out:
        with open(args.out, "a") as fh:
            fh.write(line + "\n")


if __name__ == "__main__":
    main()
