"""Minesweeper kernels: the solutions of each component of the frontier, by mines.

:func:`count_all` enumerates each component's box assignments (:mod:`.mines_frontier`)
depth-first with interval pruning (:func:`count_component`) and returns, for each total
number of mines m in the component, the number of solutions W[m] (weighted by the
binomials), the weighted number of mines in each box S[b, m], and the least and most mines
each box has among those solutions. Sums use Neumaier's compensated summation of positive
terms, so their relative error stays below (boxes + 2) * 2**-53 whatever the number of
solutions. A component too big to enumerate is left to the tree decomposition
(:mod:`.mines_tables`).
"""

import numpy as np

from ._config import CACHE, SERIAL, njit


@njit(cache=CACHE, **SERIAL)
def _add(total, comp, index, value):
    """Neumaier compensated addition of value into total[index] (comp holds the error)."""
    t = total[index] + value
    if abs(total[index]) >= abs(value):
        comp[index] += (total[index] - t) + value
    else:
        comp[index] += (value - t) + total[index]
    total[index] = t


@njit(cache=CACHE, **SERIAL)
def count_component(boxes, box_size, box_cons_ptr, box_cons, cons_value, binom, budget,
                    weights, mines_in_box, kmin, kmax):
    """Count the solutions of one component by its number of mines.

    Parameters
    ----------
    boxes : int64[B]
        The component's boxes, in the order they are assigned (neighbours close together).
    binom : float64[9, 9]
        Binomial coefficients.
    budget : int
        Most search nodes to visit; past it the count is abandoned (returns -1).
    weights : float64[max_mines + 1]
        Out: W[m].
    mines_in_box : float64[B, max_mines + 1]
        Out: S[b, m], solutions weighted by the mines in box b.
    kmin, kmax : int64[B, max_mines + 1]
        Out: least / most mines of each box over the solutions with m mines (kmin starts
        above any size, kmax at -1).

    Returns
    -------
    int
        Nodes visited, or -1 if the budget ran out.
    """
    n_boxes = boxes.shape[0]
    n_cons = cons_value.shape[0]
    residual = cons_value.copy()
    capacity = np.zeros(n_cons, np.int64)
    for i in range(n_boxes):
        b = boxes[i]
        for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
            capacity[box_cons[a]] += box_size[b]
    choice = np.full(n_boxes, -1, np.int64)
    weight_at = np.ones(n_boxes + 1, np.float64)
    mines_at = np.zeros(n_boxes + 1, np.int64)
    comp_w = np.zeros(weights.shape[0], np.float64)
    comp_s = np.zeros(mines_in_box.shape, np.float64)
    nodes = 0
    level = 0
    while level >= 0:
        if level == n_boxes:
            m = mines_at[level]
            w = weight_at[level]
            _add(weights, comp_w, m, w)
            for i in range(n_boxes):
                k = choice[i]
                if k > 0:
                    _add(mines_in_box[i], comp_s[i], m, w * k)
                if k < kmin[i, m]:
                    kmin[i, m] = k
                if k > kmax[i, m]:
                    kmax[i, m] = k
            level -= 1
            continue
        b = boxes[level]
        size = box_size[b]
        k = choice[level]
        if k >= 0:
            # undo the previous choice at this level
            for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
                residual[box_cons[a]] += k
                capacity[box_cons[a]] += size
        k += 1
        # next feasible k: every constraint keeps 0 <= residual <= capacity after the box
        found = False
        while k <= size:
            ok = True
            for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
                j = box_cons[a]
                r = residual[j] - k
                if r < 0 or r > capacity[j] - size:
                    ok = False
                    break
            if ok:
                found = True
                break
            k += 1
        if not found:
            choice[level] = -1
            level -= 1
            continue
        nodes += 1
        if nodes > budget:
            return -1
        choice[level] = k
        for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
            residual[box_cons[a]] -= k
            capacity[box_cons[a]] -= size
        weight_at[level + 1] = weight_at[level] * binom[size, k]
        mines_at[level + 1] = mines_at[level] + k
        level += 1
    for m in range(weights.shape[0]):
        weights[m] += comp_w[m]
        for i in range(n_boxes):
            mines_in_box[i, m] += comp_s[i, m]
    return nodes


#: Largest boxes x (cells + 1) block a component may have to be enumerated.
MAX_BLOCK = 1 << 21


@njit(cache=CACHE, **SERIAL)
def count_all(box_size, box_comp, box_cons_ptr, box_cons, cons_value, n_comp, binom, budget):
    """Count every component, its boxes ordered breadth-first through shared constraints.

    Returns
    -------
    comp_ptr, comp_boxes : int64
        CSR: the boxes of each component in counting order.
    comp_width : int64[n_comp]
        Cells of the component + 1 (the length of its vectors).
    w_ptr : int64[n_comp + 1]
        Offsets of each component's W in ``weights``.
    weights : float64
        Concatenated W vectors.
    s_ptr : int64[n_comp + 1]
        Offsets of each component's block in ``mines_in_box``, ``kmin`` and ``kmax``: a
        row-major (boxes of the component, in counting order) x width block.
    mines_in_box, kmin, kmax : flat arrays
    nodes : int64[n_comp]
        Search nodes per component, -1 where the budget ran out.
    """
    n_boxes = box_size.shape[0]
    n_cons = cons_value.shape[0]
    # constraint -> boxes
    cons_ptr = np.zeros(n_cons + 1, np.int64)
    for a in range(box_cons.shape[0]):
        cons_ptr[box_cons[a] + 1] += 1
    for j in range(n_cons):
        cons_ptr[j + 1] += cons_ptr[j]
    fill = cons_ptr[:-1].copy()
    cons_boxes = np.empty(box_cons.shape[0], np.int64)
    for b in range(n_boxes):
        for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
            j = box_cons[a]
            cons_boxes[fill[j]] = b
            fill[j] += 1
    # breadth-first order of boxes, component by component
    comp_count = np.zeros(n_comp + 1, np.int64)
    comp_cells = np.zeros(n_comp, np.int64)
    for b in range(n_boxes):
        comp_count[box_comp[b] + 1] += 1
        comp_cells[box_comp[b]] += box_size[b]
    comp_ptr = np.cumsum(comp_count)
    comp_boxes = np.empty(n_boxes, np.int64)
    seen = np.zeros(n_boxes, np.bool_)
    seen_cons = np.zeros(n_cons, np.bool_)
    head = np.zeros(n_comp, np.int64)
    for b0 in range(n_boxes):
        comp = box_comp[b0]
        if seen[b0] or head[comp] > 0:
            continue
        start = comp_ptr[comp]
        tail = start
        comp_boxes[tail] = b0
        tail += 1
        seen[b0] = True
        q = start
        while q < tail:
            b = comp_boxes[q]
            q += 1
            for a in range(box_cons_ptr[b], box_cons_ptr[b + 1]):
                j = box_cons[a]
                if seen_cons[j]:
                    continue
                seen_cons[j] = True
                for e in range(cons_ptr[j], cons_ptr[j + 1]):
                    nb = cons_boxes[e]
                    if not seen[nb]:
                        seen[nb] = True
                        comp_boxes[tail] = nb
                        tail += 1
        head[comp] = tail - start
    comp_width = comp_cells + 1
    w_ptr = np.zeros(n_comp + 1, np.int64)
    for i in range(n_comp):
        w_ptr[i + 1] = w_ptr[i] + comp_width[i]
    # a component whose per-box vectors alone would pass MAX_BLOCK entries is left to the
    # tree decomposition (nodes -1, empty block): enumerating it could never finish anyway
    enumerate_it = np.empty(n_comp, np.bool_)
    s_ptr = np.zeros(n_comp + 1, np.int64)
    for i in range(n_comp):
        block = comp_width[i] * (comp_ptr[i + 1] - comp_ptr[i])
        enumerate_it[i] = block <= MAX_BLOCK
        s_ptr[i + 1] = s_ptr[i] + (block if enumerate_it[i] else 0)
    weights = np.zeros(w_ptr[n_comp], np.float64)
    mines_in_box = np.zeros(s_ptr[n_comp], np.float64)
    kmin = np.zeros(s_ptr[n_comp], np.int64)
    kmax = np.zeros(s_ptr[n_comp], np.int64)
    nodes = np.zeros(n_comp, np.int64)
    for i in range(n_comp):
        if not enumerate_it[i]:
            nodes[i] = -1
            continue
        boxes = comp_boxes[comp_ptr[i]:comp_ptr[i + 1]]
        width = comp_width[i]
        nb = boxes.shape[0]
        w = np.zeros(width, np.float64)
        s = np.zeros((nb, width), np.float64)
        lo = np.full((nb, width), 99, np.int64)
        hi = np.full((nb, width), -1, np.int64)
        nodes[i] = count_component(boxes, box_size, box_cons_ptr, box_cons, cons_value, binom,
                                   budget, w, s, lo, hi)
        weights[w_ptr[i]:w_ptr[i + 1]] = w
        mines_in_box[s_ptr[i]:s_ptr[i + 1]] = s.ravel()
        kmin[s_ptr[i]:s_ptr[i + 1]] = lo.ravel()
        kmax[s_ptr[i]:s_ptr[i + 1]] = hi.ravel()
    return comp_ptr, comp_boxes, comp_width, w_ptr, weights, s_ptr, mines_in_box, kmin, kmax, nodes
