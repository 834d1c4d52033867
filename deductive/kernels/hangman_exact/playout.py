"""Every word played by an exact strategy held in the memo, and the strategy's tree."""

import numpy as np

from .._bits import popcount
from .._config import CACHE, SERIAL, njit
from ..hangman import MIN_MISS, choose_greedy, record_word, split_segment, tree_stack
from .memo import EVIL_LIVES, SEARCHED, reveal, state_key, table_find
from .driver import evil_search, search


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
            s = table_find(keys, t_size, k0, k1, k2, state_key(missed, EVIL_LIVES))
            if s >= 0 and t_mode[s] == SEARCHED:
                c = t_letter[s]
        elif not greedy and left > 0 and b - a > left:
            search(masks, presence, weights, fweights, uniform, idx, a, b, left, open_mask, g,
                   k0, k1, k2, missed, -1, keys, t_lo, t_hi, t_letter, t_mode, t_size, wtab,
                   stats)
            s = table_find(keys, t_size, k0, k1, k2, state_key(missed, left))
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
