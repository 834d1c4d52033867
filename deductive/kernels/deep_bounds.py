"""Kernels of the depth-three bound of a set (:func:`deductive.engine.feedback.search.
deep_bound`): for each first guess, its buckets bounded by their best next guess.

A tree over a set B that opens with h costs ``|B|`` plus, for each non-winning bucket S of
h, the total of a tree over S. The depth-two bound counts each S at ``floor[|S|]``; here
each S of three or more answers is counted at its own best guess's bound
(:func:`set_bound`), so the bound sees the third guess too. Both are lower bounds of every
tree; the guesses h are taken by their depth-two bound, and the scan stops at the first
whose depth-two bound reaches the least depth-three bound found.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .opener_bounds import refined_split
from .partition import group_by_code
from .search import unisolated


@njit(cache=CACHE, **SERIAL)
def least_bounds(n, floor):
    """``least[b]``, b = 0..n: a lower bound of ``n + sum floor[|S|]`` over the non-winning
    buckets S of any guess that makes at most b buckets of n answers: the most even split
    (``floor`` is convex), one answer of it perhaps the guess itself (``least[0]``: as 1)."""
    least = np.empty(n + 1, np.int64)
    for b in range(1, n + 1):
        q = n // b
        extra = n - q * b
        least[b] = n - 1 + (b - extra) * floor[q] + (extra * floor[q + 1] if extra else 0)
    least[0] = least[1]
    return least


@njit(cache=CACHE, **SERIAL)
def _refinement(matrix, row, bucket, floor, answer_to_guess, stamps):
    """What the groups of three or more answers that guess ``row`` makes of ``bucket``
    add to its bound when none of their answers isolates the others: such a group of k
    needs at least 2k, so ``max(floor[k], 2k) - floor[k]`` each."""
    ordered, codes, starts = group_by_code(matrix[row], bucket)
    flags = np.empty(codes.shape[0], np.int64)
    if unisolated(ordered, starts, matrix, answer_to_guess, stamps, flags) == 0:
        return 0
    extra = 0
    for k in range(codes.shape[0]):
        if flags[k]:
            size = starts[k + 1] - starts[k]
            extra += max(floor[size], 2 * size) - floor[size]
    return extra


@njit(cache=CACHE, **SERIAL)
def _plain(row, bucket, floor, win, counts):
    """``m + sum floor[|S|]`` over the non-winning buckets S that ``row`` (a guess's codes)
    makes of ``bucket``; ``counts`` zeros, left so."""
    m = bucket.shape[0]
    total = m
    for i in range(m):
        c = np.int64(row[bucket[i]])
        k = counts[c]
        counts[c] = k + 1
        if c != win:
            total += floor[k + 1] - floor[k]
    for i in range(m):
        counts[np.int64(row[bucket[i]])] = 0
    return total


@njit(cache=CACHE, **SERIAL)
def set_bound(matrix, rows, caps, bucket, floor, answer_to_guess, n_codes, win, need,
              counts, plain, stamps):
    """A lower bound of the total of any tree over ``bucket`` (m ascending answer
    indices) whose first guess is one of ``rows``: ``min over h of m + sum floor[|S|]``
    over the non-winning buckets S of h, each group of three or more answers none of which
    isolates the others counted at 2k (:func:`_refinement`); never below ``floor[m]``.

    Parameters
    ----------
    rows : int64[r]
        The guesses, by ``caps`` descending when ``caps`` is given.
    caps : int64[n_guesses] or int64[0]
        Upper bounds of each guess's number of buckets over ``bucket`` (its buckets over a
        superset). The scan stops at the first row whose best possible bound
        (:func:`least_bounds`) reaches the least found or ``need``: the rows past it can do
        no better, so the result is exact below ``need`` and at least ``need`` otherwise.
        Empty: every row is scored.
    need : int
        Only a bound below it needs to be exact.
    counts, plain, stamps : int64[n_codes], int64[r], int64[n_codes + 1]
        Scratch: ``counts`` all zero (left so), ``stamps`` as
        :func:`~.worst.stamped_separator` wants it.
    """
    m = bucket.shape[0]
    if m <= 2:
        return floor[m]
    least = least_bounds(m, floor)
    capped = caps.shape[0] > 0
    top = least[min(m, n_codes)]        # no guess does better
    n_rows = rows.shape[0]
    # first the plain bounds, up to the rows that cannot beat the least of them
    best = np.int64(1) << 62
    first = -1
    end = n_rows
    for r in range(n_rows):
        if capped and least[min(m, caps[rows[r]])] >= min(best, need):
            end = r
            break
        plain[r] = _plain(matrix[rows[r]], bucket, floor, win, counts)
        if plain[r] < best:
            best, first = plain[r], r
            if best <= top:
                end = r + 1
                break
    if first < 0:                       # not one row scored: none beats `need`
        return max(least[min(m, caps[rows[0]])] if n_rows else best, floor[m])
    # refined, the best first (a low ceiling), then every row it may still beat
    refined = best + _refinement(matrix, rows[first], bucket, floor, answer_to_guess, stamps)
    for r in range(end):
        if r != first and plain[r] < refined:
            refined = min(refined, plain[r] + _refinement(matrix, rows[r], bucket, floor,
                                                          answer_to_guess, stamps))
    # then the rows past them that may still beat it, refined as they come
    for r in range(end, n_rows):
        if refined <= top:
            break
        if capped and least[min(m, caps[rows[r]])] >= min(refined, need):
            refined = min(refined, least[min(m, caps[rows[r]])])
            break
        low = _plain(matrix[rows[r]], bucket, floor, win, counts)
        if low < refined:
            refined = min(refined, low + _refinement(matrix, rows[r], bucket, floor,
                                                     answer_to_guess, stamps))
    return max(refined, floor[m])


#: Slots of the memo of :func:`deep_set_bound` (a power of two; half of them are filled
#: at most, then no more sets are kept): the same second-level set comes back under many
#: first guesses, most of all the costly ones (a family of words no guess splits).
MEMO_SLOTS = 1 << 18


@njit(cache=CACHE, **SERIAL)
def _set_hash(part):
    h = np.uint64(14695981039346656037)
    for i in range(part.shape[0]):
        h = (h ^ np.uint64(part[i])) * np.uint64(1099511628211)
    return h


@njit(cache=CACHE, **SERIAL)
def _find(memo_keys, memo_hash, memo_at, memo_len, store, part, h):
    """The slot of ``part`` in the memo (its entry is ``memo_keys[slot]``), or of the free
    slot where it goes (``memo_keys[slot] == -1``)."""
    mask = memo_keys.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while memo_keys[slot] >= 0:
        e = memo_keys[slot]
        if memo_hash[e] == h and memo_len[e] == part.shape[0]:
            at = memo_at[e]
            same = True
            for i in range(part.shape[0]):
                if store[at + i] != part[i]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + 1) & mask
    return slot


@njit(cache=CACHE, **SERIAL)
def deep_set_bound(matrix, columns, columns_max, outer, outer_bounds, inner, caps,
                   bucket, floor, guess_to_answer, answer_to_guess, n_codes, win, ceiling,
                   done_total, done_next, reached):
    """The depth-three bound of ``bucket`` (m >= 3 ascending answer indices): ``min over
    h of m + sum bound(S)`` over the non-winning buckets S of h, where ``bound(S)`` is
    :func:`set_bound` over the guesses ``inner`` (``floor`` for one or two answers).

    ``outer`` are the first guesses h, by ``outer_bounds`` ascending: each one's depth-two
    bound, ``m + sum floor[|S|]`` (a lower bound of its depth-three bound). The scan stops
    at the first whose depth-two bound reaches the least found; a guess's buckets are
    bounded largest first and it is dropped as soon as they reach that. ``caps`` (each
    guess's buckets over ``bucket``; ``inner`` by it descending) stop each bucket's scan
    early (:func:`set_bound`). A set met again is looked up (:data:`MEMO_SLOTS`): its
    bound and the ``need`` it was found under, reused when exact or enough. Returns the
    bound, or ``ceiling`` when it is at least that.

    A set S whose floor is still ``2|S| - 1`` (up to the counting bound's first level)
    is bounded by :func:`~.opener_bounds.refined_split` instead, exactly, the same value
    with its buckets counted faster: from the answer-major ``columns`` when it has at most
    ``columns_max`` answers (``columns_max`` 0 and any 2-d array: never).

    ``done_total``, ``done_next`` and ``reached`` (int64 per outer guess) carry the work
    from one call to the next over the same bucket, so a call with a higher ceiling goes
    on where the last stopped: the first guess ``outer[i]``'s first ``done_next[i]``
    buckets (largest first) are counted exactly in ``done_total[i]``, and ``reached[i]``
    is the most its bound was shown to reach (a guess is passed over while that is at
    least the least found). Fresh: ``done_total`` and ``reached`` are ``outer_bounds``,
    ``done_next`` zeros. Only exact bounds are kept in ``done_total`` (a bucket cut short
    at its ``need`` is bounded again), so a resumed call returns what a fresh one with
    the same ceiling would.
    """
    member = np.zeros(matrix.shape[1], np.bool_)
    memo_keys = np.full(MEMO_SLOTS, -1, np.int64)
    most = MEMO_SLOTS // 2
    memo_hash = np.empty(most, np.uint64)
    memo_at = np.empty(most, np.int64)
    memo_len = np.empty(most, np.int64)
    memo_value = np.empty(most, np.int64)
    memo_need = np.empty(most, np.int64)
    store = np.empty(1 << 16, np.int64)
    used, stored = 0, 0
    counts = np.zeros(n_codes, np.int64)
    plain = np.empty(inner.shape[0], np.int64)
    stamps = np.zeros(n_codes + 1, np.int64)
    best = np.int64(ceiling)
    for i in range(outer.shape[0]):
        if outer_bounds[i] >= best:
            break
        if reached[i] >= best:
            continue
        total = done_total[i]
        ordered, codes, starts = group_by_code(matrix[outer[i]], bucket)
        sizes = starts[1:] - starts[:-1]
        by_size = np.argsort(-sizes, kind="mergesort")
        for p in range(done_next[i], by_size.shape[0]):
            k = by_size[p]
            size = sizes[k]
            if size < 3:
                break
            if codes[k] == win:
                continue
            part = ordered[starts[k]:starts[k + 1]]
            base = floor[size]
            need = best - (total - base)
            h = _set_hash(part)
            slot = _find(memo_keys, memo_hash, memo_at, memo_len, store, part, h)
            e = memo_keys[slot]
            if e >= 0 and (memo_value[e] < memo_need[e] or memo_value[e] >= need):
                low = memo_value[e]     # exact, or enough
                exact = memo_value[e] < memo_need[e]
            else:
                if base == 2 * size - 1:
                    small = size <= columns_max
                    member[part] = True
                    low = refined_split(matrix, columns, small, inner, caps, part, member,
                                        guess_to_answer, answer_to_guess, n_codes, stamps,
                                        plain)
                    member[part] = False
                    need = low + 1      # exact
                else:
                    low = set_bound(matrix, inner, caps, part, floor, answer_to_guess,
                                    n_codes, win, need, counts, plain, stamps)
                exact = low < need
                if e < 0 and used < most:
                    if stored + size > store.shape[0]:
                        grown = np.empty(max(2 * store.shape[0], stored + size), np.int64)
                        grown[:stored] = store[:stored]
                        store = grown
                    store[stored:stored + size] = part
                    e = memo_keys[slot] = used
                    memo_hash[e], memo_at[e], memo_len[e] = h, stored, size
                    used, stored = used + 1, stored + size
                if e >= 0:
                    memo_value[e], memo_need[e] = low, need
            total += low - base
            if exact:
                done_total[i], done_next[i] = total, p + 1
            if total >= best:           # past it: counted again with the next need
                break
        reached[i] = max(reached[i], total)
        best = min(best, total)
    return best
