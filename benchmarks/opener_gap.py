"""Where an opener's lower bound falls short: its buckets, each with its depth-two bound,
its exact value (when small enough to search) and its value in a saved tree.

Usage:
  python benchmarks/opener_gap.py --opener tares --answers wordle:guesses
      [--guesses wordle] [--tree TREE.json] [--exact-max 60] [--deep] [--json]

For each bucket B of the opener (the answers one feedback leaves, the winning one aside)
the guesses its subtree needs, counted from the second guess:

- ``bound``: the plain depth-two bound, ``min over h of 3|B| - [h in B] - buckets(h)``
  (1 and 3 for one and two answers), computed here in NumPy over every guess h; their
  sum plus the opener's own guess for every answer is checked against
  :func:`deductive.engine.feedback.search.opener_bounds` (``refine=False``);
- ``exact``: :meth:`TreeSearch.solve <deductive.engine.feedback.search.TreeSearch.solve>`
  on B, for the buckets of at most ``--exact-max`` answers (one search, its memo shared);
- ``tree``: the bucket's subtree in ``--tree`` (a tree of this opener, as
  ``deductive wordle search --tree`` writes it);
- with ``--deep``, ``deep``: its depth-three bound
  (:func:`deductive.engine.feedback.search.deep_bound`, normal mode), to see where the
  gap between the opener's depth-three bound and its tree lies.

With ``--deep`` the last line also gives the opener's bound with every searched bucket
at its exact value and every other at its depth-three bound: each is a lower bound of
its bucket's best subtree, and the buckets' subtrees are independent in normal mode, so
the opener's guess for every answer plus their sum bounds every tree that opens with it
(a bound of at least a known tree's total + 1 rules the opener out).

The buckets are summed by size class: how much of the gap between the bound and a real
tree lies in the small buckets, where exact search is cheap, and how much in the large
ones. Printed with each step's seconds; nothing is asserted.
"""

import argparse
import json
import time

import numpy as np

from deductive.engine.feedback.search import TreeSearch, deep_bound, opener_bounds
from deductive.engine.feedback.tree import load_tree
from deductive.engine.wordle import Wordle

#: Upper ends of the size classes the buckets are summed by.
CLASSES = (2, 10, 30, 60, 120, 250, 500, 1000, 10 ** 9)


def bucket_bound(matrix: np.ndarray, members: np.ndarray) -> int:
    """The plain depth-two bound of a bucket (answer indices ``members``, guesses = rows
    of ``matrix``, which here are the answers too): the best split over every guess."""
    n = len(members)
    if n <= 2:
        return 2 * n - 1
    codes = np.sort(matrix[:, members], axis=1)
    buckets = 1 + np.count_nonzero(np.diff(codes, axis=1), axis=1)
    inside = np.zeros(matrix.shape[0], dtype=np.int64)
    inside[members] = 1                 # guess h is one of B's answers
    return int((3 * n - inside - buckets).min())


def tree_values(game, node, cands, depth=1) -> int:
    """Guesses a subtree takes over ``cands`` (answer indices), counted from ``depth``."""
    g = game.guess_index(node["guess"])
    row = game.matrix[g, cands]
    then = {game.parse(key): child for key, child in node["then"].items()}
    total = 0
    for code in np.unique(row).tolist():
        part = cands[row == code]
        if code == game.win_code:
            total += depth
        else:
            total += tree_values(game, then[code], part, depth + 1)
    return total


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opener", required=True)
    p.add_argument("--guesses", default="wordle")
    p.add_argument("--answers", default="wordle:guesses")
    p.add_argument("--tree", default=None, help="a tree of this opener (JSON or .json.gz)")
    p.add_argument("--exact-max", type=int, default=60, help="largest bucket searched")
    p.add_argument("--deep", action="store_true", help="each bucket's depth-three bound too")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    game = Wordle(args.guesses, args.answers)
    if game.guesses.words != game.answers.words:
        p.error("the bound here takes the guesses as the answers: give the same list")
    start = time.perf_counter()
    matrix = game.matrix
    g = game.guess_index(args.opener)
    print(f"matrix {matrix.shape[0]:,} x {matrix.shape[1]:,}: "
          f"{time.perf_counter() - start:.1f} s", flush=True)
    doc = load_tree(args.tree)["tree"] if args.tree else None
    if doc is not None and doc["guess"] != args.opener:
        p.error(f"the tree opens with {doc['guess']}, not {args.opener}")
    row = matrix[g]
    then = {} if doc is None else {game.parse(k): v for k, v in doc["then"].items()}
    search = TreeSearch(game)
    buckets = []
    start = time.perf_counter()
    for code in np.unique(row).tolist():
        if code == game.win_code:
            continue
        members = np.flatnonzero(row == code).astype(np.int64)
        b = {"code": code, "size": len(members), "bound": bucket_bound(matrix, members)}
        if doc is not None:
            b["tree"] = tree_values(game, then[code], members, 1)
        if args.deep:
            b["deep"] = int(deep_bound(game, members)) if len(members) > 2 else b["bound"]
        if len(members) <= args.exact_max:
            t0 = time.perf_counter()
            total, _, exact = search.solve(members)
            assert exact
            b["exact"], b["seconds"] = int(total), round(time.perf_counter() - t0, 3)
        buckets.append(b)
    n = len(game.answers)
    whole = n + sum(b["bound"] for b in buckets)
    plain = int(opener_bounds(game, [g], refine=False)[0])
    print(f"{len(buckets)} buckets; bound {whole:,} (opener_bounds: {plain:,}); "
          f"{time.perf_counter() - start:.1f} s", flush=True)
    if whole != plain:
        raise SystemExit(f"the buckets' bound {whole} is not opener_bounds' {plain}")
    rows, lo = [], 0
    for hi in CLASSES:
        part = [b for b in buckets if lo < b["size"] <= hi]
        lo = hi
        if not part:
            continue
        solved = [b for b in part if "exact" in b]
        rows.append({
            "sizes": f"{min(b['size'] for b in part)}-{max(b['size'] for b in part)}",
            "buckets": len(part), "answers": sum(b["size"] for b in part),
            "bound": sum(b["bound"] for b in part),
            "tree": sum(b["tree"] for b in part) if doc is not None else None,
            "solved": len(solved),
            "exact": sum(b["exact"] for b in solved) if solved else None,
            "bound_of_solved": sum(b["bound"] for b in solved) if solved else None,
            "seconds": round(sum(b["seconds"] for b in solved), 2),
            "deep": sum(b["deep"] for b in part) if args.deep else None,
            "deep_of_solved": sum(b["deep"] for b in solved) if args.deep and solved
            else None})
    mixed = n + sum(b.get("exact", b["deep"]) for b in buckets) if args.deep else None
    if args.json:
        print(json.dumps({"opener": args.opener, "bound": whole, "with_exact": mixed,
                          "classes": rows, "buckets": buckets}))
        return
    deep = ("" if not args.deep else f" {'deep':>8} {'tree-deep':>9} {'exact-deep':>10}")
    print(f"{'sizes':>10} {'buckets':>7} {'answers':>7} {'bound':>8} {'tree':>8} "
          f"{'tree-bound':>10} {'solved':>6} {'exact-bound':>11} {'seconds':>8}{deep}")
    for r in rows:
        gap = "" if r["tree"] is None else f"{r['tree'] - r['bound']:,}"
        exact = "" if r["exact"] is None else f"{r['exact'] - r['bound_of_solved']:,}"
        more = ""
        if args.deep:
            over = "" if r["tree"] is None else f"{r['tree'] - r['deep']:,}"
            exact_deep = ("" if r["exact"] is None
                          else f"{r['exact'] - r['deep_of_solved']:,}")
            more = f" {r['deep']:>8,} {over:>9} {exact_deep:>10}"
        print(f"{r['sizes']:>10} {r['buckets']:>7} {r['answers']:>7,} {r['bound']:>8,} "
              f"{'' if r['tree'] is None else format(r['tree'], ','):>8} {gap:>10} "
              f"{r['solved']:>6} {exact:>11} {r['seconds']:>8}{more}")
    if doc is not None:
        total = n + sum(b["tree"] for b in buckets)
        print(f"tree total {total:,}; bound {whole:,}; gap {total - whole:,}" + (
            f"; depth-three bound {n + sum(b['deep'] for b in buckets):,}" if args.deep
            else ""))
    if args.deep:
        searched = sum("exact" in b for b in buckets)
        print(f"depth-three bound {n + sum(b['deep'] for b in buckets):,}; with the "
              f"{searched} buckets of at most {args.exact_max} answers exact: {mixed:,}")


if __name__ == "__main__":
    main()
