"""Paired win rates of Minesweeper players: each player once on the same games, every
variant compared with a baseline on those games (sign test, Newcombe's interval).

Usage:
  python benchmarks/mines_paired.py run DIR PLAYER [PLAYER ...] [--preset expert]
      [--games 5000] [--seed 20000] [--first-click safe] [--first-move corner]
  python benchmarks/mines_paired.py report DIR --baseline best [--json]

``run`` plays the games of each player in blocks of 100 and appends each block to
``DIR/<player>.jsonl`` (one line per block, games in order; a ``:`` in the player's name,
which some file systems refuse, is written ``@``: ``strongest@ltr=0.9.jsonl``), so an
interrupted run resumes and several processes (one per core, one player each) can share
DIR. The baseline is played once and paired with every variant, which costs one player's
games per variant instead of two (``deductive mines compare`` plays both). The set-up
(preset, rules, seed) is stored in ``DIR/setup.json`` and a run with another set-up is
refused. ``report`` pairs the games both players have finished and prints one line per
variant with its win rate, its paired difference from the baseline, the interval, the
sign test and the time per game of both (a time ratio measured in the same processes only
if they ran side by side: say how they ran).
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from benchmarks.mines_setup import add_game_options  # noqa: E402
from deductive.engine.minesweeper.bench import BenchResult, GameRecord, run_bench  # noqa: E402
from deductive.engine.minesweeper.board import parse_preset  # noqa: E402
from deductive.engine.minesweeper.compare import Comparison  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402

BLOCK = 100


def player_file(dir, name):
    """Where the games of the player ``name`` go in ``dir``: its name with ``:`` (not
    allowed in a file name on every system) written ``@``."""
    return os.path.join(dir, name.replace(":", "@") + ".jsonl")


def _setup(args):
    return {"preset": args.preset, "first_click": args.first_click,
            "first_move": args.first_move, "seed": args.seed}


def _records(path):
    records = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    block = json.loads(line)
                except json.JSONDecodeError:
                    continue                # a block cut by an interruption
                if block["lo"] == len(records):
                    records += [GameRecord.from_row(row) for row in block["rows"]]
    return records


def run(args):
    os.makedirs(args.dir, exist_ok=True)
    setup_path = os.path.join(args.dir, "setup.json")
    if os.path.exists(setup_path):
        with open(setup_path) as fh:
            stored = json.load(fh)
        if stored != _setup(args):
            sys.exit(f"error: {args.dir} holds games of {stored}; use another folder")
    else:
        with open(setup_path, "w") as fh:
            json.dump(_setup(args), fh)
    for name in args.players:
        player = make_player(name)
        path = player_file(args.dir, player.name)
        done = len(_records(path))
        for lo in range(done - done % BLOCK, args.games, BLOCK):
            lo = max(lo, done)
            hi = min(args.games, lo - lo % BLOCK + BLOCK)
            result = run_bench(args.preset, player, 0, first_click=args.first_click,
                               first_move=args.first_move, seed=args.seed,
                               indices=range(lo, hi))
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"lo": lo, "rows": [r.as_row() for r in result.records]})
                         + "\n")
            print(f"{player.name}: {hi} games", file=sys.stderr, flush=True)


def report(args):
    with open(os.path.join(args.dir, "setup.json")) as fh:
        setup = json.load(fh)
    board = parse_preset(setup["preset"])
    results = {}
    for file in sorted(os.listdir(args.dir)):
        if file.endswith(".jsonl"):
            name = file[:-len(".jsonl")].replace("@", ":")
            results[name] = _records(os.path.join(args.dir, file))
    base = results.pop(args.baseline)
    rows = []
    for name, records in results.items():
        n = min(len(base), len(records))
        pair = [BenchResult(who, board, setup["first_click"], setup["first_move"],
                            setup["seed"], recs[:n]) for who, recs in
                ((args.baseline, base), (name, records))]
        rows.append(Comparison(pair[1], pair[0]).to_json())
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for r in rows:
        a, b = r["a"], r["b"]
        lo, hi = r["ci95"]
        print(f"{a['player']:<44} {r['games']:>6} games  {100 * a['win_rate']:6.2f}% vs "
              f"{100 * b['win_rate']:6.2f}%  only it {r['only_a_won']:>4}, only base "
              f"{r['only_b_won']:>4}  diff {100 * r['difference']:+.2f} "
              f"({100 * lo:+.2f} to {100 * hi:+.2f})  p={r['sign_test_p']:.3g}  "
              f"{1000 * a['seconds_per_game']:.1f} vs {1000 * b['seconds_per_game']:.1f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("dir")
    p.add_argument("players", nargs="+")
    p.add_argument("--preset", default="expert")
    add_game_options(p, games=5000, seed=20000)
    p = sub.add_parser("report")
    p.add_argument("dir")
    p.add_argument("--baseline", default="best")
    p.add_argument("--json", action="store_true")
    args = parser.parse_args()
    run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    main()
