"""Partition statistics: how each guess row splits a candidate set into pattern buckets.

All sums are integers, so results do not depend on the order of the buckets and ties
between guesses are exact. The entropy uses a table ``xlogx[c] = round(c * log2(c) * 2**s)``
built by the caller: ``H = log2(n) - sum(xlogx[count]) / 2**s / n``.

Each kernel comes as a serial function over a range of rows (``*_rows``) and a parallel
one that splits all rows into chunks and runs the serial one on each; both give the same
bits, and the drivers pick one by the size of the work.
"""

import numpy as np

from ._config import CACHE, PARALLEL, SERIAL, njit, prange


@njit(cache=CACHE, **SERIAL)
def bucket_stats_rows(matrix, rows, candidates, n_codes, xlogx, out_xlogx, out_buckets,
                      out_largest, out_sumsq, lo, hi):
    """For each selected guess row ``rows[lo:hi]``, reduce the bucket sizes over the
    candidate columns (the serial twin of :func:`bucket_stats`).

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
        squared sizes (``sumsq / n`` is the expected number of candidates left); only
        entries ``lo:hi`` are written.
    lo, hi : int
        The results to compute.
    """
    n = candidates.shape[0]
    sweep_codes = n_codes <= n
    hist = np.zeros(n_codes, np.int64)
    for r in range(lo, hi):
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


#: Rows of one block of :func:`bucket_stats_columns`: its working set (candidates x BLOCK
#: codes and counts) stays in the first-level cache.
BLOCK = 512
#: Largest candidate set :func:`bucket_stats_columns` accepts (bucket sizes are uint8).
COLUMNS_LIMIT = 255


@njit(cache=CACHE, **SERIAL)
def _gather_codes(columns, rows, candidates, codes, start, m):
    """``codes[k, i] = columns[candidates[k], rows[start + i]]`` for i < m: a copy when
    the rows are consecutive (every guess, in normal mode), else a gather."""
    base = rows[start]
    consecutive = True
    for i in range(1, m):
        if rows[start + i] != base + i:
            consecutive = False
            break
    for k in range(candidates.shape[0]):
        column = columns[candidates[k]]
        ck = codes[k]
        if consecutive:
            ck[:m] = column[base:base + m]
        else:
            for i in range(m):
                ck[i] = column[rows[start + i]]


@njit(cache=CACHE, **SERIAL)
def _bucket_leaders(codes, first, total, add, n, m):
    """Compare the n candidates' codes pairwise over rows i < m: ``first[k, i]`` = 1 when
    no earlier candidate has candidate k's code, and ``total[j, i]`` (preset by the caller)
    gains ``add[k]`` for every later k with j's code, in candidate order: for a first
    candidate, the total of its bucket."""
    first[:, :m] = 1
    for j in range(n):
        cj = codes[j]
        tj = total[j]
        for k in range(j + 1, n):
            ck = codes[k]
            fk = first[k]
            ak = add[k]
            for i in range(m):
                same = cj[i] == ck[i]
                tj[i] += ak if same else 0
                fk[i] &= np.uint8(not same)


@njit(cache=CACHE, **SERIAL)
def bucket_stats_columns(columns, rows, candidates, xlogx, out_xlogx, out_buckets, out_largest,
                         out_sumsq, lo, hi):
    """:func:`bucket_stats_rows` for a small candidate set, from the answer-major matrix.

    A tree search scores every guess over a handful of candidates at each node. Read from
    the guess-major matrix, each (guess, candidate) code costs a cache line; here each
    candidate's codes over all guesses are one contiguous row of ``columns``. Bucket sizes
    come from comparing the candidates' codes pairwise, vectorised over blocks of guess
    rows (:func:`_bucket_leaders`): each bucket is counted at its first candidate, whose
    size is one plus the number of later candidates with the same code. The sums
    are the integers of :func:`bucket_stats_rows`, so the results are identical.

    Parameters
    ----------
    columns : uint[n_answers, n_guesses]
        The pattern matrix transposed, C-contiguous.
    rows : int64[k]
        Guess rows to score (a block of consecutive rows is copied rather than gathered).
    candidates : int64[n]
        Answer rows of ``columns`` forming the candidate set, 1 <= n <= COLUMNS_LIMIT.
    xlogx, out_xlogx, out_buckets, out_largest, out_sumsq, lo, hi
        As in :func:`bucket_stats_rows`; an empty ``xlogx`` computes only ``out_buckets``
        and ``out_sumsq`` (``out_xlogx`` and ``out_largest`` are set to 0), in 32-bit
        lanes the compiler vectorises: a search node needs no more.
    """
    # with a table, 64-bit sums; without one, buckets and squares (at most 255 and 255**2)
    # in 32-bit lanes, which the compiler vectorises twice as wide
    if xlogx.shape[0] > 0:
        _stats_columns(columns, rows, candidates, xlogx, out_xlogx, out_buckets, out_largest,
                       out_sumsq, lo, hi, np.int64(0))
    else:
        _stats_columns(columns, rows, candidates, xlogx, out_xlogx, out_buckets, out_largest,
                       out_sumsq, lo, hi, np.int32(0))


@njit(cache=CACHE, **SERIAL)
def _stats_columns(columns, rows, candidates, xlogx, out_xlogx, out_buckets, out_largest,
                   out_sumsq, lo, hi, zero):
    """:func:`bucket_stats_columns` with each block's sums in the integer type of ``zero``;
    an empty ``xlogx`` leaves the sums of ``xlogx`` and the largest bucket at 0."""
    n = candidates.shape[0]
    codes = np.empty((n, BLOCK), columns.dtype)
    size = np.empty((n, BLOCK), np.uint8)       # at a first candidate: its bucket's size
    first = np.empty((n, BLOCK), np.uint8)      # 1 if no earlier candidate shares its code
    ones = np.ones(n, np.uint8)
    table = xlogx.shape[0] > 0
    sums = np.full(BLOCK, zero)
    buckets = np.full(BLOCK, zero)
    largest = np.full(BLOCK, zero)
    squares = np.full(BLOCK, zero)
    for start in range(lo, hi, BLOCK):
        m = min(hi, start + BLOCK) - start
        _gather_codes(columns, rows, candidates, codes, start, m)
        size[:, :m] = 1
        _bucket_leaders(codes, first, size, ones, n, m)
        sums[:m] = 0
        buckets[:m] = 0
        largest[:m] = 0
        squares[:m] = 0
        for k in range(n):
            sk = size[k]
            fk = first[k]
            for i in range(m):
                z = np.int64(sk[i]) * fk[i]     # the bucket's size, at its first candidate
                squares[i] += z * z
                buckets[i] += fk[i]
                if table:
                    largest[i] = max(largest[i], z)
                    sums[i] += xlogx[z]
        for i in range(m):
            out_xlogx[start + i] = sums[i]
            out_buckets[start + i] = buckets[i]
            out_largest[start + i] = largest[i]
            out_sumsq[start + i] = squares[i]


@njit(cache=CACHE, **SERIAL)
def bucket_counts_columns(columns, rows, candidates, n_codes, out_buckets, out_sumsq, lo, hi):
    """``out_buckets`` and ``out_sumsq`` of :func:`bucket_stats_columns` with an empty
    table, by a histogram per guess: each candidate's code is counted as it comes (a new
    bucket when its count was 0; the square grows by ``2 count + 1``), then the counts it
    touched are reset. Linear in the candidates where the pairwise comparison is
    quadratic: faster from about 32 candidates on.

    Parameters
    ----------
    columns, rows, candidates, lo, hi
        As in :func:`bucket_stats_columns` (any number of candidates).
    n_codes : int
        Codes are below it (one-byte codes are safe whatever it is).
    out_buckets, out_sumsq : int64[k]
    """
    n = candidates.shape[0]
    codes = np.empty((n, BLOCK), columns.dtype)
    count = np.zeros(256 if columns.itemsize == 1 else n_codes, np.int32)
    for start in range(lo, hi, BLOCK):
        m = min(hi, start + BLOCK) - start
        _gather_codes(columns, rows, candidates, codes, start, m)
        for i in range(m):
            buckets = 0
            square = 0
            for k in range(n):
                c = codes[k, i]
                h = count[c]
                buckets += h == 0
                square += 2 * h + 1
                count[c] = h + 1
            for k in range(n):
                count[codes[k, i]] = 0
            out_buckets[start + i] = buckets
            out_sumsq[start + i] = square


@njit(cache=CACHE, **PARALLEL)
def bucket_stats(matrix, rows, candidates, n_codes, xlogx, out_xlogx, out_buckets,
                 out_largest, out_sumsq, n_chunks):
    """:func:`bucket_stats_rows` over all ``rows``, ``n_chunks`` chunks in parallel."""
    n_rows = rows.shape[0]
    per_chunk = (n_rows + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        bucket_stats_rows(matrix, rows, candidates, n_codes, xlogx, out_xlogx, out_buckets,
                          out_largest, out_sumsq, chunk * per_chunk,
                          min(n_rows, (chunk + 1) * per_chunk))


@njit(cache=CACHE, **SERIAL)
def weighted_entropy_rows(matrix, rows, candidates, weights, n_codes, out, lo, hi):
    """Entropy in bits of the feedback of each row ``rows[lo:hi]`` when candidate k has
    weight weights[k] (the serial twin of :func:`weighted_entropy`).

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
        Only entries ``lo:hi`` are written.
    lo, hi : int
    """
    n = candidates.shape[0]
    total = 0.0
    for k in range(n):
        total += weights[k]
    sweep_codes = n_codes <= n
    mass = np.zeros(n_codes, np.float64)
    for r in range(lo, hi):
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


@njit(cache=CACHE, **SERIAL)
def weighted_entropy_columns(columns, rows, candidates, weights, out, lo, hi):
    """:func:`weighted_entropy_rows` for a small candidate set, from the answer-major
    matrix (see :func:`bucket_stats_columns`).

    The mass of candidate k's bucket is its weight plus those of the later candidates with
    the same code, added in candidate order; buckets enter the entropy in the order of
    their first candidate. For fewer candidates than codes that is the order of
    :func:`weighted_entropy_rows`, so the floats are bit for bit the same.

    Parameters
    ----------
    columns : uint[n_answers, n_guesses]
    rows : int64[k]
    candidates : int64[n]
        1 <= n <= COLUMNS_LIMIT.
    weights : float64[n]
    out : float64[k]
    lo, hi : int
    """
    n = candidates.shape[0]
    total = 0.0
    for k in range(n):
        total += weights[k]
    codes = np.empty((n, BLOCK), columns.dtype)
    mass = np.empty((n, BLOCK), np.float64)
    first = np.empty((n, BLOCK), np.uint8)
    acc = np.empty(BLOCK, np.float64)
    for start in range(lo, hi, BLOCK):
        m = min(hi, start + BLOCK) - start
        _gather_codes(columns, rows, candidates, codes, start, m)
        for k in range(n):
            mass[k, :m] = weights[k]
        _bucket_leaders(codes, first, mass, weights, n, m)
        acc[:m] = 0.0
        for k in range(n):
            mk = mass[k]
            fk = first[k]
            for i in range(m):
                if fk[i] and mk[i] > 0.0:
                    p = mk[i] / total
                    acc[i] -= p * np.log2(p)
        out[start:start + m] = acc[:m]


@njit(cache=CACHE, **PARALLEL)
def weighted_entropy(matrix, rows, candidates, weights, n_codes, out, n_chunks):
    """:func:`weighted_entropy_rows` over all ``rows``, ``n_chunks`` chunks in parallel."""
    n_rows = rows.shape[0]
    per_chunk = (n_rows + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        weighted_entropy_rows(matrix, rows, candidates, weights, n_codes, out,
                              chunk * per_chunk, min(n_rows, (chunk + 1) * per_chunk))


@njit(cache=CACHE, **SERIAL)
def group_by_code(row, candidates):
    """The candidates grouped by their code in ``row`` (one guess's row of the matrix).

    Parameters
    ----------
    row : uint[n_answers]
    candidates : int64[n]
        Ascending answer indices.

    Returns
    -------
    ordered : int64[n]
        The candidates by code, ascending within a code.
    codes : int64[b]
        The codes met, ascending.
    starts : int64[b + 1]
        Group k is ``ordered[starts[k]:starts[k + 1]]``.
    """
    n = candidates.shape[0]
    keys = np.empty(n, np.int64)
    for j in range(n):
        keys[j] = row[candidates[j]]
    order = np.argsort(keys, kind="mergesort")       # stable: candidates stay ascending
    ordered = np.empty(n, np.int64)
    codes = np.empty(n, np.int64)
    starts = np.empty(n + 1, np.int64)
    b = 0
    for j in range(n):
        k = keys[order[j]]
        ordered[j] = candidates[order[j]]
        if j == 0 or k != codes[b - 1]:
            codes[b] = k
            starts[b] = j
            b += 1
    starts[b] = n
    return ordered, codes[:b], starts[:b + 1]
