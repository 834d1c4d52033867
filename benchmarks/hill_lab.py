"""What D. N. Hill's solver guesses where ours guesses: the laboratory of issue 39.

Usage:
  python benchmarks/hill_lab.py run OUT --hill PATH [--player strongest] [--games 2000]
      [--preset expert] [--seed 1000] [--first-click zero] [--first-move 4,4]
      [--first-only]
  python benchmarks/hill_lab.py summary OUT

Both players open every cell they are sure of, so they part only where they guess. ``run``
plays our player, and at every position where it guesses asks Hill's solver (through
``benchmarks/hill/driver.mjs query``, his code unchanged, from the checkout given) what
it would click there, and plays Hill's cell instead of ours: the player
``<player>+hill``, ours with Hill's guesses. Its games are blocks of 100 in
``OUT/<player>+hill.jsonl``, in the format of ``benchmarks/mines_paired.py`` (game g is
the board ``deductive mines bench`` plays as game g, so the file pairs with any run of
the same set-up: copy its ``<player>.jsonl`` and ``hill.jsonl`` into OUT and run
``hill_compare.py report OUT --baseline <player>``). An interrupted run resumes. With
``--first-only`` Hill's cell is played at each game's first guess only: the player
``<player>+hill1``, logged to ``OUT/guesses1.jsonl``.

Every guess is logged to ``OUT/guesses.jsonl``: the game, the guess's number in it, how
many cells were covered, both cells with their safety computed by our exact engine
(:func:`deductive.engine.minesweeper.analysis.analyze`), the safety Hill's solver gave its
own, and our player's reason. ``summary`` tells how often the two choose the same cell, a
safer one, or a less safe one, by guess number and by our reason.
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter, defaultdict

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling modules
import hill_compare  # noqa: E402
import mines_paired  # noqa: E402

from deductive.engine.minesweeper.analysis import analyze  # noqa: E402
from deductive.engine.minesweeper.base import Move  # noqa: E402
from deductive.engine.minesweeper.bench import (first_move_cell, new_game,  # noqa: E402
                                                play_game)
from deductive.engine.minesweeper.board import neighbours_of, parse_preset  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402

CLEAR, UNSET = 1, 0                 # the driver's action kinds that open a cell


class HillQuery(hill_compare.HillSolver):
    """Hill's solver in one node process, asked what it does in a position."""

    def __enter__(self):
        self.process = subprocess.Popen(
            ["node", "--single-threaded", hill_compare.DRIVER, "--hill", self.path, "query"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        return self

    def first_clear(self, position) -> tuple:
        """(cell, the safety Hill's solver gives it) of its first clear in ``position``
        (flags count as covered: his solver plays without them)."""
        cells = np.where(position.cells >= 0, position.cells, -1).tolist()
        self.process.stdin.write(json.dumps({"rows": position.rows, "cols": position.cols,
                                             "mines": position.mines, "cells": cells}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"Hill's solver stopped (exit code {self.process.wait()})")
        for cell, safety, kind in json.loads(line)["actions"]:
            if kind in (CLEAR, UNSET):
                return int(cell), float(safety)
        raise RuntimeError("Hill's solver named no cell to clear in a position ours guesses")


class WithHillGuesses:
    """Our ``player``, except that where it guesses it plays the cell Hill's solver would
    (:class:`HillQuery`), each such guess logged with both choices; with ``first``, only
    at a game's first guess (its name then ends ``+hill1``)."""

    def __init__(self, player, hill, log, first=False):
        self.player, self.hill, self.log, self.first = player, hill, log, first
        self.name = f"{player.name}+hill{'1' if first else ''}"
        self.game, self.guesses = None, 0

    def start(self, game):
        self.game, self.guesses = game, 0

    def decide(self, position, rng):
        move = self.player.decide(position, rng)
        if move.kind != "guess" or (self.first and self.guesses):
            return move
        cell, said = self.hill.first_clear(position)
        ours = int(move.reveal[0])
        p = analyze(position).probabilities
        row = {"game": self.game, "at": self.guesses,
               "covered": int((position.cells < 0).sum()), "ours": ours, "hill": cell,
               "ours_safety": round(1 - float(p[ours]), 6),
               "hill_safety": round(1 - float(p[cell]), 6), "hill_said": round(said, 6),
               "reason": move.reason}
        if ours != cell:
            row.update({f"{who}_{key}": value for who, k in (("ours", ours), ("hill", cell))
                        for key, value in self.features(position, k, p).items()})
        self.log(row)
        self.guesses += 1
        return Move("guess", reveal=[cell], probability=float(p[cell]), reason="hill")

    def features(self, position, cell, probs) -> dict:
        """What sets a cell apart, for a choice where the two players differ: whether it
        touches a revealed number, how many of its neighbours are covered, and, for players
        with a look-ahead (``best``, ``strongest``), the chance to survive it and the best
        next click, and the expected share of 8 cells its number proves safe."""
        nbrs = neighbours_of(position.rows, position.cols)
        ring = nbrs[cell][nbrs[cell] >= 0]
        out = {"front": bool((position.cells[ring] >= 0).any()),
               "cov": int((position.cells[ring] < 0).sum())}
        if hasattr(self.player, "_next_survival"):
            survive, gained = self.player._next_survival(position, cell, nbrs)[:2]
            out.update(two=round((1 - float(probs[cell])) * survive, 6),
                       gain=round(float(gained), 4))
        return out


def run(args):
    os.makedirs(args.out, exist_ok=True)
    setup = {"preset": args.preset, "first_click": args.first_click,
             "first_move": args.first_move, "seed": args.seed}
    setup_path = os.path.join(args.out, "setup.json")
    if os.path.exists(setup_path):
        with open(setup_path) as fh:
            stored = json.load(fh)
        if {k: stored.get(k) for k in setup} != setup:
            sys.exit(f"error: {args.out} holds games of {stored}; use another folder")
    else:
        with open(setup_path, "w") as fh:
            json.dump(setup, fh)
    path = hill_compare.hill_path(args.hill)
    problem = hill_compare.check_hill(path)
    if problem:
        sys.exit(f"error: {problem}")
    player = make_player(args.player)
    suffix = "1" if args.first_only else ""
    games_path = mines_paired.player_file(args.out, f"{player.name}+hill{suffix}")
    done = len(mines_paired._records(games_path))
    rows, cols, mines = parse_preset(args.preset)
    first = first_move_cell(rows, cols, args.first_move)
    with HillQuery(path) as hill, open(os.path.join(args.out, f"guesses{suffix}.jsonl"), "a",
                                       encoding="utf-8") as log_file:
        def log(row):
            log_file.write(json.dumps(row) + "\n")

        hybrid = WithHillGuesses(player, hill, log, first=args.first_only)
        block = mines_paired.BLOCK
        for lo in range(done, args.games, block):
            records = []
            for g in range(lo, min(args.games, lo + block)):
                board, rng = new_game(rows, cols, mines, g, seed=args.seed,
                                      first_click=args.first_click)
                hybrid.start(g)
                records.append(play_game(board, hybrid, rng, first))
            log_file.flush()
            with open(games_path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"lo": lo, "rows": [r.as_row() for r in records]}) + "\n")
            print(f"{hybrid.name}: {lo + len(records)} games", file=sys.stderr, flush=True)


def read_log(out, name="guesses.jsonl") -> list:
    """The guesses of ``OUT/guesses.jsonl`` (or ``name``), each (game, guess number)
    once: a resumed block logs its games again, the same way (they replay from their
    seeds)."""
    rows, seen = [], set()
    with open(os.path.join(out, name), encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue                # a line cut by an interruption
            key = (row["game"], row["at"])
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def _line(label, part) -> str:
    d = np.array([r["hill_safety"] - r["ours_safety"] for r in part])
    same = sum(r["hill"] == r["ours"] for r in part)
    return (f"{label}: {len(part)} guesses; the same cell {same} "
            f"({100 * same / len(part):.1f}%); Hill's safer {int((d > 1e-9).sum())}, as safe "
            f"(another cell) {int((np.abs(d) <= 1e-9).sum()) - same}, less safe "
            f"{int((d < -1e-9).sum())}; mean safety Hill "
            f"{np.mean([r['hill_safety'] for r in part]):.4f}, ours "
            f"{np.mean([r['ours_safety'] for r in part]):.4f}")


def summarize(rows) -> list:
    """The summary's lines: all guesses, by guess number (5: the fifth and later), by our
    player's reason, and how often Hill's stated safety differs from our engine's."""
    out = [f"{len(rows)} guesses in {len({r['game'] for r in rows})} games", _line("all", rows)]
    by_at = defaultdict(list)
    for r in rows:
        by_at[min(r["at"], 4)].append(r)
    out += [_line(f"guess {at + 1}{'+' if at == 4 else ''}", by_at[at]) for at in sorted(by_at)]
    out += [_line(f"our reason {reason!r}", [r for r in rows if r["reason"] == reason])
            for reason, _ in Counter(r["reason"] for r in rows).most_common()]
    differ = [r for r in rows if "hill_front" in r]
    if differ:
        def mean(key):
            return np.mean([r[key] for r in differ if key in r])

        out.append(f"where the cells differ ({len(differ)}): on the frontier Hill "
                   f"{mean('hill_front'):.3f}, ours {mean('ours_front'):.3f}; covered "
                   f"neighbours Hill {mean('hill_cov'):.2f}, ours {mean('ours_cov'):.2f}")
        if "hill_two" in differ[0]:
            out.append(f"  our look-ahead's two-click survival: Hill's cell "
                       f"{mean('hill_two'):.4f}, ours {mean('ours_two'):.4f}; expected share "
                       f"proven safe Hill "
                       f"{mean('hill_gain'):.4f}, ours {mean('ours_gain'):.4f}")
    off = sum(abs(r["hill_said"] - r["hill_safety"]) > 1e-4 for r in rows)
    out.append(f"Hill's stated safety differs from our engine's by more than 1e-4 in {off}")
    return out


def summary(args):
    print("\n".join(summarize(read_log(args.out, args.log))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play, report = (commands.add_parser(name) for name in ("run", "summary"))
    for sub in (play, report):
        sub.add_argument("out")
    report.add_argument("--log", default="guesses.jsonl", help="guesses1.jsonl: --first-only's")
    play.add_argument("--hill", default=None, help=f"the checkout (default ${hill_compare.ENV})")
    play.add_argument("--player", default="strongest")
    play.add_argument("--first-only", action="store_true",
                      help="Hill's guess at each game's first guess only")
    for flag, default in (("--preset", "expert"), ("--games", 2000), ("--seed", 1000),
                          ("--first-click", "zero"), ("--first-move", "4,4")):
        play.add_argument(flag, default=default, type=type(default))
    args = parser.parse_args()
    {"run": run, "summary": summary}[args.command](args)


if __name__ == "__main__":
    main()
