"""Minesweeper kernels: flood fill, frontier boxes and components, solution counting.

A position is a flat ``int8`` array over cells (row-major): ``COVERED`` (-1), ``FLAGGED``
(-2), or the revealed number 0-8. ``nbrs[cell]`` lists the neighbours, padded with -1.

Frontier analysis:

* every revealed cell with covered neighbours is a constraint: its covered neighbours hold
  ``number - flagged neighbours`` mines;
* covered cells touched by the same set of constraints form a *box*: only the number of
  mines in a box matters, weighted by C(box size, k);
* constraints sharing boxes form *components*, counted independently.

:func:`count_components` enumerates each component's box assignments depth-first with
interval pruning and returns, for each total number of mines m in the component, the
number of solutions W[m] (weighted by the binomials), the weighted number of mines in
each box S[b, m], and the least and most mines each box has among those solutions. Sums
use Neumaier's compensated summation of positive terms, so their relative error stays
below (boxes + 2) * 2**-53 whatever the number of solutions.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit

COVERED = -1
FLAGGED = -2

# error codes of frontier_structure
OK = 0
TOO_MANY_FLAGS = 1      # a number has more flagged neighbours than its value
TOO_FEW_COVERED = 2     # a number needs more mines than it has covered neighbours


@njit(cache=CACHE, **SERIAL)
def neighbours(rows, cols):
    """``nbrs[cell, :8]``: the neighbour cells of each cell, padded with -1."""
    nbrs = np.full((rows * cols, 8), -1, np.int32)
    for r in range(rows):
        for c in range(cols):
            k = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    rr = r + dr
                    cc = c + dc
                    if 0 <= rr < rows and 0 <= cc < cols:
                        nbrs[r * cols + c, k] = rr * cols + cc
                        k += 1
    return nbrs


@njit(cache=CACHE, **SERIAL)
def mine_counts(mines, nbrs):
    """Number of neighbouring mines of each cell."""
    n = mines.shape[0]
    counts = np.zeros(n, np.int8)
    for cell in range(n):
        total = 0
        for k in range(8):
            nb = nbrs[cell, k]
            if nb >= 0 and mines[nb]:
                total += 1
        counts[cell] = total
    return counts


@njit(cache=CACHE, **SERIAL)
def flood_reveal(numbers, revealed, flagged, nbrs, start):
    """Reveal ``start`` and, iteratively, every cell around a revealed 0. Returns the count
    of newly revealed cells. ``start`` must not be a mine."""
    n = numbers.shape[0]
    stack = np.empty(n, np.int32)
    top = 0
    opened = 0
    if revealed[start] or flagged[start]:
        return 0
    revealed[start] = True
    opened += 1
    stack[top] = start
    top += 1
    while top > 0:
        top -= 1
        cell = stack[top]
        if numbers[cell] != 0:
            continue
        for k in range(8):
            nb = nbrs[cell, k]
            if nb >= 0 and not revealed[nb] and not flagged[nb]:
                revealed[nb] = True
                opened += 1
                stack[top] = nb
                top += 1
    return opened


@njit(cache=CACHE, inline="always", **SERIAL)
def covered_and_flags(cells, nbrs, cell):
    """Covered and flagged neighbours of a cell."""
    covered = 0
    flags = 0
    for k in range(8):
        nb = nbrs[cell, k]
        if nb < 0:
            continue
        if cells[nb] == COVERED:
            covered += 1
        elif cells[nb] == FLAGGED:
            flags += 1
    return covered, flags


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


@njit(cache=CACHE, **SERIAL)
def rule_moves(cells, nbrs):
    """The original programs' two local rules. Returns (safe, mines) masks over cells: covered
    neighbours of a number whose mines are all flagged, or that all must be mines."""
    n = cells.shape[0]
    safe = np.zeros(n, np.bool_)
    mines = np.zeros(n, np.bool_)
    for cell in range(n):
        v = cells[cell]
        if v < 0:
            continue
        covered, flags = covered_and_flags(cells, nbrs, cell)
        if covered == 0:
            continue
        need = v - flags
        if need == 0 or need == covered:
            for k in range(8):
                nb = nbrs[cell, k]
                if nb >= 0 and cells[nb] == COVERED:
                    if need == 0:
                        safe[nb] = True
                    else:
                        mines[nb] = True
    return safe, mines


# -- log-domain polynomials -------------------------------------------------------------------
# A polynomial in the number of mines is an array of natural logarithms of its coefficients
# (-inf for a zero coefficient). Sums of positive terms are taken as max + log(sum(exp(x -
# max))): nothing underflows or overflows whatever the size of the counts, a coefficient is
# -inf exactly when no arrangement contributes to it, and each operation adds a relative
# error of a few units in the last place.

@njit(cache=CACHE, **SERIAL)
def log_convolve(a, b):
    """``c[t] = log(sum_i exp(a[i] + b[t - i]))``: the product of two log-polynomials."""
    na = a.shape[0]
    nb = b.shape[0]
    out = np.full(na + nb - 1, -np.inf)
    for t in range(na + nb - 1):
        lo = max(0, t - nb + 1)
        hi = min(na - 1, t)
        top = -np.inf
        for i in range(lo, hi + 1):
            v = a[i] + b[t - i]
            if v > top:
                top = v
        if top == -np.inf:
            continue
        s = 0.0
        for i in range(lo, hi + 1):
            v = a[i] + b[t - i]
            if v > -np.inf:
                s += np.exp(v - top)
        out[t] = top + np.log(s)
    return out


@njit(cache=CACHE, **SERIAL)
def log_correlate(a, r, shift):
    """``out[j] = log(sum_i exp(a[i] + r[i + j + shift]))`` for ``j`` in
    ``0 .. len(r) - len(a) - shift``: weights of what ``a`` leaves to ``r``."""
    na = a.shape[0]
    n_out = r.shape[0] - na - shift + 1
    out = np.full(max(n_out, 0), -np.inf)
    for j in range(n_out):
        top = -np.inf
        for i in range(na):
            v = a[i] + r[i + j + shift]
            if v > top:
                top = v
        if top == -np.inf:
            continue
        s = 0.0
        for i in range(na):
            v = a[i] + r[i + j + shift]
            if v > -np.inf:
                s += np.exp(v - top)
        out[j] = top + np.log(s)
    return out


@njit(cache=CACHE, **SERIAL)
def log_sum(x):
    """``log(sum(exp(x)))``; -inf for an empty or all -inf array."""
    top = -np.inf
    for v in x:
        if v > top:
            top = v
    if top == -np.inf:
        return top
    s = 0.0
    for v in x:
        if v > -np.inf:
            s += np.exp(v - top)
    return top + np.log(s)


# -- tables of the tree-decomposition count ---------------------------------------------------
# A table holds partial solutions of a bag: ``digits[i, j]`` mines placed so far around the
# bag's constraint j (its key, ``keys[i] = sum(digits[i, j] * radix[j])``, keeps the rows
# sorted), and ``polys[i, :]`` the log-polynomial in the mines placed, common to the table's
# offset. An item (a box, or a child's message) has choices: digits added to the bag's
# constraints and a log-polynomial of the mines it brings (all choices share one offset).

@njit(cache=CACHE, inline="always", **SERIAL)
def _log_add(a, b):
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a > b:
        return a + np.log1p(np.exp(b - a))
    return b + np.log1p(np.exp(a - b))


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
                out_polys[row, a + b] = _log_add(out_polys[row, a + b], x + y)
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
            acc = _log_add(acc, f[m] + g[t])
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
                    out[i, m] = _log_add(out[i, m], y + g_polys[r, u])
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
            mines = _log_add(mines, acc + np.log(k))
        if k < size:
            free = _log_add(free, acc + np.log(size - k))
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
            out[c, b] = _log_add(out[c, b], _log_dot(f_polys[i], g_polys[r], b + shift))
    return out
