"""Minesweeper kernels: the tables of the tree-decomposition count of a big component.

A table holds partial solutions of a bag: ``digits[i, j]`` mines placed so far around the
bag's constraint j (its key, ``keys[i] = sum(digits[i, j] * radix[j])``, keeps the rows
sorted), and ``polys[i, :]`` the log-polynomial (:mod:`.mines_logpoly`) in the mines
placed, common to the table's offset. An item (a box, or a child's message) has choices:
digits added to the bag's constraints and a log-polynomial of the mines it brings (all
choices share one offset). The driver is ``engine/minesweeper/counting.py``.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .mines_logpoly import log_add


@njit(cache=CACHE, **SERIAL)
def _fits(digits, i, add, c, values):
    for j in range(values.shape[0]):
        if digits[i, j] + add[c, j] > values[j]:
            return False
    return True


@njit(cache=CACHE, **SERIAL)
def table_pairs(digits, add, values):
    """How many (row, choice) pairs fit the constraints: the work of the next step."""
    count = 0
    for i in range(digits.shape[0]):
        for c in range(add.shape[0]):
            if _fits(digits, i, add, c, values):
                count += 1
    return count


@njit(cache=CACHE, **SERIAL)
def table_apply(digits, keys, polys, add, add_keys, cpolys, values, n_pairs, max_cells):
    """Every partial solution extended by every choice of an item that fits the constraints.

    ``n_pairs`` is :func:`table_pairs`' count. Returns the new table (digits, keys, polys)
    with rows merged by key and sorted; its polynomials are the products of the old ones with
    the choices' (offsets add up). If the new table would hold more than ``max_cells``
    coefficients, returns empty arrays instead (the caller's budget error).
    """
    n = keys.shape[0]
    n_c = add_keys.shape[0]
    length = polys.shape[1]
    c_len = cpolys.shape[1]
    pair_s = np.empty(n_pairs, np.int64)
    pair_c = np.empty(n_pairs, np.int64)
    pair_k = np.empty(n_pairs, np.int64)
    t = 0
    for i in range(n):
        for c in range(n_c):
            if _fits(digits, i, add, c, values):
                pair_s[t] = i
                pair_c[t] = c
                pair_k[t] = keys[i] + add_keys[c]
                t += 1
    order = np.argsort(pair_k, kind="mergesort")
    n_out = 0
    for t in range(n_pairs):
        if t == 0 or pair_k[order[t]] != pair_k[order[t - 1]]:
            n_out += 1
    out_len = length + c_len - 1
    if n_out * out_len > max_cells:
        return (np.empty((0, digits.shape[1]), digits.dtype), np.empty(0, np.int64),
                np.empty((0, out_len)))
    out_digits = np.empty((n_out, digits.shape[1]), digits.dtype)
    out_keys = np.empty(n_out, np.int64)
    out_polys = np.full((n_out, out_len), -np.inf)
    row = -1
    for t in range(n_pairs):
        p = order[t]
        i = pair_s[p]
        c = pair_c[p]
        if t == 0 or pair_k[p] != pair_k[order[t - 1]]:
            row += 1
            out_keys[row] = pair_k[p]
            for j in range(digits.shape[1]):
                out_digits[row, j] = digits[i, j] + add[c, j]
        for a in range(length):
            x = polys[i, a]
            if x == -np.inf:
                continue
            for b in range(c_len):
                y = cpolys[c, b]
                if y == -np.inf:
                    continue
                out_polys[row, a + b] = log_add(out_polys[row, a + b], x + y)
    return out_digits, out_keys, out_polys


@njit(cache=CACHE, **SERIAL)
def table_matches(digits, keys, add, add_keys, values, g_keys, n_pairs):
    """The (row, choice, next row) triples of a backward step: row s of a forward table,
    a choice c that fits, and the row of ``s + c`` in the next table (when it has one).
    ``n_pairs`` is :func:`table_pairs`' count."""
    n = keys.shape[0]
    n_c = add_keys.shape[0]
    rows = np.empty((n_pairs, 3), np.int64)
    t = 0
    for i in range(n):
        for c in range(n_c):
            if not _fits(digits, i, add, c, values):
                continue
            key = keys[i] + add_keys[c]
            r = np.searchsorted(g_keys, key)
            if r < g_keys.shape[0] and g_keys[r] == key:
                rows[t, 0] = i
                rows[t, 1] = c
                rows[t, 2] = r
                t += 1
    return rows[:t]


@njit(cache=CACHE, **SERIAL)
def _log_dot(f, g, shift):
    """``log sum_m exp(f[m] + g[m + shift])``."""
    acc = -np.inf
    for m in range(f.shape[0]):
        t = m + shift
        if 0 <= t < g.shape[0] and f[m] > -np.inf and g[t] > -np.inf:
            acc = log_add(acc, f[m] + g[t])
    return acc


@njit(cache=CACHE, **SERIAL)
def table_back(matches, n_rows, f_len, cpolys, g_polys, shift):
    """The backward step: for each row s of a forward table (mine offsets of length
    ``f_len``), ``G(s)[m] = log sum_{c, b} exp(cpolys[c, b] + g(s + c)[m + b + shift])``,
    where g is the next table's backward weights and ``shift`` aligns the offsets (forward
    offset + choice offset - next offset)."""
    out = np.full((n_rows, f_len), -np.inf)
    for t in range(matches.shape[0]):
        i, c, r = matches[t, 0], matches[t, 1], matches[t, 2]
        for b in range(cpolys.shape[1]):
            y = cpolys[c, b]
            if y == -np.inf:
                continue
            for m in range(f_len):
                u = m + b + shift
                if 0 <= u < g_polys.shape[1] and g_polys[r, u] > -np.inf:
                    out[i, m] = log_add(out[i, m], y + g_polys[r, u])
    return out


@njit(cache=CACHE, **SERIAL)
def table_box_marginals(matches, f_polys, cpolys, g_polys, shift, size):
    """For a box item (choice k places k mines): log of the solutions weighted by the box's
    mines, and by its free cells, each weighted by the backward table g (the rest)."""
    mines = -np.inf
    free = -np.inf
    for t in range(matches.shape[0]):
        i, k, r = matches[t, 0], matches[t, 1], matches[t, 2]
        acc = _log_dot(f_polys[i], g_polys[r], k + shift) + cpolys[k, k]
        if acc == -np.inf:
            continue
        if k > 0:
            mines = log_add(mines, acc + np.log(k))
        if k < size:
            free = log_add(free, acc + np.log(size - k))
    return mines, free


@njit(cache=CACHE, **SERIAL)
def table_outside(matches, n_choices, c_len, f_polys, g_polys, shift):
    """For a child item: ``out[c, b] = log sum_{s, m} exp(f(s)[m] + g(s + c)[m + b +
    shift])``, the weight of everything outside the child's subtree given that the subtree
    brings choice c with b (+ its offset) mines."""
    out = np.full((n_choices, c_len), -np.inf)
    for t in range(matches.shape[0]):
        i, c, r = matches[t, 0], matches[t, 1], matches[t, 2]
        for b in range(c_len):
            out[c, b] = log_add(out[c, b], _log_dot(f_polys[i], g_polys[r], b + shift))
    return out
