"""Minesweeper kernels: the frontier of a position as constraints, boxes and components.

A position is a flat ``int8`` array over cells (see :mod:`.mines`).

* every revealed cell with covered neighbours is a constraint: its covered neighbours hold
  ``number - flagged neighbours`` mines;
* covered cells touched by the same set of constraints form a *box*: only the number of
  mines in a box matters, weighted by C(box size, k);
* constraints sharing boxes form *components*, counted independently
  (:mod:`.mines_count`).
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .mines import COVERED, covered_and_flags

# error codes of frontier_structure
OK = 0
TOO_MANY_FLAGS = 1      # a number has more flagged neighbours than its value
TOO_FEW_COVERED = 2     # a number needs more mines than it has covered neighbours


@njit(cache=CACHE, **SERIAL)
def frontier_structure(cells, nbrs):
    """Constraints, boxes and components of a position.

    Returns
    -------
    status : int
        OK, TOO_MANY_FLAGS or TOO_FEW_COVERED.
    bad_cell : int
        The revealed cell at fault (status != OK), else -1.
    box_of : int32[n]
        Box of each covered frontier cell, -1 elsewhere.
    box_size : int64[n_boxes]
    box_comp : int64[n_boxes]
        Component of each box (components numbered from 0).
    box_cons_ptr, box_cons : int64
        CSR lists of the constraints touching each box.
    cons_value : int64[n_constraints]
        Mines each constraint still needs.
    n_comp : int
    """
    status, bad, cons_of, cons_cell, cons_value = constraints(cells, nbrs)
    if status != OK:
        return status, bad, np.empty(0, np.int32), np.empty(0, np.int64), \
            np.empty(0, np.int64), np.empty(1, np.int64), np.empty(0, np.int64), \
            np.empty(0, np.int64), 0
    sig, sig_len = signatures(cells, nbrs, cons_of)
    box_of, box_rep, box_size = boxes(cells, nbrs, cons_cell, sig, sig_len)
    box_cons_ptr, box_cons = box_constraints(box_rep, sig, sig_len)
    box_comp, n_comp = components(box_cons_ptr, box_cons, cons_value.shape[0])
    return status, bad, box_of, box_size, box_comp, box_cons_ptr, box_cons, cons_value, n_comp


@njit(cache=CACHE, **SERIAL)
def constraints(cells, nbrs):
    """Number the constraints: the revealed cells with covered neighbours, row-major.

    Returns (status, bad cell, constraint id of each cell (-1: none), the cell of each
    constraint, the mines each still needs); on an error status the arrays are empty.
    """
    n = cells.shape[0]
    cons_of = np.full(n, -1, np.int64)
    cons_cell = np.empty(n, np.int64)
    cons_value = np.empty(n, np.int64)
    n_cons = 0
    for cell in range(n):
        v = cells[cell]
        if v < 0:
            continue
        covered, flags = covered_and_flags(cells, nbrs, cell)
        need = v - flags
        if need < 0 or need > covered:
            status = TOO_MANY_FLAGS if need < 0 else TOO_FEW_COVERED
            return status, cell, cons_of[:0], cons_cell[:0], cons_value[:0]
        if covered > 0:
            cons_of[cell] = n_cons
            cons_cell[n_cons] = cell
            cons_value[n_cons] = need
            n_cons += 1
    return OK, -1, cons_of, cons_cell[:n_cons].copy(), cons_value[:n_cons].copy()


@njit(cache=CACHE, **SERIAL)
def signatures(cells, nbrs, cons_of):
    """The signature of each covered cell: the ids of its constraints, ascending (at most
    8), as ``sig[cell, :sig_len[cell]]``."""
    n = cells.shape[0]
    sig = np.full((n, 8), -1, np.int64)
    sig_len = np.zeros(n, np.int64)
    for cell in range(n):
        if cells[cell] != COVERED:
            continue
        for k in range(8):
            nb = nbrs[cell, k]
            if nb >= 0 and cons_of[nb] >= 0:
                sig[cell, sig_len[cell]] = cons_of[nb]
                sig_len[cell] += 1
        # insertion sort of the few ids
        for a in range(1, sig_len[cell]):
            x = sig[cell, a]
            b = a - 1
            while b >= 0 and sig[cell, b] > x:
                sig[cell, b + 1] = sig[cell, b]
                b -= 1
            sig[cell, b + 1] = x
    return sig, sig_len


@njit(cache=CACHE, inline="always", **SERIAL)
def _same_signature(sig, sig_len, a, b):
    if sig_len[a] != sig_len[b]:
        return False
    for i in range(sig_len[a]):
        if sig[a, i] != sig[b, i]:
            return False
    return True


@njit(cache=CACHE, **SERIAL)
def boxes(cells, nbrs, cons_cell, sig, sig_len):
    """Group the covered frontier cells with equal signatures into boxes, numbered in the
    order of their first constraint, then of the neighbour slot of their first cell (a
    box's cells all touch its first constraint, so only that one's neighbours are searched).

    Returns (box of each cell (-1: off the frontier), a representative cell of each box,
    each box's size).
    """
    n = cells.shape[0]
    box_of = np.full(n, -1, np.int32)
    box_rep = np.empty(n, np.int64)
    box_size = np.zeros(n, np.int64)
    n_boxes = 0
    for j in range(cons_cell.shape[0]):
        centre = cons_cell[j]
        for k in range(8):
            cell = nbrs[centre, k]
            if cell < 0 or cells[cell] != COVERED or box_of[cell] >= 0 or sig[cell, 0] != j:
                continue
            box_of[cell] = n_boxes
            box_rep[n_boxes] = cell
            box_size[n_boxes] = 1
            for k2 in range(k + 1, 8):
                other = nbrs[centre, k2]
                if other < 0 or cells[other] != COVERED or box_of[other] >= 0:
                    continue
                if _same_signature(sig, sig_len, other, cell):
                    box_of[other] = n_boxes
                    box_size[n_boxes] += 1
            n_boxes += 1
    return box_of, box_rep[:n_boxes].copy(), box_size[:n_boxes].copy()


@njit(cache=CACHE, **SERIAL)
def box_constraints(box_rep, sig, sig_len):
    """CSR lists (``ptr``, ``ids``) of the constraints of each box (its cells' signature)."""
    n_boxes = box_rep.shape[0]
    ptr = np.zeros(n_boxes + 1, np.int64)
    for b in range(n_boxes):
        ptr[b + 1] = ptr[b] + sig_len[box_rep[b]]
    ids = np.empty(ptr[n_boxes], np.int64)
    for b in range(n_boxes):
        for a in range(sig_len[box_rep[b]]):
            ids[ptr[b] + a] = sig[box_rep[b], a]
    return ptr, ids


@njit(cache=CACHE, inline="always", **SERIAL)
def _root(parent, x):
    """Root of x in a union-find forest, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=CACHE, **SERIAL)
def components(box_cons_ptr, box_cons, n_cons):
    """Components of the boxes: constraints joined by the boxes they share (union-find,
    the lower root wins), numbered in the order of their first box. Returns (component of
    each box, number of components)."""
    n_boxes = box_cons_ptr.shape[0] - 1
    parent = np.arange(n_cons)
    for b in range(n_boxes):
        x = _root(parent, box_cons[box_cons_ptr[b]])
        for a in range(box_cons_ptr[b] + 1, box_cons_ptr[b + 1]):
            y = _root(parent, box_cons[a])
            if x != y:
                parent[max(x, y)] = min(x, y)
                x = min(x, y)
    comp_of_root = np.full(n_cons, -1, np.int64)
    n_comp = 0
    box_comp = np.empty(n_boxes, np.int64)
    for b in range(n_boxes):
        x = _root(parent, box_cons[box_cons_ptr[b]])
        if comp_of_root[x] < 0:
            comp_of_root[x] = n_comp
            n_comp += 1
        box_comp[b] = comp_of_root[x]
    return box_comp, n_comp
