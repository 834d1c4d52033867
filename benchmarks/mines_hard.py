"""Time and peak memory of the Minesweeper engine on seeded families of hard positions.

Usage: python benchmarks/mines_hard.py [--seeds 3] [--limit 120] [--quick] [--only FAMILY]

Each position (``deductive.engine.minesweeper.families.hard_position``: lattices of revealed
numbers on alternate rows and columns, scattered reveals at 5-25%, stripes, islands; 16x16
to 200x200) is analysed in a fresh process, warm (the kernels are compiled by a first run),
with the default budgets. Printed per family and size: the median and worst wall time of
``analyze``, the worst peak RSS of the process, and how many positions stopped with the
budget error (``CountingBudgetError``) or passed the time limit.
"""

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from deductive.engine.minesweeper.analysis import analyze
from deductive.engine.minesweeper.counting import CountingBudgetError
from deductive.engine.minesweeper.families import hard_position
family, rows, cols, mines, density, seed = json.loads(sys.argv[1])
analyze(hard_position("scatter", 9, 9, 10, density=0.3, seed=0), budget=0)   # warm
position = hard_position(family, rows, cols, mines, density=density, seed=seed)
start = time.perf_counter()
try:
    analyze(position)
    outcome = "ok"
except CountingBudgetError:
    outcome = "budget"
seconds = time.perf_counter() - start
print(json.dumps([outcome, seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))
"""

CASES = [
    ("lattice", 16, 16, 40, 0.0), ("lattice", 20, 20, 85, 0.0), ("lattice", 24, 24, 120, 0.0),
    ("lattice", 40, 40, 300, 0.0), ("lattice", 200, 200, 8000, 0.0),
    ("scatter", 40, 40, 320, 0.05), ("scatter", 40, 40, 320, 0.15), ("scatter", 40, 40, 320, 0.25),
    ("scatter", 100, 100, 1500, 0.07), ("scatter", 100, 100, 2000, 0.15),
    ("scatter", 200, 200, 8000, 0.05), ("scatter", 200, 200, 8000, 0.15),
    ("scatter", 200, 200, 8000, 0.25),
    ("stripes", 60, 60, 600, 0.0), ("stripes", 200, 200, 8000, 0.0),
    ("islands", 60, 60, 600, 0.2), ("islands", 200, 200, 8000, 0.2),
]


def run(case, seed, limit):
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, json.dumps([*case, seed])],
                              capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "timeout", float(limit), float("nan")
    if done.returncode:
        return "crash", float("nan"), float("nan")
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per position")
    parser.add_argument("--quick", action="store_true", help="sizes up to 40x40 only")
    parser.add_argument("--only", metavar="FAMILY", help="one family only")
    args = parser.parse_args()
    print("| family | board | mines | revealed | median s | worst s | peak RSS MB | budget / "
          "time-out |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for case in CASES:
        family, rows, cols, mines, density = case
        if (args.quick and rows > 40) or (args.only and family != args.only):
            continue
        results = [run(case, seed, args.limit) for seed in range(args.seeds)]
        times = [t for outcome, t, _ in results if outcome == "ok"]
        rss = max((r for _, _, r in results if r == r), default=float("nan"))
        stopped = sum(outcome != "ok" for outcome, _, _ in results)
        shown = "lattice" if family == "lattice" else ("rows 1, 4, ..." if family == "stripes"
                                                        else f"{density:.0%}")
        med = f"{statistics.median(times):.2f}" if times else "-"
        worst = f"{max(t for _, t, _ in results if t == t):.2f}"
        print(f"| {family} | {rows}x{cols} | {mines} | {shown} | {med} | {worst} | {rss:.0f} | "
              f"{stopped}/{len(results)} |", flush=True)


if __name__ == "__main__":
    main()
