"""Exact re-search of the subtrees of a decision tree (for example a beam's): each subtree
within the size range is searched exactly (``TreeSearch.solve`` within the guesses left,
its current total as the ceiling) and replaced when a tree with fewer total guesses exists.

Usage:
  python benchmarks/polish_tree.py TREE.json OUT.json --guesses F --answers F
      [--max-guesses 6] [--min-size 3] [--max-size 400] [--from-guess 2]

Subtrees are tried smallest first. The output is checked as ``tree-check`` checks a file
and its total printed. From the beam-100 tree of lants within 6 guesses on 12,972 x 12,972
(52,900), the subtrees of 61 to 400 answers from the second guess on gave one better
subtree (preif, 174 answers: 576 -> 572), hence 52,896 (README).
"""

import argparse

import numpy as np

from deductive.engine.feedback.search import TreeSearch
from deductive.engine.feedback.tree import check_tree, load_tree, write_tree
from deductive.engine.wordle import Wordle


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tree")
    p.add_argument("out")
    p.add_argument("--guesses", required=True)
    p.add_argument("--answers", required=True)
    p.add_argument("--max-guesses", type=int, default=6)
    p.add_argument("--min-size", type=int, default=3)
    p.add_argument("--max-size", type=int, default=400)
    p.add_argument("--from-guess", type=int, default=2)
    args = p.parse_args()
    game = Wordle(args.guesses, args.answers)
    doc = load_tree(args.tree)
    nodes = []

    def walk(node, cands, k):             # k: the guess number of this node
        cost = len(cands)
        for code, grp in game.split(game.guess_index(node["guess"]), cands):
            if code != game.win_code:
                cost += walk(node["then"][game.format(code)], grp, k + 1)
        if k >= args.from_guess and args.min_size <= len(cands) <= args.max_size:
            nodes.append((len(cands), k, cost, cands, node))
        return cost

    before = walk(doc["tree"], np.arange(len(game.answers), dtype=np.int64), 1)
    print(f"{args.tree}: total {before}, {len(nodes)} subtrees to search", flush=True)
    search = TreeSearch(game, max_guesses=args.max_guesses, memo_bytes=4 << 30)
    for n, k, cost, cands, node in sorted(nodes, key=lambda x: (x[0], x[1])):
        left = args.max_guesses - k + 1
        value, _, exact = search.solve(cands, None, left, cost)
        if exact and value < cost:
            print(f"guess {k} {node['guess']} over {n} answers: {cost} -> {value}",
                  flush=True)
            new = search._tree(cands, None, left)
            node.clear()
            node.update(new)
    depths = check_tree(game, doc).depths
    print(f"{args.out}: total {int(depths.sum())}, worst {int(depths.max())}")
    write_tree(args.out, game, doc["tree"])


if __name__ == "__main__":
    main()
