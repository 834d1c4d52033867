"""Rule out the openers the depth-three bound leaves, by exact searches of their buckets.

    NUMBA_NUM_THREADS=1 python benchmarks/strong_openers.py --answers wordle:guesses \\
        --target 52603 --exact-max 400 --openers lants tiars taros \\
        --checkpoint benchmarks/runs/strong-exact52603.jsonl      # issue 41

A tree that opens with g totals n (g's guess for every answer) plus, for each bucket B
that g's feedback leaves (the winning one aside), the total of its subtree over B; in
normal mode these subtrees are independent, so any lower bound of each bucket's best
subtree adds up to a lower bound of every tree opening with g. Here each bucket starts
at its depth-three bound (:func:`deductive.engine.feedback.search.deep_bound`, in full),
then the buckets of three to ``--exact-max`` answers are searched exactly
(:meth:`TreeSearch.solve <deductive.engine.feedback.search.TreeSearch.solve>`),
smallest first, each under the ceiling ``its depth-three bound + the gap left`` (below
it the search's value is exact; at it, a lower bound of at least the ceiling, which
alone closes the gap), until the sum reaches ``--target`` (the best known total + 1: the
opener is then ruled out) or the buckets run out (the row then holds the best bound
found, exact where every bucket was searched).

The searches share one :class:`TreeSearch` (its memo capped at ``--memo``), so sets met
again under a later opener are not searched twice. With ``--checkpoint`` each opener's
row is kept as it ends and a rerun resumes; the rows give the depth-three bound, the
bound with the searched buckets, the buckets searched (and the largest), and the CPU
seconds of each step. Run it on one thread (``NUMBA_NUM_THREADS=1``): CPU time is then
the core time. Nothing is asserted.
"""

import argparse
import time

import numpy as np

from deductive.checkpoint import Checkpoint
from deductive.engine.feedback.search import TreeSearch, deep_bound, lower_bound
from deductive.engine.feedback.search.certificates import lists_about
from deductive.engine.wordle import Wordle


def buckets_of(game, g):
    """``[(code, answer indices)]`` of opener ``g``'s non-winning buckets, smallest first
    (ties: feedback code)."""
    row = game.matrix[g]
    codes, counts = np.unique(row, return_counts=True)
    out = [(int(c), np.flatnonzero(row == c).astype(np.int64))
           for c, k in sorted(zip(codes.tolist(), counts.tolist()), key=lambda x: (x[1], x[0]))
           if c != game.win_code]
    return out


def rule_out(game, search, g, target, exact_max):
    """The row of opener ``g``: its depth-three bound, then its bound with its buckets of
    at most ``exact_max`` answers searched, smallest first, until it reaches ``target``."""
    n = len(game.answers)
    start = time.process_time()
    parts = buckets_of(game, g)
    lows = [lower_bound(len(b)) if len(b) <= 2 else int(deep_bound(game, b))
            for _, b in parts]
    deep = n + sum(lows)
    deep_seconds = time.process_time() - start
    start = time.process_time()
    total, searched, largest, exact = deep, 0, 0, True
    for k, (_, b) in enumerate(parts):
        if total >= target:
            exact = False
            break
        if len(b) <= 2:
            continue
        if len(b) > exact_max:
            exact = False
            break
        beta = lows[k] + (target - total)
        value, _, ok = search.solve(b, beta=beta)
        value = max(int(value), lows[k])
        total += value - lows[k]
        lows[k] = value
        searched, largest = searched + 1, len(b)
        exact = exact and ok
    return {"deep": deep, "bound": total, "exact": bool(exact and total < target),
            "searched": searched, "largest": largest, "deep_seconds": round(deep_seconds, 1),
            "search_seconds": round(time.process_time() - start, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", default="wordle")
    parser.add_argument("--answers", default="wordle")
    parser.add_argument("--openers", nargs="+", required=True)
    parser.add_argument("--target", type=int, required=True,
                        help="the best total known + 1: a bound that reaches it rules out")
    parser.add_argument("--exact-max", type=int, default=400,
                        help="largest bucket searched exactly")
    parser.add_argument("--memo", type=float, default=4.0, help="GB the search's memo may hold")
    parser.add_argument("--checkpoint", help="keep each opener's row here and resume")
    args = parser.parse_args()
    game = Wordle(args.guesses, args.answers)
    if game.hard:
        parser.error("the depth-three bound is for normal mode")
    openers = list(dict.fromkeys(game.guess_index(w) for w in args.openers))
    store = Checkpoint(args.checkpoint, {"benchmark": "strong_openers", "target": args.target,
                                         "exact_max": args.exact_max, **game.identity()},
                       about=lists_about(game))
    kept = store.load()
    search = TreeSearch(game, memo_bytes=int(args.memo * 2 ** 30))
    print("opener  depth-3  bound  searched  largest  deep-s  search-s", flush=True)
    out = 0
    for g in openers:
        row = kept.get(game.word(g))
        if row is None:
            row = rule_out(game, search, g, args.target, args.exact_max)
            store.append(game.word(g), row)
        out += row["bound"] >= args.target
        shown = (f">={args.target}" if row["bound"] >= args.target
                 else f"{row['bound']}{' exact' if row['exact'] else ''}")
        print(f"{game.word(g)}  {row['deep']}  {shown}  {row['searched']}  {row['largest']}  "
              f"{row['deep_seconds']}  {row['search_seconds']}", flush=True)
    print(f"{len(openers)} openers, {out} at least {args.target}", flush=True)


if __name__ == "__main__":
    main()
