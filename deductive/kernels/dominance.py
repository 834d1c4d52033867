"""Next guesses that a set's absent letters make redundant, under Wordle's colours (for
:func:`deductive.kernels.deep_bounds.set_bound`).

A letter that no answer of a set S holds is grey wherever a guess puts it, and it changes
no other letter's colour. So take a guess g whose letters at the positions D are all
absent from S, and a guess q that agrees with g at its other positions and holds none of
g's other letters at D: q's colours over S give g's, and g, holding a letter absent from
S, is not one of S's answers. Every tree over S that plays g first does no better than
the same tree playing q first, so a lower bound's least over the first guesses may pass
g over, provided q is counted or passed over in its turn for a third guess. That holds
when q comes later in a strict order: q holds a letter of S at D (it has more positions
whose letter S holds), or it has as many and comes first in the guess list; a chain of
such guesses ends at one not passed over.

:func:`letter_dominance` keeps, for each guess g and set D of positions (a bit mask):
``over[g, D]``, the letters (bit k: letter k) that such guesses q hold at D, all
together; ``lower[g, D]``, whether some such q comes before g. :func:`passed_over` then
decides g on a set from the letters its answers hold.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit

#: The longest words :func:`letter_dominance` tables (its tables have ``2 ** length``
#: columns per guess); longer ones pass no guess over.
LONGEST_TABLED = 8


@njit(cache=CACHE, **SERIAL)
def letter_bits(codes):
    """``bits[g, i] = 1 << codes[g, i]``: each word's letter at each position as a bit
    (``codes``: letters 0-25, one row per word)."""
    n, length = codes.shape
    bits = np.empty((n, length), np.uint32)
    for g in range(n):
        for i in range(length):
            bits[g, i] = np.uint32(1) << np.uint32(codes[g, i])
    return bits


@njit(cache=CACHE, **SERIAL)
def letter_dominance(codes):
    """``(over, lower)``, uint32 and uint8 ``[n, 2 ** length]``, of the guesses ``codes``
    (letters 0-25): for g and D, every guess q != g with g's letters at the positions not
    in D and none of them at D counts; ``over[g, D]``: the letters those q hold at D,
    together; ``lower[g, D]``: one of them comes before g. Column 0 is all zero."""
    n, length = codes.shape
    full = (1 << length) - 1
    over = np.zeros((n, full + 1), np.uint32)
    lower = np.zeros((n, full + 1), np.uint8)
    bits = letter_bits(codes)
    whole = np.zeros(n, np.uint32)
    holders = np.zeros(26, np.int64)
    for g in range(n):
        for i in range(length):
            whole[g] |= bits[g, i]
        for k in range(26):
            holders[k] += (whole[g] >> k) & 1
    for g in range(n):                  # D every position: any other guess counts
        for k in range(26):
            if holders[k] - ((whole[g] >> k) & 1) > 0:
                over[g, full] |= np.uint32(1) << k
        lower[g, full] = 1 if g > 0 else 0
    keys = np.empty(n, np.int64)
    live = np.empty(n, np.uint32)
    at = np.empty(n, np.uint32)
    for kept in range(1, full):         # the positions where q agrees with g
        dead = full ^ kept
        for g in range(n):
            key, live[g], at[g] = 0, 0, 0
            for i in range(length):
                if (kept >> i) & 1:
                    key = key * 32 + codes[g, i]
                    live[g] |= bits[g, i]
                else:
                    at[g] |= bits[g, i]
            keys[g] = key
        order = np.argsort(keys, kind="mergesort")
        start = 0
        while start < n:
            end = start + 1
            while end < n and keys[order[end]] == keys[order[start]]:
                end += 1
            for x in range(start, end):
                g = order[x]
                for y in range(start, end):
                    q = order[y]
                    if q != g and at[q] & live[g] == 0:
                        over[g, dead] |= at[q]
                        if q < g:
                            lower[g, dead] = 1
            start = end
    return over, lower


#: The bit of :func:`packed` that stands for ``lower`` (the letters take bits 0-25).
LOWER = np.uint32(1) << np.uint32(31)


@njit(cache=CACHE, **SERIAL)
def packed(over, lower):
    """``over | LOWER * lower``: both tables in one word per guess and positions."""
    out = over.copy()
    for g in range(over.shape[0]):
        for d in range(over.shape[1]):
            if lower[g, d]:
                out[g, d] |= LOWER
    return out


@njit(cache=CACHE, **SERIAL)
def passed_over(g, present, bits, table):
    """Whether guess ``g`` is passed over on a set whose answers hold the letters
    ``present`` (bits): its positions D whose letter the set lacks are not none, and
    :func:`letter_dominance`'s ``over[g, D]`` meets ``present`` or ``lower[g, D]`` is set
    (``table``: :func:`packed`). ``bits``: :func:`letter_bits` of the guesses (no
    columns: none is passed over)."""
    dead = 0
    for i in range(bits.shape[1]):
        if bits[g, i] & present == 0:
            dead |= 1 << i
    return dead != 0 and table[g, dead] & (present | LOWER) != 0
