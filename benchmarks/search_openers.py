"""The proven opener ranking on the original lists: wall time, phases, peak memory.

    python benchmarks/search_openers.py --keep 10                 # the 10 best, proven
    python benchmarks/search_openers.py --keep 10 --baseline      # and the entropy top 10
    python benchmarks/search_openers.py --keep 1 --checkpoint proof.jsonl   # certificate
    python benchmarks/search_openers.py --keep 1 --hard --max-guesses 6

``--baseline`` also times the earlier way, each of the ``keep`` best openers by entropy
searched exactly in turn (one memo), in the same process for a fair comparison. The
kernels are warmed first; the pattern matrix comes from the cache.
"""

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from deductive import wordle  # noqa: E402
from deductive.engine.feedback.scoring import rank_guesses  # noqa: E402
from deductive.engine.feedback.search import (TreeSearch, opener_bounds,  # noqa: E402
                                              prove_openers, search_openers)
from deductive.engine.wordle.game import Wordle  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=int, default=1)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--max-guesses", type=int, default=None)
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--memo-bytes", type=float, default=4e9)
    parser.add_argument("--baseline", action="store_true")
    args = parser.parse_args()
    lists = [wordle.builtin_words("wordle", role=role) for role in ("guesses", "answers")]
    game = Wordle(*lists, hard=args.hard)
    game.matrix
    TreeSearch(game, beam=1, max_guesses=args.max_guesses).search_opener("salet")   # warm
    opener_bounds(game, [0, 1], 7921)
    if args.baseline:
        words = [s.word for s in rank_guesses(game.patterns, top=args.keep)]
        start = time.perf_counter()
        rows = search_openers(game, words, max_guesses=args.max_guesses)
        print(f"baseline (entropy top {args.keep}, each searched exactly): "
              f"{time.perf_counter() - start:.1f} s; "
              + ", ".join(f"{r['word']} {r['total']}" for r in sorted(
                  rows, key=lambda r: (r["total"], r["worst"]))), flush=True)
    start = time.perf_counter()
    marks = {}

    def progress(k):
        for step in (1000, 5000, 10000, len(game.guesses)):
            if k >= step and step not in marks:
                marks[step] = time.perf_counter() - start
                print(f"  {k} openers decided at {marks[step]:.0f} s", flush=True)

    proof = prove_openers(game, args.keep, max_guesses=args.max_guesses,
                          checkpoint=args.checkpoint, memo_bytes=int(args.memo_bytes),
                          progress=progress)
    wall = time.perf_counter() - start
    counts = proof.counts()
    searched = [r["seconds"] for r in proof.rows if r["by"] == "search"]
    print(f"proven ranking of the {args.keep} best ({'hard' if args.hard else 'normal'}, "
          f"max_guesses {args.max_guesses}): {wall:.0f} s wall, peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.2f} GB")
    print(f"  {counts}; ceiling {proof.ceiling}; best {proof.best()}")
    if searched:
        searched.sort()
        print(f"  searched openers: {len(searched)}, median {searched[len(searched) // 2]:.2f}"
              f" s, max {searched[-1]:.1f} s, sum {sum(searched):.0f} s")
    for r in proof.ranking():
        print(f"  {r['word']} {r['total']} worst {r['worst']}")


if __name__ == "__main__":
    main()
