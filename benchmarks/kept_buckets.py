"""What keeping the large buckets' work from one opener to the next saves the depth-three
step of a certificate: kin groups bounded fresh and with one KeptBuckets, paired.

    NUMBA_NUM_THREADS=1 python benchmarks/kept_buckets.py --answers wordle:guesses \\
        --groups 8 --target 52603 \\
        --checkpoint benchmarks/runs/kept-buckets-52603.jsonl      # issue 41

The certificate's depth-three step brings together the openers whose largest non-winning
bucket is the same set (:func:`deductive.engine.feedback.search.bounds.kin_groups`;
anagrams share the bucket of the answers with none of their letters) and carries each
bucket's work to the next opener that has it (:class:`~deductive.engine.feedback.search.
bounds.KeptBuckets`). This draws ``--groups`` of the kin groups of two or more openers
(uniformly, with ``--seed``) and bounds each group's openers under ``--target``
(:func:`~deductive.engine.feedback.search.deep_opener_bound`), once each afresh and once
in turn with one KeptBuckets, and checks that both give the same bounds. It prints each
group's CPU seconds both ways, and projects the saving over every guess: the mean saving
a group (95% bootstrap interval over the groups drawn) times the kin groups there are
(a lone opener saves nothing). With ``--checkpoint`` each group's row is kept as it ends
and a rerun resumes. Run it on one thread (``NUMBA_NUM_THREADS=1``): CPU time is then the
core time.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from benchmarks.deep_bounds import _mean_interval  # noqa: E402
from deductive.checkpoint import Checkpoint  # noqa: E402
from deductive.engine.feedback.search import INFEASIBLE, deep_opener_bound  # noqa: E402
from deductive.engine.feedback.search.bounds import KeptBuckets, kin_groups  # noqa: E402
from deductive.engine.feedback.search.certificates import lists_about  # noqa: E402
from deductive.engine.wordle import Wordle  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", default="wordle")
    parser.add_argument("--answers", default="wordle")
    parser.add_argument("--groups", type=int, default=8, help="kin groups drawn at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=INFEASIBLE,
                        help="stop an opener's bound once it reaches this")
    parser.add_argument("--checkpoint", help="keep each group's row here and resume")
    args = parser.parse_args()
    game = Wordle(args.guesses, args.answers)
    if game.hard:
        parser.error("the depth-three bound is for normal mode")
    groups = kin_groups(game, np.arange(len(game.guesses)))
    several = [members for members in groups if len(members) > 1]
    rng = np.random.default_rng(args.seed)
    drawn = sorted(rng.choice(len(several), min(args.groups, len(several)), replace=False))
    store = Checkpoint(args.checkpoint, {"benchmark": "kept_buckets", "target": args.target,
                                         **game.identity()}, about=lists_about(game))
    kept_rows = store.load()
    if any(_key(game, several[k]) not in kept_rows for k in drawn):
        warm = Wordle(list(game.guesses[:200]), list(game.guesses[:200]))
        deep_opener_bound(warm, 0)                  # compile outside the timings
    print(f"{len(game.guesses):,} openers in {len(groups):,} kin groups, {len(several):,} "
          f"of two or more ({sum(map(len, several)):,} openers)", flush=True)
    print("group  fresh-s  kept-s  saved", flush=True)
    saved, spent = [], []
    for k in drawn:
        members = several[k]
        row = kept_rows.get(_key(game, members))
        if row is None:
            row = _group_row(game, members, args.target)
            store.append(_key(game, members), row)
        saved.append(row["fresh"] - row["kept"])
        spent.append(row["fresh"])
        print(f"{_key(game, members)}  {row['fresh']:.1f}  {row['kept']:.1f}  "
              f"{100 * (1 - row['kept'] / row['fresh']):.0f}%", flush=True)
    if saved:
        fresh = max(sum(spent), 1e-9)
        low, high = _mean_interval(saved)
        hours = len(several) / 3600
        print(f"{len(saved)} groups: {sum(saved):.0f} of {fresh:.0f} s CPU saved "
              f"({100 * sum(saved) / fresh:.0f}%); over every guess "
              f"{hours * np.mean(saved):,.1f} core-hours saved (95% {hours * low:,.1f}-"
              f"{hours * high:,.1f})", flush=True)


def _key(game, members) -> str:
    return "+".join(game.word(g) for g in members)


def _group_row(game, members, target) -> dict:
    """The group's CPU seconds fresh and kept, after checking both give the same bounds."""
    fresh, kept, bounds = 0.0, 0.0, []
    for g in members:
        start = time.process_time()
        bounds.append(int(deep_opener_bound(game, g, target)))
        fresh += time.process_time() - start
    held = KeptBuckets(game)
    for g, bound in zip(members, bounds):
        start = time.process_time()
        again = int(deep_opener_bound(game, g, target, kept=held))
        kept += time.process_time() - start
        if again != bound:
            raise SystemExit(f"{game.word(g)}: {again} with kept buckets, {bound} fresh")
    return {"bounds": bounds, "fresh": round(fresh, 2), "kept": round(kept, 2)}


if __name__ == "__main__":
    main()
