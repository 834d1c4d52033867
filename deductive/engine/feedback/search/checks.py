"""Step 2 of a certificate's check (:func:`~.certificates.verify_proof`): every row's bound
recomputed (:func:`check_rows`). The plain and refined bounds take seconds in all; the
depth-three bounds and the searches are the check's hours (on 12,972 answers, a minute or
two an opener: about as long as the proof), so they run through a pool of searches, as
the proof's own did (:class:`~.proofs.LocalSearches`, or on Dask
:func:`deductive.distributed.wordle_verify_proof`), and each verdict goes into a
checkpoint of its own as it ends, so a check killed part way resumes with what it
recomputed."""

from __future__ import annotations

import numpy as np

from .bounds import INFEASIBLE, kin_groups, opener_bounds
from .order import SENT, in_order

__all__ = ["check_rows", "check_tag"]


def check_tag(game, max_guesses) -> dict:
    """The tag of the verdicts :func:`check_rows` keeps (rows keyed by the word): the
    lists' identity, the mode and ``max_guesses``. A verdict is a fact of the game (an
    opener's bound under a limit, or whether a tree fits under it), so it holds for any
    certificate of these lists that makes the same claim."""
    identity = game.identity()
    return {"check": "verify-ranking", "hard": game.hard, "max_guesses": max_guesses,
            "guesses": identity.get("guesses_sha256"),
            "answers": identity.get("answers_sha256")}


def _verdict_valid(game):
    n = len(game.guesses)

    def valid(key, row):
        g = row["index"]
        return (type(g) is int and 0 <= g < n and key == game.word(g)
                and row["kind"] in ("deep", "search") and type(row["limit"]) is int
                and type(row["found"]) is int and type(row["fits"]) is bool)
    return valid


def check_rows(game, rows, threshold, pool, store=None, progress=None,
               taken: list | None = None) -> dict:
    """word -> ``(found, ok, problem)`` of each row step 2 of :func:`verify_proof` checks
    (``found`` None: an exact row, not listed; ``problem`` None when it holds), against
    ``threshold`` (None: the file has no exact row). Each claim is tested as a row-by-row
    check would test it, with the plain and refined bounds computed in batches here and
    the rest in ``pool()`` (called once, when a row needs it: a pool of searches with
    ``submit``/``next`` as :class:`~.proofs.LocalSearches`'s, made for this game, the
    proof's ``max_guesses`` and, in normal mode, bucket searches): a row ruled out
    by the depth-three bound has its bound computed again under its claim (its refined
    bound, then :func:`~.bounds.deep_opener_bound`; those sharing their largest bucket in
    one task: :func:`~.bounds.kin_groups`), and a searched row the plain bound leaves is
    searched again as the proof searched it (:func:`~.buckets.search_under`: its refined
    bound first, then, in normal mode, its buckets).

    ``store`` (a :class:`~deductive.checkpoint.Checkpoint` of :func:`check_tag`), if
    given, keeps each of those verdicts as it ends, and those it holds for the same claim
    are taken instead of computed again (their words appended to ``taken``, if given): a
    check killed part way resumes. ``progress``
    is called with ``(done, total)`` of them."""
    out: dict = {}
    if not rows:
        return out
    plain = np.asarray(opener_bounds(game, [r["index"] for r in rows], refine=False)).tolist()
    refine: dict = {}                   # claim -> rows ruled out by a bound, plain too low
    tasks: list = []                    # (kind, limit, [rows]): the pool's work
    deep: dict = {}                     # claim -> rows ruled out by the depth-three bound
    past = threshold + 1 if threshold is not None else None
    for row, low in zip(rows, plain):
        word, claim = row["word"], row["lower"]
        if row["exact"]:
            out[word] = (None, low <= row["total"], None if low <= row["total"] else
                         f"row {word}: total {row['total']} is below its bound {low}")
        elif threshold is not None and claim <= threshold and claim < INFEASIBLE:
            why = (f"the threshold is {threshold}" if threshold < INFEASIBLE else
                   "no threshold: the file has fewer exact rows than it ranks")
            out[word] = (low, False, f"row {word}: claims at least {claim}, which does not "
                                     f"rule it out ({why})")
        elif row["by"] == "search":
            # a tree's total is at least its opener's bound: one past the threshold is no
            # tree within it, as a search under the threshold would find
            under = claim if past is None else min(past, claim)
            if low >= under:
                out[word] = (int(low), True, None)
            else:
                tasks.append(("search", under, [row]))
        elif low >= claim:
            out[word] = (low, True, None)
        elif row["by"] == "deep":
            deep.setdefault(claim, []).append(row)
        else:
            refine.setdefault(claim, []).append(row)
    for claim, group in sorted(refine.items()):
        lows = opener_bounds(game, [r["index"] for r in group], claim).tolist()
        for row, found in zip(group, lows):
            out[row["word"]] = (int(found), found >= claim, None if found >= claim else
                                f"row {row['word']}: claims a bound of at least {claim}; "
                                f"recomputed it is {found}")
    for claim, group in sorted(deep.items()):
        by_index = {r["index"]: r for r in group}
        tasks += [("deep", claim, [by_index[g] for g in kin])
                  for kin in kin_groups(game, [r["index"] for r in group])]
    for row, kind, limit, found, fits in _run(game, tasks, pool, store, progress, taken):
        word = row["word"]
        if kind == "search":
            out[word] = (found, not fits, None if not fits else
                         f"row {word}: claims at least {row['lower']}, but a tree of "
                         f"total {found} exists")
        else:
            out[word] = (found, found >= limit, None if found >= limit else
                         f"row {word}: claims a depth-three bound of at least {limit}; "
                         f"recomputed it is {found}")
    return out


def _run(game, tasks, pool, store, progress, taken=None):
    """Yield ``(row, kind, limit, found, fits)`` for every row of ``tasks`` (``(kind,
    limit, rows)``), each task's rows through the pool (``pool()``, made only if a task
    needs it) unless ``store`` holds all their verdicts (each kept there as its task
    ends, with the seconds its opener took, as a proof's rows note theirs)."""
    kept = store.load(_verdict_valid(game)) if store is not None else {}

    def held(kind, limit, rows):        # the task's verdicts kept, or None
        found = []
        for row in rows:
            v = kept.get(row["word"])
            if v is None or (v["kind"], v["limit"], v["index"]) != (kind, limit,
                                                                    row["index"]):
                return None
            found.append((v["found"], v["fits"]))
        return found

    ready = [held(*task) for task in tasks]
    searches = pool() if any(found is None for found in ready) else _NoPool()

    def start(place):
        if ready[place] is not None:
            return ready[place]
        kind, limit, rows = tasks[place]
        if kind == "deep":
            searches.submit(place, [r["index"] for r in rows], limit, deep=True)
        else:
            searches.submit(place, rows[0]["index"], limit)
        return SENT

    total, done = sum(len(rows) for _, _, rows in tasks), 0
    for place, result, fresh in in_order(searches, len(tasks), start):
        kind, limit, rows = tasks[place]
        if not fresh and taken is not None:
            taken += [row["word"] for row in rows]
        if fresh:                       # (bound or total, worst, ok, seconds, refined)
            each = result if kind == "deep" else [result]
            result = [(int(r[0]), kind == "search" and bool(r[2])) for r in each]
            for row, (found, fits), r in zip(rows, result, each):
                if store is not None:
                    store.append(row["word"], {"index": row["index"], "kind": kind,
                                               "limit": limit, "found": found, "fits": fits,
                                               "seconds": round(float(r[3]), 4)})
        for row, (found, fits) in zip(rows, result):
            yield row, kind, limit, found, fits
        done += len(rows)
        if progress is not None:
            progress(done, total)


class _NoPool:
    """The pool of a check whose verdicts are all kept: nothing is sent to it."""

    slots = 1
