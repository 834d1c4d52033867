"""The adversary's search: the least number of misses a guesser can guarantee.

E(S) is the least number of misses a guesser can guarantee when the word may be any word
of S consistent with the answers: E = min over letters c of the max of E(miss) + 1 and
E(hit group) over the hit groups (0 for one word). Bounds: E <= n - 1 (every splitting
guess leaves fewer words); E >= l whenever :func:`~.bounds.state_bound` shows that l
lives lose a word, E >= the clique bound (:func:`clique_bound`), and E >= E of any part.
A free letter is played at once (E of a set is at least E of each part).

The steps of :func:`~.driver.evil_search` on a frame of :mod:`.stack`, as in :mod:`.best`:
a letter must beat the best so far (and beta) on every child, the miss group first.
Entries are memoised under the keys of :mod:`.memo` with the lives field
:data:`~.memo.EVIL_LIVES`; they hold [lo, hi] bounds on E and, once exact, the letter.
"""

import numpy as np

from .._bits import lowest_bit_index, popcount
from .._config import CACHE, SERIAL, njit
from ..hangman import split_segment
from .bounds import state_bound
from .memo import (EVIL_LIVES, SEARCHED, ST_BOUNDS, ST_EXPANDED, ST_FULL, ST_NODES, state_key,
                   table_find, table_store)
from .stack import (AT_GROUP, AT_LETTER, BEST, BOUND, FLOOR, HI, LETTER, LO, MISSED,
                    N_COMMON, N_GROUPS, N_LETTERS, SUM, start_letters)

# The adversary's own columns of a frame: its [lo, hi] bounds, and the least lower bound
# of a letter that could not win.
E_LO = N_COMMON
E_HI = N_COMMON + 1
FAILED = N_COMMON + 2


@njit(cache=CACHE, **SERIAL)
def evil_lower(masks, presence, ones, idx, lo, hi, wtab):
    """A lower bound on the adversary's value of ``idx[lo:hi]``: the larger of the most
    lives with which :func:`state_bound` shows that a word is lost, and the clique bound
    (:func:`clique_bound`)."""
    n = hi - lo
    lives = 0
    while lives + 1 < n and state_bound(masks, presence, ones, True, idx, lo, hi, lives + 1,
                                        wtab) < n:
        lives += 1
    clique = clique_bound(masks, presence, idx, lo, hi)
    return np.int64(lives if lives > clique else clique)


@njit(cache=CACHE, **SERIAL)
def clique_bound(masks, presence, idx, lo, hi):
    """k - 1 for the largest set of k words of the segment that agree everywhere but at
    one position, where each has a letter found nowhere else in those words: only its
    own letter tells a word apart, so the adversary can answer "no" k - 1 times. (A word
    whose letter there also stands elsewhere in the shared part is told apart by a hit
    and does not count.) Words of more than 12 letters: 0."""
    n = hi - lo
    length = 0
    w0 = idx[lo]
    for c in range(26):
        length |= np.int64(masks[w0, c])
    length = popcount(length)
    if length > 12 or n < 2:
        return np.int64(0)
    code = np.zeros((n, length), np.int64)
    for k in range(n):
        w = idx[lo + k]
        p = np.int64(presence[w])
        while p:
            c = lowest_bit_index(p)
            p &= p - 1
            m = np.int64(masks[w, c])
            for i in range(length):
                if (m >> i) & 1:
                    code[k, i] = c + 1
    best = np.int64(0)
    keys = np.empty(n, np.int64)
    for pos in range(length):
        for k in range(n):
            key = np.int64(0)
            for i in range(length):
                key = key * 27 + (0 if i == pos else code[k, i])
            keys[k] = key
        order = np.argsort(keys)
        run = 0
        for r in range(n):
            k = order[r]
            if r > 0 and keys[k] != keys[order[r - 1]]:
                run = 0
            # the letter at ``pos`` alone in the word: told apart only by guessing it
            if np.int64(masks[idx[lo + k], code[k, pos] - 1]) == np.int64(1) << pos:
                run += 1
                if run - 1 > best:
                    best = run - 1
    return best


@njit(cache=CACHE, **SERIAL)
def enter(masks, presence, ones, idx, table, wtab, stats, frames, d):
    """Enter the state of frame d: (False, its value or a lower bound at least beta) when
    it needs no search (or ``stats[ST_FULL]``), else (True, 0) with the frame ready."""
    ints, keys = frames[0], frames[1]
    t_keys, t_lo, t_hi, t_letter, t_mode, t_size = table
    a, b = ints[d, LO], ints[d, HI]
    q0, q1, q2 = keys[d, 0], keys[d, 1], keys[d, 2]
    k3 = state_key(ints[d, MISSED], EVIL_LIVES)
    stats[ST_NODES] += 1
    n = b - a
    if n <= 1:
        return False, np.int64(0)
    slot = table_find(t_keys, t_size, q0, q1, q2, k3)
    if slot >= 0:
        node_lo, node_hi = t_lo[slot], t_hi[slot]
        letter = np.int64(t_letter[slot])
    else:
        stats[ST_BOUNDS] += 1
        node_lo = evil_lower(masks, presence, ones, idx, a, b, wtab)
        node_hi = np.int64(n - 1)
        letter = np.int64(-1)
        table_store(t_keys, t_lo, t_hi, t_letter, t_mode, t_size, q0, q1, q2, k3, node_lo,
                    node_hi, letter, np.int64(0), n, stats)
        if stats[ST_FULL]:
            return False, np.int64(0)
    if node_lo == node_hi or node_lo >= ints[d, BOUND]:
        return False, node_lo
    stats[ST_EXPANDED] += 1
    ints[d, E_LO] = node_lo
    ints[d, E_HI] = node_hi
    ints[d, FAILED] = n
    # a letter must beat the stored upper bound, which any splitting letter reaches
    start_letters(masks, presence, ones, idx, frames, d, letter, node_hi + 1)
    return True, np.int64(0)


@njit(cache=CACHE, **SERIAL)
def fold(frames, d, value):
    """Fold the value of the child just searched into its letter's (a miss costs one);
    a part is worth no more than the whole."""
    ints, gkeys = frames[0], frames[6]
    g = ints[d, AT_GROUP]
    if value > ints[d, E_LO]:
        ints[d, E_LO] = value
    v = value + (1 if gkeys[d, g] == 0 else 0)
    if v > ints[d, SUM]:
        ints[d, SUM] = v
    ints[d, AT_GROUP] = ints[d, N_GROUPS] if v >= ints[d, FLOOR] else g + 1


@njit(cache=CACHE, **SERIAL)
def next_group(frames, d):
    """The next child of the letter under way and its beta, or (-1, 0) once the letter
    reaches the cut or every child is searched."""
    ints, gkeys = frames[0], frames[6]
    g = ints[d, AT_GROUP]
    if g < ints[d, N_GROUPS] and ints[d, SUM] < ints[d, FLOOR]:
        return g, ints[d, FLOOR] - (1 if gkeys[d, g] == 0 else 0)
    return np.int64(-1), np.int64(0)


@njit(cache=CACHE, **SERIAL)
def letter_done(frames, d):
    """The letter under way is the best so far if it stayed below the cut; else its value
    bounds the state from below."""
    ints, order = frames[0], frames[2]
    if ints[d, SUM] < ints[d, FLOOR]:
        ints[d, BEST] = ints[d, SUM]
        ints[d, LETTER] = order[d, ints[d, AT_LETTER]]
    elif ints[d, SUM] < ints[d, FAILED]:
        ints[d, FAILED] = ints[d, SUM]


@njit(cache=CACHE, **SERIAL)
def next_letter(masks, idx, frames, d):
    """Start the next letter (True) unless the cut (the best so far, or beta) is no more
    than the state's lower bound: then no letter can win (False)."""
    ints, order, starts, gkeys = frames[0], frames[2], frames[5], frames[6]
    if ints[d, AT_LETTER] >= ints[d, N_LETTERS]:
        return False
    cut = ints[d, BEST] if ints[d, BEST] < ints[d, BOUND] else ints[d, BOUND]
    if cut <= ints[d, E_LO] or ints[d, E_LO] >= ints[d, BOUND]:
        return False
    c = order[d, ints[d, AT_LETTER]]
    ints[d, N_GROUPS] = split_segment(masks, idx, ints[d, LO], ints[d, HI], c, starts[d],
                                      gkeys[d])
    ints[d, FLOOR] = cut
    ints[d, SUM] = 0
    ints[d, AT_GROUP] = 0
    return True


@njit(cache=CACHE, **SERIAL)
def finish(table, stats, frames, d):
    """Every letter done: store the state's entry and return its value if below beta,
    else a lower bound at least beta."""
    ints, keys = frames[0], frames[1]
    t_keys, t_lo, t_hi, t_letter, t_mode, t_size = table
    best = ints[d, BEST]
    node_lo, node_hi = ints[d, E_LO], ints[d, E_HI]
    mode = np.int64(0)
    if best < ints[d, BOUND] and best <= node_hi:
        node_lo = best
        node_hi = best
        ret = best
        mode = SEARCHED
    elif node_lo >= ints[d, BOUND]:
        ret = node_lo
    else:
        # every letter is worth at least what it was found worth
        low = ints[d, FAILED] if ints[d, FAILED] < best else best
        if low > node_lo:
            node_lo = low
        ret = node_lo
    table_store(t_keys, t_lo, t_hi, t_letter, t_mode, t_size, keys[d, 0], keys[d, 1],
                keys[d, 2], state_key(ints[d, MISSED], EVIL_LIVES), node_lo, node_hi,
                ints[d, LETTER], mode, ints[d, HI] - ints[d, LO], stats)
    return ret
