"""Partition statistics: how each guess row splits a candidate set into pattern buckets.

All sums are integers, so results do not depend on the order of the buckets and ties
between guesses are exact. The entropy uses a table ``xlogx[c] = round(c * log2(c) * 2**s)``
built by the caller: ``H = log2(n) - sum(xlogx[count]) / 2**s / n``.
"""

import numpy as np

from ._config import CACHE, PARALLEL, njit, prange


@njit(cache=CACHE, **PARALLEL)
def bucket_stats(matrix, rows, candidates, n_codes, xlogx, out_xlogx, out_buckets,
                 out_largest, out_sumsq, n_chunks):
    """For each selected guess row, reduce the bucket sizes over the candidate columns.

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
        Pattern codes.
    rows : int64[k]
        Guess rows to score; result ``r`` belongs to ``rows[r]``.
    candidates : int64[n]
        Answer columns forming the candidate set (may be empty).
    n_codes : int
        Number of possible codes (``3**L``).
    xlogx : int64[n + 1]
        Fixed-point ``c * log2(c)`` table.
    out_xlogx, out_buckets, out_largest, out_sumsq : int64[k]
        Sum of ``xlogx[size]``, number of non-empty buckets, largest bucket, and sum of
        squared sizes (``sumsq / n`` is the expected number of candidates left).
    """
    n_rows = rows.shape[0]
    n = candidates.shape[0]
    per_chunk = (n_rows + n_chunks - 1) // n_chunks
    sweep_codes = n_codes <= n
    for chunk in prange(n_chunks):
        hist = np.zeros(n_codes, np.int64)
        stop = min(n_rows, (chunk + 1) * per_chunk)
        for r in range(chunk * per_chunk, stop):
            row = matrix[rows[r]]
            for k in range(n):
                hist[row[candidates[k]]] += 1
            # visit each bucket once: sweep the code range when it is short, else revisit
            # the row's codes (emptying each bucket as it is counted)
            s = 0
            buckets = 0
            largest = 0
            sumsq = 0
            for k in range(n_codes if sweep_codes else n):
                code = k if sweep_codes else row[candidates[k]]
                size = hist[code]
                if size > 0:
                    s += xlogx[size]
                    buckets += 1
                    largest = max(largest, size)
                    sumsq += size * size
                    hist[code] = 0
            out_xlogx[r] = s
            out_buckets[r] = buckets
            out_largest[r] = largest
            out_sumsq[r] = sumsq


@njit(cache=CACHE, **PARALLEL)
def weighted_entropy(matrix, rows, candidates, weights, n_codes, out, n_chunks):
    """Entropy in bits of each selected row's feedback when candidate k has weight weights[k].

    Buckets are summed in code order (or in first-occurrence order when the code range is
    longer than the candidate set), so results are deterministic for a given input.

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
    rows : int64[k]
    candidates : int64[n]
    weights : float64[n]
        Non-negative weights aligned with ``candidates``; their sum must be positive.
    n_codes : int
    out : float64[k]
    """
    n_rows = rows.shape[0]
    n = candidates.shape[0]
    total = 0.0
    for k in range(n):
        total += weights[k]
    per_chunk = (n_rows + n_chunks - 1) // n_chunks
    sweep_codes = n_codes <= n
    for chunk in prange(n_chunks):
        mass = np.zeros(n_codes, np.float64)
        stop = min(n_rows, (chunk + 1) * per_chunk)
        for r in range(chunk * per_chunk, stop):
            row = matrix[rows[r]]
            for k in range(n):
                mass[row[candidates[k]]] += weights[k]
            h = 0.0
            for k in range(n_codes if sweep_codes else n):
                code = k if sweep_codes else row[candidates[k]]
                m = mass[code]
                if m > 0.0:
                    p = m / total
                    h -= p * np.log2(p)
                    mass[code] = 0.0
            out[r] = h
