"""The second click of a game, forced: after a safe first click in the corner that shows
a number, each candidate cell is clicked second on the same board, then the player plays
on. Paired over the same boards, the win rates say which second click is worth most.

Usage:
  python benchmarks/mines_opening.py OUT.jsonl [--games 4000] [--seed 50000]
      [--player strongest] [--cells 16,30 1,30 16,1 1,3 3,3 2,2 1,2 9,16]
  python benchmarks/mines_opening.py OUT.jsonl --report

Expert boards, game g: mines seeded S+g, player S+1000+g; boards whose corner opens a zero
are skipped. Cells are ROW,COL counted from 1 (the default: the far corner, the two other
corners, cells two away from the first click, next to it, and the centre). Each board
appends one line to OUT (``{"g": ..., "n": corner number, "cells": [...], "wins": [0/1 per
cell]}``); a rerun starts after the last board in OUT (or at ``--start``). ``--report``
prints each cell's win rate and its paired difference from the first cell with a 95%
normal interval.
"""

import argparse
import copy
import json
import math

import numpy as np

from deductive.engine.minesweeper.bench import moves, new_game
from deductive.engine.minesweeper.players import make_player

CELLS = ["16,30", "1,30", "16,1", "1,3", "3,3", "2,2", "1,2", "9,16"]


def _rows(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        return []


def play(args):
    cells = [tuple(int(x) - 1 for x in text.split(",")) for text in args.cells]
    player = make_player(args.player)
    done = _rows(args.out)
    if any(row.get("cells") != args.cells for row in done):
        raise SystemExit(f"error: {args.out} holds boards of other cells; use another file")
    seen = {row["g"] for row in done}
    start = args.start if args.start is not None else max(seen) + 1 if seen else 0
    with open(args.out, "a", encoding="utf-8") as fh:
        for g in range(start, start + args.games):
            if g in seen:
                continue
            board, _ = new_game(16, 30, 99, g, seed=args.seed)
            board.click(0)
            if board.numbers[0] == 0:
                continue
            wins = []
            for r, c in cells:
                trial = copy.deepcopy(board)
                rng = np.random.default_rng(args.seed + 1000 + g)
                if trial.click(r * 30 + c):
                    for _ in moves(trial, player, rng):
                        pass
                wins.append(int(trial.won))
            fh.write(json.dumps({"g": g, "n": int(board.numbers[0]), "cells": args.cells,
                                 "wins": wins}) + "\n")
            fh.flush()


def report(args):
    rows = list({row["g"]: row for row in _rows(args.out)}.values())    # each board once
    if not rows:
        raise SystemExit(f"error: {args.out} holds no boards yet; run it first")
    n = len(rows)
    cells = rows[0].get("cells", args.cells)
    if any(row.get("cells", args.cells) != cells for row in rows):
        raise SystemExit(f"error: {args.out} mixes boards of other cells")
    print(f"{n} boards whose corner showed a number")
    for i, cell in enumerate(cells):
        diffs = [r["wins"][i] - r["wins"][0] for r in rows]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
        rate = sum(r["wins"][i] for r in rows) / n
        print(f"  {cell:>6}: won {100 * rate:5.1f}%, {100 * mean:+5.1f} points "
              f"(+/- {196 * sd:.1f}) against {cells[0]}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--start", type=int, default=None)
    parser.add_argument("--seed", type=int, default=50000)
    parser.add_argument("--player", default="strongest")
    parser.add_argument("--cells", nargs="+", default=CELLS)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args(argv)
    (report if args.report else play)(args)


if __name__ == "__main__":
    main()
