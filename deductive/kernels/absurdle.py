"""The adversary's choice in Absurdle: for each guess, the bucket it keeps.

For each guess row, the candidates are counted by feedback code and the adversary keeps the
largest bucket; among buckets of equal size, the code of least ``rank`` (the caller's tie
rule, one distinct rank per code). Serial per row (the counts are a small per-row buffer);
the parallel driver gives each chunk of rows its own buffer.
"""

import numpy as np

from ._config import CACHE, PARALLEL, SERIAL, njit, prange


@njit(cache=CACHE, **SERIAL)
def adversary_rows(matrix, rows, cands, rank, out_code, out_size, lo, hi):
    """For ``rows[lo:hi]``: the code the adversary answers (``out_code``) and how many
    candidates its bucket keeps (``out_size``).

    Parameters
    ----------
    matrix : uint[n_guesses, n_answers]
        Feedback codes.
    rows, cands : int64 arrays
        Guess rows to score, candidate answer columns (non-empty).
    rank : int64[n_codes]
        Tie rule: among equal sizes, the least rank wins.
    """
    counts = np.zeros(rank.shape[0], np.int64)
    for j in range(lo, hi):
        row = matrix[rows[j]]
        for a in cands:
            counts[row[a]] += 1
        best, size = -1, 0
        for a in cands:
            c = row[a]
            k = counts[c]
            if k > size or (k == size and rank[c] < rank[best]):
                best, size = c, k
        for a in cands:
            counts[row[a]] = 0
        out_code[j] = best
        out_size[j] = size
    return out_code


@njit(cache=CACHE, **PARALLEL)
def adversary_matrix(matrix, rows, cands, rank, out_code, out_size, n_chunks):
    """:func:`adversary_rows` over every row, ``n_chunks`` chunks in parallel."""
    n = rows.shape[0]
    per_chunk = (n + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        adversary_rows(matrix, rows, cands, rank, out_code, out_size, chunk * per_chunk,
                       min(n, (chunk + 1) * per_chunk))
    return out_code
