"""Scaling of the Dask sweeps on this machine, against its own two-process speed-up.

Usage: python benchmarks/scaling.py [--games 5000] [--check-games 20000] [--repeat 3]
                                   [--shared ../shared/data]

Measured in one run (every time is the best of --repeat runs: these shared machines are
noisy, and the minimum is the least disturbed measurement):

1. the machine's two-process speed-up, before and after the sweeps: a fixed CPU-bound
   loop timed alone, then two copies at once in independent processes (plain
   ``subprocess``, no Dask);
2. ``deductive mines bench --preset expert --player least-risk`` in one process, with
   ``--workers 1`` and with ``--workers 2``; the win counts must be equal, and once more
   with --check-games games (single process and --workers 2);
3. ``deductive wordle openers --metric expected --top 0 --json`` over the original lists in
   one process and with ``--workers 2``; the outputs must be equal;
4. ``deductive hangman sweep --length all`` over web2 in one process and with
   ``--workers 2``.

Prints a Markdown table for the README.
"""

import argparse
import json
import os
import subprocess
import sys
import time

BURN = "import time\ns=0\nt=time.perf_counter()\nfor i in range(30_000_000): s+=i*i%7\n"


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


def two_process_speedup():
    one, _ = timed([sys.executable, "-c", BURN])
    both = None
    for _ in range(REPEAT):
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(2)]
        for p in procs:
            p.wait()
        elapsed = time.perf_counter() - start
        both = elapsed if both is None else min(both, elapsed)
    return one, both, 2 * one / both


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--check-games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "shared", "data"))
    args = parser.parse_args()
    global REPEAT
    REPEAT = args.repeat
    d = [sys.executable, "-m", "deductive"]
    rows = []
    machine_runs = []

    def measure_machine():
        one, both, speedup = two_process_speedup()
        machine_runs.append(speedup)
        print(f"plain CPU loop: 1 process {one:.2f} s, 2 at once {both:.2f} s -> "
              f"{speedup:.2f}x", flush=True)

    measure_machine()

    mines = d + ["mines", "bench", "--preset", "expert", "--player", "least-risk", "--games",
                 str(args.games), "--json"]
    t1, out1 = timed(mines)
    tw1, outw1 = timed(mines + ["--workers", "1"])
    tw2, outw2 = timed(mines + ["--workers", "2"])
    wins = [json.loads(o)["wins"] for o in (out1, outw1, outw2)]
    assert len(set(wins)) == 1, wins
    rows.append((f"mines bench expert least-risk, {args.games} games", t1, tw1, tw2,
                 f"{wins[0]} wins in all three"))
    print(rows[-1], flush=True)
    if args.check_games:
        check = d + ["mines", "bench", "--preset", "expert", "--player", "least-risk",
                     "--games", str(args.check_games), "--json"]
        _, single = timed(check, repeat=1)
        _, dask2 = timed(check + ["--workers", "2"], repeat=1)
        pair = (json.loads(single)["wins"], json.loads(dask2)["wins"])
        assert pair[0] == pair[1], pair
        print(f"check: {args.check_games} games, {pair[0]} wins in one process and with "
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

    measure_machine()
    # the higher of the two measurements: the conservative reference for the share
    machine = max(machine_runs)
    print()
    print("Two independent CPU-bound processes: "
          + ", ".join(f"{m:.2f}x" for m in machine_runs)
          + f" speed-up on this machine (before and after the sweeps; {machine:.2f}x is used).")
    print()
    print("| sweep | 1 process | Dask, 1 worker | Dask, 2 workers | speed-up (2 workers vs "
          "1 process) | share of the machine's 2-process speed-up | check |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, t1, tw1, tw2, check in rows:
        speed = t1 / tw2
        print(f"| {name} | {t1:.1f} s | {tw1:.1f} s | {tw2:.1f} s | {speed:.2f}x | "
              f"{100 * speed / machine:.0f}% | {check} |")


if __name__ == "__main__":
    main()
