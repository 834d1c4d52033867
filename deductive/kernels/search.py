"""Kernels of the exact tree search (:mod:`deductive.engine.feedback.search`).

A node of the search scores every allowed guess over its candidate set and tries them in
the order of an admissible lower bound. Everything per guess happens here, in one call per
node: the split counts (buckets and sum of squared bucket sizes), the bound
``3n - [g in S] - buckets``, the guesses worth trying, and their order. Only the guesses
whose bound is below the node's ceiling come back, so the interpreter loops over a few
guesses rather than over the whole list. (An opener's depth-two bound: :mod:`.opener_bounds`.)
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .partition import (bucket_counts_columns, bucket_stats_columns, bucket_stats_rows,
                        group_by_code)
from .worst import stamped_separator

#: Candidates from which :func:`split_bounds` counts buckets by histogram rather than by
#: comparing codes pairwise (measured crossover: 32-40 on the Wordle matrix).
HISTOGRAM_FROM = 36


@njit(cache=CACHE, **SERIAL)
def split_bounds(matrix, columns, use_columns, rows, candidates, guess_to_answer, n_codes,
                 floor, limit, solve_all, beam, cap, skip_from, head=0):
    """The guesses worth trying at a search node, in search order, with their bounds.

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
        Pattern codes.
    columns : uint[n_answers, n_guesses]
        The answer-major matrix (read only when ``use_columns``; any 2-d array otherwise).
    use_columns : bool
        Score from ``columns`` (a set of at most 255 candidates).
    rows : int64[k]
        The guesses allowed, ascending.
    candidates : int64[n]
        The candidate set (answer indices), n >= 1.
    guess_to_answer : int64[n_guesses]
        Answer index of each guess, -1 for a guess that is no answer.
    n_codes : int
    floor : int64[>= n + 1]
        ``floor[m]``: a lower bound of the total of any tree over m answers, with
        ``floor[0] = 0``, ``floor[1] = 1`` (at least ``2m - 1``: :func:`lower_bound`).
    limit : int
        Only guesses whose bound is below it are returned (beam: ignored).
    solve_all : bool
        Keep only guesses that leave every candidate alone in its bucket (one guess left).
    beam : int
        Keep only the first ``beam`` worth trying (0: no beam).
    cap : int64[n_guesses] or int64[0]
        Upper bounds of each guess's number of buckets over ``candidates`` (the buckets it
        makes of a superset, such as the parent node's set), or empty.
    skip_from : int
        With a cap, a row whose least possible bound is at least ``skip_from`` (at least
        ``limit``) is not scored: the guesses returned are the same, and ``cut`` may be
        lower (at least ``limit`` still). That bound is ``n - 1 + F(min(n, cap))``, F(b)
        the least sum of ``floor`` over b buckets of n answers: the most even split, as
        ``floor`` is convex (``3n - 1 - b`` where ``floor[m] = 2m - 1``).
    head : int
        Without a beam, return only the first ``head`` guesses worth trying (the first
        ``head`` of the full list), the least bound of the others going into ``cut``;
        0: all. A small node's first guess mostly settles it, and sorting the thousands
        of others cost more than scoring them. A ``cut`` below the ceiling then means
        that guesses worth trying were left out.

    Returns
    -------
    order : int64[m]
        Guess rows, by bound, then sum of squared bucket sizes, then row.
    bounds : int64[m]
        ``n + sum floor[|B|]`` over each one's non-green buckets B (with ``floor[m] =
        2m - 1``: ``3n - [g in S] - buckets``).
    cut : int64
        A lower bound of the bounds of the guesses worth trying that were left out for
        reaching ``limit`` (their least bound without a cap; ``2**62`` when none was), and
        of those past the ``head``.
    buckets : int64[n_guesses]
        Each row's number of buckets over ``candidates``, or ``min(n, cap)`` where it was
        not scored; elsewhere the cap (or n): a cap for the subsets of ``candidates``.
    """
    n = candidates.shape[0]
    k = rows.shape[0]
    big = np.int64(1) << 62
    cut = big
    capped = cap.shape[0] == matrix.shape[0] and beam == 0
    buckets = cap.copy() if capped else np.full(matrix.shape[0], n, np.int64)
    # the least bound of a guess of at most b buckets, b = 1..n: floor is convex, so the
    # balanced split (a table: a division per row cost more than the rest of the loop;
    # the exact salet search takes 1.6-1.7 s without it, 1.3-1.4 s with it)
    least = np.empty(max(n, 1) + 1 if capped else 0, np.int64)
    for b in range(1, least.shape[0]):
        q = n // b
        extra = n - q * b
        least[b] = n - 1 + (b - extra) * floor[q] + (extra * floor[q + 1] if extra else 0)
    # the rows to score (all of them without a cap)
    scored = np.empty(k, np.int64)
    s = 0
    for r in range(k):
        if capped:
            most = max(1, min(n, cap[rows[r]]))
            buckets[rows[r]] = most
            if solve_all and most < n:
                continue                  # cannot leave every candidate alone
            low = least[most]
            if low >= skip_from:
                cut = min(cut, low)
                continue
        scored[s] = r
        s += 1
    if s == k:
        srows = rows
    else:
        srows = np.empty(s, np.int64)
        for i in range(s):
            srows[i] = rows[scored[i]]
    sbuckets = np.empty(s, np.int64)
    sumsq = np.empty(s, np.int64)
    floors = np.empty(s, np.int64)          # sum of floor[|B|] over every bucket
    unused = np.empty(s, np.int64)          # largest bucket: not needed here
    # floor[m] = 2m - 1 up to n (Wordle's up to 3**L answers) makes the sum 2n - buckets
    linear = True
    for j in range(1, n + 1):
        if floor[j] != 2 * j - 1:
            linear = False
            break
    if use_columns and linear and n >= HISTOGRAM_FROM:
        bucket_counts_columns(columns, srows, candidates, n_codes, sbuckets, sumsq, 0, s)
    elif use_columns:
        bucket_stats_columns(columns, srows, candidates, floor[:0] if linear else floor,
                             floors, sbuckets, unused, sumsq, 0, s)
    else:
        bucket_stats_rows(matrix, srows, candidates, n_codes, floor, floors, sbuckets, unused,
                          sumsq, 0, s)
    if use_columns and linear:          # the counts only were computed
        for i in range(s):
            floors[i] = 2 * n - sbuckets[i]
    member = np.zeros(matrix.shape[1], np.bool_)
    for j in range(n):
        member[candidates[j]] = True
    keys = np.empty(s, np.int64)
    kept = np.empty(s, np.int64)
    m = 0
    scale = np.int64(n) * n + 1       # sumsq <= n * n
    for i in range(s):
        buckets[srows[i]] = sbuckets[i]
        a = guess_to_answer[srows[i]]
        inside = 1 if a >= 0 and member[a] else 0
        b = sbuckets[i]
        if b <= 1 and inside == 0:
            continue                  # tells nothing
        if solve_all and b != n:
            continue
        bound = n + floors[i] - inside * floor[1]     # the green bucket costs nothing more
        if beam == 0 and bound >= limit:
            cut = min(cut, bound)
            continue
        keys[m] = bound * scale + sumsq[i]
        kept[m] = i
        m += 1
    if beam == 0 and 0 < head < m:
        # the head-th least key; the keys below it, and the first of its ties (in row
        # order) up to head in all: the first head of the stable sort
        last = np.partition(keys[:m], head - 1)[head - 1]
        ties = head
        for i in range(m):
            if keys[i] < last:
                ties -= 1
        h = 0
        for i in range(m):
            if keys[i] < last or (keys[i] == last and ties > 0):
                ties -= keys[i] == last
                keys[h] = keys[i]
                kept[h] = kept[i]
                h += 1
            else:
                cut = min(cut, keys[i] // scale)
        m = h
    order = np.argsort(keys[:m], kind="mergesort")   # stable: ties keep the lower row
    if beam > 0 and m > beam:
        order = order[:beam]
    out_rows = np.empty(order.shape[0], np.int64)
    out_bounds = np.empty(order.shape[0], np.int64)
    for i in range(order.shape[0]):
        out_rows[i] = srows[kept[order[i]]]
        out_bounds[i] = keys[order[i]] // scale
    return out_rows, out_bounds, cut, buckets


@njit(cache=CACHE, **SERIAL)
def distinct_codes(matrix, rows, candidates, n_codes, out):
    """``out[r]``: the number of distinct codes of guess ``rows[r]`` over ``candidates``
    (its buckets), from a bitmask of the codes met: for a large set, cheaper than the
    histogram of :func:`~.partition.bucket_stats_rows` when there are fewer than 64
    codes per word of the mask (the same result otherwise, more slowly)."""
    words = (n_codes + 63) // 64
    seen = np.zeros(words, np.uint64)
    one = np.uint64(1)
    for r in range(rows.shape[0]):
        row = matrix[rows[r]]
        seen[:] = 0
        for k in range(candidates.shape[0]):
            code = np.int64(row[candidates[k]])
            seen[code >> 6] |= one << np.uint64(code & 63)
        b = 0
        for w in range(words):
            x = seen[w]
            while x:                    # clear the lowest set bit
                x &= x - one
                b += 1
        out[r] = b



@njit(cache=CACHE, **SERIAL)
def unisolated(ordered, starts, matrix, answer_to_guess, stamps, out):
    """``out[k] = 1`` where group k, ``ordered[starts[k]:starts[k + 1]]`` (as
    :func:`~.partition.group_by_code` gives them), holds three or more answers none of
    which, as a guess, gives each answer of the group a code of its own, else 0. Returns
    the number of ones. ``stamps``: scratch (see
    :func:`~.worst.stamped_separator`).

    Only a tree opening with such a guess totals ``2m - 1`` over a group of m answers;
    every other needs at least 2m."""
    count = 0
    for k in range(starts.shape[0] - 1):
        group = ordered[starts[k]:starts[k + 1]]
        out[k] = group.shape[0] >= 3 and stamped_separator(
            matrix, group, answer_to_guess[group], stamps) < 0
        count += out[k]
    return count


@njit(cache=CACHE, **SERIAL)
def imperfect_groups(row, bucket, matrix, answer_to_guess, stamps):
    """How many of the groups that the guess whose codes are ``row`` makes of ``bucket``
    (ascending answer indices) hold three or more answers, none of which isolates the
    others (:func:`unisolated`): each such group of k answers needs at least 2k total
    guesses, not 2k - 1. The winning code's group, the guess alone, never counts.
    ``stamps``: scratch (see :func:`~.worst.stamped_separator`)."""
    ordered, _, starts = group_by_code(row, bucket)
    return unisolated(ordered, starts, matrix, answer_to_guess, stamps,
                      np.empty(starts.shape[0] - 1, np.int64))
