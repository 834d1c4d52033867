"""An opener's lower bound from exact searches of its buckets, the depth-three bound
standing for the rest: what rules out the strongest openers, where the depth-three bound
alone falls short (issue 41: lants, the best published opener with every word an
answer, is out this way).

A tree that opens with g totals n (g's guess for every answer) plus, for each bucket B
that g's feedback leaves (the winning one aside), the total of its subtree over B. In
normal mode these subtrees are independent, so any lower bound of each bucket's best
subtree adds up to a lower bound of every tree opening with g. Each bucket starts at its
depth-three bound (:func:`~.bounds.deep_bound`); then the buckets are searched exactly
smallest first, each under the ceiling ``its bound + the gap left to the target``: below
it the search's value is exact, at it the search returns a bound of at least the
ceiling, which alone closes the gap. Small buckets cost seconds and the depth-three
bound is exact or within a few guesses on most of them, so the gap is mostly closed long
before the large buckets (lants: its 122 buckets of up to 354 answers, 269 s CPU with
the bounds, 12,972 answers).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from functools import partial

from .bounds import _normal_only, deep_bound, lower_bound, opener_bounds, opener_buckets


@dataclass(frozen=True)
class BucketBound:
    """What :func:`bucket_bound` found for an opener: its depth-three bound (``deep``), its
    bound with the buckets searched (``bound``; at least the target when it rules the
    opener out), how many buckets were searched and the largest of them, whether
    ``bound`` is the opener's exact total (every bucket searched exactly, below the
    target, no ``max_guesses``), and the CPU seconds of each step; ``resumed``: how many
    of the searched buckets were taken from an earlier run (``kept``), their seconds
    counted in ``search_seconds`` where the earlier run gave them."""

    deep: int
    bound: int
    searched: int
    largest: int
    exact: bool
    deep_seconds: float
    search_seconds: float
    resumed: int = 0


def bucket_bound(search, opener: int, target: int, exact_max: int | None = None,
                 kept: dict | None = None, keep=None) -> BucketBound:
    """A lower bound of every tree of ``search``'s game that opens with guess ``opener``
    (normal mode): each bucket's depth-three bound, then its buckets of three or more
    answers (at most ``exact_max``; None: all) searched exactly with ``search``
    (a :class:`~.tree_search.TreeSearch`, its memo kept for later searches), smallest
    first, until the bound reaches ``target`` (see the module). Under ``max_guesses`` the
    searches are depth-unlimited, so the bound holds but is never exact.

    ``keep(position, size, ceiling, value, ok, seconds)``, if given, is called as each
    bucket's search ends (``position`` in :func:`~.bounds.opener_buckets`' order, its CPU
    ``seconds``); ``kept`` maps ``position`` to such a ``(size, ceiling, value, ok[,
    seconds])`` from an earlier run, so a killed run resumes: it is taken instead of the
    search when its size is this bucket's and it holds under this run's ceiling
    (:func:`kept_holds`)."""
    game = search.game
    _normal_only(game)
    start = time.process_time()
    parts = opener_buckets(game, opener)
    lows = [lower_bound(len(b)) if len(b) <= 2 else int(deep_bound(game, b)) for b in parts]
    deep = len(game.answers) + sum(lows)
    deep_seconds = time.process_time() - start
    start = time.process_time()
    total, searched, largest, exact = deep, 0, 0, search.max_guesses is None
    resumed, earlier = 0, 0.0
    for position, (b, low) in enumerate(zip(parts, lows)):
        if total >= target or (exact_max is not None and len(b) > exact_max):
            exact = False
            break
        if len(b) <= 2:
            continue
        ceiling = low + target - total
        old = (kept or {}).get(position)
        if old is not None and kept_holds(old, len(b), ceiling):
            value, ok = old[2], old[3]
            resumed, earlier = resumed + 1, earlier + (old[4] if len(old) > 4 else 0.0)
        else:
            clock = time.process_time()
            value, _, ok = search.solve(b, beta=ceiling)
            if keep is not None:
                keep(position, len(b), ceiling, int(value), bool(ok),
                     round(time.process_time() - clock, 2))
        total += (int(value) if ok else max(int(value), low)) - low
        searched, largest, exact = searched + 1, len(b), exact and bool(ok)
    return BucketBound(deep, total, searched, largest, exact and total < target,
                       round(deep_seconds, 2),
                       round(time.process_time() - start + earlier, 2), resumed)


def kept_holds(old, size: int, ceiling: int) -> bool:
    """Whether a kept bucket search ``old`` (``(size, ceiling, value, ok[, seconds])``)
    answers a search of a bucket of ``size`` answers under ``ceiling``: an exact value
    (``ok``) holds under any ceiling; a bound (at least its own ceiling) under any
    ceiling up to its own. The same lists, opener and target give the same ceilings, so a
    resumed run takes every bucket its killed run kept."""
    if int(old[0]) != size:
        return False
    return bool(old[3]) or ceiling <= int(old[1]) <= int(old[2])


def search_under(search, g: int, limit: int, buckets: bool = False, kept: dict | None = None,
                 keep=None) -> tuple:
    """``(total, worst, ok, seconds, refined)`` of opener ``g`` under ``limit`` (see
    :class:`~.proofs.LocalSearches`); a beam search is not refined. With ``buckets`` (normal
    mode, no beam), the refined bound is followed by :func:`bucket_bound`: exact
    searches of the opener's buckets, smallest first, over their depth-three bounds; the
    opener is out when that reaches ``limit`` (on 12,972 answers, far sooner than a search
    that opens with its largest buckets), else that bound is its exact total (each
    bucket searched exactly; under ``max_guesses``, searched as without it, those
    buckets' values in the memo). ``kept`` and ``keep`` go to :func:`bucket_bound`,
    ``keep`` called as ``keep(g, position, ...)`` (a search killed in its buckets resumes
    from those it kept). A certificate's searches and their check
    (:func:`~.checks.verify_proof`) both go this way.

    With ``buckets`` the total alone is sought: ``worst`` is None, the least worst case
    among the trees of that total not being searched (:meth:`~.tree_search.TreeSearch.
    opener_total`'s ``least_worst``; on 12,972 answers it asks whether tares's 52,602
    fits within six guesses, which is open), nor the worst case of the tree found, which
    may depend on what the memo held before: the rows stay the same on any pool and
    after any resume."""
    start = time.perf_counter()
    refined = 0
    if search.beam is None:
        refined = int(opener_bounds(search.game, [g], limit)[0])
        if refined >= limit:
            return refined, 0, False, time.perf_counter() - start, refined
        if buckets:
            found = bucket_bound(search, g, limit, kept=kept,
                                 keep=None if keep is None else partial(keep, g))
            if found.bound >= limit:
                return found.bound, 0, False, time.perf_counter() - start, refined
            if found.exact:
                return found.bound, None, True, time.perf_counter() - start, refined
    total, worst, _, ok = search.opener_total(g, limit, least_worst=not buckets)
    return (int(total), None if buckets else int(worst), bool(ok),
            time.perf_counter() - start, refined)


#: CPU seconds from which a certificate keeps a bucket's search (:class:`BucketRows`):
#: one that took less costs less to search again than to store, and a resumed run
#: searching it again gets the same value (below its ceiling it is exact), so the same
#: ceilings after it.
KEEP_SECONDS = 1.0


class BucketRows:
    """The bucket searches of a certificate's openers (:func:`bucket_bound` in
    :func:`search_under`) kept in its checkpoint, ``store`` (a
    :class:`~deductive.checkpoint.Checkpoint` of :func:`~.certificates.buckets_tag`), so
    that a run killed in an opener's buckets (hours for the strongest openers on 12,972
    answers) resumes from the last bucket it searched: a row keyed ``[word, position]``
    per search of :data:`KEEP_SECONDS` or more, ``{"index", "size", "ceiling", "value",
    "ok", "seconds"}`` (a later row of the same bucket, under another ceiling, replaces an
    earlier one)."""

    def __init__(self, game, store):
        self.game, self.store = game, store
        self._rows: dict[int, dict] = {}
        for key, row in store.load(self._valid).items():
            position = json.loads(key)[1]
            self._rows.setdefault(row["index"], {})[position] = (
                row["size"], row["ceiling"], row["value"], row["ok"], float(row["seconds"]))

    def _valid(self, key, row) -> bool:
        g = row["index"]
        return (isinstance(key, list) and len(key) == 2 and type(g) is int
                and 0 <= g < len(self.game.guesses) and key[0] == self.game.word(g)
                and type(key[1]) is int and key[1] >= 0
                and all(type(row[k]) is int for k in ("size", "ceiling", "value"))
                and row["size"] >= 3 and type(row["ok"]) is bool
                and type(row["seconds"]) in (int, float) and math.isfinite(row["seconds"]))

    def of(self, g: int) -> dict:
        """``kept`` of :func:`bucket_bound` for opener ``g``: the dict this keeps up to
        date as :meth:`keep` takes its rows."""
        return self._rows.setdefault(g, {})

    def keep(self, g: int, position: int, size: int, ceiling: int, value: int, ok: bool,
             seconds: float) -> None:
        """``keep`` of :func:`bucket_bound` for opener ``g``: the search kept when it took
        :data:`KEEP_SECONDS` or more."""
        if seconds >= KEEP_SECONDS:
            self.add(g, position, size, ceiling, value, ok, seconds)

    def add(self, g: int, position: int, size: int, ceiling: int, value: int, ok: bool,
            seconds: float) -> bool:
        """Keep a search of opener ``g``'s bucket at ``position`` (however long it took:
        one made elsewhere, as by ``benchmarks/strong_openers.py --certificate``, under
        the same lists and settings); False, and nothing written, when it is kept
        already."""
        row = (int(size), int(ceiling), int(value), bool(ok), float(seconds))
        if self.of(g).get(position) == row:
            return False
        self.of(g)[position] = row
        self.store.append([self.game.word(g), position],
                          dict(zip(("index", "size", "ceiling", "value", "ok", "seconds"),
                                   (g, *row))))
        return True

    def __len__(self) -> int:
        return sum(map(len, self._rows.values()))
