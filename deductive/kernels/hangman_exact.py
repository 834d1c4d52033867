"""Exact Hangman search: the most weight a guesser can win with L lives.

A state is a candidate set (a segment ``idx[lo:hi]`` of one index array, as in
:mod:`deductive.kernels.hangman`) and the lives left; a word is won once it is the only
candidate while a life is left. The value of a state is

    V(S, l) = max over letters c of  sum_hits V(H, l) + V(miss, l - 1)

over the letters that split S (a letter every candidate has at the same places tells
nothing; one no candidate has costs a life for nothing). The search is depth-first with
memoisation and cut-offs (``search`` below): ``search(S, l, alpha)`` returns V exactly when
V > alpha, and otherwise an upper bound that is at most alpha. What makes it fast:

* **Free letters.** A splitting letter that every candidate contains costs nothing, and
  knowing its positions can only help (the value of a set is at most the sum of the
  values of the parts of any partition of it: play the whole set's strategy on each
  part, skipping the guesses that split nothing there). Such a letter is played at once.
* **Upper bounds** (``state_bound``), the least of three. A set of at most l words is
  won entirely. *Paths*: a hit reveals a nonempty set of the positions still open (where
  the candidates differ) and a miss costs a life, so at most B(U, l) words can be told
  apart, B(U, l) = B(U, l-1) + max over letters c of the sum of B(U - m, l) over the
  position masks m that c has in the set (B = 1 once no letter can split, B(., 0) = 0).
  On "_ugger, _uffer, ..." families it is the exact count of a grid, C(l+1, 2); with many
  open positions the same count over every mask (``count_table``) stands in. *Cover*: the
  guesses made while a word misses form one chain, and a word none of the first l
  letters of the chain hits meets l misses, so the words won are covered by l letters
  (``pair_cover``, ``max_cover``). Before a letter's children are searched, each gets
  its bound (stored), so that most letters are refuted without any search below.
* **Lower bounds**: the greedy ``min-miss`` play from the state (``greedy_wins``),
  computed only for states whose bound does not cut them off.
* Letters are tried fewest misses first, and each is first checked by the weight of its
  hits plus its miss group's bound, without splitting the set.
* **Memo keys** are exact: the revealed pattern (5 bits a position), the missed letters and
  the lives. Entries hold [lo, hi] bounds; an exact entry also holds the letter to play,
  and whether the value is the search's (``SEARCHED``: the letter's children hold exact
  entries) or ``min-miss``'s (``GREEDY``: play ``min-miss`` from there).
* The memo is an 8-way bucketed hash table with a capacity the caller sets. When a bucket
  is full and the table half full, the search stops with a flag so that the caller can
  grow the table and search again (finished states are kept); below half full, or at the
  memory budget, it evicts the smallest state of the bucket instead, which costs time,
  never exactness.

Weights are integers (a prior is quantised by the caller), so sums are exact.

``evil_search`` is the adversary's game on the same memo: the least number of misses a
guesser can guarantee, a minimax search with alpha-beta cut-offs and lower bounds from the
bounds above, from cliques (``clique_bound``) and from parts (a set is worth at least each
of its subsets).
"""

import numpy as np

from ._bits import lowest_bit_index, popcount
from ._config import CACHE, SERIAL, njit
from .hangman import (MIN_MISS, choose_greedy, greedy_wins, record_word, split_segment,
                      tree_stack)

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
#: Above this many open positions the bound counts over every mask (``count_table``).
BOUND_POSITIONS = 8
#: Sets up to this size get the cover bound beyond two lives (see ``max_cover``).
COVER_WORDS = 256
#: Counts saturate here (far above any word list).
SATURATE = np.int64(1) << np.int64(60)
LIVES_SHIFT = 26
#: The lives field of the adversary's entries (:func:`evil_search`).
EVIL_LIVES = 31
POSITIONS_PER_WORD = 12


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
    count = np.zeros(26, np.int64)
    has = np.zeros(26, np.int64)
    first = np.zeros(26, np.int64)
    varies = np.zeros(26, np.bool_)
    for k in range(lo, hi):
        w = idx[k]
        p = np.int64(presence[w])
        while p:
            c = lowest_bit_index(p)
            p &= p - 1
            m = np.int64(masks[w, c])
            if count[c] == 0:
                first[c] = m
            elif m != first[c]:
                varies[c] = True
            count[c] += 1
            has[c] += weights[w]
    for c in range(26):
        if 0 < count[c] < hi - lo:
            varies[c] = True
    return count, has, varies


@njit(cache=CACHE, **SERIAL)
def _letter_order(masks, presence, weights, idx, lo, hi, order, miss, n_miss):
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


@njit(cache=CACHE, **SERIAL)
def _bound_of(keys, t_lo, t_hi, t_size, weight, size, lives, k0, k1, k2, k3, wtab, u,
              uniform):
    """Bound of a set (its weight and size given) without scanning it: the trivial
    cases, the memo, or the count table. Returns (bound, exact, from the memo or exact)."""
    if lives <= 0:
        return np.int64(0), True, True
    if size <= lives:
        return weight, True, True
    s = table_find(keys, t_size, k0, k1, k2, k3)
    if s >= 0:
        return t_hi[s], t_lo[s] == t_hi[s], True
    count = wtab[u, lives]
    # a count of words bounds a weight only when every word weighs one
    return (count if uniform and count < size else weight), False, False


@njit(cache=CACHE, **SERIAL)
def _child(k0, k1, k2, missed, lives, open_mask, c, mask):
    """Key, lives and open positions of the child of letter c at ``mask`` (0: the miss)."""
    if mask == 0:
        m = missed | (np.int64(1) << c)
        return k0, k1, k2, m, lives - 1, open_mask
    c0, c1, c2 = reveal(k0, k1, k2, c, mask)
    return c0, c1, c2, missed, lives, open_mask & ~np.int64(mask)


@njit(cache=CACHE, **SERIAL)
def _k3(missed, lives):
    return np.uint64(missed) | (np.uint64(lives) << np.uint64(LIVES_SHIFT))


#: Frames of the search's stack: one a guess, and a letter is never guessed twice.
MAX_DEPTH = 28
#: Search results of ``_enter``.
_DONE = 0
_EXPAND = 1


@njit(cache=CACHE, **SERIAL)
def _enter(masks, presence, weights, fweights, uniform, idx, lo, hi, lives, guessed, k0, k1,
           k2, missed, alpha, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats):
    """A state's first steps: trivial values, the memo, its bound and (unless the bound
    cuts it off) min-miss's lower bound. Returns (``_DONE``, value, ...) when the state
    needs no expansion, else (``_EXPAND``, slot, lo, letter, mode) with the entry stored
    (the value field then holds the state's upper bound)."""
    stats[ST_NODES] += 1
    n = hi - lo
    if lives <= 0:
        return _DONE, np.int64(0), -1, np.int64(0), np.int64(-1), np.int64(0)
    if n <= lives:
        return _DONE, segment_weight(weights, idx, lo, hi), -1, np.int64(0), np.int64(-1), \
            np.int64(0)
    k3 = _k3(missed, lives)
    slot = table_find(keys, t_size, k0, k1, k2, k3)
    if slot >= 0:
        node_lo = t_lo[slot]
        node_hi = t_hi[slot]
        best_letter = np.int64(t_letter[slot])
        best_mode = np.int64(t_mode[slot])
    else:
        stats[ST_BOUNDS] += 1
        node_hi = state_bound(masks, presence, weights, uniform, idx, lo, hi, lives, wtab)
        # the same set with one more life is worth at least as much
        up = table_find(keys, t_size, k0, k1, k2, _k3(missed, lives + 1))
        if up >= 0 and t_hi[up] < node_hi:
            node_hi = t_hi[up]
        node_lo = np.int64(0)
        best_letter = np.int64(-1)
        best_mode = np.int64(0)           # no lower bound computed yet
    if node_hi > alpha and best_mode == 0:
        # min-miss's play is the first lower bound: computed only for states not cut off
        node_lo = np.int64(greedy_wins(masks, presence, fweights, idx, lo, hi, guessed, 0,
                                       lives) + 0.5)
        best_mode = GREEDY
        if node_lo > node_hi:       # cannot happen; guards against a wrong bound
            node_hi = node_lo
    if slot < 0 or best_mode != t_mode[slot]:
        slot = table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, k0, k1, k2, k3, node_lo,
                           node_hi, best_letter, best_mode, n, stats)
        if stats[ST_FULL]:
            return _DONE, np.int64(0), -1, np.int64(0), np.int64(-1), np.int64(0)
    if node_lo == node_hi or node_hi <= alpha:
        return _DONE, node_hi, slot, node_lo, best_letter, best_mode
    stats[ST_EXPANDED] += 1
    return _EXPAND, node_hi, slot, node_lo, best_letter, best_mode


@njit(cache=CACHE, **SERIAL)
def _bound_letter(masks, presence, weights, uniform, idx, lo, hi, lives, open_mask, k0, k1, k2,
                  missed, c, floor, starts, gkeys, val, exact, corder, keys, t_lo, t_hi,
                  t_letter, t_mode, t_size, wtab, stats):
    """Split the set by letter c and bound each child: from the memo, trivially, by the
    count table, and, while that does not refute the letter (sum at most ``floor``), by
    :func:`state_bound` for the children never seen (stored). Fills the arrays; returns
    (groups, the sum of the children's bounds). Children are ordered largest bound first
    (``corder``): the likeliest to be overestimated."""
    groups = split_segment(masks, idx, lo, hi, c, starts, gkeys)
    known = np.zeros(groups, np.bool_)
    total = np.int64(0)
    for g in range(groups):
        c0, c1, c2, cm, cl, cu = _child(k0, k1, k2, missed, lives, open_mask, c, gkeys[g])
        v, ex, kn = _bound_of(keys, t_lo, t_hi, t_size,
                              segment_weight(weights, idx, starts[g], starts[g + 1]),
                              starts[g + 1] - starts[g], cl, c0, c1, c2, _k3(cm, cl), wtab,
                              popcount(cu), uniform)
        val[g] = v
        exact[g] = ex
        known[g] = kn
        total += v
    order = np.argsort(-val[:groups], kind="mergesort")
    for gi in range(groups):
        corder[gi] = order[gi]
    for gi in range(groups):
        if total <= floor:
            break
        g = corder[gi]
        if known[g]:
            continue
        c0, c1, c2, cm, cl, cu = _child(k0, k1, k2, missed, lives, open_mask, c, gkeys[g])
        stats[ST_BOUNDS] += 1
        v = state_bound(masks, presence, weights, uniform, idx, starts[g], starts[g + 1], cl,
                        wtab)
        table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, c0, c1, c2, _k3(cm, cl),
                    np.int64(0), v, np.int64(-1), np.int64(0), starts[g + 1] - starts[g], stats)
        if stats[ST_FULL]:
            return groups, total
        total += v - val[g]
        val[g] = v
    return groups, total


@njit(cache=CACHE, **SERIAL)
def search(masks, presence, weights, fweights, uniform, idx, lo, hi, lives, open_mask, guessed,
           k0, k1, k2, missed, alpha, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats):
    """The value of ``idx[lo:hi]`` with ``lives`` lives if it exceeds ``alpha``, else an
    upper bound at most ``alpha`` (see the module docstring).

    ``open_mask``: positions not revealed; ``guessed``: letters guessed (bits);
    ``k0, k1, k2``: the revealed pattern; ``missed``: the missed letters (bits). Reorders
    the segment. When ``stats[ST_FULL]`` is set on return, the table is full and the
    result is meaningless: grow the table and search again.

    Depth first with an explicit stack of frames (one a state on the path; numba caches
    no recursive function that another calls). A state tries its letters in order; a
    letter whose children's bounds sum above the floor (the best so far, or alpha) has
    its children searched one by one, each needing more than the floor less the others'
    values; the first that falls short refutes the letter.
    """
    n_all = hi - lo
    f_lo = np.empty(MAX_DEPTH, np.int64)
    f_hi = np.empty(MAX_DEPTH, np.int64)
    f_lives = np.empty(MAX_DEPTH, np.int64)
    f_open = np.empty(MAX_DEPTH, np.int64)
    f_guessed = np.empty(MAX_DEPTH, np.int64)
    f_missed = np.empty(MAX_DEPTH, np.int64)
    f_alpha = np.empty(MAX_DEPTH, np.int64)
    f_key = np.empty((MAX_DEPTH, 3), np.uint64)
    f_slot = np.empty(MAX_DEPTH, np.int64)
    f_nhi = np.empty(MAX_DEPTH, np.int64)
    f_best = np.empty(MAX_DEPTH, np.int64)
    f_letter = np.empty(MAX_DEPTH, np.int64)
    f_mode = np.empty(MAX_DEPTH, np.int64)
    f_bound = np.empty(MAX_DEPTH, np.int64)
    f_weight = np.empty(MAX_DEPTH, np.int64)
    f_nlet = np.empty(MAX_DEPTH, np.int64)
    f_li = np.empty(MAX_DEPTH, np.int64)
    f_groups = np.empty(MAX_DEPTH, np.int64)
    f_gi = np.empty(MAX_DEPTH, np.int64)
    f_total = np.empty(MAX_DEPTH, np.int64)
    f_floor = np.empty(MAX_DEPTH, np.int64)
    f_order = np.empty((MAX_DEPTH, 26), np.int64)
    f_miss = np.empty((MAX_DEPTH, 26), np.int64)
    f_nmiss = np.empty((MAX_DEPTH, 26), np.int64)
    a_starts = np.empty((MAX_DEPTH, n_all + 2), np.int64)
    a_gkeys = np.empty((MAX_DEPTH, n_all + 1), np.uint32)
    a_val = np.empty((MAX_DEPTH, n_all + 1), np.int64)
    a_exact = np.empty((MAX_DEPTH, n_all + 1), np.bool_)
    a_corder = np.empty((MAX_DEPTH, n_all + 1), np.int64)
    # frame 0
    f_lo[0], f_hi[0], f_lives[0], f_open[0], f_guessed[0] = lo, hi, lives, open_mask, guessed
    f_missed[0], f_alpha[0] = missed, alpha
    f_key[0, 0], f_key[0, 1], f_key[0, 2] = k0, k1, k2
    d = 0
    entering = True
    ret = np.int64(0)
    while True:
        a, b, life = f_lo[d], f_hi[d], f_lives[d]
        q0, q1, q2 = f_key[d, 0], f_key[d, 1], f_key[d, 2]
        miss_bits = f_missed[d]
        if entering:
            entering = False
            status, value, slot, node_lo, letter, mode = _enter(
                masks, presence, weights, fweights, uniform, idx, a, b, life, f_guessed[d], q0,
                q1, q2, miss_bits, f_alpha[d], keys, t_lo, t_hi, t_letter, t_mode, t_size,
                wtab, stats)
            if stats[ST_FULL]:
                return np.int64(0)
            if status == _DONE:
                ret = value
                if d == 0:
                    return ret
                d -= 1
                continue
            f_slot[d], f_nhi[d], f_best[d], f_letter[d], f_mode[d] = slot, value, node_lo, \
                letter, mode
            f_bound[d] = node_lo          # the largest upper bound of a letter refuted
            f_weight[d] = segment_weight(weights, idx, a, b)
            f_nlet[d] = _letter_order(masks, presence, weights, idx, a, b, f_order[d],
                                      f_miss[d], f_nmiss[d])
            f_li[d] = 0
            f_gi[d] = -1                  # no letter under way
        else:
            # back from child f_corder[f_gi]: fold in its result
            g = a_corder[d, f_gi[d]]
            rest = f_total[d] - a_val[d, g]
            a_exact[d, g] = ret > f_floor[d] - rest
            a_val[d, g] = ret
            f_total[d] = rest + ret
            if f_total[d] <= f_floor[d]:
                f_gi[d] = f_groups[d]     # refuted: no more children
            else:
                f_gi[d] += 1
        # the letter under way: its next child to search, or its end
        pushed = False
        while not pushed:
            if f_gi[d] >= 0:
                groups = f_groups[d]
                gi = f_gi[d]
                while gi < groups and a_exact[d, a_corder[d, gi]]:
                    gi += 1
                f_gi[d] = gi
                if gi < groups and f_total[d] > f_floor[d]:
                    g = a_corder[d, gi]
                    c = f_order[d, f_li[d]]
                    c0, c1, c2, cm, cl, cu = _child(q0, q1, q2, miss_bits, life, f_open[d], c,
                                                    a_gkeys[d, g])
                    e = d + 1
                    f_lo[e], f_hi[e] = a_starts[d, g], a_starts[d, g + 1]
                    f_lives[e], f_open[e], f_missed[e] = cl, cu, cm
                    f_guessed[e] = f_guessed[d] | (np.int64(1) << c)
                    f_key[e, 0], f_key[e, 1], f_key[e, 2] = c0, c1, c2
                    f_alpha[e] = f_floor[d] - (f_total[d] - a_val[d, g])
                    d = e
                    entering = True
                    pushed = True
                    continue
                # the letter is done
                total = f_total[d]
                all_exact = True
                for g in range(groups):
                    if not a_exact[d, g]:
                        all_exact = False
                        break
                if all_exact and total > f_best[d]:
                    f_best[d] = total
                    f_letter[d] = f_order[d, f_li[d]]
                    f_mode[d] = SEARCHED
                elif total > f_bound[d]:
                    f_bound[d] = total
                f_gi[d] = -1
                f_li[d] += 1
            # the next letter worth searching
            started = False
            while f_li[d] < f_nlet[d]:
                c = f_order[d, f_li[d]]
                floor = f_best[d] if f_best[d] > f_alpha[d] else f_alpha[d]
                # before splitting: the hits win at most their weight, the misses their bound
                if f_miss[d, c] > 0:
                    mb, _, _ = _bound_of(keys, t_lo, t_hi, t_size, f_miss[d, c], f_nmiss[d, c],
                                         life - 1, q0, q1, q2,
                                         _k3(miss_bits | (np.int64(1) << c), life - 1), wtab,
                                         popcount(f_open[d]), uniform)
                    quick = f_weight[d] - f_miss[d, c] + mb
                    if quick <= floor:
                        if quick > f_bound[d]:
                            f_bound[d] = quick
                        f_li[d] += 1
                        continue
                groups, total = _bound_letter(
                    masks, presence, weights, uniform, idx, a, b, life, f_open[d], q0, q1, q2,
                    miss_bits, c, floor, a_starts[d], a_gkeys[d], a_val[d], a_exact[d],
                    a_corder[d], keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats)
                if stats[ST_FULL]:
                    return np.int64(0)
                if total <= floor:
                    if total > f_bound[d]:
                        f_bound[d] = total
                    f_li[d] += 1
                    continue
                f_groups[d], f_total[d], f_floor[d], f_gi[d] = groups, total, floor, 0
                started = True
                break
            if started:
                continue
            # every letter done: the state's result
            best = f_best[d]
            node_hi = f_nhi[d]
            if best > f_alpha[d]:
                node_lo = best
                node_hi = best
                ret = best
            else:
                node_lo = best
                bound = f_bound[d]
                if bound < node_hi:
                    node_hi = bound if bound > best else best
                ret = node_hi
            table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, q0, q1, q2,
                        _k3(miss_bits, life), node_lo, node_hi, f_letter[d], f_mode[d], b - a,
                        stats)
            if stats[ST_FULL]:
                return np.int64(0)
            if d == 0:
                return ret
            d -= 1
            break


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
def evil_search(masks, presence, ones, idx, lo, hi, open_mask, k0, k1, k2, missed, beta, keys,
                t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats):
    """The adversary's value E of ``idx[lo:hi]`` if it is below ``beta``, else a lower bound
    at least ``beta``.

    E(S) is the least number of misses a guesser can guarantee when the word may be any
    word of S consistent with the answers: E = min over letters c of the max of
    E(miss) + 1 and E(hit group) over the hit groups (0 for one word). Memoised under the
    same keys as :func:`search` with the lives field set to ``EVIL_LIVES``; entries hold
    [lo, hi] bounds on E and, once exact, the letter. Bounds: E <= n - 1 (every splitting
    guess leaves fewer words); E >= l whenever :func:`state_bound` shows that l lives lose
    a word, E >= the clique bound, and E >= E of any part. A free letter is played at once
    (E of a set is at least E of each part). ``ones``: unit weights. An explicit stack, as
    in :func:`search`; a letter must beat the best so far (and ``beta``) on every child,
    the miss group first.
    """
    n_all = hi - lo
    f_lo = np.empty(MAX_DEPTH, np.int64)
    f_hi = np.empty(MAX_DEPTH, np.int64)
    f_open = np.empty(MAX_DEPTH, np.int64)
    f_missed = np.empty(MAX_DEPTH, np.int64)
    f_beta = np.empty(MAX_DEPTH, np.int64)
    f_key = np.empty((MAX_DEPTH, 3), np.uint64)
    f_elo = np.empty(MAX_DEPTH, np.int64)
    f_ehi = np.empty(MAX_DEPTH, np.int64)
    f_best = np.empty(MAX_DEPTH, np.int64)
    f_letter = np.empty(MAX_DEPTH, np.int64)
    f_failed = np.empty(MAX_DEPTH, np.int64)
    f_nlet = np.empty(MAX_DEPTH, np.int64)
    f_li = np.empty(MAX_DEPTH, np.int64)
    f_groups = np.empty(MAX_DEPTH, np.int64)
    f_gi = np.empty(MAX_DEPTH, np.int64)
    f_value = np.empty(MAX_DEPTH, np.int64)
    f_cut = np.empty(MAX_DEPTH, np.int64)
    f_order = np.empty((MAX_DEPTH, 26), np.int64)
    miss = np.empty(26, np.int64)
    n_miss = np.empty(26, np.int64)
    a_starts = np.empty((MAX_DEPTH, n_all + 2), np.int64)
    a_gkeys = np.empty((MAX_DEPTH, n_all + 1), np.uint32)
    f_lo[0], f_hi[0], f_open[0], f_missed[0], f_beta[0] = lo, hi, open_mask, missed, beta
    f_key[0, 0], f_key[0, 1], f_key[0, 2] = k0, k1, k2
    d = 0
    entering = True
    ret = np.int64(0)
    while True:
        a, b = f_lo[d], f_hi[d]
        q0, q1, q2 = f_key[d, 0], f_key[d, 1], f_key[d, 2]
        miss_bits = f_missed[d]
        k3 = _k3(miss_bits, EVIL_LIVES)
        if entering:
            entering = False
            stats[ST_NODES] += 1
            n = b - a
            done = n <= 1
            ret = np.int64(0)
            node_lo = np.int64(0)
            node_hi = np.int64(0)
            letter = np.int64(-1)
            if not done:
                slot = table_find(keys, t_size, q0, q1, q2, k3)
                if slot >= 0:
                    node_lo, node_hi = t_lo[slot], t_hi[slot]
                    letter = np.int64(t_letter[slot])
                else:
                    stats[ST_BOUNDS] += 1
                    node_lo = evil_lower(masks, presence, ones, idx, a, b, wtab)
                    node_hi = np.int64(n - 1)
                    table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, q0, q1, q2, k3,
                                node_lo, node_hi, letter, np.int64(0), n, stats)
                    if stats[ST_FULL]:
                        return np.int64(0)
                if node_lo == node_hi or node_lo >= f_beta[d]:
                    done = True
                    ret = node_lo
            if done:
                if d == 0:
                    return ret
                d -= 1
                continue
            stats[ST_EXPANDED] += 1
            f_elo[d], f_ehi[d], f_letter[d] = node_lo, node_hi, letter
            # a letter must beat the stored upper bound, which any splitting letter reaches
            f_best[d] = node_hi + 1
            f_failed[d] = n            # least lower bound of a letter that could not win
            f_nlet[d] = _letter_order(masks, presence, ones, idx, a, b, f_order[d], miss,
                                      n_miss)
            f_li[d] = 0
            f_gi[d] = -1
        else:
            # back from child f_gi of the letter under way
            g = f_gi[d]
            extra = 1 if a_gkeys[d, g] == 0 else 0
            if ret > f_elo[d]:          # a part is worth no more than the whole
                f_elo[d] = ret
            v = ret + extra
            if v > f_value[d]:
                f_value[d] = v
            f_gi[d] = f_groups[d] if v >= f_cut[d] else g + 1
        pushed = False
        while not pushed:
            if f_gi[d] >= 0:
                if f_gi[d] < f_groups[d] and f_value[d] < f_cut[d]:
                    g = f_gi[d]
                    c = f_order[d, f_li[d]]
                    c0, c1, c2, cm, cl, cu = _child(q0, q1, q2, miss_bits, 1, f_open[d], c,
                                                    a_gkeys[d, g])
                    e = d + 1
                    f_lo[e], f_hi[e] = a_starts[d, g], a_starts[d, g + 1]
                    f_open[e], f_missed[e] = cu, cm
                    f_key[e, 0], f_key[e, 1], f_key[e, 2] = c0, c1, c2
                    f_beta[e] = f_cut[d] - (1 if a_gkeys[d, g] == 0 else 0)
                    d = e
                    entering = True
                    pushed = True
                    continue
                # the letter is done
                if f_value[d] < f_cut[d]:
                    f_best[d] = f_value[d]
                    f_letter[d] = f_order[d, f_li[d]]
                elif f_value[d] < f_failed[d]:
                    f_failed[d] = f_value[d]
                f_gi[d] = -1
                f_li[d] += 1
            started = False
            if f_li[d] < f_nlet[d]:
                cut = f_best[d] if f_best[d] < f_beta[d] else f_beta[d]
                if cut > f_elo[d] and f_elo[d] < f_beta[d]:
                    c = f_order[d, f_li[d]]
                    f_groups[d] = split_segment(masks, idx, a, b, c, a_starts[d], a_gkeys[d])
                    f_cut[d] = cut
                    f_value[d] = 0
                    f_gi[d] = 0
                    started = True
            if started:
                continue
            # the state's result
            best = f_best[d]
            node_lo, node_hi = f_elo[d], f_ehi[d]
            mode = np.int64(0)
            if best < f_beta[d] and best <= node_hi:
                node_lo = best
                node_hi = best
                ret = best
                mode = SEARCHED
            elif node_lo >= f_beta[d]:
                ret = node_lo
            else:
                # every letter is worth at least what it was found worth
                low = f_failed[d] if f_failed[d] < best else best
                if low > node_lo:
                    node_lo = low
                ret = node_lo
            table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, q0, q1, q2, k3, node_lo,
                        node_hi, f_letter[d], mode, b - a, stats)
            if stats[ST_FULL]:
                return np.int64(0)
            if d == 0:
                return ret
            d -= 1
            break


@njit(cache=CACHE, **SERIAL)
def walk(masks, presence, weights, fweights, uniform, lives, evil, keys, t_lo, t_hi, t_letter,
         t_mode, t_size, wtab, stats, out_wrong, out_count, out_letters, node_letter,
         node_parent, node_mask, node_word):
    """Play every word by the optimal strategy held in the table (searching the states it
    lacks); fill per-word misses, guesses and letters, and the strategy tree. With
    ``evil``, the strategy is the adversary game's (:func:`evil_search`; ``weights`` ones).

    A word's game goes on after it is lost (or once a set is small enough to be won
    whatever splits it) with ``min-miss``, for the difficulty tuples. Tree nodes are
    numbered in the order they are made; node 0 is the root; ``node_letter`` is -1 at a
    leaf, whose word is ``node_word``; ``node_mask`` is the positions of the parent's
    letter (0: a miss). Returns the number of nodes, or -1 if the node arrays are full.
    """
    n = masks.shape[0]
    idx, st_lo, st_hi, st_guessed, st_wrong, st_depth, st_seq, starts, gkeys = tree_stack(n)
    st_greedy = np.empty(n + 1, np.bool_)
    st_key = np.empty((n + 1, 3), np.uint64)
    st_open = np.empty(n + 1, np.int64)
    st_missed = np.empty(n + 1, np.int64)
    st_node = np.empty(n + 1, np.int64)
    seq = np.zeros(26, np.uint8)
    n_nodes = 1
    node_parent[0] = -1
    node_mask[0] = 0
    node_word[0] = -1
    node_letter[0] = -1
    if n == 0:
        return 0
    length = 0
    all_positions = np.int64(0)
    for w in range(n):
        for c in range(26):
            all_positions |= np.int64(masks[w, c])
    length = popcount(all_positions)
    st_lo[0], st_hi[0], st_guessed[0], st_wrong[0], st_depth[0] = 0, n, 0, 0, 0
    st_greedy[0] = False
    st_key[0, 0] = 0
    st_key[0, 1] = 0
    st_key[0, 2] = 0
    st_open[0] = (np.int64(1) << length) - 1
    st_missed[0] = 0
    st_node[0] = 0
    top = 1
    while top > 0:
        top -= 1
        a, b, g, m, d = st_lo[top], st_hi[top], st_guessed[top], st_wrong[top], st_depth[top]
        greedy = st_greedy[top]
        node = st_node[top]
        k0, k1, k2 = st_key[top, 0], st_key[top, 1], st_key[top, 2]
        open_mask = st_open[top]
        missed = st_missed[top]
        for k in range(d):
            seq[k] = st_seq[top, k]
        if b - a == 1:
            w = idx[a]
            record_word(w, m, d, seq, out_wrong, out_count, out_letters)
            node_word[node] = w
            node_letter[node] = -1
            continue
        left = lives - m
        c = -1
        if evil:
            evil_search(masks, presence, weights, idx, a, b, open_mask, k0, k1, k2, missed,
                        b - a + 1, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats)
            s = table_find(keys, t_size, k0, k1, k2, _k3(missed, EVIL_LIVES))
            if s >= 0 and t_mode[s] == SEARCHED:
                c = t_letter[s]
        elif not greedy and left > 0 and b - a > left:
            search(masks, presence, weights, fweights, uniform, idx, a, b, left, open_mask, g,
                   k0, k1, k2, missed, -1, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab,
                   stats)
            k3 = np.uint64(missed) | (np.uint64(left) << np.uint64(LIVES_SHIFT))
            s = table_find(keys, t_size, k0, k1, k2, k3)
            if s >= 0 and t_mode[s] == SEARCHED:
                c = t_letter[s]
            else:
                greedy = True
        if c < 0:
            c = choose_greedy(masks, presence, fweights, idx, a, b, g, MIN_MISS)
        node_letter[node] = c
        groups = split_segment(masks, idx, a, b, c, starts, gkeys)
        for j in range(groups):
            if n_nodes >= node_letter.shape[0]:
                return -1
            child = n_nodes
            n_nodes += 1
            node_parent[child] = node
            node_mask[child] = gkeys[j]
            node_word[child] = -1
            node_letter[child] = -1
            st_lo[top] = starts[j]
            st_hi[top] = starts[j + 1]
            st_guessed[top] = g | (1 << c)
            st_depth[top] = d + 1
            st_greedy[top] = greedy
            st_node[top] = child
            if gkeys[j] == 0:
                st_wrong[top] = m + 1
                st_key[top, 0], st_key[top, 1], st_key[top, 2] = k0, k1, k2
                st_missed[top] = missed | (1 << c)
                st_open[top] = open_mask
            else:
                st_wrong[top] = m
                c0, c1, c2 = reveal(k0, k1, k2, c, gkeys[j])
                st_key[top, 0], st_key[top, 1], st_key[top, 2] = c0, c1, c2
                st_missed[top] = missed
                st_open[top] = open_mask & ~np.int64(gkeys[j])
            for k in range(d):
                st_seq[top, k] = seq[k]
            st_seq[top, d] = c
            top += 1
    return n_nodes
