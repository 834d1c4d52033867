"""Kernels of the exact tree search (:mod:`deductive.engine.feedback.search`).

A node of the search scores every allowed guess over its candidate set and tries them in
the order of an admissible lower bound. Everything per guess happens here, in one call per
node: the split counts (buckets and sum of squared bucket sizes), the bound
``3n - [g in S] - buckets``, the guesses worth trying, and their order. Only the guesses
whose bound is below the node's ceiling come back, so the interpreter loops over a few
guesses rather than over the whole list.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .partition import bucket_stats_columns, bucket_stats_rows


@njit(cache=CACHE, **SERIAL)
def split_bounds(matrix, columns, use_columns, rows, candidates, guess_to_answer, n_codes,
                 limit, solve_all, beam):
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
    limit : int
        Only guesses whose bound is below it are returned (beam: ignored).
    solve_all : bool
        Keep only guesses that leave every candidate alone in its bucket (one guess left).
    beam : int
        Keep only the first ``beam`` worth trying (0: no beam).

    Returns
    -------
    order : int64[m]
        Guess rows, by bound, then sum of squared bucket sizes, then row.
    bounds : int64[m]
        ``3n - [g in S] - buckets`` of each.
    cut : int64
        The least bound among the guesses worth trying that were left out for reaching
        ``limit`` (``2**62`` when none was).
    """
    n = candidates.shape[0]
    k = rows.shape[0]
    buckets = np.empty(k, np.int64)
    sumsq = np.empty(k, np.int64)
    unused = np.empty(k, np.int64)          # entropy and largest bucket: not needed here
    xlogx = np.zeros(n + 1, np.int64)
    if use_columns:
        bucket_stats_columns(columns, rows, candidates, xlogx, unused, buckets, unused,
                             sumsq, 0, k)
    else:
        bucket_stats_rows(matrix, rows, candidates, n_codes, xlogx, unused, buckets, unused,
                          sumsq, 0, k)
    member = np.zeros(matrix.shape[1], np.bool_)
    for j in range(n):
        member[candidates[j]] = True
    big = np.int64(1) << 62
    cut = big
    keys = np.empty(k, np.int64)
    kept = np.empty(k, np.int64)
    m = 0
    scale = np.int64(n) * n + 1       # sumsq <= n * n
    for r in range(k):
        a = guess_to_answer[rows[r]]
        inside = 1 if a >= 0 and member[a] else 0
        b = buckets[r]
        if b <= 1 and inside == 0:
            continue                  # tells nothing
        if solve_all and b != n:
            continue
        bound = 3 * n - inside - b
        if beam == 0 and bound >= limit:
            cut = min(cut, bound)
            continue
        keys[m] = bound * scale + sumsq[r]
        kept[m] = r
        m += 1
    order = np.argsort(keys[:m], kind="mergesort")   # stable: ties keep the lower row
    if beam > 0 and m > beam:
        order = order[:beam]
    out_rows = np.empty(order.shape[0], np.int64)
    out_bounds = np.empty(order.shape[0], np.int64)
    for i in range(order.shape[0]):
        r = kept[order[i]]
        out_rows[i] = rows[r]
        out_bounds[i] = keys[order[i]] // scale
    return out_rows, out_bounds, cut
