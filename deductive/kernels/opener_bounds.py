"""Kernels of the depth-two bound of openers (:func:`deductive.engine.feedback.search.
opener_bounds`): for each bucket an opener leaves, the best split any next guess makes of it
(plain, or refined by the groups no answer of which isolates the others), its guesses scored
block by block in the order of their caps so that a bucket's scoring stops early.
"""

import numpy as np

from ._config import CACHE, PARALLEL, SERIAL, njit, prange
from .partition import BLOCK, bucket_stats_columns, bucket_stats_rows
from .search import distinct_codes, imperfect_groups



@njit(cache=CACHE, **SERIAL)
def _block_scratch(m):
    """The work arrays of :func:`_block_buckets` for a bucket of m answers."""
    return np.empty(BLOCK, np.int64), np.zeros(0, np.int64), np.zeros(m + 1, np.int64)


@njit(cache=CACHE, **SERIAL)
def _block_buckets(matrix, columns, use_columns, block, bucket, n_codes, scratch, out):
    """``out[i]``: the buckets guess ``block[i]`` makes of ``bucket`` (a block of at most
    :data:`BLOCK` rows): from the answer-major ``columns``, from a bitmask of codes when it
    is smaller than the bucket, else from a histogram."""
    unused, no_table, xlogx = scratch   # bucket_stats_* want a table: the counts only here
    k = block.shape[0]
    if use_columns:
        bucket_stats_columns(columns, block, bucket, no_table, unused, out, unused, unused,
                             0, k)
    elif (n_codes + 63) // 64 <= bucket.shape[0]:
        distinct_codes(matrix, block, bucket, n_codes, out)
    else:
        bucket_stats_rows(matrix, block, bucket, n_codes, xlogx, unused, out, unused, unused,
                          0, k)


@njit(cache=CACHE, **SERIAL)
def _splits(matrix, columns, use_columns, rows, caps, start, enough, track, bucket, member,
            guess_to_answer, n_codes, split):
    """``split[r] = buckets(rows[r]) + [rows[r] in bucket]`` (``member`` marks the
    bucket's answers) for r from ``start``, block by block. Returns where it stopped.

    Stops after the first block holding a split of ``len(bucket) + 1``, the most there
    is. With ``caps`` (int64[n_guesses]: each guess's buckets over a superset of the
    bucket, such as all the answers; ``rows`` by ``caps`` descending; empty: none), also
    before the first row, checked as each block is cut, that cannot split more than
    ``enough`` (nor, with ``track``, than the best split met when the block starts):
    ``min(len(bucket), caps[row]) + 1`` at most that. The rows past it split no more than
    that either: on poor openers' large buckets, most rows."""
    m = bucket.shape[0]
    n_rows = rows.shape[0]
    capped = caps.shape[0] > 0
    buckets = np.empty(BLOCK, np.int64)
    scratch = _block_scratch(m)
    pos = start
    while pos < n_rows:
        stop = min(n_rows, pos + BLOCK)
        if capped:
            end = pos
            while end < stop and min(m, caps[rows[end]]) + 1 > enough:
                end += 1
            if end == pos:
                return pos
            stop = end
        block = rows[pos:stop]
        _block_buckets(matrix, columns, use_columns, block, bucket, n_codes, scratch, buckets)
        perfect = False
        for i in range(stop - pos):
            a = guess_to_answer[block[i]]
            split[pos + i] = buckets[i] + (1 if a >= 0 and member[a] else 0)
            perfect |= split[pos + i] > m
            if track:
                enough = max(enough, split[pos + i])
        if perfect:
            return stop
        pos = stop
    return n_rows



@njit(cache=CACHE, **SERIAL)
def refined_split(matrix, columns, use_columns, rows, caps, bucket, member, guess_to_answer,
                   answer_to_guess, n_codes, stamps, split):
    """The refined depth-two bound of a bucket of m answers: ``min over h of 3m - [h in
    bucket] - buckets(h) + imperfect(h)`` over the guesses ``rows``, imperfect(h) from
    :func:`imperfect_groups`. The guesses are scored by :func:`_splits` (up to those
    ``caps`` shows cannot split more than the best); the best split is refined, then
    every other guess whose plain bound is below the best refined value so far (refining
    only raises a bound), scoring further down ``rows`` while ``caps`` allows that."""
    m = bucket.shape[0]
    if rows.shape[0] == 0:
        return 3 * m                            # no guess allowed: no tree
    end = _splits(matrix, columns, use_columns, rows, caps, 0, 0, True, bucket, member,
                  guess_to_answer, n_codes, split)
    top = np.argmax(split[:end])                # the best split first: a low ceiling
    if split[top] > m:
        return 2 * m - 1                        # every answer isolated: the least
    best = 3 * m - split[top] + imperfect_groups(matrix[rows[top]], bucket, matrix,
                                                 answer_to_guess, stamps)
    done = 0
    while done < end:
        for r in range(done, end):
            if 3 * m - split[r] < best:         # only these can refine below it
                refined = 3 * m - split[r] + imperfect_groups(
                    matrix[rows[r]], bucket, matrix, answer_to_guess, stamps)
                if refined < best:
                    best = refined
        # the rows past `end` split at most split[top]: those that may split more than
        # 3m - best (a plain bound below it), if any
        done, end = end, _splits(matrix, columns, use_columns, rows, caps, end,
                                 3 * m - best, False, bucket, member, guess_to_answer,
                                 n_codes, split)
    return best


@njit(cache=CACHE, **SERIAL)
def joint_splits(matrix, rows, answers, lo, hi, guess_to_answer, slot_of, n_codes, best):
    """``best[k]``: the best split of bucket k, ``max over r of buckets(rows[r]) + [rows[r]
    in bucket k]``, for the buckets ``answers[lo[k]:hi[k]]``, all in one pass over the rows
    (``slot_of[a]``: the bucket of answer a, or -1).

    Scoring bucket by bucket reads every guess row once per bucket; here each row is read
    once for them all, and two rows at a time keep two independent chains of work in
    flight. A bucket's codes are counted by stamping a mark per code (no mask to clear
    or count). For the mid-sized buckets of an opener (no guess splits them perfectly, so
    every row is scored): half the time of scoring them one by one."""
    n_slots = lo.shape[0]
    mark0 = np.full(n_codes, -1, np.int64)
    mark1 = np.full(n_codes, -1, np.int64)
    best[:n_slots] = 0
    stamp = 0
    n_rows = rows.shape[0]
    for r in range(0, n_rows, 2):
        h0 = rows[r]
        h1 = rows[min(r + 1, n_rows - 1)]     # an odd last row is scored twice
        row0, row1 = matrix[h0], matrix[h1]
        a0, a1 = guess_to_answer[h0], guess_to_answer[h1]
        own0 = slot_of[a0] if a0 >= 0 else -1
        own1 = slot_of[a1] if a1 >= 0 else -1
        for k in range(n_slots):
            stamp += 1
            b0 = 1 if k == own0 else 0
            b1 = 1 if k == own1 else 0
            for i in range(lo[k], hi[k]):
                a = answers[i]
                c0, c1 = np.int64(row0[a]), np.int64(row1[a])
                b0 += mark0[c0] != stamp
                mark0[c0] = stamp
                b1 += mark1[c1] != stamp
                mark1[c1] = stamp
            best[k] = max(best[k], b0, b1)


@njit(cache=CACHE, **SERIAL)
def _joint_excess(matrix, rows, order, ends, sizes, codes, guess_to_answer, n_codes, slot_of):
    """What the buckets ``codes`` of an opener (answers by code in ``order``, bucket c
    ending at ``ends[c]``, of ``sizes[c]`` answers) add to the bound above 2m - 1 each,
    their best splits over ``rows`` scored together (:func:`joint_splits`, reading them
    where they lie in ``order``)."""
    hi = ends[codes]
    lo = hi - sizes[codes]
    for j in range(codes.shape[0]):           # bucket j is order[lo[j]:hi[j]]
        slot_of[order[lo[j]:hi[j]]] = j
    best = np.zeros(codes.shape[0], np.int64)
    joint_splits(matrix, rows, order, lo, hi, guess_to_answer, slot_of, n_codes, best)
    excess = 0
    for j in range(codes.shape[0]):
        slot_of[order[lo[j]:hi[j]]] = -1
        m = hi[j] - lo[j]
        excess += 3 * m - best[j] - (2 * m - 1)
    return excess


@njit(cache=CACHE, **SERIAL)
def opener_bounds_rows(matrix, columns, columns_max, joint_min, joint_max, openers, rows,
                       by_cap, row_lo, row_hi, caps, guess_to_answer, answer_to_guess, n_codes,
                       win, refine, target, out, lo, hi):
    """Depth-two lower bound of the total of each opener ``openers[lo:hi]`` (the serial
    twin of :func:`opener_bounds`).

    The opener splits the answers into buckets; a tree needs n guesses for the opener,
    then for each non-green bucket B of m answers 1 (m = 1), 3 (m = 2) or, from its best
    achievable split, ``min over h of 3m - [h in B] - buckets(h)`` (the next guess for all
    m, then at least two more for every answer it does not find or isolate). Buckets are
    bounded largest first, the others counted at 2m - 1 meanwhile; once the bound reaches
    ``target`` the rest are left at that (the bound is then at least ``target``, enough
    to rule the opener out).

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
    columns : uint[n_answers, n_guesses]
        The answer-major matrix (buckets of at most ``columns_max`` answers are scored from
        it; pass ``columns_max = 0`` and any 2-d array to score from ``matrix`` only).
    columns_max : int
        At most 255.
    joint_min, joint_max : int
        Without ``refine``, when every code has the same rows, the buckets of more than
        ``joint_min`` and at most ``joint_max`` answers are scored together, in one pass
        over the rows (:func:`joint_splits`), when the largest of them comes up; the same
        bounds. ``joint_max <= joint_min``: one by one.
    openers : int64[k]
        Guess rows to bound.
    rows, row_lo, row_hi : int64[r], int64[n_codes], int64[n_codes]
        The guesses allowed after the opener got code c are ``rows[row_lo[c]:row_hi[c]]``
        (every guess for every code: the bound of normal mode, and a weaker one for hard
        mode; hard mode's own guesses, bounding one opener per call: its own bound). A
        bucket with no guess allowed has no tree; its bound is then 3m, as good as any.
    by_cap, caps : int64[r], int64[n_guesses] or int64[0]
        ``caps``: each guess's buckets over all the answers; ``by_cap``: ``rows`` with each
        ``[row_lo[c]:row_hi[c]]`` ordered by it, descending. A bucket of more than
        ``columns_max`` answers is scored in that order and stops at the first guess that
        cannot split it better than the best found (:func:`_splits`): most guesses, on a
        poor opener's largest buckets. A smaller one is scored in the order of ``rows``
        (from ``columns``, faster when the rows ascend). Empty ``caps``: every guess.
    guess_to_answer, answer_to_guess : int64[n_guesses], int64[n_answers]
    n_codes, win : int
        Size of the code alphabet and the winning code.
    refine : bool
        Count each bucket by :func:`refined_split` (a guess's groups of three or more
        answers that no answer of theirs splits into singletons count one more each)
        instead of its best split alone: a stronger bound at about the same cost.
    target : int
        Stop refining an opener's bound once it reaches this.
    out : int64[k]
        Only entries ``lo:hi`` are written.
    """
    n = matrix.shape[1]
    count = np.zeros(n_codes + 1, np.int64)
    stamps = np.zeros(n_codes + 1, np.int64)
    order = np.empty(n, np.int64)
    member = np.zeros(n, np.bool_)
    slot_of = np.full(n, -1, np.int64)
    sizes = np.empty(n_codes, np.int64)
    split = np.empty(matrix.shape[0], np.int64)
    joint = not refine and joint_max > joint_min
    for c in range(n_codes):            # together only over the same rows
        joint &= row_lo[c] == row_lo[0] and row_hi[c] == row_hi[0]
    for i in range(lo, hi):
        row = matrix[openers[i]]
        count[:] = 0
        for a in range(n):
            count[row[a] + 1] += 1
        for c in range(n_codes):
            sizes[c] = count[c + 1]
            count[c + 1] += count[c]
        for a in range(n):              # answers by code, ascending within a bucket
            order[count[row[a]]] = a
            count[row[a]] += 1
        total = n                       # count[c] is now the end of bucket c
        for c in range(n_codes):
            if sizes[c] > 0 and c != win:
                total += 2 * sizes[c] - 1
        by_size = np.argsort(-sizes, kind="mergesort")    # largest first, then by code
        together = False
        for c in by_size:
            m = sizes[c]
            if m < 3 or total >= target:
                break
            if c == win:
                continue
            if joint and joint_min < m <= joint_max:
                if not together:        # the largest of them: all of them, now
                    together = True
                    least = max(joint_min, 2)   # one or two answers: 1 or 3, no split
                    mid = by_size[(sizes[by_size] > least) & (sizes[by_size] <= joint_max)
                                  & (by_size != win)]
                    total += _joint_excess(matrix, rows[row_lo[0]:row_hi[0]], order, count,
                                           sizes, mid, guess_to_answer, n_codes, slot_of)
                continue
            bucket = order[count[c] - m:count[c]]
            for j in range(m):
                member[bucket[j]] = True
            small = m <= columns_max or caps.shape[0] == 0
            allowed = (rows if small else by_cap)[row_lo[c]:row_hi[c]]
            capped = caps[:0] if small else caps
            if refine:
                low = refined_split(matrix, columns, m <= columns_max, allowed, capped,
                                     bucket, member, guess_to_answer, answer_to_guess,
                                     n_codes, stamps, split)
            else:
                done = _splits(matrix, columns, m <= columns_max, allowed, capped, 0, 0, True,
                               bucket, member, guess_to_answer, n_codes, split)
                low = 3 * m - (split[:done].max() if done else 0)
            for j in range(m):
                member[bucket[j]] = False
            total += low - (2 * m - 1)  # from 2m - 1 to the bucket's bound
        out[i] = total


@njit(cache=CACHE, **PARALLEL)
def opener_bounds(matrix, columns, columns_max, joint_min, joint_max, openers, rows, by_cap,
                  row_lo, row_hi, caps, guess_to_answer, answer_to_guess, n_codes, win, refine,
                  target, out, n_chunks):
    """:func:`opener_bounds_rows` over all ``openers``, ``n_chunks`` chunks in parallel."""
    k = openers.shape[0]
    per_chunk = (k + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        opener_bounds_rows(matrix, columns, columns_max, joint_min, joint_max, openers, rows,
                           by_cap, row_lo, row_hi, caps, guess_to_answer, answer_to_guess,
                           n_codes, win, refine, target, out, chunk * per_chunk,
                           min(k, (chunk + 1) * per_chunk))
