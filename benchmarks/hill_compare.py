"""D. N. Hill's JSMinesweeper solver and our players on the same layouts, paired.

Hill's solver (github.com/DavidNHill/JSMinesweeper, a checkout outside this repository:
none of its code is in ours) runs headless under node through our driver,
``benchmarks/hill/driver.mjs``, which loads his scripts unchanged from the path given and
plays the layouts sent to it with our rules (first click, flood fill, a win is every safe
cell open). Game g is the board ``deductive mines bench`` plays as game g with the same
preset, first-click rule, first move and seed: mines seeded S+g, placed at the first click.

Usage:
  python benchmarks/hill_compare.py run DIR hill strongest --hill PATH [--preset expert]
      [--games 20000] [--seed 20000] [--first-click safe] [--first-move corner]
  python benchmarks/hill_compare.py report DIR [--baseline hill] [--json]
  python benchmarks/hill_compare.py own --hill PATH [--seed 0] [--games 1000] [--modern]
  HILL_JSMINESWEEPER=PATH python -m pytest benchmarks/hill_compare.py

``run`` plays each named player (``hill``, or any of our players, as ``--player`` takes
them) in blocks of 100 games appended to ``DIR/<player>.jsonl``, in the format and with
the set-up check of ``benchmarks/mines_paired.py`` (so an interrupted run resumes, and one
process per player can share DIR, one per core). ``report`` pairs every player with the
baseline on the games both finished: both win rates with their 95% Wilson intervals, the
games won only by each, the two-sided sign test and Newcombe's interval of the difference.
``own`` plays Hill's solver on Hill's own generator, seeded as his bulk-run helper seeds
it (expert, first click in the corner, or opening a zero at (3,3) with ``--modern``): the
check that the driver drives his solver as his page does. Without ``--hill`` (or the
environment variable ``HILL_JSMINESWEEPER``) the pytest benchmark skips.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling modules
import mines_paired  # noqa: E402

from deductive.engine.minesweeper.bench import (BenchResult, GameRecord,  # noqa: E402
                                                first_move_cell, new_game, wilson_interval)
from deductive.engine.minesweeper.board import parse_preset  # noqa: E402
from deductive.engine.minesweeper.compare import Comparison  # noqa: E402

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hill", "driver.mjs")
ENV = "HILL_JSMINESWEEPER"
HILL = "hill"


def hill_path(given=None):
    """The JSMinesweeper checkout: ``given``, else ``$HILL_JSMINESWEEPER``, else None."""
    path = given or os.environ.get(ENV)
    return os.path.abspath(path) if path else None


def check_hill(path):
    """One line naming the problem, or None when node and the checkout are there."""
    if shutil.which("node") is None:
        return "node is not on PATH; install Node.js (18 or later) to run Hill's solver"
    if path is None:
        return f"give Hill's JSMinesweeper checkout with --hill PATH (or {ENV})"
    if not os.path.isfile(os.path.join(path, "Minesweeper", "client", "solver_main.js")):
        return (f"{path} holds no Minesweeper/client/solver_main.js; --hill must be a "
                "checkout of github.com/DavidNHill/JSMinesweeper")
    return None


def layout(preset, g, *, seed, first_click, first_move):
    """Game ``g`` as the driver reads it: the mines our bench places for that game, and the
    first click (flat cells, row-major from 0)."""
    rows, cols, mines = parse_preset(preset)
    cell = first_move_cell(rows, cols, first_move)
    board, _ = new_game(rows, cols, mines, g, seed=seed, first_click=first_click)
    board.click(cell)                   # places the mines by the first-click rule
    return {"rows": rows, "cols": cols, "mines": np.flatnonzero(board.mine).tolist(),
            "first": cell}


class HillSolver:
    """Hill's solver in one node process (one thread: ``--single-threaded``), fed one
    layout per line. Use as a context manager."""

    name = HILL

    def __init__(self, path):
        self.path = path
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(
            ["node", "--single-threaded", DRIVER, "--hill", self.path, "play"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        return self

    def __exit__(self, *exc):
        self.process.stdin.close()
        self.process.wait()

    def play(self, game: dict) -> GameRecord:
        """One game; its record as our benchmarks keep them (guesses, seconds)."""
        self.process.stdin.write(json.dumps(game) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"Hill's solver stopped (exit code {self.process.wait()})")
        out = json.loads(line)
        decisions = {"rules": 0, "forced": 0, "guess": out["guesses"]}
        return GameRecord(out["won"], decisions, out["guesses"], out["ms"] / 1000)


def hill_bench(solver, preset, indices, *, seed, first_click, first_move) -> list:
    """Hill's records of the games ``indices`` (our numbering)."""
    return [solver.play(layout(preset, g, seed=seed, first_click=first_click,
                               first_move=first_move)) for g in indices]


def run(args):
    ours = [name for name in args.players if name != HILL]
    # The set-up check (and our players' games) are mines_paired's.
    mines_paired.run(SimpleNamespace(**{**vars(args), "players": ours}))
    if HILL not in args.players:
        return
    problem = check_hill(hill_path(args.hill))
    if problem:
        sys.exit(f"error: {problem}")
    path = os.path.join(args.dir, f"{HILL}.jsonl")
    done = len(mines_paired._records(path))
    block = mines_paired.BLOCK
    with HillSolver(hill_path(args.hill)) as solver:
        for lo in range(done - done % block, args.games, block):
            lo = max(lo, done)
            hi = min(args.games, lo - lo % block + block)
            records = hill_bench(solver, args.preset, range(lo, hi), seed=args.seed,
                                 first_click=args.first_click, first_move=args.first_move)
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"lo": lo, "rows": [r.as_row() for r in records]}) + "\n")
            print(f"{HILL}: {hi} games", file=sys.stderr, flush=True)


def paired(dir, baseline=HILL) -> list:
    """Each player of ``dir`` against the baseline on the games both finished:
    :meth:`Comparison.to_json` with the player as ``a`` and the baseline as ``b``."""
    with open(os.path.join(dir, "setup.json")) as fh:
        setup = json.load(fh)
    board = parse_preset(setup["preset"])
    found = {file[:-len(".jsonl")].replace("@", ":"): mines_paired._records(os.path.join(dir, file))
             for file in sorted(os.listdir(dir)) if file.endswith(".jsonl")}
    base = found.pop(baseline)
    rows = []
    for name, records in found.items():
        n = min(len(base), len(records))
        a, b = (BenchResult(who, board, setup["first_click"], setup["first_move"],
                            setup["seed"], recs[:n]) for who, recs in
                ((name, records), (baseline, base)))
        rows.append(Comparison(a, b).to_json())
    return rows


def _pct(x):
    return f"{100 * x:.2f}%"


def report(args):
    rows = paired(args.dir, args.baseline)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print("| player | baseline | games | player wins (95%) | baseline wins (95%) | only player "
          "| only baseline | difference (95%) | sign test p | ms per game |")
    print("|---|---|---:|---|---|---:|---:|---|---:|---|")
    for r in rows:
        a, b = r["a"], r["b"]
        print(f"| {a['player']} | {b['player']} | {r['games']:,} | {_pct(a['win_rate'])} "
              f"({_pct(a['ci95'][0])}-{_pct(a['ci95'][1])}) | {_pct(b['win_rate'])} "
              f"({_pct(b['ci95'][0])}-{_pct(b['ci95'][1])}) | {r['only_a_won']} | "
              f"{r['only_b_won']} | {100 * r['difference']:+.2f} ({100 * r['ci95'][0]:+.2f} "
              f"to {100 * r['ci95'][1]:+.2f}) | {r['sign_test_p']:.3g} | "
              f"{1000 * a['seconds_per_game']:.0f} vs {1000 * b['seconds_per_game']:.0f} |")


def own(args):
    """Hill's solver on his own generator: one JSON line per game, then the win rate."""
    path = hill_path(args.hill)
    problem = check_hill(path)
    if problem:
        sys.exit(f"error: {problem}")
    command = ["node", "--single-threaded", DRIVER, "--hill", path, "own", "--seed",
               str(args.seed), "--games", str(args.games)] + (["--modern"] if args.modern else [])
    lines = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    total = json.loads(lines.splitlines()[-1])
    lo, hi = wilson_interval(total["wins"], total["games"])
    print(json.dumps({**total, "win_rate": total["wins"] / total["games"],
                      "ci95": [round(lo, 6), round(hi, 6)]}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play, summary, check = (commands.add_parser(name) for name in ("run", "report", "own"))
    play.add_argument("dir")
    play.add_argument("players", nargs="+", help="hill, or our players as --player takes them")
    # The set-up mines_paired stores and checks (its setup.json), with these defaults.
    for flag, default in (("--preset", "expert"), ("--games", 20000), ("--seed", 1000),
                          ("--first-click", "safe"), ("--first-move", "corner")):
        play.add_argument(flag, default=default, type=type(default))
    summary.add_argument("dir")
    summary.add_argument("--baseline", default=HILL)
    summary.add_argument("--json", action="store_true")
    for sub, default in ((play, None), (check, None)):
        sub.add_argument("--hill", default=default, help=f"the checkout (default ${ENV})")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--games", type=int, default=1000)
    check.add_argument("--modern", action="store_true")
    args = parser.parse_args()
    {"run": run, "report": report, "own": own}[args.command](args)


# The pytest-benchmark entry: both players on the same 20 expert games (safe corner).

def test_hill_and_strongest_same_games(benchmark):
    import pytest

    from deductive.engine.minesweeper.bench import run_bench
    from deductive.engine.minesweeper.players import make_player

    path = hill_path()
    problem = check_hill(path)
    if problem:
        pytest.skip(problem)
    games, settings = 20, {"seed": 20000, "first_click": "safe", "first_move": "corner"}
    strongest = make_player("strongest")
    run_bench("expert", strongest, 2, **settings)                 # warm the JIT
    with HillSolver(path) as solver:
        hill_bench(solver, "expert", range(2), **settings)        # warm node's JIT

        def both():
            a = run_bench("expert", strongest, 0, indices=range(games), **settings)
            b = BenchResult(HILL, parse_preset("expert"), settings["first_click"],
                            settings["first_move"], settings["seed"],
                            hill_bench(solver, "expert", range(games), **settings))
            return Comparison(a, b).to_json()

        result = benchmark.pedantic(both, rounds=1)
    benchmark.extra_info.update({k: result[k] for k in ("games", "only_a_won", "only_b_won",
                                                         "sign_test_p")})
    assert result["games"] == games


if __name__ == "__main__":
    main()
