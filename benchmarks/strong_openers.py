"""Rule out the openers the depth-three bound leaves, by exact searches of their buckets.

    NUMBA_NUM_THREADS=1 python benchmarks/strong_openers.py --answers wordle:guesses \\
        --target 52603 --exact-max 400 --openers lants tiars taros \\
        --checkpoint benchmarks/runs/strong-exact52603.jsonl      # issue 41

Each opener is bounded by :func:`deductive.engine.feedback.search.bucket_bound` (see
its module for why the sum bounds every tree that opens with it): each bucket's
depth-three bound, then its buckets of three to ``--exact-max`` answers searched
exactly, smallest first, until the bound reaches ``--target`` (the best known total + 1:
the opener is then ruled out) or the buckets run out (the row then holds the bound
found, exact when every bucket was searched below the target). The certificate's
searches (``deductive wordle search --openers all --prove-best --depth-three``) begin
the same way; this runs them on chosen openers, ahead of the sweep.

The searches share one :class:`TreeSearch` (its memo capped at ``--memo``), so sets met
again under a later opener are not searched twice. Each bucket's search is shown on
stderr as it ends. With ``--checkpoint`` it is kept too (key ``[opener, position]``: its
size, ceiling, value, whether it is exact and its CPU seconds), and each opener's row
as it ends, so a rerun resumes, a killed opener from its last bucket searched; a pass
with a larger ``--exact-max`` on the same file takes the buckets searched before (also
those an earlier layout kept under its pass's own tag). The opener's row gives the
depth-three bound, the bound with the searched buckets, the buckets searched (and the
largest), the CPU seconds of each step (a resumed opener's kept buckets counted at
their own seconds; teras's and salet's first rows, 2026-12-07, carry none) and how many buckets
were kept from an earlier run (``resumed``). With ``--certificate`` (the checkpoint
of that sweep, ``--openers all --prove-best --depth-three`` on the same lists, the
target its first ceiling + 1) every bucket search this file keeps goes into the
certificate's bucket rows too (:class:`~deductive.engine.feedback.search.buckets.BucketRows`),
where the sweep's own searches of these openers take them, instead of searching their
buckets again: the same searches under the same ceilings. Run it on one thread
(``NUMBA_NUM_THREADS=1``): CPU time is then the core time. Nothing is asserted.
"""

import argparse
import json
import os
import sys
from dataclasses import asdict
from functools import partial

from deductive.checkpoint import Checkpoint, read_entries
from deductive.engine.feedback.search import TreeSearch, bucket_bound
from deductive.engine.feedback.search.buckets import BucketRows
from deductive.engine.feedback.search.certificates import buckets_tag, lists_about
from deductive.engine.wordle import Wordle


def _bucket_rows(rows: dict) -> dict:
    """``(opener, position) -> row`` of the bucket rows among a checkpoint's (their keys
    are lists, which :class:`Checkpoint` gives as JSON text)."""
    found = {}
    for key, row in rows.items():
        if isinstance(key, str) and key.startswith("["):
            word, position = json.loads(key)
            found[word, position] = row
    return found


def _earlier_bucket_rows(path, tag: dict) -> dict:
    """The bucket rows that passes of any ``--exact-max`` wrote under their own tag (before
    bucket rows had one of theirs, 2026-12-07), each checked by its pass's digest."""
    if not path or not os.path.isfile(path):
        return {}
    passes = {entry["tag"]["exact_max"] for _, entry in read_entries(path)
              if isinstance(entry.get("tag"), dict) and "exact_max" in entry["tag"]
              and {k: entry["tag"].get(k) for k in tag} == tag}
    found: dict = {}
    for exact_max in sorted(passes):
        found.update(_bucket_rows(Checkpoint(path, {**tag, "exact_max": exact_max}).load()))
    return found


def _keep(store, certificate, g, word, position, size, ceiling, value, ok, seconds):
    """Keep one bucket's search (in ``certificate`` too, a :class:`BucketRows` or None)
    and say so on stderr (an opener takes up to hours)."""
    store.append([word, position], [size, ceiling, value, ok, seconds])
    if certificate is not None:
        certificate.add(g, position, size, ceiling, value, ok, seconds)
    print(f"  {word} bucket {position}: {size} answers, "
          f"{value if ok else f'at least {value}'} (ceiling {ceiling}), {seconds} s",
          file=sys.stderr, flush=True)


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
    parser.add_argument("--checkpoint", help="keep each opener's row and each bucket's "
                        "search here; a rerun resumes")
    parser.add_argument("--certificate", help="the sweep's checkpoint (search --openers "
                        "all --prove-best --depth-three): keep the bucket searches there too")
    args = parser.parse_args()
    game = Wordle(args.guesses, args.answers)
    if game.hard:
        parser.error("the depth-three bound is for normal mode")
    openers = list(dict.fromkeys(game.guess_index(w) for w in args.openers))
    tag = {"benchmark": "strong_openers", "target": args.target, **game.identity()}
    about = lists_about(game)
    store = Checkpoint(args.checkpoint, {**tag, "exact_max": args.exact_max}, about=about)
    # a bucket's search is the same under any --exact-max that reaches it (the buckets
    # before it are), so its rows are tagged without it: a later pass with a larger one,
    # on the same file, starts at the first bucket not yet searched
    buckets = Checkpoint(args.checkpoint, {**tag, "rows": "buckets"}, about=about)
    kept = store.load()
    # this pass's own bucket rows (an earlier layout's) are among those of every pass
    searched = {**_earlier_bucket_rows(args.checkpoint, tag), **_bucket_rows(buckets.load())}
    certificate = None
    if args.certificate:
        certificate = BucketRows(game, Checkpoint(args.certificate,
                                                  buckets_tag(game, 1, None, None), about))
        added = sum(certificate.add(game.guess_index(w), p, *row[:4],
                                    row[4] if len(row) > 4 else 0.0)
                    for (w, p), row in sorted(searched.items()))
        print(f"{added} bucket searches added to {args.certificate}", file=sys.stderr)
    search = TreeSearch(game, memo_bytes=int(args.memo * 2 ** 30))
    print("opener  depth-3  bound  searched  largest  deep-s  search-s", flush=True)
    out = 0
    for g in openers:
        word = game.word(g)
        row = kept.get(word)
        if row is None:
            mine = {p: v for (w, p), v in searched.items() if w == word}
            row = asdict(bucket_bound(search, g, args.target, args.exact_max, kept=mine,
                                      keep=partial(_keep, buckets, certificate, g, word)))
            store.append(word, row)
        out += row["bound"] >= args.target
        shown = (f">={args.target}" if row["bound"] >= args.target
                 else f"{row['bound']}{' exact' if row['exact'] else ''}")
        print(f"{game.word(g)}  {row['deep']}  {shown}  {row['searched']}  {row['largest']}  "
              f"{row['deep_seconds']}  {row['search_seconds']}", flush=True)
    print(f"{len(openers)} openers, {out} at least {args.target}", flush=True)


if __name__ == "__main__":
    main()
