"""The guesser's search: the most weight a guesser wins from a state with its lives.

The steps of :func:`~.driver.search` on a frame of :mod:`.stack` (the driver calls them in
turn): :func:`enter` (trivial values, the memo, the state's bound and min-miss's lower
bound), :func:`next_letter` (the next letter whose children's bounds sum above the floor:
the best so far, or alpha), :func:`next_group` (the next child to search, each needing
more than the floor less the others' values), :func:`fold` (a child's value back in),
:func:`letter_done` and :func:`finish` (the state's entry). The first child that falls
short refutes the letter. See :mod:`deductive.kernels.hangman_exact` for the bounds.
"""

import numpy as np

from .._bits import popcount
from .._config import CACHE, SERIAL, njit
from ..hangman import greedy_wins, split_segment
from .bounds import segment_weight, state_bound
from .memo import (GREEDY, SEARCHED, ST_BOUNDS, ST_EXPANDED, ST_FULL, ST_NODES, child_key,
                   state_key, table_find, table_store)
from .stack import (AT_GROUP, AT_LETTER, BEST, BOUND, FLOOR, GUESSED, HI, LETTER, LIVES_LEFT, LO,
                    MISSED, N_COMMON, N_GROUPS, N_LETTERS, OPEN, SUM, start_letters)

# The guesser's own columns of a frame: the state's memo slot and upper bound, the mode of
# its best letter, the largest upper bound of a letter refuted, and its weight.
SLOT = N_COMMON
NODE_HI = N_COMMON + 1
MODE = N_COMMON + 2
REFUTED = N_COMMON + 3
WEIGHT = N_COMMON + 4
#: Search results of ``_enter``.
_DONE = 0
_EXPAND = 1


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
    k3 = state_key(missed, lives)
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
        up = table_find(keys, t_size, k0, k1, k2, state_key(missed, lives + 1))
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
        c0, c1, c2, cm, cl, cu = child_key(k0, k1, k2, missed, lives, open_mask, c, gkeys[g])
        v, ex, kn = _bound_of(keys, t_lo, t_hi, t_size,
                              segment_weight(weights, idx, starts[g], starts[g + 1]),
                              starts[g + 1] - starts[g], cl, c0, c1, c2, state_key(cm, cl), wtab,
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
        c0, c1, c2, cm, cl, cu = child_key(k0, k1, k2, missed, lives, open_mask, c, gkeys[g])
        stats[ST_BOUNDS] += 1
        v = state_bound(masks, presence, weights, uniform, idx, starts[g], starts[g + 1], cl,
                        wtab)
        table_store(keys, t_lo, t_hi, t_letter, t_mode, t_size, c0, c1, c2, state_key(cm, cl),
                    np.int64(0), v, np.int64(-1), np.int64(0), starts[g + 1] - starts[g], stats)
        if stats[ST_FULL]:
            return groups, total
        total += v - val[g]
        val[g] = v
    return groups, total


@njit(cache=CACHE, **SERIAL)
def enter(masks, presence, weights, fweights, uniform, idx, table, wtab, stats, frames, d):
    """Enter the state of frame d: (False, its value) when it needs no search (or
    ``stats[ST_FULL]``), else (True, its upper bound) with the frame ready for letters."""
    ints, keys = frames[0], frames[1]
    t_keys, t_lo, t_hi, t_letter, t_mode, t_size = table
    a, b = ints[d, LO], ints[d, HI]
    status, value, slot, node_lo, letter, mode = _enter(
        masks, presence, weights, fweights, uniform, idx, a, b, ints[d, LIVES_LEFT],
        ints[d, GUESSED], keys[d, 0], keys[d, 1], keys[d, 2], ints[d, MISSED], ints[d, BOUND],
        t_keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats)
    if stats[ST_FULL] or status == _DONE:
        return False, value
    ints[d, SLOT] = slot
    ints[d, NODE_HI] = value
    ints[d, MODE] = mode
    ints[d, REFUTED] = node_lo
    ints[d, WEIGHT] = segment_weight(weights, idx, a, b)
    start_letters(masks, presence, weights, idx, frames, d, letter, node_lo)
    return True, value


@njit(cache=CACHE, **SERIAL)
def fold(frames, d, value):
    """Fold the value of the child just searched into its letter's sum."""
    ints, val, exact, corder = frames[0], frames[7], frames[8], frames[9]
    g = corder[d, ints[d, AT_GROUP]]
    rest = ints[d, SUM] - val[d, g]
    exact[d, g] = value > ints[d, FLOOR] - rest
    val[d, g] = value
    ints[d, SUM] = rest + value
    if ints[d, SUM] <= ints[d, FLOOR]:
        ints[d, AT_GROUP] = ints[d, N_GROUPS]     # refuted: no more children
    else:
        ints[d, AT_GROUP] += 1


@njit(cache=CACHE, **SERIAL)
def next_group(frames, d):
    """The next child of the letter under way to search and the bound it is searched
    against, or (-1, 0) once the letter is refuted or every child is exact."""
    ints, val, exact, corder = frames[0], frames[7], frames[8], frames[9]
    groups = ints[d, N_GROUPS]
    gi = ints[d, AT_GROUP]
    while gi < groups and exact[d, corder[d, gi]]:
        gi += 1
    ints[d, AT_GROUP] = gi
    if gi < groups and ints[d, SUM] > ints[d, FLOOR]:
        g = corder[d, gi]
        return g, ints[d, FLOOR] - (ints[d, SUM] - val[d, g])
    return np.int64(-1), np.int64(0)


@njit(cache=CACHE, **SERIAL)
def letter_done(frames, d):
    """The letter under way is the best so far if every child is exact and it wins more;
    else its sum bounds it."""
    ints, order, exact = frames[0], frames[2], frames[8]
    total = ints[d, SUM]
    all_exact = True
    for g in range(ints[d, N_GROUPS]):
        if not exact[d, g]:
            all_exact = False
            break
    if all_exact and total > ints[d, BEST]:
        ints[d, BEST] = total
        ints[d, LETTER] = order[d, ints[d, AT_LETTER]]
        ints[d, MODE] = SEARCHED
    elif total > ints[d, REFUTED]:
        ints[d, REFUTED] = total


@njit(cache=CACHE, **SERIAL)
def next_letter(masks, presence, weights, fweights, uniform, idx, table, wtab, stats, frames,
                d):
    """Start the next letter worth searching (True), or say there is none (False, also
    when ``stats[ST_FULL]``): a letter is skipped when its hits' weight plus its miss
    group's bound, or the sum of its children's bounds, is at most the floor."""
    ints, keys, order, miss, n_miss = frames[0], frames[1], frames[2], frames[3], frames[4]
    starts, gkeys, val, exact, corder = frames[5], frames[6], frames[7], frames[8], frames[9]
    t_keys, t_lo, t_hi, t_letter, t_mode, t_size = table
    a, b, life, miss_bits = ints[d, LO], ints[d, HI], ints[d, LIVES_LEFT], ints[d, MISSED]
    q0, q1, q2 = keys[d, 0], keys[d, 1], keys[d, 2]
    while ints[d, AT_LETTER] < ints[d, N_LETTERS]:
        c = order[d, ints[d, AT_LETTER]]
        floor = ints[d, BEST] if ints[d, BEST] > ints[d, BOUND] else ints[d, BOUND]
        # before splitting: the hits win at most their weight, the misses their bound
        if miss[d, c] > 0:
            mb, _, _ = _bound_of(t_keys, t_lo, t_hi, t_size, miss[d, c], n_miss[d, c],
                                 life - 1, q0, q1, q2,
                                 state_key(miss_bits | (np.int64(1) << c), life - 1), wtab,
                                 popcount(ints[d, OPEN]), uniform)
            quick = ints[d, WEIGHT] - miss[d, c] + mb
            if quick <= floor:
                if quick > ints[d, REFUTED]:
                    ints[d, REFUTED] = quick
                ints[d, AT_LETTER] += 1
                continue
        groups, total = _bound_letter(
            masks, presence, weights, uniform, idx, a, b, life, ints[d, OPEN], q0, q1, q2,
            miss_bits, c, floor, starts[d], gkeys[d], val[d], exact[d], corder[d], t_keys,
            t_lo, t_hi, t_letter, t_mode, t_size, wtab, stats)
        if stats[ST_FULL]:
            return False
        if total <= floor:
            if total > ints[d, REFUTED]:
                ints[d, REFUTED] = total
            ints[d, AT_LETTER] += 1
            continue
        ints[d, N_GROUPS] = groups
        ints[d, SUM] = total
        ints[d, FLOOR] = floor
        ints[d, AT_GROUP] = 0
        return True
    return False


@njit(cache=CACHE, **SERIAL)
def finish(table, stats, frames, d):
    """Every letter done: store the state's entry and return its result (exact above
    alpha, else an upper bound at most alpha)."""
    ints, keys = frames[0], frames[1]
    t_keys, t_lo, t_hi, t_letter, t_mode, t_size = table
    best = ints[d, BEST]
    node_hi = ints[d, NODE_HI]
    if best > ints[d, BOUND]:
        node_lo = best
        node_hi = best
        ret = best
    else:
        node_lo = best
        bound = ints[d, REFUTED]
        if bound < node_hi:
            node_hi = bound if bound > best else best
        ret = node_hi
    table_store(t_keys, t_lo, t_hi, t_letter, t_mode, t_size, keys[d, 0], keys[d, 1],
                keys[d, 2], state_key(ints[d, MISSED], ints[d, LIVES_LEFT]), node_lo, node_hi,
                ints[d, LETTER], ints[d, MODE], ints[d, HI] - ints[d, LO], stats)
    return ret
