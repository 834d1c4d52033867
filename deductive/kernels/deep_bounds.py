"""Kernels of the depth-three bound of a set (:func:`deductive.engine.feedback.search.
deep_bound`): for each first guess, its buckets bounded by their best next guess.

A tree over a set B that opens with h costs ``|B|`` plus, for each non-winning bucket S of
h, the total of a tree over S. The depth-two bound counts each S at ``floor[|S|]``; here
each S of three or more answers is counted at its own best guess's bound
(:func:`set_bound`), so the bound sees the third guess too. Both are lower bounds of every
tree; the guesses h are taken by their depth-two bound, and the scan stops at the first
whose depth-two bound reaches the least depth-three bound found. A set's next guesses that
its absent letters make redundant are passed over (:mod:`.dominance`).
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .dominance import passed_over
from .partition import group_by_code
from .worst import stamped_separator


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
def _refinement(matrix, row, part, floor, answer_to_guess, enough, stamps, counts, starts,
                members, guesses):
    """What the groups of three or more answers that guess ``row`` makes of ``part`` add
    to its bound when none of their answers isolates the others: such a group of k needs
    at least 2k, so ``max(floor[k], 2k) - floor[k]`` each; once that reaches ``enough``,
    the groups left are not checked (the result is then at least ``enough``). The groups
    are gathered by counting (``counts``: int64[n_codes], zero, left so; ``starts``:
    int64[n_codes]; ``members``, ``guesses``: int64[len(part)]: scratch), only those of
    three or more, each in the order of its first answer in ``part``."""
    codes = matrix[row]
    m = part.shape[0]
    for i in range(m):
        counts[codes[part[i]]] += 1
    end = 0
    for i in range(m):                          # a large group's slots, marked negative
        c = codes[part[i]]
        if counts[c] >= 3:
            starts[c] = end
            end += counts[c]
            counts[c] = -counts[c]
    for i in range(m):
        c = codes[part[i]]
        if counts[c] < 0:
            members[starts[c]] = part[i]
            starts[c] += 1
    extra = 0
    at = 0
    for i in range(m):
        c = codes[part[i]]
        if counts[c] < 0:
            size = -counts[c]
            group = members[at:at + size]
            for j in range(size):
                guesses[j] = answer_to_guess[group[j]]
            if extra < enough and stamped_separator(matrix, group, guesses[:size],
                                                    stamps) < 0:
                extra += max(floor[size], 2 * size) - floor[size]
            at += size
        counts[c] = 0
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
def local_columns(matrix, rows, bucket):
    """``local[j, r] = matrix[rows[r], bucket[j]]``: the codes over ``bucket`` answer by
    answer, each a contiguous row over the guesses ``rows`` (read in tiles of 64 guesses,
    whose rows stay in cache)."""
    n = rows.shape[0]
    local = np.empty((bucket.shape[0], n), matrix.dtype)
    for lo in range(0, n, 64):
        hi = min(n, lo + 64)
        for j in range(bucket.shape[0]):
            a = bucket[j]
            for r in range(lo, hi):
                local[j, r] = matrix[rows[r], a]
    return local


@njit(cache=CACHE, **SERIAL)
def local_splits(local, at, part, member, rows, guess_to_answer, lo, picked, threshold,
                 alive, flags, split):
    """``split[r] = buckets(rows[r]) + [rows[r] in part]`` for r in ``lo + picked``
    (``member`` marks the answers of ``part``) where that exceeds ``threshold``; where it
    does not, some value between it and ``threshold`` (a guess is dropped once its
    buckets so far and the answers left cannot exceed it). Read from ``local``
    (:func:`local_columns` over a superset of ``part``; ``at[a]``: answer a's row of it):
    each answer's codes in order, four answers at a time, and a flag per guess and code
    met (``flags``, uint8[block, n_codes], a row per offset ``picked`` holds: all zero,
    left so) counts each guess's buckets as they come; ``alive``: int64[len(picked)],
    scratch.

    Scored guess by guess from the guess-major matrix, each (guess, answer) code costs
    a cache line; here nothing is read out of order but the flags, which stay in cache
    (measured on sets of 128-255 answers of ablow's largest bucket, one thread: 0.63 ns
    a code, against 1.6 ns one answer at a time with a bitmask per guess and about 4 ns
    from the guess-major matrix)."""
    n = picked.shape[0]
    for j in range(n):
        i = picked[j]
        a = guess_to_answer[rows[lo + i]]
        split[lo + i] = 1 if a >= 0 and member[a] else 0
        alive[j] = i
    m = part.shape[0]
    live = n
    k = 0
    while k < m and live > 0:
        if k + 3 < m:
            c0, c1 = local[at[part[k]]], local[at[part[k + 1]]]
            c2, c3 = local[at[part[k + 2]]], local[at[part[k + 3]]]
            for j in range(live):
                i = alive[j]
                f = flags[i]
                new = np.int64(0)
                for column in (c0, c1, c2, c3):
                    c = column[lo + i]
                    new += 1 - f[c]
                    f[c] = 1
                split[lo + i] += new
            k += 4
        else:
            column = local[at[part[k]]]
            for j in range(live):
                i = alive[j]
                c = column[lo + i]
                split[lo + i] += 1 - flags[i, c]
                flags[i, c] = 1
            k += 1
        kept = 0
        for j in range(live):                   # those that may still exceed it
            i = alive[j]
            if split[lo + i] + m - k > threshold:
                alive[kept] = i
                kept += 1
            else:
                split[lo + i] = max(split[lo + i], threshold)
        live = kept
    for j in range(n):
        flags[picked[j]] = 0


#: Guesses :func:`set_bound` scores at a time, between which it checks their caps
#: (measured on ablow's largest bucket under a ceiling 800 above its depth-two bound, one
#: thread: 30.1 s with blocks of 512 and 27.9 s with 256 at commit 91919cd; 128 and 64
#: within 5% of 256, there and with the threshold of :func:`local_splits`).
SET_BLOCK = 256


@njit(cache=CACHE, **SERIAL)
def set_bound(matrix, local, at, rows, caps, part, floor, member, guess_to_answer,
              answer_to_guess, win, letters, need, block, counts, stamps, flags, split):
    """A lower bound of the total of any tree over ``part`` (m ascending answer indices,
    ``member`` marking them) whose first guess is one of ``rows``: ``min over h of m +
    sum floor[|S|]`` over the non-winning buckets S of h, each group of three or more
    answers none of which isolates the others counted at 2k (:func:`_refinement`);
    never below ``floor[m]``; the guesses h that ``part``'s absent letters make
    redundant passed over (:func:`~.dominance.passed_over`; ``letters``: ``(bits,
    answer_letters, table, least)``: :func:`~.dominance.letter_bits` of the guesses and
    the :func:`~.dominance.packed` tables, both a row per entry of ``rows``, in its
    order; the letters of each answer as bits; the least set that passes guesses over.
    ``rows`` must hold every guess for that). Exact below ``need``, at least ``need``
    otherwise.

    The guesses are scored ``block`` at a time (:data:`SET_BLOCK`) by
    :func:`local_splits` (``local`` and ``at`` as there, ``local``'s columns in the order
    of ``rows``). A guess's plain bound is at least ``3m - split`` (``floor[k] >= 2k -
    1``) and ``least_bounds`` of its buckets: only a guess below the least found and
    ``need`` by that is counted in full (:func:`_plain`), least first, then refined
    while below the least found. ``caps`` (descending, one per row: upper bounds of each
    guess's buckets over ``part``, such as its buckets over a superset) end the scan at
    the first guess whose best possible bound (:func:`least_bounds`) reaches the least
    found or ``need``. ``counts``, ``stamps``: as :func:`_plain` and
    :func:`~.worst.stamped_separator` want them; ``flags``: as :func:`local_splits` wants
    it for ``block`` guesses; ``split``: scratch, one per row.
    """
    m = part.shape[0]
    if m <= 2:
        return floor[m]
    least = least_bounds(m, floor)
    starts = np.empty(counts.shape[0], np.int64)
    members, guesses = np.empty(m, np.int64), np.empty(m, np.int64)
    alive, lows = np.empty(block, np.int64), np.empty(block, np.int64)
    picked = np.empty(block, np.int64)
    bits, answer_letters, table, least_passed = letters
    present = np.uint32(0)
    for i in range(m):
        present |= answer_letters[part[i]]
    if m < least_passed:
        present = ~np.uint32(0)                 # no letter absent: none passed over
    best = np.int64(1) << 62
    n = rows.shape[0]
    for lo in range(0, n, block):
        if least[min(m, caps[lo])] >= min(best, need):
            best = min(best, least[min(m, caps[lo])])
            break
        end = min(n, lo + block)
        hi = end
        while least[min(m, caps[hi - 1])] >= min(best, need):
            hi -= 1                             # nor can the rest: the last block
        if hi < end:
            best = min(best, least[min(m, caps[hi])])
        threshold = 3 * m - min(best, need)
        kept = 0
        for r in range(lo, hi):
            if not passed_over(r, present, bits, table):
                picked[kept] = r - lo
                kept += 1
        local_splits(local, at, part, member, rows, guess_to_answer, lo, picked[:kept],
                     threshold, alive, flags, split)
        # each guess's least plain bound by its split (3m - split, floor[k] >= 2k - 1) and
        # by its buckets (least_bounds); those that may beat the least, by it ascending
        count, rest = 0, np.int64(1) << 62
        for j in range(kept):
            r = lo + picked[j]
            a = guess_to_answer[rows[r]]
            buckets = split[r] - (1 if a >= 0 and member[a] else 0)
            low = max(3 * m - split[r], least[min(m, buckets)])
            if low < min(best, need):
                alive[count] = r
                lows[count] = low
                count += 1
            else:
                rest = min(rest, low)
        best = min(best, rest)
        for q in np.argsort(lows[:count], kind="mergesort"):
            r = alive[q]
            low = lows[q]
            if low >= min(best, need):          # and so are the rest of the block
                best = min(best, low)
                break
            plain = _plain(matrix[rows[r]], part, floor, win, counts)
            if plain >= need:                   # enough: not refined
                best = min(best, plain)
            elif plain < best:
                best = min(best, plain + _refinement(matrix, rows[r], part, floor,
                                                     answer_to_guess, min(best, need) - plain,
                                                     stamps, counts, starts, members,
                                                     guesses))
        if best <= floor[m]:                    # none does better
            break
    return max(best, floor[m])


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
def deep_set_bound(matrix, outer, outer_bounds, inner, caps,
                   bucket, floor, guess_to_answer, answer_to_guess, n_codes, win, letters,
                   ceiling, done_total, done_next, reached):
    """The depth-three bound of ``bucket`` (m >= 3 ascending answer indices): ``min over
    h of m + sum bound(S)`` over the non-winning buckets S of h, where ``bound(S)`` is
    :func:`set_bound` over the guesses ``inner`` (every guess; ``letters`` as there;
    ``floor`` for one or two answers).

    ``outer`` are the first guesses h, by ``outer_bounds`` ascending: each one's depth-two
    bound, ``m + sum floor[|S|]`` (a lower bound of its depth-three bound). The scan stops
    at the first whose depth-two bound reaches the least found; a guess's buckets are
    bounded largest first and it is dropped as soon as they reach that. ``caps`` (each
    guess's buckets over ``bucket``; ``inner`` by it descending) stop each bucket's scan
    early (:func:`set_bound`). A set met again is looked up (:data:`MEMO_SLOTS`): its
    bound and the ``need`` it was found under, reused when exact or enough. Returns the
    bound, or ``ceiling`` when it is at least that.

    The sets are scored from the codes over ``bucket`` answer by answer, the guesses in
    the order of ``inner`` (:func:`local_columns`: a copy of ``|bucket|`` x
    ``len(inner)`` codes, made once per call).

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
    split = np.empty(inner.shape[0], np.int64)
    stamps = np.zeros(n_codes + 1, np.int64)
    local = local_columns(matrix, inner, bucket)
    bits, answer_letters, table, least_passed = letters
    letters = (bits[inner], answer_letters, table[inner], least_passed)  # in inner's order
    at = np.full(matrix.shape[1], -1, np.int64)
    at[bucket] = np.arange(bucket.shape[0])
    capped = caps[inner]
    flags = np.zeros((SET_BLOCK, n_codes), np.uint8)
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
                member[part] = True
                low = set_bound(matrix, local, at, inner, capped, part, floor, member,
                                guess_to_answer, answer_to_guess, win, letters, need,
                                SET_BLOCK,
                                counts, stamps, flags, split)
                member[part] = False
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
