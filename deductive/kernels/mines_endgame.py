"""Minesweeper's exact endgame: every arrangement of the mines left, and the click that
wins most often when they are equally likely.

The covered cells are numbered 0..n-1 by the caller; a constraint is a revealed number:
its covered neighbours (``members``, a CSR slice) hold ``need`` mines.

:func:`enumerate_arrangements` lists every arrangement (a 0/1 row over the covered cells)
depth-first over the cells in order, 0 before 1, pruning as soon as a constraint has more
mines than it needs or too few open cells left to reach it, and on the total count.

:func:`shown_values` gives, for each arrangement and covered cell, the number the cell
would show (its covered neighbours that hold a mine plus its flagged neighbours), -1 for
a mine.

:func:`best_click` is the search. A state is the set of arrangements still possible (a
sorted index array); its value is the probability of winning from it with perfect play,

    W(S) = 1 if |S| <= 1,  else  max over cells c of  sum over numbers v of |S_cv| W(S_cv) / |S|

where S_cv are the arrangements in which c is safe and shows v. Cells that show the same
value in every arrangement of S (a mine in all, or a known number) tell nothing and are
not tried. A cell safe in every arrangement of S that tells something is *free*: revealing
it can only help (information never lowers the value), so the first such cell (lowest
index) is the only one tried; this also covers the cascades of the real game, which only
ever open cells that are safe in every remaining arrangement. Ties: the lowest cell index
among the clicks within 1e-12 of the best, scanned in index order (a later cell replaces
the best only when it is better by more than 1e-12), exactly as the Python twin
(``tests/reference.py: mines_endgame_choice``). Outcomes are summed in increasing order of
the number shown, so the probabilities equal the twin's to the last bit.

Cut-offs that change no decision: a cell whose chance to be safe is no more than the best
so far plus 1e-12 cannot replace it and is skipped; a cell's sum stops once the outcomes
left (each worth at most its size) cannot lift it above the best so far; a win
probability of 1 ends the scan. The memo maps the set of arrangements to its value and
cell: a hash of the indices chooses the slot, and the stored indices are compared, so two
sets never share an entry (colliding sets probe the next keys).
"""

import numpy as np
from numba import types
from numba.typed import Dict, List

from ._config import CACHE, SERIAL, njit

#: ``best_click`` stops (status ``TOO_BIG``) once its memo holds this many arrangement
#: indices in all, so that a search far too big for an endgame fails fast instead of
#: filling the memory.
MEMO_LIMIT = 50_000_000

OK = 0
TOO_BIG = 1


@njit(cache=CACHE, **SERIAL)
def enumerate_arrangements(n_cells, left, ptr, members, need, cell_ptr, cell_cons):
    """Every arrangement of ``left`` mines over ``n_cells`` covered cells that meets each
    constraint: a ``uint8`` matrix arrangements x cells, in depth-first order (0 first).

    ``ptr``/``members``: constraint j covers cells ``members[ptr[j]:ptr[j+1]]`` and holds
    ``need[j]`` mines; ``cell_ptr``/``cell_cons``: the constraints of each cell.
    """
    n_cons = len(need)
    placed = np.zeros(n_cons, np.int64)
    open_ = np.empty(n_cons, np.int64)
    for j in range(n_cons):
        open_[j] = ptr[j + 1] - ptr[j]
    out = np.zeros((16, max(n_cells, 1)), np.uint8)
    found = 0
    choice = np.zeros(max(n_cells, 1), np.uint8)
    tried = np.full(n_cells + 1, -1, np.int64)
    total = 0
    if left < 0 or left > n_cells:
        return out[:0, :n_cells]
    i = 0
    while i >= 0:
        if i == n_cells:
            if found == out.shape[0]:
                bigger = np.zeros((2 * found, out.shape[1]), np.uint8)
                bigger[:found] = out
                out = bigger
            out[found, :n_cells] = choice[:n_cells]
            found += 1
            i -= 1
            continue
        if tried[i] >= 0:            # undo the value tried last at this cell
            v = tried[i]
            total -= v
            for t in range(cell_ptr[i], cell_ptr[i + 1]):
                j = cell_cons[t]
                placed[j] -= v
                open_[j] += 1
        nxt = tried[i] + 1
        if nxt > 1:
            tried[i] = -1
            choice[i] = 0
            i -= 1
            continue
        tried[i] = nxt
        choice[i] = nxt
        total += nxt
        ok = total <= left and left - total <= n_cells - i - 1
        for t in range(cell_ptr[i], cell_ptr[i + 1]):
            j = cell_cons[t]
            placed[j] += nxt
            open_[j] -= 1
            if placed[j] > need[j] or placed[j] + open_[j] < need[j]:
                ok = False
        if ok:
            i += 1
    return out[:found, :n_cells]


@njit(cache=CACHE, **SERIAL)
def shown_values(arrangements, adj_ptr, adj, flags_around):
    """``values[i, s]``: what covered cell i shows in arrangement s (-1: a mine), cells
    by rows so that the search's scans over arrangements are contiguous. ``adj_ptr``/
    ``adj``: each cell's covered neighbours; ``flags_around``: its flagged ones."""
    n_sol, n_cells = arrangements.shape
    values = np.empty((n_cells, n_sol), np.int8)
    for i in range(n_cells):
        for s in range(n_sol):
            if arrangements[s, i]:
                values[i, s] = -1
            else:
                count = flags_around[i]
                for t in range(adj_ptr[i], adj_ptr[i + 1]):
                    count += arrangements[s, adj[t]]
                values[i, s] = count
    return values


@njit(cache=CACHE, inline="always", **SERIAL)
def _hash(members):
    h = np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(len(members))
    for m in members:
        h ^= np.uint64(m) + np.uint64(0x9E3779B97F4A7C15) + (h << np.uint64(6)) \
            + (h >> np.uint64(2))
        h *= np.uint64(0xBF58476D1CE4E5B9)
    return np.int64(h >> np.uint64(1))


@njit(cache=CACHE, inline="always", **SERIAL)
def _same(a, b):
    if len(a) != len(b):
        return False
    for t in range(len(a)):
        if a[t] != b[t]:
            return False
    return True


@njit(cache=CACHE, **SERIAL)
def _win(members, values, table, sets, probs, cells, used):
    """(W(members), the cell to click, status); see the module docstring."""
    n = len(members)
    if n <= 1:
        return 1.0, -1, OK
    key = _hash(members)
    while key in table:
        entry = table[key]
        if _same(sets[entry], members):
            return probs[entry], cells[entry], OK
        key = (key * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
    n_cells = values.shape[0]
    counts = np.zeros(10, np.int64)          # arrangements per shown value + 1
    best_p = -1.0
    best_i = -1
    free = -1
    for i in range(n_cells):                 # the first free cell, if any
        row = values[i]
        v0 = row[members[0]]
        if v0 < 0:
            continue
        differs = False
        mine = False
        for t in range(1, n):
            v = row[members[t]]
            if v < 0:
                mine = True
                break
            if v != v0:
                differs = True
        if differs and not mine:
            free = i
            break
    lo = 0 if free < 0 else free
    hi = n_cells if free < 0 else free + 1
    for i in range(lo, hi):
        row = values[i]
        counts[:] = 0
        for t in range(n):
            counts[row[members[t]] + 1] += 1
        if counts.max() == n:                # the same in every arrangement: tells nothing
            continue
        safe = n - counts[0]
        if best_i >= 0 and safe / n <= best_p + 1e-12:
            continue                         # cannot beat the best by more than 1e-12
        total = 0.0
        left = float(safe)
        cut = False
        for value in range(9):
            size = counts[value + 1]
            if size == 0:
                continue
            if size == 1:
                total += 1.0
            else:
                group = np.empty(size, np.int32)
                k = 0
                for t in range(n):
                    if row[members[t]] == value:
                        group[k] = members[t]
                        k += 1
                p, _, status = _win(group, values, table, sets, probs, cells, used)
                if status != OK:
                    return 0.0, -1, status
                total += size * p
            left -= size
            if best_i >= 0 and (total + left) / n <= best_p:
                cut = True                   # the outcomes left cannot lift it past the best
                break
        if cut:
            continue
        p = total / n
        if p > best_p + 1e-12:
            best_p = p
            best_i = i
            if best_p >= 1.0:
                break
    used[0] += n
    if used[0] > MEMO_LIMIT:
        return 0.0, -1, TOO_BIG
    table[key] = len(sets)
    sets.append(members.copy())
    probs.append(best_p)
    cells.append(best_i)
    return best_p, best_i, OK


@njit(cache=CACHE, **SERIAL)
def best_click(values):
    """The click (a row of ``values``) with the highest probability of winning over all
    the arrangements (columns of ``values``), that probability, how many sets of
    arrangements the search met, and a status (``TOO_BIG``: the memo limit was reached).
    The cell is -1 when at most one arrangement remains (everything is determined)."""
    n_sol = values.shape[1]
    table = Dict.empty(key_type=types.int64, value_type=types.int64)
    sets = List.empty_list(types.int32[::1])
    probs = List.empty_list(types.float64)
    cells = List.empty_list(types.int64)
    used = np.zeros(1, np.int64)
    members = np.arange(n_sol).astype(np.int32)
    p, cell, status = _win(members, values, table, sets, probs, cells, used)
    return cell, p, len(sets), status
