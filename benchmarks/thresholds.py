"""Where each parallel kernel starts to pay: its serial twin against it, idle and beside a
CPU-bound neighbour.

Usage: python benchmarks/thresholds.py [--threads 2] [--budget 0.25] [--shared ../shared/data]

For every kernel with a serial twin (the pattern matrix, partition statistics, weighted
entropy), on inputs of growing work from the original Wordle lists, times the serial twin
and the parallel kernel (``--threads`` threads) alternately, first on the machine as it is,
then beside one CPU-bound neighbour process that this script starts and stops. Prints the
median time of each and the ratio parallel / serial; a driver's threshold is the work
from which the parallel kernel is faster in both columns (``PARALLEL_WORK`` beside
``partition_stats``, ``pattern_matrix`` and the weighted entropy of the solvers).

The kernels are called directly (not through the drivers, which would pick one of the two
by the threshold being measured). Medians of alternating calls, so that a change in the
load of this shared machine moves both sides alike.

``--columns`` measures instead, on one thread, the row kernel of the partition statistics
against the column kernel (``bucket_stats_columns``, from the answer-major matrix) for all
guesses over growing candidate sets: where ``COLUMNS_MAX`` comes from.
"""

import argparse
import os
import statistics
import sys
import time

import numba
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its sibling modules
from neighbours import cpu_neighbours  # noqa: E402

from deductive import wordle  # noqa: E402
from deductive.engine.wordle.patterns import n_patterns  # noqa: E402
from deductive.engine.feedback.scoring import xlogx_table  # noqa: E402
from deductive.kernels import partition, patterns  # noqa: E402
from deductive.kernels._config import CHUNKS_PER_THREAD  # noqa: E402


def paired_medians(serial, parallel, budget):
    """Median seconds of ``serial()`` and ``parallel()``, called alternately for about
    ``budget`` seconds (at least 5 pairs)."""
    times = ([], [])
    start = time.perf_counter()
    while len(times[0]) < 5 or time.perf_counter() - start < budget:
        for k, func in enumerate((serial, parallel)):
            t = time.perf_counter()
            func()
            times[k].append(time.perf_counter() - t)
        if len(times[0]) >= 2000:
            break
    return statistics.median(times[0]), statistics.median(times[1])


def cases(guesses, answers, matrix, weights, threads):
    """(kernel, work, serial call, parallel call) over growing work sizes."""
    chunks = threads * CHUNKS_PER_THREAD
    rng = np.random.default_rng(0)
    n_codes = n_patterns(5)
    rows_all = np.arange(matrix.shape[0], dtype=np.int64)
    sizes = [(len(rows_all), n) for n in (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2315)]
    sizes += [(r, 2315) for r in (50, 200, 800, 3200)]
    for n_rows, n in sorted(sizes, key=lambda s: s[0] * s[1]):
        rows = rows_all[:n_rows] if n_rows < len(rows_all) else rows_all
        cand = np.sort(rng.choice(matrix.shape[1], n, replace=False)).astype(np.int64)
        table, _ = xlogx_table(n)
        out = [np.zeros(n_rows, np.int64) for _ in range(4)]
        args = (matrix, rows, cand, n_codes, table, *out)
        yield ("partition_stats", n_rows, n,
               lambda a=args, k=n_rows: partition.bucket_stats_rows(*a, 0, k),
               lambda a=args: partition.bucket_stats(*a, chunks))
        w = np.ascontiguousarray(weights[cand])
        ent = np.zeros(n_rows)
        wargs = (matrix, rows, cand, w, n_codes, ent)
        yield ("weighted entropy", n_rows, n,
               lambda a=wargs, k=n_rows: partition.weighted_entropy_rows(*a, 0, k),
               lambda a=wargs: partition.weighted_entropy(*a, chunks))
    columns = np.ascontiguousarray(answers.codes.T)
    for g in (1, 4, 16, 64, 256, 1024, 4096, 12972):
        codes = np.ascontiguousarray(guesses.codes[:g])
        out = np.empty((g, len(answers)), np.uint8)
        yield ("pattern_matrix", g, len(answers) * 5,
               lambda c=codes, o=out, k=g: patterns.fill_pattern_rows(c, columns, o, 0, k),
               lambda c=codes, o=out: patterns.fill_pattern_matrix(c, columns, o, chunks))


def columns_table(matrix, budget):
    """Row kernel against column kernel, one thread, all guesses over n random answers."""
    from deductive.engine.feedback.scoring import answer_major

    columns = answer_major(matrix)
    rows = np.arange(matrix.shape[0], dtype=np.int64)
    rng = np.random.default_rng(0)
    print("| candidates | row kernel | column kernel | ratio |")
    print("| ---: | ---: | ---: | ---: |")
    for n in (2, 3, 5, 8, 12, 16, 24, 32, 48, 64, 96, 128):
        cand = np.sort(rng.choice(matrix.shape[1], n, replace=False)).astype(np.int64)
        table, _ = xlogx_table(n)
        out = [np.zeros(len(rows), np.int64) for _ in range(4)]

        def by_row(cand=cand, table=table, out=out):
            partition.bucket_stats_rows(matrix, rows, cand, 243, table, *out, 0, len(rows))

        def by_column(cand=cand, table=table, out=out):
            partition.bucket_stats_columns(columns, rows, cand, table, *out, 0, len(rows))

        by_row(), by_column()
        r, c = paired_medians(by_row, by_column, budget)
        print(f"| {n} | {r * 1e3:.3f} ms | {c * 1e3:.3f} ms | {c / r:.2f} |", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--budget", type=float, default=0.25,
                        help="seconds of alternating calls per size and condition")
    parser.add_argument("--columns", action="store_true",
                        help="row kernel against column kernel instead (one thread)")
    parser.add_argument("--shared", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "shared", "data"))
    args = parser.parse_args()
    guesses = wordle.load_words(os.path.join(args.shared, "wordle", "guesses.txt"))
    answers = wordle.load_words(os.path.join(args.shared, "wordle", "answers.txt"))
    matrix = wordle.pattern_matrix(guesses, answers)
    if args.columns:
        return columns_table(matrix, args.budget)
    weights = np.random.default_rng(1).random(len(answers)) + 0.01
    numba.set_num_threads(args.threads)
    all_cases = list(cases(guesses, answers, matrix, weights, args.threads))
    for _, _, _, serial, parallel in all_cases:        # compile and warm
        serial(), parallel()
    print(f"numba threading layer: {numba.threading_layer()}; {args.threads} threads",
          flush=True)
    results = {}
    for label, k in (("idle", 0), ("beside 1 neighbour", 1)):
        with cpu_neighbours(k):
            for name, a, b, serial, parallel in all_cases:
                results[(name, a, b, label)] = paired_medians(serial, parallel, args.budget)
    print("| kernel | rows x columns | work | serial, idle | parallel, idle | ratio | "
          "serial, 1 neighbour | parallel, 1 neighbour | ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, a, b, _, _ in all_cases:
        cells = []
        for label in ("idle", "beside 1 neighbour"):
            s, p = results[(name, a, b, label)]
            cells += [f"{s * 1e3:.3f} ms", f"{p * 1e3:.3f} ms", f"{p / s:.2f}"]
        print(f"| {name} | {a} x {b} | {a * b:,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
