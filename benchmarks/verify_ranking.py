"""Where `wordle verify-ranking` spends its time on a certificate: each part of its row
check timed the row-by-row way (0.2.0) and the batched way (verify_proof now), on seeded
samples of the rows, in one process (CPU seconds; the kernels warmed first).

    python benchmarks/verify_ranking.py benchmarks/certificates/top100.jsonl.gz
    python benchmarks/verify_ranking.py benchmarks/certificates/hard20.jsonl.gz --hard

Parts: the plain depth-two bound (every row needs it: ``--plain`` rows timed, the whole
file extrapolated), the refined bound of bound rows whose plain bound is below their claim
(one call each, or one call per claim), and the rows ruled out by a search (a fresh search
each, or the plain bound then one shared search). Both ways must give the same verdicts.
"""

import argparse
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from deductive.engine.feedback.search import TreeSearch, opener_bounds, read_proof  # noqa: E402
from deductive.engine.feedback.search.certificates import _cutoff  # noqa: E402
from deductive.engine.wordle.game import Wordle  # noqa: E402


def _sample(rows, n, rng):
    picked = rng.choice(len(rows), min(n, len(rows)), replace=False)
    return [rows[k] for k in sorted(picked.tolist())]


def _clock(fn):
    start = time.process_time()
    value = fn()
    return value, time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--plain", type=int, default=300, help="rows whose plain bound is timed")
    parser.add_argument("--refine", type=int, default=40, help="refined rows timed")
    parser.add_argument("--search", type=int, default=40, help="searched rows timed")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    warnings.simplefilter("ignore")             # format 1 files warn that they carry no digest
    game = Wordle("wordle", "wordle", hard=args.hard)
    tag, rows, _ = read_proof(game, args.path)
    max_guesses = tag.get("max_guesses")
    exact = sorted(r["total"] for r in rows if r["exact"])
    threshold = _cutoff(exact, int(tag.get("keep", 1)), tag.get("within"))
    rng = np.random.default_rng(args.seed)
    opener_bounds(game, [0, 1], refine=False)   # warm the kernels
    opener_bounds(game, [0, 1], 10 ** 6)

    bound = [r for r in rows if r["by"] == "bound"]
    searched = [r for r in rows if r["by"] == "search" and not r["exact"]]
    sample = _sample(rows, args.plain, rng)
    plain, seconds = _clock(lambda: opener_bounds(game, [r["index"] for r in sample],
                                                  refine=False).tolist())
    print(f"{len(rows)} rows ({len(bound)} by the bound, {len(searched)} searched and out, "
          f"{len(exact)} exact), threshold {threshold}")
    print(f"plain bound: {len(sample)} rows {seconds:.1f} s CPU, all {len(rows)} rows "
          f"~{seconds * len(rows) / len(sample):.0f} s")

    pool = _sample(bound, 8 * args.refine, rng)
    lows = opener_bounds(game, [r["index"] for r in pool], refine=False).tolist()
    need = [r for r, low in zip(pool, lows) if low < r["lower"]][:args.refine]
    slow, t_slow = _clock(lambda: [int(opener_bounds(game, [r["index"]], r["lower"])[0])
                                   for r in need])

    def batched():
        found, by_claim = {}, {}
        for r in need:
            by_claim.setdefault(r["lower"], []).append(r)
        for claim, group in sorted(by_claim.items()):
            for r, v in zip(group, opener_bounds(game, [r["index"] for r in group], claim)):
                found[r["word"]] = int(v)
        return [found[r["word"]] for r in need]

    fast, t_fast = _clock(batched)
    assert [v >= r["lower"] for v, r in zip(slow, need)] == \
        [v >= r["lower"] for v, r in zip(fast, need)]
    print(f"refined bound: {len(need)} bound rows whose plain bound is below the claim "
          f"({sum(low < r['lower'] for r, low in zip(pool, lows))} of {len(pool)} sampled), "
          f"one call each {t_slow:.1f} s CPU, one call per claim {t_fast:.1f} s CPU")

    picked = _sample(searched, args.search, rng)
    slow, t_slow = _clock(lambda: [TreeSearch(game, max_guesses=max_guesses).opener_total(
        r["index"], threshold + 1)[3] for r in picked])

    def shared():
        lows = opener_bounds(game, [r["index"] for r in picked], refine=False).tolist()
        search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=4_000_000_000)
        return [low < threshold + 1 and search.opener_total(r["index"], threshold + 1)[3]
                for r, low in zip(picked, lows)]

    fast, t_fast = _clock(shared)
    assert [bool(x) for x in slow] == [bool(x) for x in fast] == [False] * len(picked)
    print(f"searched rows: {len(picked)} of {len(searched)}, a fresh search each "
          f"{t_slow:.1f} s CPU, the plain bound then one shared search {t_fast:.1f} s CPU")


if __name__ == "__main__":
    main()
