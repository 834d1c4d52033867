"""Lower bounds of the tree search: a set's floor, a guess's bound, an opener's depth-two
bound (see :mod:`deductive.engine.feedback.search` for how the search uses each)."""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ....errors import ArgumentError
from ....kernels.deep_bounds import deep_set_bound
from ....kernels.dominance import (LONGEST_TABLED, letter_bits, letter_dominance,
                                   packed)
from ....kernels.opener_bounds import opener_bounds as _opener_bounds_parallel
from ....kernels.search import split_bounds
from ....kernels.opener_bounds import opener_bounds_rows
from ..._parallel import get_threads, run_rows
from ..matrix import answer_major

#: Total reported for a set no tree solves within the guesses left (larger than any real
#: total; a lower bound of at least this much means the same).
INFEASIBLE = 1 << 60


def lower_bound(n: int) -> int:
    """Fewest total guesses any tree needs for n candidates (n >= 1): 1, 3, then 2n - 1."""
    return 2 * n - 1


def counting_bounds(n: int, k: int) -> np.ndarray:
    """``floor[m]``, m = 0..n: the fewest total guesses of any tree over m answers when a
    guess leaves at most ``k`` non-winning feedbacks (level d holds at most k**(d-1)
    answers), and never below :func:`lower_bound` (``floor[0] = 0``)."""
    bound = np.zeros(n + 1, np.int64)
    level, width, filled = 1, 1, 0
    for m in range(1, n + 1):
        if filled == width:
            level, width, filled = level + 1, width * max(k, 1), 0
        bound[m] = bound[m - 1] + level
        filled += 1
    return np.maximum(bound, 2 * np.arange(n + 1, dtype=np.int64) - 1).clip(0)


def _impossible(n: int, depth: int | None) -> bool:
    """Whether no tree solves n candidates within ``depth`` guesses (None: no limit)."""
    return depth is not None and (depth < 1 or (n >= 2 and depth < 2))


def guess_lower_bound(n: int, buckets, in_set):
    """Fewest total guesses of a tree over n candidates that starts with a guess leaving
    ``buckets`` non-empty buckets (green included) and ``in_set`` (whether the guess is a
    candidate): ``3n - in_set - buckets``. Works elementwise on arrays."""
    return 3 * n - np.asarray(in_set, dtype=np.int64) - np.asarray(buckets, dtype=np.int64)


def opener_bounds(game, openers, target: int = INFEASIBLE, refine: bool = True) -> np.ndarray:
    """Depth-two lower bounds of the totals of trees opening with each guess index of
    ``openers``: n for the opener, then for each bucket B its best achievable split
    (``min over h of 3|B| - [h in B] - buckets(h)``; 1 and 3 for one and two answers),
    over the guesses h allowed after the opener's feedback: every guess, or in hard mode
    those the game allows (:meth:`allowed_after`; one opener per call of the serial
    kernel, on :func:`~deductive.engine._parallel.get_threads` threads: fewer guesses per
    bucket, so a bound at least normal mode's at a lower cost).

    ``refine`` (the default) adds, for each h, one guess per group of three or more
    answers that h leaves in B and that no answer of the group splits into singletons:
    a tree over k answers totals 2k - 1 only when its first guess is one of them and
    isolates all the others, so such a group needs at least 2k
    (:func:`~deductive.kernels.search.imperfect_groups`). Without it: the plain bound.

    The bound holds under ``max_guesses`` too. Once an opener's bound reaches ``target`` it
    is not refined further (it is then at least ``target``): enough to rule the opener
    out, and much cheaper for the many poor openers.
    """
    matrix = game.matrix
    openers = np.asarray(openers, dtype=np.int64)
    n_codes = game.patterns.n_codes
    out = np.zeros(len(openers), dtype=np.int64)
    common = (matrix, answer_major(matrix), OPENER_COLUMNS_MAX, OPENER_JOINT_MIN,
              OPENER_JOINT_MAX, openers)
    after = (game.guess_to_answer, game.answer_to_guess, n_codes, game.win_code,
             bool(refine), min(int(target), INFEASIBLE), out)
    # the guesses by their buckets over all the answers, most first: a bucket's scoring
    # stops at the first that cannot split it better than the best found
    caps = np.asarray(game.patterns.buckets)
    by_cap = np.argsort(-caps, kind="stable")
    if not game.hard:
        rows = np.arange(matrix.shape[0], dtype=np.int64)
        every = (rows, by_cap, np.zeros(n_codes, np.int64), np.full(n_codes, len(rows), np.int64))
        run_rows(_opener_bounds_parallel, opener_bounds_rows, len(openers),
                 len(openers) * matrix.size, OPENER_BOUNDS_WORK, *common, *every, caps,
                 *after)
        return out
    everything = np.ones(matrix.shape[0], dtype=bool)

    def bound(i, g):
        row_lo, row_hi = np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64)
        parts, ordered, size = [], [], 0
        codes, counts = np.unique(matrix[g], return_counts=True)
        for code in codes[counts > 2].tolist():    # buckets of one or two need no guesses
            mask = game.allowed_after(everything, g, code)
            parts.append(np.flatnonzero(mask))
            ordered.append(by_cap[mask[by_cap]])
            row_lo[code], row_hi[code] = size, size + len(parts[-1])
            size += len(parts[-1])
        rows, rows_by_cap = ((np.concatenate(x).astype(np.int64) if x else np.zeros(0, np.int64))
                             for x in (parts, ordered))
        opener_bounds_rows(*common, rows, rows_by_cap, row_lo, row_hi, caps, *after, i, i + 1)

    # the kernel releases the GIL (about 85% of an opener's time): one opener per thread
    with ThreadPoolExecutor(max(1, min(get_threads(), len(openers)))) as pool:
        list(pool.map(bound, range(len(openers)), openers.tolist()))
    return out


#: Largest bucket :func:`opener_bounds` scores from the answer-major matrix (pairwise:
#: quadratic in the bucket). Past it a bitmask of codes per guess row is faster, and the
#: guesses go by cap (measured over every guess, one thread: 80 answers 4.6 ms pairwise,
#: 4.4 ms by bitmask; 120: 9.9 and 5.9 ms; 200: 25.2 and 8.4 ms).
OPENER_COLUMNS_MAX = 80

#: The plain bound of normal mode scores an opener's buckets of more than
#: ``OPENER_JOINT_MIN`` and at most ``OPENER_JOINT_MAX`` answers together, in one pass
#: over the guess rows (:func:`~deductive.kernels.opener_bounds.joint_splits`). Smaller
#: buckets mostly have a guess that splits them perfectly, found early; larger ones stop
#: early by their caps. Measured on 40 openers of the original lists, one thread: their buckets of
#: 11-320 answers 2.12 s one by one, 0.95 s together.
OPENER_JOINT_MIN = 10
OPENER_JOINT_MAX = 320

#: Openers x matrix codes from which :func:`opener_bounds` runs in parallel: one opener
#: costs tens of milliseconds (a whole-matrix pass), so two already pay for the threads.
OPENER_BOUNDS_WORK = 2 * 12_972 * 2_315


def _deep_setup(game, bucket, ceiling, first):
    """What :func:`deep_set_bound` needs for a set of three or more answers: every guess's
    depth-two bound over it (those of ``first`` kept, ascending), the guesses by their
    buckets over it, descending, and those buckets (the caps of its subsets)."""
    matrix = game.matrix
    floor = counting_bounds(matrix.shape[1], game.patterns.spread)
    rows = np.arange(matrix.shape[0], dtype=np.int64)
    order, bounds, _, caps = split_bounds(matrix, np.empty((0, 0), matrix.dtype), False, rows,
                                          bucket, game.guess_to_answer, game.patterns.n_codes,
                                          floor, ceiling, False, 0, np.empty(0, np.int64),
                                          ceiling, 0)
    if first is not None:
        keep = np.asarray(first, dtype=bool)[order]
        order, bounds = order[keep], bounds[keep]
    return floor, order, bounds, np.argsort(-caps, kind="stable").astype(np.int64), caps


def _deep(game, bucket, ceiling, setup, state=None) -> int:
    """:func:`deep_set_bound` of ``bucket`` under ``ceiling``; ``state`` (from
    :func:`_deep_state`) carries its work over to a later call with a higher ceiling."""
    floor, order, bounds, inner, caps = setup
    done_total, done_next, reached = _deep_state(setup) if state is None else state
    return int(deep_set_bound(
        game.matrix, order, bounds, inner, caps, bucket, floor, game.guess_to_answer,
        game.answer_to_guess, game.patterns.n_codes, game.win_code, letter_tables(game),
        min(int(ceiling), INFEASIBLE), done_total, done_next, reached))


def letter_tables(game) -> tuple:
    """What :func:`~deductive.kernels.dominance.passed_over` reads for ``game``: its
    guesses' letter bits, each answer's letters as bits, and the dominance tables, when
    its feedback is Wordle's colours (:meth:`colour_letters`) and its words have at most
    :data:`~deductive.kernels.dominance.LONGEST_TABLED` letters; else tables that pass
    no guess over. Computed once per guess list (some 0.3 s for 12,972 guesses)."""
    codes = game.colour_letters()
    if codes is None or not 0 < codes.shape[1] <= LONGEST_TABLED:
        codes = np.zeros((game.matrix.shape[0], 0), np.uint8)
    bits, table = _dominance(np.ascontiguousarray(codes, np.uint8).tobytes(), codes.shape)
    whole = np.bitwise_or.reduce(bits, axis=1) if bits.shape[1] else np.zeros(
        len(bits), np.uint32)
    return bits, np.ascontiguousarray(whole[game.answer_to_guess]), table, PASSED_FROM


#: The least set :func:`~deductive.kernels.deep_bounds.set_bound` passes guesses over in
#: (a smaller one costs about as much to score as to check every guess's letters).
#: Measured with every word an answer, target 52,603, one thread beside the sweep:
#: ablow 145.7, 125.4, 141.0 and 158.8 s CPU from 3, 12, 32 and 96 answers (150.8 s
#: passing none over), biccy 105.5, 113.9, 119.5 and 120.0 s (133.6 s).
PASSED_FROM = 12


@functools.lru_cache(maxsize=4)
def _dominance(codes: bytes, shape: tuple) -> tuple:
    letters = np.frombuffer(codes, np.uint8).reshape(shape)
    if not shape[1]:
        return np.zeros(shape, np.uint32), np.zeros((shape[0], 1), np.uint32)
    return letter_bits(letters), packed(*letter_dominance(letters))


def _deep_state(setup) -> tuple:
    """A fresh ``(done_total, done_next, reached)`` of :func:`deep_set_bound` for
    ``setup``."""
    bounds = setup[2]
    return bounds.astype(np.int64), np.zeros(len(bounds), np.int64), bounds.astype(np.int64)


def deep_bound(game, bucket, ceiling: int = INFEASIBLE, first=None) -> int:
    """The depth-three lower bound of the total of any tree over ``bucket`` (answer
    indices) in normal mode: ``min over h of |B| + sum bound(S)`` over the non-winning
    buckets S of the first guess h, ``bound(S)`` the best next guess's depth-two bound
    over S (:func:`~deductive.kernels.deep_bounds.set_bound`: ``|S| + sum floor`` of its
    buckets, refined by the groups no answer of which isolates the others; in a set of
    :data:`PASSED_FROM` answers or more, the next guesses its absent letters make
    redundant are passed over, :mod:`~deductive.kernels.dominance`). Each term is a
    lower bound of the subtree it stands for, so the sum bounds the tree; the depth-two
    bound counts each S at ``floor[|S|]`` instead, so this one is never lower.

    ``first``: a mask of the first guesses to consider (None: every guess), such as one
    guess per orbit of the symmetries that fix the set (each orbit's bound is the same).
    Returns ``ceiling`` when the bound is at least that (then found sooner). One or two
    answers: 1 and 3."""
    _normal_only(game)
    bucket = np.unique(np.asarray(bucket, dtype=np.int64))
    if len(bucket) <= 2:
        return min(lower_bound(len(bucket)) if len(bucket) else 0, int(ceiling))
    return _deep(game, bucket, ceiling, _deep_setup(game, bucket, INFEASIBLE, first))


def _normal_only(game) -> None:
    if game.hard:
        raise ArgumentError("the depth-three bound is for normal mode: hard mode restricts "
                            "the guesses of every turn (use opener_bounds there)")


def opener_buckets(game, opener: int) -> list[np.ndarray]:
    """The non-winning buckets of ``opener`` (sorted answer indices), smallest first (ties:
    feedback code)."""
    ordered, codes, starts = game.groups(opener, np.arange(len(game.answers)))
    sizes = np.diff(starts)
    keep = np.flatnonzero(codes != game.win_code)
    return [ordered[starts[k]:starts[k + 1]]
            for k in keep[np.argsort(sizes[keep], kind="stable")].tolist()]


def kin_groups(game, openers) -> list[list[int]]:
    """``openers`` (guess indices) grouped by their largest non-winning bucket
    (:func:`largest_bucket`), the groups in the order of their first member, each in the
    order given: a group's openers bounded in turn with one :class:`KeptBuckets` find
    that bucket's work still there (anagrams share the bucket of the answers with none
    of their letters)."""
    groups: dict = {}
    for g in np.asarray(openers, dtype=np.int64).tolist():
        largest = largest_bucket(game, g).tobytes()
        groups.setdefault(hashlib.blake2b(largest, digest_size=16).digest(), []).append(g)
    return list(groups.values())


def largest_bucket(game, opener: int) -> np.ndarray:
    """The largest non-winning bucket of ``opener`` (sorted answer indices; ties: the
    lowest feedback code)."""
    row = np.asarray(game.matrix[opener])
    counts = np.bincount(row, minlength=game.patterns.n_codes)
    counts[game.win_code] = 0
    return np.flatnonzero(row == np.argmax(counts))


def deep_opener_bound(game, opener: int, target: int = INFEASIBLE, first=None,
                      kept: KeptBuckets | None = None) -> int:
    """The depth-three lower bound of the total of any tree opening with guess
    ``opener`` (normal mode): every answer's first guess, then :func:`deep_bound` of
    each of its buckets (1 and 3 for one and two answers), ``first`` as there. Returns
    ``target`` once the bound reaches it (the rest is then left), the whole bound below it.

    The bound need not be exact, only shown to reach ``target``: the gap between the
    opener's depth-two bound and ``target`` is shared among its buckets by size, each
    bounded only up to its share (a low ceiling: far cheaper than its whole bound, the
    cost rising steeply with the ceiling). The buckets run smallest first, each taking
    its share when it starts: of the gap left then (less the shares of the buckets still
    running), by its size among the buckets not yet started. A small bucket whose whole
    bound falls short of its share is done, and what it left goes to the larger ones of
    the same round, so they seldom need a second. Buckets that reached their share go on
    from where they stopped (:func:`deep_set_bound`'s state) in further rounds, until
    the total reaches ``target`` or every bucket is done. Against largest first with
    every share fixed at the round's start, one thread, 12,972 answers, target 52,603:
    12% less time on three openers (ablow 18%), and on an instrumented copy of the
    kernel 11-18% less on five, with 17% fewer codes scored. The buckets run on
    :func:`~deductive.engine._parallel.get_threads` threads (the kernel releases the
    GIL).

    ``kept`` (:class:`KeptBuckets`, made for this ``game`` and ``first``) carries the
    large buckets' work from one opener to the next: a bucket met again takes the share
    a fresh one would, and bounds further only what the bound it reached does not cover.
    The result is the same with or without it (a bound that ends below ``target`` is
    every bucket's whole bound), only sooner."""
    _normal_only(game)
    if kept is not None and (kept.game is not game or kept.first is not first):
        raise ArgumentError("`kept` was made for another game or `first`: make one "
                            "KeptBuckets(game, first) per game")
    total = len(game.answers)
    jobs = []
    for bucket in opener_buckets(game, opener):         # smallest first
        if len(bucket) <= 2:
            total += lower_bound(len(bucket))
            continue
        job = None if kept is None else kept.take(bucket)
        if job is None:
            setup = _deep_setup(game, bucket, INFEASIBLE, first)
            job = _Bucket(bucket, setup, int(setup[2][0]) if len(setup[2]) else INFEASIBLE)
        total += job.low if job.done else job.two
        jobs.append(job)
    # a kept bucket's work past its depth-two bound is counted when its turn comes, as
    # though it started there: its share is what a fresh bucket's would be, and what
    # its kept bound already covers needs no work
    credit = {id(job): job.low - job.two for job in jobs if not job.done}
    target = min(int(target), INFEASIBLE)
    lock = threading.Lock()
    state = {"total": total, "running": 0, "weight": 0}

    def bound(job):
        size = len(job.answers)
        with lock:
            if state["total"] >= target:
                return
            short = target - state["total"] - state["running"]
            share = max(1, -(-short * size // state["weight"]))
            state["weight"] -= size
            base = job.low - credit.pop(id(job), 0)
            state["total"] += job.low - base
            if base + share <= job.low:         # covered by its kept bound
                return
            state["running"] += share
        ceiling = min(base + share, INFEASIBLE)
        low = _deep(game, job.answers, ceiling, job.setup, job.state)
        with lock:
            state["total"] += low - job.low
            state["running"] -= share
        job.low, job.done = low, low < ceiling

    with ThreadPoolExecutor(max(1, min(get_threads(), len(jobs)))) as pool:
        while state["total"] < target:
            live = [job for job in jobs if not job.done]
            if not live:
                break
            state["weight"] = sum(len(job.answers) for job in live)
            list(pool.map(bound, live))
    if kept is not None:
        for job in jobs:
            kept.give(job)
    return min(state["total"], target)


class KeptBuckets:
    """The depth-three work on the large buckets of :func:`deep_opener_bound`, kept for
    the openers that come next with the same bucket (anagrams share the bucket of the
    answers with none of their letters, often their largest): each goes on from the
    bound the last one reached (:func:`deep_set_bound`'s state) instead of from its
    depth-two bound.

    Holds the ``most`` buckets of at least ``least`` answers given back last (some 0.8
    MB each on 12,972 guesses: the guesses' order, bounds and caps over the bucket, and
    the kernel's state). A call takes a bucket out while it works on it, so two calls at
    once never share one (the second bounds it afresh). For one ``game`` and ``first``
    (as :func:`deep_opener_bound` takes them)."""

    def __init__(self, game, first=None, most: int = 64, least: int = 100):
        self.game, self.first, self.most, self.least = game, first, most, least
        self._jobs: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._jobs)

    def take(self, bucket) -> _Bucket | None:
        """The work kept on ``bucket`` (sorted answer indices), taken out; None if none."""
        if len(bucket) < self.least:
            return None
        with self._lock:
            return self._jobs.pop(np.asarray(bucket, np.int64).tobytes(), None)

    def give(self, job: _Bucket) -> None:
        """Keep ``job`` (dropping the bucket kept longest ago past ``most``)."""
        if len(job.answers) < self.least:
            return
        with self._lock:
            self._jobs[np.asarray(job.answers, np.int64).tobytes()] = job
            while len(self._jobs) > self.most:
                self._jobs.popitem(last=False)


class _Bucket:
    """A bucket of :func:`deep_opener_bound`: its answers, :func:`_deep_setup`, its bound
    so far (``low``), whether that is its whole bound (``done``), and the kernel's state."""

    def __init__(self, answers, setup, two: int):
        self.answers, self.setup, self.low, self.two = answers, setup, two, two
        self.done = two >= INFEASIBLE
        self.state = _deep_state(setup)
