"""The Wordle feedback kernel: the guess x answer matrix of pattern codes.

A pattern code is ``sum(fb[i] * 3**i)`` with ``fb[i]`` in {0 grey, 1 yellow, 2 green} and
position 0 the least significant digit. Repeated letters follow Wordle's rule: greens
first, then yellows from left to right while unmatched copies of the letter remain in
the answer.

For one guess the kernel works column-wise over all answers (the long, contiguous axis):

* the number of copies of letter ``c`` that the answer can still offer as yellows is the
  number of answer positions ``j`` with ``answer[j] == c`` where the guess does not have
  ``c`` (where it does, a match there is green and consumes that copy); this needs only
  scalar tests on the guess, so it is a plain sum of comparisons over answers;
* walking the guess positions left to right, a position is green if the answer has the
  same letter there, else yellow while that count is positive (and the count drops).
"""

import numpy as np

from ._config import CACHE, PARALLEL, SERIAL, njit, prange

#: Bump when the meaning of a code changes: it invalidates every cached matrix.
KERNEL_VERSION = 1


@njit(cache=CACHE, **SERIAL)
def fill_pattern_rows(guess_codes, answer_columns, out, lo, hi):
    """Fill rows ``lo:hi`` of ``out``: the serial twin of :func:`fill_pattern_matrix`.

    ``out[g, a]`` is the pattern code of guess ``g`` against answer ``a``.

    Parameters
    ----------
    guess_codes : uint8[n_guesses, L]
        Letters of the guesses (0-25).
    answer_columns : uint8[L, n_answers]
        Letters of the answers, position-major (each row contiguous over answers).
    out : uint8/uint16/uint32[n_guesses, n_answers]
        C-contiguous output; only rows ``lo:hi`` are written.
    lo, hi : int
        The guess rows to fill.
    """
    length = guess_codes.shape[1]
    n_answers = answer_columns.shape[1]
    # copies of each distinct guess letter still free in each answer, one row per slot
    free = np.empty((length, n_answers), np.uint8)
    slot = np.empty(length, np.int64)
    for g in range(lo, hi):
        letters = guess_codes[g]
        for i in range(length):
            c = letters[i]
            slot[i] = i
            for k in range(i):
                if letters[k] == c:
                    slot[i] = slot[k]
                    break
            if slot[i] != i:
                continue
            counts = free[i]
            counts[:] = 0
            for j in range(length):
                if letters[j] != c:
                    column = answer_columns[j]
                    for a in range(n_answers):
                        counts[a] += column[a] == c
        row = out[g]
        row[:] = 0
        weight = 1
        for i in range(length):
            c = letters[i]
            column = answer_columns[i]
            counts = free[slot[i]]
            for a in range(n_answers):
                green = column[a] == c
                yellow = (not green) & (counts[a] > 0)
                counts[a] -= yellow
                row[a] += 2 * weight * green + weight * yellow
            weight *= 3
    return out


@njit(cache=CACHE, **PARALLEL)
def fill_pattern_matrix(guess_codes, answer_columns, out, n_chunks):
    """Fill all of ``out`` (see :func:`fill_pattern_rows`), ``n_chunks`` chunks of guess
    rows in parallel; each chunk writes only its own rows."""
    n_guesses = guess_codes.shape[0]
    per_chunk = (n_guesses + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        fill_pattern_rows(guess_codes, answer_columns, out, chunk * per_chunk,
                          min(n_guesses, (chunk + 1) * per_chunk))
    return out
