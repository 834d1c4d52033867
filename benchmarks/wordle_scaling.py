"""Scaling of the Wordle sweeps on Dask, against this machine's own two-process speed-up.

Usage: python benchmarks/wordle_scaling.py [--rounds 5] [--burn 90000000]
                                          [--sweeps search,second,openers]
                                          [--shared ../shared/data]

Measured like the Minesweeper sweep of ``benchmarks/scaling.py``, in one run: each round
runs, one after the other (in reverse order in even rounds), every sweep in one process
and with ``--workers 2`` (a local Dask cluster started and stopped by the command), then
the machine's own two-process speed-up (a CPU-bound loop of --burn iterations alone, then
two copies at once). The sweeps, on the original lists (the matrix cached beforehand):

* ``search``: ``wordle search --openers 10 --beam 10 --json``;
* ``second``: ``wordle second --opener salet --json``;
* ``openers``: ``wordle openers --metric expected --top 0 --json`` (12,972 x 2,315).

Outputs must be identical to the single-process ones (timing fields aside). Prints each
round, then a Markdown table of the medians: the speed-up of --workers 2 over one process,
and its share of the CPU loops' speed-up measured in the same round.
"""

import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling modules
from scaling import timed, two_process_speedup  # noqa: E402

SWEEPS = ("search", "second", "openers")
LABELS = {"search": "wordle search --openers 10 --beam 10",
          "second": "wordle second --opener salet",
          "openers": "wordle openers --metric expected (12,972 x 2,315)"}


def strip(text):
    """The JSON output without its timing fields."""
    def clean(obj):
        if isinstance(obj, dict):
            return {k: clean(v) for k, v in obj.items() if k not in ("seconds", "nodes")}
        if isinstance(obj, list):
            return [clean(v) for v in obj]
        return obj
    return clean(json.loads(text))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--burn", type=int, default=90_000_000)
    parser.add_argument("--sweeps", default=",".join(SWEEPS))
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "shared", "data"))
    args = parser.parse_args()
    lists = ["--guesses", os.path.join(args.shared, "wordle", "guesses.txt"),
             "--answers", os.path.join(args.shared, "wordle", "answers.txt")]
    d = [sys.executable, "-m", "deductive", "wordle"]
    commands = {
        "search": d + ["search", *lists, "--openers", "10", "--beam", "10", "--json"],
        "second": d + ["second", *lists, "--opener", "salet", "--json"],
        "openers": d + ["openers", *lists, "--metric", "expected", "--top", "0", "--json"],
    }
    sweeps = [s for s in args.sweeps.split(",") if s]
    timed(commands["openers"], repeat=1)            # the matrix into the cache
    steps = []
    for name in sweeps:
        steps += [(name, 1), (name, 2)]
    steps.append(("loops", None))
    rows = {name: [] for name in sweeps}
    for r in range(args.rounds):
        got, reference = {}, {}
        for step in (steps if r % 2 == 0 else steps[::-1]):
            name, workers = step
            if name == "loops":
                got[step] = two_process_speedup(args.burn, repeat=1)
                continue
            cmd = commands[name] + (["--workers", "2"] if workers == 2 else [])
            seconds, out = timed(cmd, repeat=1)
            got[step] = seconds
            reference.setdefault(name, {})[workers] = strip(out)
        one, both, machine = got[("loops", None)]
        line = [f"round {r + 1}: CPU loop {one:.1f} s alone, {both:.1f} s for two "
                f"({machine:.2f}x)"]
        for name in sweeps:
            assert reference[name][1] == reference[name][2], f"{name}: outputs differ"
            t1, t2 = got[(name, 1)], got[(name, 2)]
            rows[name].append((t1, t2, machine))
            line.append(f"{name} {t1:.1f} s / {t2:.1f} s ({t1 / t2:.2f}x)")
        print("; ".join(line) + "; identical outputs", flush=True)
    print()
    print("| sweep | 1 process | Dask, 2 workers | speed-up | 2 plain CPU loops | Dask's share "
          "of the CPU loops' speed-up | check |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name in sweeps:
        t1 = statistics.median(t for t, _, _ in rows[name])
        t2 = statistics.median(t for _, t, _ in rows[name])
        speed = statistics.median(a / b for a, b, _ in rows[name])
        machine = statistics.median(m for _, _, m in rows[name])
        share = statistics.median(a / b / m for a, b, m in rows[name])
        print(f"| `{LABELS[name]}` | {t1:.1f} s | {t2:.1f} s | "
              f"{speed:.2f}x | {machine:.2f}x | {100 * share:.0f}% | identical in "
              f"{len(rows[name])} rounds |")
    print("(medians over the rounds; each ratio's median is taken over the rounds' ratios)")


if __name__ == "__main__":
    main()
