"""The least worst case on the original lists: refuting openers within four guesses.

    python benchmarks/worst_case.py                   # 40 random openers, seed 0
    python benchmarks/worst_case.py --openers 200 --seed 3

Proving that no opener has a tree within four guesses means, for every opener, finding
a bucket that three more guesses cannot solve; almost all the time goes to asking
whether sets of answers have a separating guess (one guess giving each its own code).
This times, after a warm-up opener:

* the refutation of ``--openers`` random openers (``WorstCaseSearch``, one memo, as a
  run over every opener has): median and mean seconds per opener, and the time that
  makes for all 12,972 on one core;
* the two separating-guess kernels on the same sets (every bucket of three or more
  that the second guesses leave of the openers' largest buckets, first
  ``--sets`` of them): :func:`~deductive.kernels.worst.separator` (row by row, the
  earlier way) against :func:`~deductive.kernels.worst.column_separator` (answer by
  answer), the same answers asserted, with the ratio of their times.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from deductive import wordle  # noqa: E402
from deductive.engine.feedback.matrix import answer_major  # noqa: E402
from deductive.engine.feedback.worst import WorstCaseSearch  # noqa: E402
from deductive.engine.wordle.game import Wordle  # noqa: E402
from deductive.kernels.worst import column_separator, separator  # noqa: E402


def _at_least_one(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of at least 1, not {value!r}")
    return int(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openers", type=_at_least_one, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", type=_at_least_one, default=20_000)
    args = parser.parse_args()
    game = Wordle(*[wordle.builtin_words("wordle", role=role)
                    for role in ("guesses", "answers")])
    search = WorstCaseSearch(game)
    cands, allowed = search._root()
    openers = np.random.default_rng(args.seed).choice(len(game.guesses), args.openers + 1,
                                                      replace=False)
    search._buckets_fit(int(openers[0]), cands, allowed, 4)          # warm
    seconds = []
    for g in openers[1:]:
        start = time.perf_counter()
        fits = search._buckets_fit(int(g), cands, allowed, 4)
        seconds.append(time.perf_counter() - start)
        assert not fits, f"{game.word(int(g))} has a tree within 4?"
    print(f"refuted within 4: {len(seconds)} openers, median {np.median(seconds):.3f} s, "
          f"mean {np.mean(seconds):.3f} s an opener; all {len(game.guesses):,} at the mean: "
          f"{np.mean(seconds) * len(game.guesses) / 60:.0f} min on one core", flush=True)

    matrix, columns = game.matrix, answer_major(game.matrix)
    rows = np.arange(matrix.shape[0], dtype=np.int64)
    sets = []
    for g in openers[1:]:
        largest = max(game.split(int(g), cands), key=lambda x: len(x[1]))[1]
        for g2 in range(matrix.shape[0]):
            codes = matrix[g2, largest]
            for code in np.unique(codes):
                members = largest[codes == code]
                if code != game.win_code and len(members) >= 3:
                    sets.append(members)
            if len(sets) >= args.sets:
                break
        if len(sets) >= args.sets:
            break
    n_codes = game.patterns.n_codes
    allowed_rows = np.ones(matrix.shape[0], np.bool_)
    alive, dense = np.empty(matrix.shape[0], np.int64), np.empty(matrix.shape[0], np.bool_)
    separator(matrix, sets[0], rows, n_codes)
    column_separator(columns, sets[0], allowed_rows, alive, dense)
    times = {"row by row": [], "answer by answer": []}
    for _ in range(3):                  # alternated, for a machine whose speed drifts
        start = time.perf_counter()
        by_rows = [separator(matrix, s, rows, n_codes) >= 0 for s in sets]
        times["row by row"].append(time.perf_counter() - start)
        start = time.perf_counter()
        by_columns = [column_separator(columns, s, allowed_rows, alive, dense) for s in sets]
        times["answer by answer"].append(time.perf_counter() - start)
        assert by_rows == by_columns
    for name, t in times.items():
        print(f"{name}: {len(sets):,} sets ({sum(by_rows):,} with a separating guess), "
              f"median {np.median(t) / len(sets) * 1e6:.1f} us a set")
    print(f"ratio: {np.median(times['row by row']) / np.median(times['answer by answer']):.1f}x")


if __name__ == "__main__":
    main()
