"""A certificate of :func:`~.proofs.prove_openers` checked as a proof (:func:`verify_proof`).
Its step 2 recomputes every row's bound (:func:`check_rows`): the plain and refined
bounds take seconds in all; the depth-three bounds and the searches are the check's hours
(on 12,972 answers a minute or two an opener: about as long as the proof), so they run
through a pool of searches, as the proof's own did (:class:`~.proofs.LocalSearches`, or
on Dask :func:`deductive.distributed.wordle_verify_proof`), and each verdict goes into a
checkpoint of its own as it ends, so a check killed part way resumes with what it
recomputed."""

from __future__ import annotations

import os

import numpy as np

from ....errors import ArgumentError, DeductiveError
from ..tree import check_tree, tree_document
from .bounds import INFEASIBLE, kin_groups, opener_bounds
from .buckets import search_under
from .certificates import VERIFY_MEMO_BYTES, _cutoff, lists_about, ranked, read_proof
from .order import SENT, in_order
from .proofs import LocalSearches
from .tree_search import TreeSearch

__all__ = ["verify_proof", "check_verify", "check_rows", "check_tag"]


def check_verify(state=False, checkpoint=None, distributed=False) -> bool:
    """Check a certificate check's parameters together (``distributed``: on Dask); return
    ``state`` (whether the file's progress is asked for instead of a check)."""
    if state and (checkpoint is not None or distributed):
        raise ArgumentError("`checkpoint`, `workers` and `scheduler` go with a check, not "
                            "with `state`")
    return state


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
        if fresh:                       # (bound or total, worst, ok, seconds, refined)
            each = result if kind == "deep" else [result]
            result = [(int(r[0]), kind == "search" and bool(r[2])) for r in each]
            for row, (found, fits), r in zip(rows, result, each):
                if store is not None:
                    store.append(row["word"], {"index": row["index"], "kind": kind,
                                               "limit": limit, "found": found, "fits": fits,
                                               "seconds": round(float(r[3]), 4)})
        elif taken is not None:
            taken += [row["word"] for row in rows]
        for row, (found, fits) in zip(rows, result):
            yield row, kind, limit, found, fits
        done += len(rows)
        if progress is not None:
            progress(done, total)


class _NoPool:
    """The pool of a check whose verdicts are all kept: nothing is sent to it."""

    slots = 1


def verify_proof(game, path, *, sample: int = 3, seed: int = 0, progress=None,
                 memo_bytes: int | None = VERIFY_MEMO_BYTES, pools=None,
                 checkpoint=None) -> dict:
    """Check a :func:`prove_openers` file as a proof, for ``game``'s lists and mode.

    1. Coverage: one row for every opener of the guesses, none for anything else, each
       row's digest holding (:func:`read_proof`).
    2. Every row's bound recomputed (the plain depth-two bound of :func:`opener_bounds`,
       in one call): at most an exact row's total; for a row that is not exact, its claim
       must exceed the proof's threshold (the best total, or the ``keep``-th, or the best
       + ``within``), or be that no tree opens with it within ``max_guesses``, and hold:
       a row ruled out by the bound (``by="bound"``) has a plain or refined bound of at
       least its claim (the refined bounds in one call per claim), one ruled out by the
       depth-three bound (``by="deep"``) a depth-three bound
       (:func:`~.bounds.deep_opener_bound`) of at least its claim; one ruled out by a
       search has no tree within the threshold: its plain bound passes the threshold, or
       else it is checked again under the threshold as the proof searched it
       (:func:`~.buckets.search_under`: its refined bound, in normal mode exact searches
       of its buckets, then the search), and no tree is found.
       The depth-three bounds and the searches run in a pool, ``pools(max_guesses)``
       (default: :class:`~.proofs.LocalSearches`, one :class:`TreeSearch` whose memo,
       capped at ``memo_bytes``, holds exact values and proven bounds only; on Dask
       :func:`deductive.distributed.wordle_verify_proof`), and with ``checkpoint`` each
       verdict is kept there as it ends (:func:`~.checks.check_tag`): a check killed
       part way resumes with them (:func:`check_rows`).
    3. The best row (least total; ties: :func:`ranked`) and ``sample`` more exact rows
       drawn with ``seed`` are searched again from scratch (a fresh memo): their total and
       worst case (where the row gives one: a depth-three proof's rows give the total
       alone) must be the claimed ones, and their trees pass :func:`~.tree.check_tree`
       (:func:`_search_again`).

    Returns ``{"rows", "openers", "best", "threshold", "sample", "seed", "checked",
    "taken", "problems", "ok"}`` (``taken``: how many verdicts came from ``checkpoint``,
    not recomputed by this run); ``checked`` holds one entry per row re-derived (``word, kind,
    claimed, found, ok``; rows in the file's order, then the exact ones), ``problems`` one
    line per gap or disagreement, naming the row. ``progress(done, total, step)`` follows
    step 2's costly checks (``step`` ``"verify: bounds and searches"``) and step 3
    (``"verify: exact rows"``).
    """
    tag, rows, problems = read_proof(game, path)
    max_guesses = tag.get("max_guesses")
    keep, within = int(tag.get("keep", 1)), tag.get("within")
    have = {r["word"] for r in rows}
    missing = [game.word(g) for g in range(len(game.guesses)) if game.word(g) not in have]
    if missing:
        problems.append(f"{len(missing)} of the {len(game.guesses)} openers of "
                        f"{game.identity().get('guesses')} have no row: "
                        f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    exact = ranked(rows)
    threshold = _cutoff([r["total"] for r in exact], keep, within)
    if not exact:
        problems.append("no exact row: the file ranks no opener")
    if pools is None:
        def pools(max_guesses):
            return LocalSearches(game, max_guesses, memo_bytes, buckets=not game.hard)
    store = None
    taken: list[str] = []               # the rows whose verdicts the checkpoint held
    if checkpoint is not None:
        from ....checkpoint import Checkpoint

        if os.path.exists(checkpoint) and os.path.samefile(checkpoint, path):
            raise ArgumentError(f"{checkpoint}: is the certificate itself; give the check's "
                                "verdicts a file of their own")
        store = Checkpoint(checkpoint, check_tag(game, max_guesses), about=lists_about(game))
    made: list = []                     # the pool, if a row needed one: closed after

    def pool():
        made.append(pools(max_guesses))
        return made[-1]

    def bounds(done, total):            # step 2's progress
        if progress is not None:
            progress(done, total, "verify: bounds and searches")
    try:
        verdicts = check_rows(game, rows, threshold if exact else None, pool, store, bounds,
                              taken)
    finally:
        for searches in made:
            if hasattr(searches, "close"):
                searches.close()
    checked = []
    for row in rows:
        verdict = verdicts.get(row["word"])
        if verdict is None:
            continue
        found, ok, problem = verdict
        if problem:
            problems.append(problem)
        if found is not None:
            checked.append({"word": row["word"], "kind": row["by"], "claimed": row["lower"],
                            "found": found, "ok": ok})
    picked = exact[:1]
    if len(exact) > 1 and sample > 0:
        rng = np.random.default_rng(seed)
        more = rng.choice(len(exact) - 1, size=min(sample, len(exact) - 1), replace=False)
        picked += [exact[1 + k] for k in sorted(more.tolist())]
    for k, row in enumerate(picked):
        claimed, found, ok = _check_again(game, row, max_guesses, memo_bytes)
        if not ok:
            problems.append(f"row {row['word']}: claims {claimed}; searched again: {found}")
        checked.append({"word": row["word"], "kind": "best" if k == 0 else "exact",
                        "claimed": claimed, "found": found, "ok": ok})
        if progress is not None:
            progress(k + 1, len(picked), "verify: exact rows")
    return {"rows": len(rows), "openers": len(game.guesses),
            "best": [r["word"] for r in exact if r["total"] == exact[0]["total"]],
            "threshold": None if threshold >= INFEASIBLE else threshold,
            "sample": len(picked) - 1 if picked else 0, "seed": seed, "checked": checked,
            "taken": len(taken), "problems": problems, "ok": not problems}


def _check_again(game, row, max_guesses, memo_bytes) -> tuple[dict, dict, bool]:
    """``(claimed, found, ok)`` of an exact row searched again (:func:`_search_again`): its
    total, and its worst case where it gives one, against those of the tree found, which
    must pass :func:`~.tree.check_tree`, open with the row's word and fit within
    ``max_guesses``."""
    claimed = {"total": row["total"], "worst": row["worst"]}
    if row["worst"] is None:            # the total alone was claimed
        del claimed["worst"]
    try:
        total, tree = _search_again(game, row, max_guesses, memo_bytes)
        if tree is None:
            return claimed, {"at_least": total}, False
        report = check_tree(game, tree_document(game, tree))
    except DeductiveError as exc:
        return claimed, {"tree": str(exc)}, False
    found = {"total": int(report.depths.sum()), "worst": int(report.depths.max())}
    fits = (tree["guess"] == row["word"] and total == found["total"]
            and (max_guesses is None or found["worst"] <= max_guesses))
    if not fits:
        found["opens"] = tree["guess"]
    elif "worst" not in claimed:
        del found["worst"]
    return claimed, found, fits and found == claimed


def _search_again(game, row, max_guesses, memo_bytes) -> tuple[int, dict | None]:
    """Step 3 of :func:`verify_proof` for one exact row: its opener searched again from
    scratch (a fresh memo), ``(total, tree)``. A row with a worst case is searched as
    :meth:`~.tree_search.TreeSearch.search_opener` searches (the least worst case among
    the trees of least total); one without (a proof with the depth-three step) as that
    proof searched it (:func:`~.buckets.search_under` under its total + 1: exact searches
    of its buckets), the total alone: a total found below the claim, or none up to it
    (then ``(a lower bound above the claim, None)``), is a disagreement."""
    search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
    if row["worst"] is not None:
        result = search.search_opener(row["word"], keep_tree=True)
        assert result.tree is not None          # kept: keep_tree=True
        return int(result.total), result.tree
    g = row["index"]
    total, _, ok, _, _ = search_under(search, g, row["total"] + 1, not game.hard)
    if not ok:                          # no tree of the claimed total or less
        return int(total), None
    cands = np.arange(len(game.answers), dtype=np.int64)
    allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
    return int(total), search.tree(cands, allowed, max_guesses, g)
