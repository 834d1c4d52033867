"""The depth-three bound of Wordle openers against the depth-two bounds and a ceiling: how
many openers it rules out, and at what rate.

    python benchmarks/deep_bounds.py --answers wordle:guesses --openers tares lants salet
    python benchmarks/deep_bounds.py --answers wordle:guesses --sample 20 --target 52603

For each opener: the plain and refined depth-two bounds
(:func:`deductive.engine.feedback.search.opener_bounds`) and the depth-three bound
(:func:`deductive.engine.feedback.search.deep_opener_bound`), cut short at ``--target``
(default: none, the full bound; give the best total known plus one to see which openers
it rules out), with its CPU seconds. ``--sample K`` adds K openers drawn with ``--seed``
from every guess. Summary: the openers ruled out (bound at least the target) and the
rate in openers per core-hour (run it with ``NUMBA_NUM_THREADS=1``: one thread, CPU time
is then the core time). Nothing is asserted.
"""

import argparse
import time

import numpy as np

from deductive.engine.feedback.search import INFEASIBLE, deep_opener_bound, opener_bounds
from deductive.engine.wordle import Wordle


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", default="wordle")
    parser.add_argument("--answers", default="wordle")
    parser.add_argument("--openers", nargs="*", default=[])
    parser.add_argument("--sample", type=int, default=0, help="openers drawn at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=INFEASIBLE,
                        help="stop an opener's bound once it reaches this")
    args = parser.parse_args()
    game = Wordle(args.guesses, args.answers)
    openers = [game.guess_index(w) for w in args.openers]
    if args.sample:
        rng = np.random.default_rng(args.seed)
        openers += sorted(rng.choice(len(game.guesses), args.sample, replace=False).tolist())
    deep_opener_bound(game, 0, 0)                   # compile outside the timings
    out, spent = 0, 0.0
    print("opener  plain  refined  depth-3  cpu-s", flush=True)
    for g in openers:
        plain = int(opener_bounds(game, [g], refine=False)[0])
        refined = int(opener_bounds(game, [g])[0])
        start = time.process_time()
        deep = deep_opener_bound(game, g, args.target)
        seconds = time.process_time() - start
        spent += seconds
        out += deep >= args.target
        shown = f">={args.target}" if deep >= args.target else str(deep)
        print(f"{game.word(g)}  {plain}  {refined}  {shown}  {seconds:.1f}", flush=True)
    if openers:
        ruled = f", {out} at least {args.target}" if args.target < INFEASIBLE else ""
        print(f"{len(openers)} openers{ruled}; {spent:.0f} s CPU, "
              f"{3600 * len(openers) / max(spent, 1e-9):.1f} openers per core-hour", flush=True)


if __name__ == "__main__":
    main()
