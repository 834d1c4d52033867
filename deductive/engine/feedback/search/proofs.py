"""Opener proofs: :func:`prove_openers` ranks the best openers exactly and proves every
other one worse (a first ceiling from beams, the depth-two bounds, searches under the
falling ceiling), and :class:`LocalSearches`, the pool its searches run in."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ....errors import ArgumentError
from .bounds import INFEASIBLE, KeptBuckets, deep_opener_bound, kin_groups, opener_bounds
from .buckets import BucketRows, search_under
from .certificates import (_beam_row_valid, _bound_row_valid, _cutoff, _kept_bounds,
                           bounds_tag, buckets_tag, ceiling_tag, known_tag, lists_about,
                           proof_row_valid, proof_tag, ranked)
from .order import SENT, in_order
from .tree_search import TreeSearch
from ...._deprecated import OldAsDict

#: Beam width of the searches that give :func:`prove_openers` its first ceiling, and how
#: many totals beyond the N asked for it takes (the best by entropy is not the best
#: opener: on the original lists soare is, 7,997, and salet eighth, 7,920).
CEILING_BEAM = 10
CEILING_EXTRA = 10
#: Most openers beam-searched for those totals, as a multiple of the totals wanted: a beam
#: may find no tree within ``max_guesses`` (hard mode within 6 on the original lists: 8
#: of the 15 best by entropy find one, 2 before the beam's fallback), and then openers
#: further down are tried.
CEILING_TRIES = 10

#: Why :func:`prove_openers` refuses ``depth_three`` in hard mode (the command line's
#: check says the same before anything is built).
DEPTH_THREE_HARD = ("`depth_three` is for normal mode: hard mode restricts the guesses of "
                    "every turn; drop `depth_three` or `hard`")

#: Openers bounded per kernel call (and per checkpoint flush) by :func:`prove_openers`.
BOUND_BATCH = 256


@dataclass
class OpenerProof(OldAsDict):
    """What :func:`prove_openers` proved: a row per opener and the ranking they give.

    Attributes
    ----------
    rows : list of dict
        One per opener: ``word``, ``lower`` (a proven lower bound of its total), ``total``
        and ``worst`` (exact, or None), ``exact``, ``by`` (``"bound"``: ruled out by the
        depth-two bound alone; ``"deep"``: by the depth-three bound; ``"search"``: searched
        under the ceiling) and ``seconds``.
    keep : int
        How many best openers were ranked exactly.
    ceiling : int
        Every opener not ranked has a lower bound above it.
    within : int, optional
        Every opener within this many guesses of the best was ranked exactly too.
    answers : int
        How many answers the game has.
    """

    rows: list
    keep: int
    ceiling: int
    within: int | None = None
    answers: int = 0        # the answers' count (each row's average is its total over it)

    def _exact(self) -> list[dict]:
        return ranked(self.rows)

    def ranking(self) -> list[dict]:
        """The ``keep`` best rows (ties: worst case, then guess order: :func:`ranked`),
        all exact, and every further row within ``within`` of the best total."""
        exact = self._exact()
        if self.within is None or not exact:
            return exact[:self.keep]
        near = exact[0]["total"] + self.within
        return [r for k, r in enumerate(exact) if k < self.keep or r["total"] <= near]

    def best(self) -> list[str]:
        """Every opener that attains the least total (the proven optimum), in the order
        of :meth:`ranking`."""
        exact = self._exact()
        return [r["word"] for r in exact if r["total"] == exact[0]["total"]]

    def to_json(self) -> dict:
        """The proof as ``search --openers N --prove-best --json`` prints it."""
        return {"best": self.best(), "ceiling": self.ceiling, **self.counts(),
                "ranking": self.ranking()}

    def counts(self) -> dict:
        """How the openers were decided: ``bound`` (ruled out by the depth-two bound
        alone), ``deep`` (by the depth-three bound), ``search`` (searched: exact or ruled
        out under the ceiling), ``exact``."""
        return {"openers": len(self.rows),
                "bound": sum(r["by"] == "bound" for r in self.rows),
                "deep": sum(r["by"] == "deep" for r in self.rows),
                "search": sum(r["by"] == "search" for r in self.rows),
                "exact": sum(bool(r["exact"]) for r in self.rows)}



def prove_openers(game, keep: int = 1, *, within: int | None = None, max_guesses=None,
                  checkpoint=None, memo_bytes=None, progress=None, pool=None,
                  steps=None, depth_three: bool = False, known=None) -> OpenerProof:
    """Rank the ``keep`` best openers among all guesses exactly, and prove every other
    opener worse; with ``within`` D, also every opener whose total is at most the best + D.

    1. A ceiling U: the ``keep``-th least total among beam searches
       (:data:`CEILING_BEAM`) of the best openers by entropy, down the list until
       ``keep + CEILING_EXTRA`` of them found a tree (at most :data:`CEILING_TRIES`
       times as many tried; with ``within``: at least the least of them + D). A beam
       total is a real tree's, so the ``keep``-th least exact total, and the best + D,
       are at most U. ``known`` (``{word: total}`` of trees known to exist, each checked
       by the caller, as :func:`~.tree.check_tree` checks a tree file) lowers U to the
       same figure over them when it is lower (the bounds then aim lower: on 12,972
       answers tares's 52,602 against the beams' 52,637 saves 6% of a depth-three bound);
       they are noted in the checkpoint (tag ``proof`` ``...:known``).
    2. The plain depth-two bound (:func:`opener_bounds`) of every opener: one of U + 1
       or more is out (row ``by="bound"``, ``lower`` that bound).
    3. The others, by that bound (ties: guess order), are decided under the ceiling
       L = ``min(U, T) + 1``, T being the ``keep``-th least exact total found so far
       (with ``within``: at least the least found so far + D): out if their plain bound,
       or then their refined bound, reaches L (``by="bound"``, ``lower`` L: refining
       costs about a tenth of a search, and it is spent only on the openers still in
       play once the ceiling has fallen), else searched exactly under L: an exact row
       when the total is below L, else a row whose ``lower`` is L.

    With ``depth_three`` (normal mode), step 3 is preceded by the depth-three bound
    (:func:`~.bounds.deep_opener_bound`, minutes an opener on 12,972 answers, where the
    depth-two bounds rule out none) of every opener step 2 left, under the first ceiling
    U + 1, the likeliest out first (highest plain bound; ties: guess order; then those
    that share their largest bucket brought together, its work kept from one to the next:
    :class:`~.bounds.KeptBuckets`): one that reaches U + 1 is out (``by="deep"``, or
    ``"bound"`` when its refined bound does; ``lower`` U + 1); the others' bounds are
    kept in a checkpoint of their own (:func:`bounds_tag`) and step 3 takes them, least
    first, with these bounds, each search first a bound by exact searches of the opener's
    buckets, smallest first (:func:`~.buckets.bucket_bound`; the rows are those a plain
    search gives); with ``checkpoint``, those searches are kept there as they end
    (:class:`~.buckets.BucketRows`; with a pool that has ``keep_buckets``), so a run
    killed in an opener's buckets resumes from the last it kept (in a pool of several
    slots, a search that ran ahead under a higher ceiling keeps what holds under the
    lower one: :func:`~.buckets.kept_holds`).

    The beams and searches run in ``pool`` (default :class:`LocalSearches`: one
    :class:`TreeSearch`, its memo capped at ``memo_bytes``, serves every opener). A pool
    of several slots works on the next openers under the ceiling known when each starts,
    which is at least as high as the one its row is decided under; the row is then what
    the latter gives (:func:`_proof_row`), so the file is the same with any pool. With
    ``checkpoint`` each row is appended as it is decided and a rerun resumes; every row
    but ``seconds`` is the same as in an uncut run (the ceilings depend only on the rows
    before). The first ceiling's beams and the plain bounds that rule nothing out are kept
    there too, a row per opener (under tags of their own, which a certificate's reader
    passes over), so a run killed in either step resumes with what it finished; a run
    under another first ceiling (other ``known`` trees) takes them too, since each kept
    bound is its opener's whole bound (it was below the target it was kept under).
    ``progress`` is called with the number of openers decided; ``steps``, if given, with
    ``(step, done, total)`` as steps 1 (``"beams"``: totals found, of those wanted), 2
    (``"bounds"``: openers bounded) and the depth-three one (``"depth three"``) proceed. A
    file resumed with the other ``depth_three`` setting, or other ``known`` trees, holds
    rows of both runs (each proven: ruled out at either run's ceiling + 1, or at a kept
    bound), so it may differ from an uncut run's.
    """
    from ....checkpoint import Checkpoint

    if keep < 1:
        raise ArgumentError(f"`keep` must be at least 1, not {keep}")
    if within is not None and within < 0:
        raise ArgumentError(f"`within` must be at least 0, not {within}")
    if depth_three and game.hard:
        raise ArgumentError(DEPTH_THREE_HARD)
    n_guesses = len(game.guesses)
    keep = min(keep, n_guesses)

    def part(tag):                      # one part of the checkpoint: its rows, its header
        return Checkpoint(checkpoint, tag, about=lists_about(game))

    store = part(proof_tag(game, keep, max_guesses, within))
    done = store.load(proof_row_valid(game))
    rows = list(done.values())
    beamed = part(ceiling_tag(game, keep, max_guesses, within, CEILING_BEAM))

    def decide(row, report=True):
        rows.append(row)
        store.append(row["word"], row)
        if progress is not None and report:
            progress(len(rows))

    if pool is None:
        pool = LocalSearches(game, max_guesses, memo_bytes, buckets=depth_three)
    # 1. the ceiling
    totals = _beam_totals(game, keep + CEILING_EXTRA, pool, beamed,
                          None if steps is None else lambda k, n: steps("beams", k, n))
    noted = part(known_tag(game, keep, max_guesses, within))  # where the ceiling came from
    had = noted.load() if known else {}
    for word, total in sorted((known or {}).items()):
        if had.get(word) != {"total": int(total)}:
            noted.append(word, {"total": int(total)})
    trees = sorted((known or {}).values())
    ceiling = min(_cutoff(totals, keep, within), _cutoff(trees, keep, within), INFEASIBLE - 1)
    # 2. bounds of every opener not yet decided (a resumed run: also of those searched);
    # the rows they decide are reported once the step is done
    todo = np.array([g for g in range(n_guesses) if game.word(g) not in done], np.int64)
    found = _plain_bounds(game, todo, ceiling,
                          part(bounds_tag(game, keep, max_guesses, within, ceiling + 1)),
                          lambda row: decide(row, report=False),
        None if steps is None else lambda k: steps("bounds", k, len(todo)))
    if progress is not None:
        progress(len(rows))
    # 3. searches under the ceiling, the most promising first (each refines its opener's
    # bound first, under the ceiling of the moment)
    queue = [(int(todo[k]), int(found[k]), "bound")
             for k in np.lexsort((todo, found)).tolist() if found[k] <= ceiling]
    if depth_three:
        queue = _deep_bounds(game, queue, ceiling + 1, pool, part(
            bounds_tag(game, keep, max_guesses, within, ceiling + 1, "deep")), decide,
            None if steps is None else lambda k, n: steps("depth three", k, n))
    exact = sorted(r["total"] for r in rows if r["exact"])
    listen = getattr(pool, "keep_buckets", None) if depth_three and checkpoint else None
    if listen is not None:
        bucket_rows = BucketRows(game, part(buckets_tag(game, keep, max_guesses, within)))
        listen(bucket_rows.keep)

    def limit():                        # the ceiling given the rows decided so far
        return min(ceiling, _cutoff(exact, keep, within)) + 1

    def start(place):
        g, low, _ = queue[place]
        now = limit()
        if low >= now:                  # out by its bound whatever is decided before it
            return None
        if listen is not None:
            pool.submit(place, g, now, kept=bucket_rows.of(g))
        else:
            pool.submit(place, g, now)
        return SENT

    for place, result, _ in in_order(pool, len(queue), start):
        g, low, by = queue[place]
        row = _proof_row(game, g, low, limit(), result, by)
        if row["exact"]:
            exact = sorted(exact + [row["total"]])
        decide(row)
    return OpenerProof(rows, keep, min(ceiling, _cutoff(exact, keep, within)), within,
                       len(game.answers))


def _beam_totals(game, wanted: int, pool, store=None, progress=None) -> list[int]:
    """The totals of the beam searches (:data:`CEILING_BEAM`) of the best openers by
    entropy that find a tree, down the list until ``wanted`` have one (at most
    :data:`CEILING_TRIES` times as many tried), sorted: the same on any ``pool`` (its
    searches run ahead of the list's order by at most the totals still wanted).

    Each beam's outcome that counts is appended to ``store`` (a checkpoint of
    :func:`ceiling_tag`) and those it holds are not run again: a beam's value does not
    depend on the beams run before it (see :func:`beam_search`). ``progress`` is called
    with ``(found, wanted)``."""
    from ..scoring import rank_guesses

    openers = [game.guess_index(s.word)
               for s in rank_guesses(game.patterns, top=CEILING_TRIES * wanted)]
    kept = store.load(_beam_row_valid(game)) if store is not None else {}
    totals: list = []

    def start(place):
        row = kept.get(game.word(openers[place]))
        if row is not None:
            return row["total"], row["ok"]
        pool.submit(place, openers[place], INFEASIBLE, beam=True)
        return SENT

    for place, result, fresh in in_order(
            pool, len(openers), start, lambda sent, used: sent - used < wanted - len(totals),
            lambda: len(totals) >= wanted):
        total, ok = (int(result[0]), bool(result[2])) if fresh else result
        if fresh and store is not None:         # in the list's order: the same file on
            g = openers[place]                  # any pool
            store.append(game.word(g), {"index": g, "total": total, "ok": ok})
        if ok:                          # else no tree within max_guesses in the beam
            totals.append(total)
            if progress is not None:
                progress(len(totals), wanted)
    return sorted(totals)


def _deep_bounds(game, queue, limit, pool, store, decide, progress=None) -> list:
    """The depth-three step of :func:`prove_openers`: each opener of ``queue`` (``(g,
    plain bound, "bound")``, least first) bounded under ``limit`` in ``pool`` (highest plain
    bound first, ties by guess, then those that share their largest bucket brought
    together: :func:`~.bounds.kin_groups`, each group one task, so that one worker bounds
    its openers in turn and carries their bucket from one to the next; the rows decided
    in that order, the same on any pool). ``decide`` takes
    the row of each one out; the others' bounds go to ``store`` (read back by a resumed
    run). Returns the openers left, ``(g, bound, by)``, least first (ties: guess order):
    ``by`` is ``"deep"`` where the kept bound (the larger of the refined and depth-three
    bounds) is above the plain one (a row that bound later rules out, once the ceiling has
    fallen, is a ``"deep"`` row: its check takes the larger of the two too). A kept bound
    notes the seconds it took."""
    kept = _kept_bounds(store, _bound_row_valid(game))

    def entry(g, low, bound):
        return g, int(max(low, bound)), "deep" if bound > low else "bound"

    left = [entry(g, low, kept[game.word(g)]["bound"]) for g, low, _ in queue
            if game.word(g) in kept]
    todo = sorted(((g, low) for g, low, _ in queue if game.word(g) not in kept),
                  key=lambda item: (-item[1], item[0]))
    lows = dict(todo)
    groups = kin_groups(game, [g for g, _ in todo])

    def start(place):
        pool.submit(place, groups[place], limit, deep=True)
        return SENT

    done = 0
    for place, results, _ in in_order(pool, len(groups), start):
        for g, (deep, _, _, seconds, refined) in zip(groups[place], results):
            low = lows[g]
            if max(low, deep) >= limit:
                decide({"word": game.word(g), "index": g, "lower": limit, "total": None,
                        "worst": None, "exact": False,
                        "by": "bound" if refined >= limit else "deep",
                        "seconds": round(seconds, 4)})
            else:
                store.append(game.word(g), {"index": g, "bound": int(max(low, deep)),
                                            "seconds": round(seconds, 4)})
                left.append(entry(g, low, deep))
            done += 1
            if progress is not None:
                progress(done, len(todo))
    return sorted(left, key=lambda item: (item[1], item[0]))


def _plain_bounds(game, todo, ceiling, store, decide, progress=None) -> np.ndarray:
    """The plain depth-two bound of each opener of ``todo`` (target ``ceiling + 1``), in
    batches of :data:`BOUND_BATCH`; ``decide`` takes the row of each one above the
    ceiling (out by its bound). The others are appended to ``store`` (a checkpoint of their
    own, its tag naming the target) and read back from it by a resumed run, so a run
    killed in this step (on 12,972 answers, an hour on one core) keeps what it bounded.
    ``progress`` is called with the number of openers bounded."""
    kept = _kept_bounds(store, _bound_row_valid(game))
    found = np.zeros(len(todo), dtype=np.int64)
    for k, g in enumerate(todo.tolist()):
        found[k] = kept[game.word(g)]["bound"] if game.word(g) in kept else -1
        if found[k] > ceiling:          # kept under a higher first ceiling: out now
            decide({"word": game.word(g), "index": g, "lower": int(found[k]), "total": None,
                    "worst": None, "exact": False, "by": "bound", "seconds": 0.0})
    left = np.flatnonzero(found < 0)
    for lo in range(0, len(left), BOUND_BATCH):
        start = time.perf_counter()
        places = left[lo:lo + BOUND_BATCH]
        batch = todo[places]
        lows = opener_bounds(game, batch, ceiling + 1, refine=False)
        found[places] = lows
        each = round((time.perf_counter() - start) / max(1, len(batch)), 4)
        for g, low in zip(batch.tolist(), lows.tolist()):
            if low > ceiling:
                decide({"word": game.word(g), "index": g, "lower": low, "total": None,
                        "worst": None, "exact": False, "by": "bound", "seconds": each})
            else:
                store.append(game.word(g), {"index": g, "bound": low})
        if progress is not None:
            progress(len(todo) - len(left) + lo + len(batch))
    return found


def _proof_row(game, g, low, limit, result, by_low="bound") -> dict:
    """The row of opener ``g`` (bound ``low``: plain, or with ``by_low="deep"`` its
    depth-three bound) decided under ``limit``, from its pool result ``(total, worst, ok,
    seconds, refined)`` under any limit at least ``limit`` (None: not sent): the row a
    search under ``limit`` itself gives.

    Out by its bound when ``low`` reaches ``limit`` (``by`` ``by_low``, ``lower`` ``low``),
    or the refined bound does (``by="bound"``, ``lower`` ``limit``: the refined bound, cut
    short at the limit it was sent with, is no more than a proof of that). Else an exact total below
    ``limit`` is the same under both limits; any other outcome proves the total at least
    ``limit``."""
    if result is None or low >= limit:
        total, worst, ok, seconds = low, 0, False, 0.0
        by = by_low
    else:
        total, worst, ok, seconds, refined = result
        by = "bound" if refined >= limit else "search"
        ok = ok and total < limit and by == "search"
    return {"word": game.word(g), "index": g,
            "lower": int(total) if ok else max(low, limit),
            "total": int(total) if ok else None,
            "worst": int(worst) if ok and worst is not None else None,
            "exact": bool(ok), "by": by, "seconds": round(seconds, 4)}


class LocalSearches:
    """The searches of :func:`prove_openers` in this process, one at a time, sharing one
    :class:`TreeSearch` (its memo capped at ``memo_bytes``).

    A pool of searches has ``slots`` (how many may run at once), ``submit(place, g,
    limit, beam=False, deep=False, kept=None)``, ``keep_buckets(keep)`` and ``next()``,
    which returns ``(place, (total, worst, ok, seconds, refined))`` of a finished task:
    opener ``g``'s refined bound under ``limit`` (:func:`opener_bounds` with that
    target), then, when it is below ``limit``, its search (``ok``: ``total`` is exact and
    below ``limit``; else it is a lower bound of at least ``limit``); with ``beam``, its
    beam search (:data:`CEILING_BEAM`) alone, refined 0; with ``deep``, ``g`` is a list
    of openers (a kin group) and the result a list of their depth-three bounds in turn
    (:func:`bound_under`, one :class:`KeptBuckets` carrying their shared bucket from one
    to the next). With ``buckets`` (a proof with the depth-three step), each search is
    first a bound by exact searches of the opener's buckets (:func:`search_under`), which
    takes ``kept`` (the opener's kept bucket searches) and calls ``keep(g, position,
    size, ceiling, value, ok, seconds)`` as each ends (:class:`~.buckets.BucketRows`).
    :func:`deductive.distributed.wordle_prove_openers` runs them on Dask.
    """

    slots = 1

    def __init__(self, game, max_guesses=None, memo_bytes=None, buckets: bool = False):
        self.search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
        self.buckets = buckets
        self._beam: TreeSearch | None = None
        self._kept: KeptBuckets | None = None    # the depth-three step's buckets
        self._keep = None                          # where bucket searches go as they end
        self._waiting: list = []

    def submit(self, place: int, g, limit: int, beam: bool = False,
               deep: bool = False, kept: dict | None = None) -> None:
        self._waiting.append((place, g, limit, beam, deep, kept))

    def keep_buckets(self, keep) -> None:
        self._keep = keep

    def next(self) -> tuple[int, tuple | list]:
        place, g, limit, beam, deep, kept = self._waiting.pop(0)
        return place, self.run(g, limit, beam, deep, kept)

    def run(self, g, limit: int, beam: bool = False, deep: bool = False,
            kept: dict | None = None):
        """One task's result (the beams share a search of their own, dropped at the first
        search; under ``max_guesses`` each has its own: see :func:`beam_search`)."""
        if deep:                        # hours of these: the beams' search is dropped
            self._beam = None
            if self._kept is None:
                self._kept = KeptBuckets(self.search.game)
            return [bound_under(self.search.game, x, limit, self._kept) for x in g]
        self._kept = None
        if not beam:
            self._beam = None
            return search_under(self.search, g, limit, self.buckets, kept, self._keep)
        if self.search.max_guesses is not None:
            return search_under(beam_search(self.search.game, self.search.max_guesses), g,
                                limit)
        if self._beam is None:
            self._beam = beam_search(self.search.game, None)
        return search_under(self._beam, g, limit)


def beam_search(game, max_guesses) -> TreeSearch:
    """A search for the first ceiling's beams. Their values are the same whichever path
    reaches a set, so the beams of a run share one (its memo saves a third of their time
    on the original lists) except under ``max_guesses``: a beam value may then depend on
    the path that first reached its set (see the module's notes), so each beam gets a new
    search, whichever worker runs it and whatever it ran before."""
    return TreeSearch(game, beam=CEILING_BEAM, max_guesses=max_guesses)


def bound_under(game, g: int, limit: int, kept: KeptBuckets | None = None) -> tuple:
    """``(bound, 0, False, seconds, refined)`` of opener ``g`` under ``limit`` (see
    :class:`LocalSearches`): its refined depth-two bound, then, when that is below
    ``limit``, its depth-three bound (:func:`~.bounds.deep_opener_bound`, target
    ``limit``, ``kept`` as there); ``bound`` is the larger."""
    start = time.perf_counter()
    refined = int(opener_bounds(game, [g], limit)[0])
    deep = refined if refined >= limit else max(refined, deep_opener_bound(game, g, limit,
                                                                           kept=kept))
    return deep, 0, False, time.perf_counter() - start, refined
