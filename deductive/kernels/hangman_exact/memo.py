"""The memo of the exact Hangman searches: an 8-way bucketed hash table of states, and
the states' keys.

A state's key is four words: the revealed pattern (``k0, k1, k2``: 5 bits a position,
the letter code plus one, 12 positions a word), and ``k3``, the missed letters (26 bits)
with the lives above them (:func:`state_key`; the adversary's entries have the lives
field :data:`EVIL_LIVES`). The table is six arrays (:func:`new_table`): the keys, the
[lo, hi] bounds, the letter to play, the entry's mode (:data:`SEARCHED` or
:data:`GREEDY`) and the size of the state (0: a free slot; the smallest is evicted
first). Counters go to ``stats`` (the ``ST_`` slots).
"""

import numpy as np

from .._config import CACHE, SERIAL, njit

#: Entry modes.
SEARCHED = 1
GREEDY = 2
#: Slots of ``stats``.
ST_ENTRIES = 0
ST_NODES = 1
ST_EXPANDED = 2
ST_FULL = 3
ST_GROW = 4
ST_EVICTED = 5
ST_BOUNDS = 6
N_STATS = 8
#: Ways of a bucket of the memo table.
WAYS = 8
LIVES_SHIFT = 26
#: The lives field of the adversary's entries (:func:`~.driver.evil_search`).
EVIL_LIVES = 31
POSITIONS_PER_WORD = 12


def new_table(buckets):
    """An empty memo table of ``buckets`` buckets (a power of two) of :data:`WAYS` slots."""
    cap = buckets * WAYS
    return (np.zeros((cap, 4), np.uint64), np.zeros(cap, np.int64), np.zeros(cap, np.int64),
            np.full(cap, -1, np.int8), np.zeros(cap, np.int8), np.zeros(cap, np.int32))


@njit(cache=CACHE, **SERIAL)
def _hash(k0, k1, k2, k3):
    h = np.uint64(0x9E3779B97F4A7C15)
    for k in (k0, k1, k2, k3):
        h ^= k + np.uint64(0x9E3779B97F4A7C15) + (h << np.uint64(6)) + (h >> np.uint64(2))
        h ^= h >> np.uint64(31)
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=CACHE, **SERIAL)
def table_find(keys, t_size, k0, k1, k2, k3):
    """Slot of a key in the table, or -1."""
    buckets = keys.shape[0] // WAYS
    base = np.int64(_hash(k0, k1, k2, k3) & np.uint64(buckets - 1)) * WAYS
    for s in range(base, base + WAYS):
        if t_size[s] and keys[s, 0] == k0 and keys[s, 1] == k1 and keys[s, 2] == k2 \
                and keys[s, 3] == k3:
            return s
    return -1


@njit(cache=CACHE, **SERIAL)
def table_slot(keys, t_size, k0, k1, k2, k3, size, stats, counter):
    """The slot where a key goes: its own, else a free one of its bucket. A full bucket
    sets ``stats[ST_FULL]`` and returns -1 when the table is half full and may grow, and
    otherwise evicts the bucket's smallest state. Writes the key and the size;
    ``stats[counter]`` counts the entries."""
    buckets = keys.shape[0] // WAYS
    base = np.int64(_hash(k0, k1, k2, k3) & np.uint64(buckets - 1)) * WAYS
    free = -1
    for s in range(base, base + WAYS):
        if t_size[s] == 0:
            if free < 0:
                free = s
        elif keys[s, 0] == k0 and keys[s, 1] == k1 and keys[s, 2] == k2 and keys[s, 3] == k3:
            return s
    if free >= 0:
        stats[counter] += 1
    else:
        if stats[ST_GROW] and 2 * stats[counter] > keys.shape[0]:
            stats[ST_FULL] = 1
            return -1
        free = base
        for s in range(base + 1, base + WAYS):
            if t_size[s] < t_size[free]:
                free = s
        stats[ST_EVICTED] += 1
    keys[free, 0] = k0
    keys[free, 1] = k1
    keys[free, 2] = k2
    keys[free, 3] = k3
    t_size[free] = size
    return free


@njit(cache=CACHE, **SERIAL)
def table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, k0, k1, k2, k3, lo, hi, letter,
                mode, size, stats):
    """Store an entry of the search's table (see :func:`table_slot`). Returns the slot."""
    slot = table_slot(keys, t_size, k0, k1, k2, k3, size, stats, ST_ENTRIES)
    if slot >= 0:
        t_lo[slot] = lo
        t_hi[slot] = hi
        t_letter[slot] = letter
        t_mode[slot] = mode
    return slot


@njit(cache=CACHE, **SERIAL)
def rehash(keys, t_lo, t_hi, t_letter, t_mode, t_size, new_keys, n_lo, n_hi, n_letter, n_mode,
           n_size, stats):
    """Copy every entry into a larger table (evicting where a bucket overflows)."""
    stats[ST_ENTRIES] = 0
    grow = stats[ST_GROW]
    stats[ST_GROW] = 0
    for s in range(keys.shape[0]):
        if t_size[s]:
            table_store(new_keys, n_lo, n_hi, n_letter, n_mode, n_size, keys[s, 0], keys[s, 1],
                        keys[s, 2], keys[s, 3], t_lo[s], t_hi[s], t_letter[s], t_mode[s],
                        t_size[s], stats)
    stats[ST_GROW] = grow


@njit(cache=CACHE, **SERIAL)
def reveal(k0, k1, k2, c, mask):
    """The pattern words after letter c is revealed at the positions of ``mask``."""
    code = np.uint64(c + 1)
    p = 0
    m = np.int64(mask)
    while m:
        if m & 1:
            shift = np.uint64(5 * (p % POSITIONS_PER_WORD))
            word = p // POSITIONS_PER_WORD
            if word == 0:
                k0 |= code << shift
            elif word == 1:
                k1 |= code << shift
            else:
                k2 |= code << shift
        m >>= 1
        p += 1
    return k0, k1, k2


@njit(cache=CACHE, **SERIAL)
def child_key(k0, k1, k2, missed, lives, open_mask, c, mask):
    """Key, lives and open positions of the child of letter c at ``mask`` (0: the miss)."""
    if mask == 0:
        m = missed | (np.int64(1) << c)
        return k0, k1, k2, m, lives - 1, open_mask
    c0, c1, c2 = reveal(k0, k1, k2, c, mask)
    return c0, c1, c2, missed, lives, open_mask & ~np.int64(mask)


@njit(cache=CACHE, **SERIAL)
def state_key(missed, lives):
    """``k3`` of a state: its missed letters and its lives."""
    return np.uint64(missed) | (np.uint64(lives) << np.uint64(LIVES_SHIFT))
