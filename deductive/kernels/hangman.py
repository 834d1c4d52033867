"""Hangman kernels: letter-position bitmasks, letter choice, and whole-dictionary trees.

A word is a row of ``masks[w, c]``: bit i set when letter c stands at position i. Guessing
c splits a candidate set by that mask (0 is a miss). Candidate sets are segments
``idx[lo:hi]`` of one index array; splitting a node sorts its segment by mask (stably), so
the whole decision tree is grown in place with an explicit stack, each node visited once.

Strategies (``MIN_MISS`` etc.) choose the next letter; ties go to the letter earliest in
the alphabet. ``BEST_LIVES`` scores each letter by a rollout: the weight of the words won
(fewer misses than ``lives``) when that letter is followed by ``MIN_MISS``.
"""

import numpy as np

from ._bits import lowest_bit_index
from ._config import CACHE, SERIAL, njit

MIN_MISS = 0
MAX_HIT = 1
ENTROPY = 2
BEST_LIVES = 3
ALL_LETTERS = (1 << 26) - 1
#: Entropies within this many bits are a tie (to the earliest letter): two splits into
#: different groups can have the same entropy (groups of 4, 1, 1, 1, 1 and of 2, 2, 2, 2),
#: which floating point then tells apart by a last bit.
ENTROPY_TIE = 1e-12


@njit(cache=CACHE, **SERIAL)
def position_masks(codes):
    """``masks[w, c]``: bit i set when word w has letter c at position i; and presence bits."""
    n, length = codes.shape
    masks = np.zeros((n, 26), np.uint32)
    presence = np.zeros(n, np.uint32)
    for i in range(length):
        bit = np.uint32(1) << np.uint32(i)
        for w in range(n):
            c = codes[w, i]
            masks[w, c] |= bit
            presence[w] |= np.uint32(1) << np.uint32(c)
    return masks, presence


@njit(cache=CACHE, **SERIAL)
def letter_counts(presence, weights, idx, lo, hi):
    """Per letter: number and weight of the words of ``idx[lo:hi]`` that contain it (the
    weight in the dtype of ``weights``: exact sums for integer weights)."""
    counts = np.zeros(26, np.int64)
    mass = np.zeros(26, weights.dtype)
    for k in range(lo, hi):
        w = idx[k]
        bits = np.int64(presence[w])
        while bits:
            c = lowest_bit_index(bits)
            counts[c] += 1
            mass[c] += weights[w]
            bits &= bits - 1
    return counts, mass


@njit(cache=CACHE, **SERIAL)
def split_entropy(masks, weights, idx, lo, hi, c):
    """Entropy (bits) of the split of ``idx[lo:hi]`` by the positions of letter c.

    The group weights are summed in ascending order, so two letters that split the set
    into groups of the same weights get bit-identical entropies (and ties are exact).
    """
    n = hi - lo
    keys = np.empty(n, np.uint32)
    for k in range(n):
        keys[k] = masks[idx[lo + k], c]
    order = np.argsort(keys, kind="mergesort")
    group_mass = np.empty(n, np.float64)
    groups = 0
    run = 0.0
    total = 0.0
    for k in range(n):
        run += weights[idx[lo + order[k]]]
        if k == n - 1 or keys[order[k + 1]] != keys[order[k]]:
            group_mass[groups] = run
            groups += 1
            run = 0.0
    masses = np.sort(group_mass[:groups])
    for g in range(groups):
        total += masses[g]
    if total <= 0.0:
        return 0.0
    h = 0.0
    for g in range(groups):
        if masses[g] > 0.0:
            p = masses[g] / total
            h -= p * np.log2(p)
    return h


@njit(cache=CACHE, **SERIAL)
def choose_greedy(masks, presence, weights, idx, lo, hi, guessed, strategy):
    """The next letter by MIN_MISS, MAX_HIT or ENTROPY: the earliest letter whose score is
    the best (for ENTROPY, within :data:`ENTROPY_TIE` of the best), -1 when every letter
    is guessed."""
    if strategy == ENTROPY:
        return _most_entropy(masks, weights, idx, lo, hi, guessed)
    counts, mass = letter_counts(presence, weights, idx, lo, hi)
    best = -1
    best_score = 0.0
    for c in range(26):
        if (guessed >> c) & 1:
            continue
        score = float(counts[c]) if strategy == MIN_MISS else mass[c]
        if best < 0 or score > best_score:
            best = c
            best_score = score
    return best


@njit(cache=CACHE, **SERIAL)
def _most_entropy(masks, weights, idx, lo, hi, guessed):
    """:func:`choose_greedy`'s ENTROPY: every letter's split entropy, then the earliest
    within :data:`ENTROPY_TIE` of the best (-1 when every letter is guessed)."""
    scores = np.full(26, -np.inf)
    for c in range(26):
        if not (guessed >> c) & 1:
            scores[c] = split_entropy(masks, weights, idx, lo, hi, c)
    top = scores.max()
    for c in range(26):
        if not (guessed >> c) & 1 and scores[c] >= top - ENTROPY_TIE:
            return c
    return -1


@njit(cache=CACHE, **SERIAL)
def split_segment(masks, idx, lo, hi, c, starts, keys_out):
    """Sort ``idx[lo:hi]`` stably by the mask of letter c; return the number of groups.

    ``starts[g]`` receives the start of group g (``starts[groups] = hi``) and
    ``keys_out[g]`` its mask. A letter has few distinct masks in a set, so the words are
    counted into their groups (a sort only past 64 groups).
    """
    n = hi - lo
    limit = 64
    distinct = np.empty(limit, np.uint32)
    counts = np.zeros(limit, np.int64)
    groups = 0
    for k in range(lo, hi):
        m = masks[idx[k], c]
        j = 0
        while j < groups and distinct[j] != m:
            j += 1
        if j == groups:
            if groups == limit:
                return _sort_segment(masks, idx, lo, hi, c, starts, keys_out)
            distinct[j] = m
            groups += 1
        counts[j] += 1
    rank = np.argsort(distinct[:groups])
    pos = np.empty(groups, np.int64)
    where = lo
    for r in range(groups):
        j = rank[r]
        starts[r] = where
        keys_out[r] = distinct[j]
        pos[j] = where - lo
        where += counts[j]
    starts[groups] = hi
    seg = np.empty(n, idx.dtype)
    for k in range(lo, hi):
        w = idx[k]
        m = masks[w, c]
        j = 0
        while distinct[j] != m:
            j += 1
        seg[pos[j]] = w
        pos[j] += 1
    for k in range(n):
        idx[lo + k] = seg[k]
    return groups


@njit(cache=CACHE, **SERIAL)
def _sort_segment(masks, idx, lo, hi, c, starts, keys_out):
    """:func:`split_segment` by a stable sort, for letters with many masks."""
    n = hi - lo
    keys = np.empty(n, np.uint32)
    for k in range(n):
        keys[k] = masks[idx[lo + k], c]
    order = np.argsort(keys, kind="mergesort")
    seg = idx[lo:hi].copy()
    groups = 0
    for k in range(n):
        idx[lo + k] = seg[order[k]]
        if k == 0 or keys[order[k]] != keys[order[k - 1]]:
            starts[groups] = lo + k
            keys_out[groups] = keys[order[k]]
            groups += 1
    starts[groups] = hi
    return groups


@njit(cache=CACHE, **SERIAL)
def push_group(st_lo, st_hi, st_guessed, st_wrong, top, starts, keys, j, guessed, c, wrong):
    """Stack entry ``top``: group j of a split by letter c (its segment, the letters
    guessed with c, and one miss more if c misses there)."""
    st_lo[top] = starts[j]
    st_hi[top] = starts[j + 1]
    st_guessed[top] = guessed | (1 << c)
    st_wrong[top] = wrong + (1 if keys[j] == 0 else 0)


@njit(cache=CACHE, **SERIAL)
def greedy_wins(masks, presence, weights, idx, lo, hi, guessed, wrong, lives):
    """Weight of the words of ``idx[lo:hi]`` that MIN_MISS solves with fewer than ``lives``
    misses, starting from ``guessed`` letters and ``wrong`` misses. Reorders the segment."""
    n = hi - lo
    st_lo = np.empty(n + 1, np.int64)
    st_hi = np.empty(n + 1, np.int64)
    st_guessed = np.empty(n + 1, np.int64)
    st_wrong = np.empty(n + 1, np.int64)
    starts = np.empty(n + 2, np.int64)
    keys = np.empty(n + 1, np.uint32)
    top = 0
    st_lo[0], st_hi[0], st_guessed[0], st_wrong[0] = lo, hi, guessed, wrong
    top = 1
    won = 0.0
    while top > 0:
        top -= 1
        a, b, g, m = st_lo[top], st_hi[top], st_guessed[top], st_wrong[top]
        if m >= lives:
            continue
        if b - a == 1:
            won += weights[idx[a]]
            continue
        c = choose_greedy(masks, presence, weights, idx, a, b, g, MIN_MISS)
        groups = split_segment(masks, idx, a, b, c, starts, keys)
        for j in range(groups):
            push_group(st_lo, st_hi, st_guessed, st_wrong, top, starts, keys, j, g, c, m)
            top += 1
    return won


@njit(cache=CACHE, **SERIAL)
def choose_rollout(masks, presence, weights, idx, lo, hi, guessed, wrong, lives):
    """BEST_LIVES: the letter whose split, followed by MIN_MISS, wins the most weight.

    Only letters that split the set, or that every word contains, are tried (a letter no
    word contains costs a life and tells nothing). Returns (letter, weight won).
    """
    n = hi - lo
    scratch = np.empty(n, np.int64)
    starts = np.empty(n + 2, np.int64)
    keys = np.empty(n + 1, np.uint32)
    counts, _ = letter_counts(presence, weights, idx, lo, hi)
    best = -1
    best_value = -1.0
    for c in range(26):
        if (guessed >> c) & 1 or counts[c] == 0:
            continue
        for k in range(n):
            scratch[k] = idx[lo + k]
        groups = split_segment(masks, scratch, 0, n, c, starts, keys)
        if groups == 1 and counts[c] < n:
            continue
        value = 0.0
        for j in range(groups):
            value += greedy_wins(masks, presence, weights, scratch, starts[j], starts[j + 1],
                                 guessed | (1 << c), wrong + (1 if keys[j] == 0 else 0), lives)
        if value > best_value:
            best = c
            best_value = value
    return best, best_value


@njit(cache=CACHE, **SERIAL)
def record_word(w, wrong, depth, seq, out_wrong, out_count, out_letters):
    """A word's result once it is the only candidate: its misses, guesses and letters."""
    out_wrong[w] = wrong
    out_count[w] = depth
    for k in range(depth):
        out_letters[w, k] = seq[k]


@njit(cache=CACHE, **SERIAL)
def tree_stack(n):
    """Work arrays of a tree grown over n words with an explicit stack: the index array,
    per stack entry the segment, guessed letters, misses, depth and letters so far, and
    the group starts and masks of a split."""
    return (np.arange(n).astype(np.int64), np.empty(n + 1, np.int64),
            np.empty(n + 1, np.int64), np.empty(n + 1, np.int64), np.empty(n + 1, np.int64),
            np.empty(n + 1, np.int64), np.zeros((n + 1, 26), np.uint8),
            np.empty(n + 2, np.int64), np.empty(n + 1, np.uint32))


@njit(cache=CACHE, **SERIAL)
def sweep_tree(masks, presence, weights, strategy, lives, exact_limit, out_wrong, out_count,
               out_letters, deferred):
    """Grow the strategy's decision tree over all words; fill per-word results.

    Parameters
    ----------
    strategy : int
        MIN_MISS, MAX_HIT, ENTROPY or BEST_LIVES.
    lives : int
        For BEST_LIVES: a word is won with at most ``lives - 1`` misses.
    exact_limit : int
        For BEST_LIVES: a node with at most this many words whose rollout loses some weight
        is not expanded but returned in ``deferred`` for an exact search.
    out_wrong, out_count : int64[n]
        Misses and letters guessed for each word (deferred words are left to the caller).
    out_letters : uint8[n, 26]
        The letters guessed for each word, in order.
    deferred : int64[n, 4]
        Rows (lo, hi, guessed, wrong) of deferred nodes, over the returned order ``idx``.

    Returns
    -------
    idx : int64[n]
        The final order of word indices (deferred segments refer to it).
    n_deferred : int
    """
    n = masks.shape[0]
    idx, st_lo, st_hi, st_guessed, st_wrong, st_depth, st_seq, starts, keys = tree_stack(n)
    n_deferred = 0
    if n == 0:
        return idx, n_deferred
    st_lo[0], st_hi[0], st_guessed[0], st_wrong[0], st_depth[0] = 0, n, 0, 0, 0
    top = 1
    seq = np.zeros(26, np.uint8)
    while top > 0:
        top -= 1
        a, b, g, m, d = st_lo[top], st_hi[top], st_guessed[top], st_wrong[top], st_depth[top]
        for k in range(d):
            seq[k] = st_seq[top, k]
        if b - a == 1:
            record_word(idx[a], m, d, seq, out_wrong, out_count, out_letters)
            continue
        if strategy == BEST_LIVES and m < lives:
            c, value = choose_rollout(masks, presence, weights, idx, a, b, g, m, lives)
            total = 0.0
            for k in range(a, b):
                total += weights[idx[k]]
            if b - a <= exact_limit and value < total:
                deferred[n_deferred, 0] = a
                deferred[n_deferred, 1] = b
                deferred[n_deferred, 2] = g
                deferred[n_deferred, 3] = m
                for k in range(a, b):
                    out_wrong[idx[k]] = m
                    out_count[idx[k]] = d
                    for j in range(d):
                        out_letters[idx[k], j] = seq[j]
                n_deferred += 1
                continue
        elif strategy == BEST_LIVES:
            c = choose_greedy(masks, presence, weights, idx, a, b, g, MIN_MISS)
        else:
            c = choose_greedy(masks, presence, weights, idx, a, b, g, strategy)
        groups = split_segment(masks, idx, a, b, c, starts, keys)
        for j in range(groups):
            push_group(st_lo, st_hi, st_guessed, st_wrong, top, starts, keys, j, g, c, m)
            st_depth[top] = d + 1
            for k in range(d):
                st_seq[top, k] = seq[k]
            st_seq[top, d] = c
            top += 1
    return idx, n_deferred
