"""Upper bounds on what a candidate set is worth to the guesser, and the scans they read.

:func:`state_bound` is the least of three bounds on the weight ``idx[lo:hi]`` wins with
``lives`` lives (see :mod:`deductive.kernels.hangman_exact`): the total (a set of at most
``lives`` words is won entirely), the path count (:func:`path_dp`, or the count over every
mask, :func:`count_table`, when many positions are open) and the cover bound
(:func:`pair_cover`, :func:`max_cover`). :func:`letter_scan` and :func:`letter_order` read a
set's letters: which split it, and the order the searches try them in.
"""

import numpy as np

from .._bits import lowest_bit_index, popcount
from .._config import CACHE, SERIAL, njit
from ..hangman import letter_counts

#: Above this many open positions the bound counts over every mask (``count_table``).
BOUND_POSITIONS = 8
#: Sets up to this size get the cover bound beyond two lives (see ``max_cover``).
COVER_WORDS = 256
#: Counts saturate here (far above any word list).
SATURATE = np.int64(1) << np.int64(60)


def count_table(max_positions, max_lives):
    """``W[u, l]``: words that u open positions and l lives can tell apart at most.

    W(u, l) = W(u, l-1) + sum_k C(u, k) W(u-k, l), W(0, l) = 1, W(u, 0) = 0: the path
    count of the bound above when every letter may fall on every set of open positions.
    Saturates at 2**60.
    """
    from math import comb

    table = np.zeros((max_positions + 1, max_lives + 1), np.int64)
    for lives in range(1, max_lives + 1):
        table[0, lives] = 1
        for u in range(1, max_positions + 1):
            value = int(table[u, lives - 1])
            for k in range(1, u + 1):
                value += comb(u, k) * int(table[u - k, lives])
            table[u, lives] = min(value, int(SATURATE))
    return table


@njit(cache=CACHE, **SERIAL)
def segment_weight(weights, idx, lo, hi):
    total = np.int64(0)
    for k in range(lo, hi):
        total += weights[idx[k]]
    return total


@njit(cache=CACHE, **SERIAL)
def top_weight(weights, idx, lo, hi, count):
    """Sum of the ``count`` largest weights of the segment."""
    if count >= hi - lo:
        return segment_weight(weights, idx, lo, hi)
    w = np.empty(hi - lo, np.int64)
    for k in range(lo, hi):
        w[k - lo] = weights[idx[k]]
    w.sort()
    total = np.int64(0)
    for k in range(hi - lo - count, hi - lo):
        total += w[k]
    return total


@njit(cache=CACHE, **SERIAL)
def state_bound(masks, presence, weights, uniform, idx, lo, hi, lives, wtab):
    """An upper bound on the weight of ``idx[lo:hi]`` won with ``lives`` lives: the least
    of the total, the path count (:func:`path_dp`) and the cover bound
    (:func:`max_cover`, :func:`pair_cover`)."""
    n = hi - lo
    total = segment_weight(weights, idx, lo, hi)
    if lives <= 0:
        return np.int64(0)
    if n <= lives:
        return total
    count, has, varies = letter_scan(masks, presence, weights, idx, lo, hi)
    for c in range(26):
        if count[c] == n and varies[c]:
            return total                  # a free letter: no bound here
    # the distinct masks (few) of the letters that vary; pairs; bitsets of the words
    cap = min(n, 64)
    fam = np.empty((26, cap), np.int64)
    n_fam = np.zeros(26, np.int64)
    overflow = False
    with_bits = uniform and lives >= 3 and n <= COVER_WORDS
    nw = (n + 63) // 64 if with_bits else 1
    bits = np.zeros((26, nw), np.int64)
    pairs = np.zeros((26, 26), np.int64) if lives == 2 else np.zeros((1, 1), np.int64)
    letters = np.empty(26, np.int64)
    for k in range(n):
        w = idx[lo + k]
        p = np.int64(presence[w])
        m_letters = 0
        while p:
            c = lowest_bit_index(p)
            p &= p - 1
            if not varies[c]:
                continue
            m = np.int64(masks[w, c])
            letters[m_letters] = c
            m_letters += 1
            j = 0
            while j < n_fam[c] and fam[c, j] != m:
                j += 1
            if j == n_fam[c]:
                if j == cap:
                    overflow = True
                else:
                    fam[c, j] = m
                    n_fam[c] += 1
            if with_bits:
                bits[c, k // 64] |= np.int64(1) << np.int64(k % 64)
        if lives == 2:
            for x in range(m_letters):
                for y in range(x + 1, m_letters):
                    pairs[letters[x], letters[y]] += weights[w]
    bound = total
    open_positions = np.int64(0)
    for c in range(26):
        if varies[c]:
            for j in range(n_fam[c]):
                open_positions |= fam[c, j]
    u = popcount(open_positions)
    if u > BOUND_POSITIONS or overflow:
        paths = wtab[min(u, wtab.shape[0] - 1), lives]
    else:
        paths = path_dp(fam, n_fam, varies, open_positions, lives)
    if paths < n:
        bound = paths if uniform else top_weight(weights, idx, lo, hi, paths)
    cover = bound
    if lives <= 2:
        cover = pair_cover(has, pairs, count, varies, n, lives)
    elif with_bits:
        cover = max_cover(bits, count, varies, n, lives)
    return cover if cover < bound else bound


@njit(cache=CACHE, **SERIAL)
def path_dp(fam, n_fam, varies, open_positions, lives):
    """B(U, lives) of the module docstring: ``fam[c, :n_fam[c]]`` are the masks of the
    letters that vary, ``open_positions`` their union (at most ``BOUND_POSITIONS``)."""
    where = np.zeros(32, np.int64)
    u = 0
    for p in range(32):
        if (open_positions >> p) & 1:
            where[p] = u
            u += 1
    masks = np.empty(26 * fam.shape[1], np.int64)
    start = np.zeros(27, np.int64)
    letters = 0
    total = 0
    for c in range(26):
        if not varies[c] or n_fam[c] == 0:
            continue
        start[letters] = total
        for j in range(n_fam[c]):
            m = fam[c, j]
            packed = np.int64(0)
            p = 0
            while m:
                if m & 1:
                    packed |= np.int64(1) << where[p]
                m >>= 1
                p += 1
            masks[total] = packed
            total += 1
        letters += 1
    start[letters] = total
    # a letter whose masks are all masks of another letter adds nothing to the maximum
    keep = np.ones(letters, np.bool_)
    for f in range(letters):
        for g in range(letters):
            if g == f or not keep[g] or start[f + 1] - start[f] > start[g + 1] - start[g]:
                continue
            inside = True
            for a in range(start[f], start[f + 1]):
                found = False
                for b in range(start[g], start[g + 1]):
                    if masks[b] == masks[a]:
                        found = True
                        break
                if not found:
                    inside = False
                    break
            if inside:
                keep[f] = False
                break
    size = np.int64(1) << u
    table = np.zeros((lives + 1, size), np.int64)
    for life in range(1, lives + 1):
        for sub in range(size):
            best = np.int64(-1)
            for f in range(letters):
                if not keep[f]:
                    continue
                s = np.int64(0)
                hit = False
                for k in range(start[f], start[f + 1]):
                    m = masks[k]
                    if m & sub == m:
                        s += table[life, sub & ~m]
                        hit = True
                if hit and s > best:
                    best = s
            if best < 0:
                table[life, sub] = 1
            else:
                v = table[life - 1, sub] + best
                table[life, sub] = v if v < SATURATE else SATURATE
    return table[lives, size - 1]


@njit(cache=CACHE, **SERIAL)
def pair_cover(has, pairs, count, varies, n, lives):
    """The most weight one (``lives`` = 1) or two letters cover. A word is won only if one
    of the first ``lives`` letters guessed while it misses is in it (the words with none
    of them meet ``lives`` misses); a letter every candidate has at the same places is
    never worth guessing. ``pairs[a, b]`` (a < b): weight of the words with both."""
    best = np.int64(0)
    for a in range(26):
        if varies[a] and has[a] > best:
            best = has[a]
    if lives == 2:
        for a in range(26):
            if not varies[a]:
                continue
            for b in range(a + 1, 26):
                if varies[b]:
                    v = has[a] + has[b] - pairs[a, b]
                    if v > best:
                        best = v
    return best


@njit(cache=CACHE, **SERIAL)
def max_cover(bits, count, varies, n, lives):
    """:func:`pair_cover` for any number of lives and unit weights: the most words
    ``lives`` letters cover (branch and bound over the bitsets ``bits`` of the words)."""
    nw = bits.shape[1]
    cnt = np.empty(26, np.int64)
    n_useful = 0
    for c in range(26):
        if varies[c]:
            cnt[n_useful] = -count[c]
            n_useful += 1
    if n_useful == 0:
        return np.int64(n)
    useful = np.empty(n_useful, np.int64)
    j = 0
    for c in range(26):
        if varies[c]:
            useful[j] = c
            j += 1
    rank = np.argsort(cnt[:n_useful], kind="mergesort")
    letters = np.empty(n_useful, np.int64)
    for j in range(n_useful):
        letters[j] = useful[rank[j]]
        cnt[j] = count[letters[j]]
    depth_max = min(lives, n_useful)
    cov = np.zeros((depth_max + 1, nw), np.int64)
    got = np.zeros(depth_max + 1, np.int64)
    nxt = np.zeros(depth_max + 1, np.int64)
    best = np.int64(0)
    depth = 0
    while depth >= 0:
        j = nxt[depth]
        room = depth_max - depth
        if room == 0 or j >= n_useful:
            depth -= 1
            continue
        # counts are sorted: the next ``room`` letters add at most their counts
        ub = got[depth]
        for t in range(j, min(j + room, n_useful)):
            ub += cnt[t]
        if ub <= best:
            depth -= 1
            continue
        nxt[depth] = j + 1
        c = letters[j]
        total = 0
        for q in range(nw):
            v = cov[depth, q] | bits[c, q]
            cov[depth + 1, q] = v
            total += popcount(v)
        got[depth + 1] = total
        if total > best:
            best = total
            if best == n:
                return best
        nxt[depth + 1] = j + 1
        depth += 1
    return best


@njit(cache=CACHE, **SERIAL)
def letter_scan(masks, presence, weights, idx, lo, hi):
    """Per letter over ``idx[lo:hi]``: the words that have it, their weight, and whether
    it splits the set (some word lacks it, or it stands at different places)."""
    count, has = letter_counts(presence, weights, idx, lo, hi)
    varies = np.zeros(26, np.bool_)
    n = hi - lo
    for c in range(26):
        if 0 < count[c] < n:
            varies[c] = True
        elif count[c] == n and n > 0:
            # every word has it: it splits the set if it stands at different places
            first = masks[idx[lo], c]
            for k in range(lo + 1, hi):
                if masks[idx[k], c] != first:
                    varies[c] = True
                    break
    return count, has, varies


@njit(cache=CACHE, **SERIAL)
def letter_order(masks, presence, weights, idx, lo, hi, order, miss, n_miss):
    """Letters that split the set, fewest misses (by weight) first, ties to the earliest
    letter; a free letter (no miss) alone. Fills the misses' weight and number of each
    letter; returns how many letters."""
    count, has, varies = letter_scan(masks, presence, weights, idx, lo, hi)
    total = segment_weight(weights, idx, lo, hi)
    n = hi - lo
    n_letters = 0
    for c in range(26):
        miss[c] = total - has[c]
        n_miss[c] = n - count[c]
        if varies[c]:
            if count[c] == n:
                order[0] = c
                return 1
            order[n_letters] = c
            n_letters += 1
    for a in range(1, n_letters):           # insertion sort by (miss weight, letter)
        c = order[a]
        b = a - 1
        while b >= 0 and miss[order[b]] > miss[c]:
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = c
    return n_letters
