"""MM(5,8), 32,768 codes: the best tree found (checked) and a proven lower bound.

Usage: python benchmarks/mastermind_58.py [--pegs 5 --colours 8 | --digits 5]
                                          [--beam K [--opener CODE]]
                                          [--start FILE] [--polish N [--min-polish M]]
                                          [--tree FILE]
                                          [--no-bound | --bound-only] [--no-depth-two]
                                          [--depth-three]

1. A tree: the entropy solver's (every code played once, the tree evaluated as a whole:
   ``deductive mastermind bench --solver entropy``), or with ``--beam K`` the tree
   search's beam (:class:`deductive.engine.feedback.search.TreeSearch`: the K best guesses
   of its search order at each node) from ``--opener`` (default: the entropy opener; on
   MM(5,8) beams 1 and 2 from 11234 gave 180,717 and 180,574, 180,521 and 180,420 polished
   to 40, against the entropy tree's 179,606 polished to 40, 179,198 to 100, 178,941 to 200
   and 178,895 to 300), then, with
   ``--polish N``, its subtrees of 3 to N codes searched exactly and the better ones grafted in
   (:func:`deductive.engine.feedback.polish.polish_tree`; ``--min-polish M``: only those of
   M codes or more, as when ``--start FILE`` is a tree written here and already polished
   to M - 1). The tree is checked
   (:func:`deductive.engine.feedback.tree.check_tree`) and written to ``--tree``.
2. A lower bound of every tree's total (:func:`deductive.engine.mastermind.search.
   game_lower_bound`): the least over the opener classes of each one's bound; with
   ``--depth-three`` the depth-three bound of the openers that may be least, each printed
   as it is done (at 5x8 about half an hour an opener on one thread).

``--digits N`` plays Bulls and Cows with N distinct digits instead (5: 30,240 numbers).

Printed: each step's figures and its wall and CPU seconds (one thread: run it with
``NUMBA_NUM_THREADS=1 nice -n 19``); the peak memory is the process's (``/usr/bin/time
-v`` around it). Nothing is asserted.
"""

import argparse
import json
import time

from deductive.engine.feedback.polish import polish_tree
from deductive.engine.feedback.search import TreeSearch
from deductive.engine.feedback.tree import check_tree, load_tree, tree_document
from deductive.engine.mastermind import BullsAndCows, Mastermind
from deductive.engine.mastermind.search import game_lower_bound


def clock():
    return time.perf_counter(), time.process_time()


def since(start) -> str:
    wall, cpu = clock()
    return f"{wall - start[0]:.1f} s wall, {cpu - start[1]:.1f} s CPU"


def _opener_done(code, bound):
    print(f"  opener {code}: depth-three bound {bound:,}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pegs", type=int, default=5)
    parser.add_argument("--colours", type=int, default=8)
    parser.add_argument("--digits", type=int, default=None,
                        help="Bulls and Cows with this many digits instead")
    parser.add_argument("--beam", type=int, default=None, help="a beam search's tree")
    parser.add_argument("--opener", default=None, help="the beam's first guess")
    parser.add_argument("--start", default=None,
                        help="a tree written by --tree, instead of the entropy tree")
    parser.add_argument("--polish", type=int, default=None, help="largest subtree searched")
    parser.add_argument("--min-polish", type=int, default=3, help="smallest subtree searched")
    parser.add_argument("--tree", default=None, help="where the tree is written (JSON)")
    parser.add_argument("--no-bound", action="store_true")
    parser.add_argument("--no-depth-two", action="store_true",
                        help="bound without the refined depth-two bound (slow at 5x8)")
    parser.add_argument("--bound-only", action="store_true", help="no tree, the bound only")
    parser.add_argument("--depth-three", action="store_true",
                        help="the depth-three bound of the least openers (an hour at 5x8)")
    args = parser.parse_args()
    start = clock()
    if args.digits:
        game, name = BullsAndCows(args.digits), f"Bulls and Cows, {args.digits} digits"
    else:
        game, name = Mastermind(args.pegs, args.colours), f"MM({args.pegs},{args.colours})"
    game.matrix
    print(f"{name}: {len(game.answers):,} codes, matrix {since(start)}", flush=True)
    if args.bound_only:
        start = clock()
        bound, per = game_lower_bound(game, depth_two=not args.no_depth_two,
                                      depth_three=args.depth_three, progress=_opener_done)
        print(f"lower bound: {bound:,} ({bound / len(game.answers):.4f}) by opener {per}; "
              f"{since(start)}", flush=True)
        return
    start = clock()
    if args.start:
        tree = load_tree(args.start)["tree"]
        print(f"start: {args.start}, opener {tree['guess']}; {since(start)}", flush=True)
    elif args.beam:
        opener = args.opener or game.bench("entropy", keep_tree=True).tree["guess"]
        found = TreeSearch(game, beam=args.beam).search_opener(opener, keep_tree=True)
        tree = found.tree
        print(f"beam {args.beam} tree: total {found.total:,} "
              f"({found.total / len(game.answers):.4f}), worst {found.worst}, opener "
              f"{opener}; {since(start)}", flush=True)
    else:
        greedy = game.bench("entropy", keep_tree=True)
        tree = greedy.tree
        print(f"entropy tree: total {greedy.total:,} ({greedy.total / len(game.answers):.4f}), "
              f"worst {greedy.worst}, opener {tree['guess']}; {since(start)}", flush=True)
    if args.polish:
        start = clock()
        done = polish_tree(game, tree, args.polish, min_size=args.min_polish)
        tree = done.tree
        print(f"polished (subtrees of {args.min_polish}-{args.polish} codes): "
              f"{json.dumps(done.to_json())}; {since(start)}", flush=True)
    report = check_tree(game, tree_document(game, tree))
    total, worst = int(report.depths.sum()), int(report.depths.max())
    print(f"checked tree: total {total:,} ({total / len(game.answers):.4f}), worst {worst}, "
          f"distribution {report.to_json()['distribution']}", flush=True)
    if args.tree:
        with open(args.tree, "w") as f:
            json.dump(tree_document(game, tree), f)
    if not args.no_bound:
        start = clock()
        bound, per = game_lower_bound(game, depth_two=not args.no_depth_two,
                                      depth_three=args.depth_three, progress=_opener_done)
        print(f"lower bound: {bound:,} ({bound / len(game.answers):.4f}) by opener {per}; "
              f"gap {total - bound:,}; {since(start)}", flush=True)


if __name__ == "__main__":
    main()
