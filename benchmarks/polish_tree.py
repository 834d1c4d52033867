"""Polish a saved decision tree: its subtrees searched exactly, the better ones grafted in.

Usage:
  python benchmarks/polish_tree.py TREE.json OUT.json --guesses F --answers F
      [--max-guesses 6 [--beam 100]] [--min-size 3] [--max-size 400]

The library's :func:`deductive.engine.feedback.polish.polish_tree` on a tree file (gzip or
not; ``deductive wordle search --polish N`` does the same to the tree it has just
searched). A tree deeper than ``--max-guesses`` is first fitted within it
(:func:`~deductive.engine.feedback.polish.fit_tree`, with ``--beam``). Subtrees are tried
smallest first; the output is checked as ``tree-check`` checks a file. From the beam-100
tree of lants within 6 guesses on 12,972 x 12,972 (52,900), the subtrees of 61 to 400
answers gave one better subtree (preif, 174 answers: 576 -> 572), hence 52,896 (README).
"""

import argparse
import json

from deductive.engine.feedback.polish import polish_tree
from deductive.engine.feedback.tree import load_tree, write_tree
from deductive.engine.wordle import Wordle


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("tree", help="a tree file (.json or .json.gz)")
    p.add_argument("out", help="where the polished tree is written (JSON)")
    p.add_argument("--guesses", required=True)
    p.add_argument("--answers", required=True)
    p.add_argument("--hard", action="store_true",
                   help="hard-mode rules (also when the file says so)")
    p.add_argument("--max-guesses", type=int, default=None,
                   help="keep every answer within this many guesses (a deeper tree is "
                        "fitted first)")
    p.add_argument("--beam", type=int, default=None,
                   help="fit a deeper tree with this beam (default: exact searches)")
    p.add_argument("--min-size", type=int, default=3)
    p.add_argument("--max-size", type=int, default=400)
    args = p.parse_args()
    doc = load_tree(args.tree)
    game = Wordle(args.guesses, args.answers, hard=args.hard or bool(doc.get("hard")))

    def progress(done, total):
        print(f"  {done} of {total} subtrees searched", flush=True)

    result = polish_tree(game, doc["tree"], args.max_size, min_size=args.min_size,
                         max_guesses=args.max_guesses, memo_bytes=4 << 30, beam=args.beam,
                         progress=progress)
    print(json.dumps(result.to_json()))
    print(f"{args.out}: total {result.total} (was {result.before}), worst {result.worst}")
    write_tree(args.out, game, result.tree)


if __name__ == "__main__":
    main()
