"""The depth-three bound of Wordle openers against the depth-two bounds and a ceiling: how
many openers it rules out, and at what rate.

    python benchmarks/deep_bounds.py --answers wordle:guesses --openers tares lants salet
    python benchmarks/deep_bounds.py --answers wordle:guesses --sample 20 --target 52603
    python benchmarks/deep_bounds.py --answers wordle:guesses --sample 200 --target 52638 \\
        --checkpoint benchmarks/runs/deep-sample200.jsonl     # issue 41's fixed sample

For each opener: the plain and refined depth-two bounds
(:func:`deductive.engine.feedback.search.opener_bounds`) and the depth-three bound
(:func:`deductive.engine.feedback.search.deep_opener_bound`), cut short at ``--target``
(default: none, the full bound; give the best total known plus one to see which openers
it rules out), with its CPU seconds. ``--sample K`` adds K openers drawn with ``--seed``
from every guess. Summary: the openers ruled out (bound at least the target), the rate in
openers per core-hour (run it with ``NUMBA_NUM_THREADS=1``: one thread, CPU time is then
the core time) and the core-hours it projects for every guess, with the 95% bootstrap
interval of that projection and the Wilson interval of the share ruled out, from the
openers drawn at random alone (``--openers`` are not a sample). With
``--checkpoint`` each opener's row is kept as it ends (a run cut short resumes, its rows
and their seconds counted in the summary; ``--kept-only`` reports those rows alone,
computing nothing).
``--buckets`` shows instead where an opener's time goes: each bucket's bound and seconds.
Nothing is asserted.
"""

import argparse
import time

import numpy as np

from deductive.checkpoint import Checkpoint
from deductive.engine.feedback.search import (INFEASIBLE, deep_bound, deep_opener_bound,
                                              opener_bounds)
from deductive.engine.feedback.search import bounds
from deductive.engine.feedback.search.bounds import _deep_setup, opener_buckets
from deductive.engine.feedback.search.certificates import lists_about
from deductive.engine.stats import wilson_interval
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
    parser.add_argument("--checkpoint", help="keep each opener's row here and resume")
    parser.add_argument("--buckets", action="store_true",
                        help="per opener, each bucket's depth-three bound and CPU seconds "
                             "(the whole bound, no target: where the time goes)")
    parser.add_argument("--kept-only", action="store_true",
                        help="only the openers the checkpoint holds: its figures so far")
    parser.add_argument("--passed-from", type=int,
                        help="the least second-level set that passes guesses over (default: "
                             "the library's PASSED_FROM; a huge one passes none over)")
    parser.add_argument("--method", type=int, default=4, choices=(3, 4),
                        help="the bound's method the checkpoint's rows are tagged with: "
                             "give 3 with --kept-only to read the rows of the method "
                             "before the absent letters' guesses were passed over")
    args = parser.parse_args()
    if args.passed_from is not None:
        bounds.PASSED_FROM = args.passed_from
    game = Wordle(args.guesses, args.answers)
    openers = [game.guess_index(w) for w in args.openers]
    drawn: set = set()
    if args.sample:
        rng = np.random.default_rng(args.seed)
        drawn = set(rng.choice(len(game.guesses), args.sample, replace=False).tolist())
        openers += sorted(drawn)
    openers = list(dict.fromkeys(openers))          # each opener once
    # "bound": the bound's method, 2 from the shared-gap rounds of deep_opener_bound, 3
    # from second-level sets scored answer by answer from a copy of the codes over their
    # first-level bucket, 4 with the next guesses a set's absent letters make redundant
    # passed over (the rows timed before each, under the earlier tags, are kept apart)
    store = Checkpoint(args.checkpoint, {"benchmark": "deep_bounds", "target": args.target,
                                         "bound": args.method, **game.identity(),
                                         **({} if args.passed_from is None else
                                            {"passed_from": args.passed_from})},
                       about=lists_about(game))
    kept = store.load()
    if args.kept_only:
        openers = [g for g in openers if game.word(g) in kept]
    if args.buckets or any(game.word(g) not in kept for g in openers):
        warm = Wordle(list(game.guesses[:200]), list(game.guesses[:200]))
        deep_opener_bound(warm, 0)                  # compile outside the timings
    if args.buckets:
        for g in openers:
            _buckets(game, g)
        return
    out, seconds, sampled = 0, [], []
    print("opener  plain  refined  depth-3  cpu-s", flush=True)
    for g in openers:
        row = kept.get(game.word(g))
        if row is None:
            plain = int(opener_bounds(game, [g], refine=False)[0])
            refined = int(opener_bounds(game, [g])[0])
            start = time.process_time()
            deep = int(deep_opener_bound(game, g, args.target))
            row = {"plain": plain, "refined": refined, "deep": deep,
                   "seconds": round(time.process_time() - start, 2)}
            store.append(game.word(g), row)
        seconds.append(row["seconds"])
        out += row["deep"] >= args.target
        if g in drawn:
            sampled.append((row["seconds"], row["deep"] >= args.target))
        shown = f">={args.target}" if row["deep"] >= args.target else str(row["deep"])
        print(f"{game.word(g)}  {row['plain']}  {row['refined']}  {shown}  "
              f"{row['seconds']:.1f}", flush=True)
    if openers:
        ruled = f", {out} at least {args.target}" if args.target < INFEASIBLE else ""
        spent = sum(seconds)
        rate = 3600 * len(openers) / max(spent, 1e-9)
        print(f"{len(openers)} openers{ruled}; {spent:.0f} s CPU, {rate:.1f} openers per "
              f"core-hour: {len(game.guesses) / rate:,.0f} core-hours for all "
              f"{len(game.guesses):,}", flush=True)
    if sampled:                         # the uniform draws alone: intervals for every guess
        low, high = _mean_interval([t for t, _ in sampled])
        every = len(game.guesses) / 3600
        ins = sum(o for _, o in sampled)
        low_out, high_out = wilson_interval(ins, len(sampled))
        share = (f"; {ins} at least {args.target}: 95% {100 * low_out:.1f}-"
                 f"{100 * high_out:.1f}% of every guess" if args.target < INFEASIBLE else "")
        print(f"the {len(sampled)} drawn at random: 95% {every * low:,.0f}-"
              f"{every * high:,.0f} core-hours for all{share}", flush=True)


def _mean_interval(values, resamples: int = 10_000) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of ``values`` (seeded: the same
    figures on every run). The openers are a uniform sample, so the mean seconds an opener,
    times the openers, projects the whole sweep."""
    values = np.asarray(values, dtype=float)
    picks = np.random.default_rng(0).integers(0, len(values), (resamples, len(values)))
    means = values[picks].mean(axis=1)
    return float(np.quantile(means, 0.025)), float(np.quantile(means, 0.975))


def _buckets(game, g):
    """Each bucket of opener ``g`` (three answers or more, largest first): its size, its
    depth-two bound (the least over the next guesses), its depth-three bound
    (:func:`deep_bound`) and the CPU seconds that took."""
    print(f"{game.word(g)}: size  depth-2  depth-3  cpu-s", flush=True)
    spent = 0.0
    for bucket in sorted(opener_buckets(game, g), key=len, reverse=True):
        if len(bucket) < 3:
            break
        two = int(_deep_setup(game, bucket, INFEASIBLE, None)[2][0])
        start = time.process_time()
        bound = deep_bound(game, bucket)
        seconds = time.process_time() - start
        spent += seconds
        print(f"  {len(bucket)}  {two}  {bound}  {seconds:.1f}", flush=True)
    print(f"{game.word(g)}: {spent:.0f} s CPU in all", flush=True)


if __name__ == "__main__":
    main()
