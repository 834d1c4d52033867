"""Scaling of the Dask sweeps on this machine, against its own two-process speed-up.

Usage: python benchmarks/scaling.py [--games 20000] [--rounds 5] [--check-games 20000]
                                   [--repeat 3] [--burn 90000000] [--shared ../shared/data]

Measured in one run. These shared machines are noisy (the load of other tenants changes
from minute to minute), so the Minesweeper sweep is measured in --rounds rounds, each of
which runs these four measurements one after the other (in reverse order in even rounds,
so that a load that grows or fades during a round favours neither side):

1. ``deductive mines bench --preset expert --player least-risk`` in one process;
2. the same with ``--workers 2`` (a local Dask cluster started for the run);
3. the same games split between two plain processes started at once (no Dask);
4. the machine's own two-process speed-up: a CPU-bound loop of --burn iterations (about
   14 s here, so that a few seconds of someone else's load move it as little as they move
   the sweep) timed alone, then two copies at once in independent processes.

Each round's share is Dask's speed-up over that round's CPU-loop speed-up; the median
round is reported. The win counts must be equal in all runs, and once more with
--check-games games (one process and --workers 2). Then, with the best of --repeat runs
each:

* ``mines bench`` with ``--workers 1`` (once);
* ``deductive wordle openers --metric expected --top 0 --json`` over the original lists in
   one process and with ``--workers 2``; the outputs must be equal;
* ``deductive hangman sweep --length all`` over web2 in one process and with
   ``--workers 2``.

Prints a Markdown table for the README.
"""

import argparse
import json
import os
import subprocess
import sys
import time

BURN = "s = 0\nfor i in range({n}):\n    s += i * i % 7\n"


REPEAT = 3


def timed(cmd, repeat=None):
    """Best wall time of ``repeat`` runs, and the output of the last."""
    best = None
    for _ in range(repeat or REPEAT):
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr}")
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, out.stdout


def at_once(cmds):
    """Wall time of running ``cmds`` all at once, in independent processes, and their outputs."""
    start = time.perf_counter()
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for cmd in cmds]
    outs = [p.communicate() for p in procs]
    elapsed = time.perf_counter() - start
    for cmd, p, (_, err) in zip(cmds, procs, outs):
        if p.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {err}")
    return elapsed, [out for out, _ in outs]


def two_process_speedup(iterations, repeat=None):
    burn = [sys.executable, "-c", BURN.format(n=int(iterations))]
    one, _ = timed(burn, repeat=repeat)
    both = min(at_once([burn, burn])[0] for _ in range(repeat or REPEAT))
    return one, both, 2 * one / both


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--check-games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--burn", type=int, default=90_000_000)
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "shared", "data"))
    args = parser.parse_args()
    global REPEAT
    REPEAT = args.repeat
    d = [sys.executable, "-m", "deductive"]
    rows = []
    mines_rounds = []

    # The Minesweeper sweep, in rounds that interleave every measurement, so that each
    # round compares runs made under the same load of this shared machine.
    half = args.games // 2
    mines = d + ["mines", "bench", "--preset", "expert", "--player", "least-risk", "--json"]

    def single():
        return timed(mines + ["--games", str(args.games)], repeat=1)

    def dask2():
        return timed(mines + ["--games", str(args.games), "--workers", "2"], repeat=1)

    def pair():
        # the same games in two plain processes: game g uses seeds 1000+g (board) and
        # 2000+g (player), so --seed 1000+half continues where the first half stops
        return at_once([mines + ["--games", str(half), "--seed", str(1000 + k * half)]
                        for k in (0, 1)])

    def loops():
        return two_process_speedup(args.burn, repeat=1)

    steps = [single, dask2, pair, loops]
    for r in range(args.rounds):
        res = {step: step() for step in (steps if r % 2 == 0 else steps[::-1])}
        (t1, out1), (tw2, outw2), (tpair, outs) = res[single], res[dask2], res[pair]
        one, both, machine = res[loops]
        wins = [json.loads(out1)["wins"], json.loads(outw2)["wins"],
                sum(json.loads(o)["wins"] for o in outs)]
        assert len(set(wins)) == 1, wins
        mines_rounds.append((t1, tw2, tpair, machine))
        print(f"round {r + 1}: 1 process {t1:.1f} s, Dask 2 workers {tw2:.1f} s "
              f"({t1 / tw2:.2f}x), 2 plain processes {tpair:.1f} s ({t1 / tpair:.2f}x), "
              f"CPU loop {one:.1f} s alone, {both:.1f} s for two ({machine:.2f}x); "
              f"{wins[0]} wins in all", flush=True)
    tw1, outw1 = timed(mines + ["--games", str(args.games), "--workers", "1"], repeat=1)
    assert json.loads(outw1)["wins"] == wins[0]
    t1, tw2, _, _ = sorted(mines_rounds, key=lambda x: x[0] / x[1])[len(mines_rounds) // 2]
    rows.append((f"mines bench expert least-risk, {args.games} games", t1, tw1, tw2,
                 f"{wins[0]} wins in all runs"))
    if args.check_games:
        check = mines + ["--games", str(args.check_games)]
        checked = [json.loads(timed(cmd, repeat=1)[1])["wins"]
                   for cmd in (check, check + ["--workers", "2"])]
        assert checked[0] == checked[1], checked
        print(f"check: {args.check_games} games, {checked[0]} wins in one process and with "
              "--workers 2", flush=True)

    guesses = os.path.join(args.shared, "wordle", "guesses.txt")
    answers = os.path.join(args.shared, "wordle", "answers.txt")
    if os.path.exists(guesses):
        openers = d + ["wordle", "openers", "--guesses", guesses, "--answers", answers,
                       "--metric", "expected", "--top", "0", "--json"]
        timed(openers)                                   # matrix into the cache
        t1, o1 = timed(openers)
        tw1, ow1 = timed(openers + ["--workers", "1"])
        tw2, ow2 = timed(openers + ["--workers", "2"])
        assert o1 == ow1 == ow2
        rows.append(("wordle openers --metric expected, 12,972 x 2,315", t1, tw1, tw2,
                     "identical order"))
        print(rows[-1], flush=True)
    if os.path.exists("/usr/share/dict/web2"):
        sweep = d + ["hangman", "sweep", "--words", "/usr/share/dict/web2", "--length", "all",
                     "--strategy", "entropy", "--top", "0", "--json"]
        t1, s1 = timed(sweep)
        tw1, sw1 = timed(sweep + ["--workers", "1"])
        tw2, sw2 = timed(sweep + ["--workers", "2"])
        strip = [{k: v for k, v in json.loads(s).items() if k not in ("seconds", "by_length")}
                 for s in (s1, sw1, sw2)]
        assert strip[0] == strip[1] == strip[2]
        rows.append(("hangman sweep web2 --length all --strategy entropy", t1, tw1, tw2,
                     "identical results"))
        print(rows[-1], flush=True)

    print()
    print("| round | 1 process | Dask, 2 workers | speed-up | 2 plain processes, same games | "
          "their speed-up | 2 plain CPU loops | Dask's share of the CPU loops' speed-up |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    shares = []
    for r, (t1, tw2, tpair, machine) in enumerate(mines_rounds, start=1):
        shares.append(t1 / tw2 / machine)
        print(f"| {r} | {t1:.1f} s | {tw2:.1f} s | {t1 / tw2:.2f}x | {tpair:.1f} s | "
              f"{t1 / tpair:.2f}x | {machine:.2f}x | {100 * shares[-1]:.0f}% |")
    print(f"median share: {100 * sorted(shares)[len(shares) // 2]:.0f}%")
    print()
    print("| sweep | 1 process | Dask, 1 worker | Dask, 2 workers | speed-up (2 workers vs "
          "1 process) | check |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, t1, tw1, tw2, check in rows:
        print(f"| {name} | {t1:.1f} s | {tw1:.1f} s | {tw2:.1f} s | {t1 / tw2:.2f}x | {check} |")


if __name__ == "__main__":
    main()
