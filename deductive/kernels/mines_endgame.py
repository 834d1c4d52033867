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

:func:`best_click` is the search. A state is the set S of arrangements still possible (a
sorted index array); its value is how many of them perfect play wins (an integer, so the
search is exact and its ties are exact),

    wins(S) = |S| if |S| <= 1,  else  max over cells c of  sum over numbers v of wins(S_cv)

where S_cv are the arrangements in which c is safe and shows v (the win probability is
wins / |S|). Cells that show the same in every arrangement of S (a mine in all, or a known
number) tell nothing and are not tried. A cell safe in every arrangement of S that tells
something is *free*: revealing it can only help (information never lowers the value), so
the first such cell (lowest index) is the only one tried. This also covers the cascades
of the real game: a revealed 0 opens only cells that are safe in every remaining
arrangement, which the search reveals anyway before any risky click. Ties: the lowest
cell index, as the Python twin (``tests/reference/mines_play.py: mines_endgame_choice``), whose
float probabilities differ from wins / |S| by rounding only (distinct values differ by at
least 1/|S|).

The search is depth-first with a floor: ``wins(S, floor)`` is exact when it exceeds the
floor and otherwise an upper bound at most the floor. Cells are tried safest first; a
cell is skipped when its safe count cannot reach the target (more than the floor and than
the best so far, or equal to the best at a lower index), its outcomes are cut as soon as
the ones left, each won entirely, cannot reach it, and each outcome's set is searched with
the floor that it must beat for the cell to reach the target. None of this changes a
decision. The memo maps a set to its result (exact, or a bound with the floor it held
for): a hash of the indices chooses the slot and the stored indices are compared, so two
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
def enumerate_arrangements(n_cells, left, ptr, members, need, cell_ptr, cell_cons,
                           limit=-1, any_total=False):
    """Every arrangement of ``left`` mines over ``n_cells`` covered cells that meets each
    constraint: a ``uint8`` matrix arrangements x cells, in depth-first order (0 first).

    ``ptr``/``members``: constraint j covers cells ``members[ptr[j]:ptr[j+1]]`` and holds
    ``need[j]`` mines; ``cell_ptr``/``cell_cons``: the constraints of each cell. With
    ``any_total`` every number of mines counts (``left`` is then ignored). With ``limit``
    at 0 or more, the enumeration stops at ``limit + 1`` rows: more rows than ``limit``
    say there are more than ``limit`` arrangements.
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
    if any_total:
        left = n_cells
    elif left < 0 or left > n_cells:
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
            if found == limit + 1:
                break
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
        ok = total <= left and (any_total or left - total <= n_cells - i - 1)
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


_ENTER, _NEXT_CELL, _NEXT_VALUE, _CELL_DONE, _AFTER_CHILD, _FINISH, _RETURN = range(7)


@njit(cache=CACHE, **SERIAL)
def best_click(values):
    """The click (a row of ``values``) that wins the most arrangements (columns of
    ``values``) with perfect play afterwards, how many it wins, how many sets of
    arrangements the search stored, and a status (``TOO_BIG``: the memo limit was
    reached). The cell is -1 when at most one arrangement remains (nothing to decide).

    The search of the module docstring with its own stack (numba cannot load a cached
    recursive function: numba/numba#6061): frame d holds a set of arrangements and its
    floor, the cell being tried, the outcome reached, and the best so far. ``wins(S,
    floor)`` is exact when it is more than ``floor``, else an upper bound at most ``floor``.
    """
    n_cells, n_sol = values.shape
    table = Dict.empty(key_type=types.int64, value_type=types.int64)
    sets = List.empty_list(types.int32[::1])
    won = List.empty_list(types.int64)
    exact = List.empty_list(types.boolean)
    cells = List.empty_list(types.int64)
    used = 0
    depth = n_cells + 2                      # each level reveals one more cell
    # the sets on the stack, one after the other (each within its parent): pool[start[d]:
    # start[d + 1]]; the cells to try at depth d: order_at[d, :n_order[d]]
    pool = np.empty(n_sol * depth, np.int32)
    start = np.zeros(depth + 1, np.int64)
    order_at = np.zeros((depth, max(n_cells, 1)), np.int64)
    n_order = np.zeros(depth, np.int64)
    # the cells that tell something at depth d (a cell that shows the same in every
    # arrangement of a set does so in every part of it): live[d, :n_live[d]]
    live = np.zeros((depth + 1, max(n_cells, 1)), np.int64)
    n_live = np.zeros(depth + 1, np.int64)
    live[0, :n_cells] = np.arange(n_cells)
    n_live[0] = n_cells
    safe_at = np.zeros((depth, n_cells), np.int64)
    counts_at = np.zeros((depth, 10), np.int64)      # arrangements per shown value + 1
    scalars = np.zeros((depth, 11), np.int64)
    # scalars[d]: floor, key, entry, next in order, cell, next value, total, left, target,
    # best, best cell; the bound of the cells not searched is kept in bound_at
    bound_at = np.zeros(depth, np.int64)
    pool[:n_sol] = np.arange(n_sol)
    start[1] = n_sol
    scalars[0, 0] = -1
    d = 0
    state = _ENTER
    ret_wins, ret_exact, ret_cell = 0, True, -1
    while True:
        if state == _ENTER:
            members = pool[start[d]:start[d + 1]]
            n = len(members)
            state = _RETURN
            if n <= 1:
                ret_wins, ret_exact, ret_cell = n, True, -1
                continue
            floor = scalars[d, 0]
            key = _hash(members)
            entry = -1
            while key in table:
                entry = table[key]
                if _same(sets[entry], members):
                    break
                entry = -1
                key = (key * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
            if entry >= 0 and (exact[entry] or won[entry] <= floor):
                ret_wins, ret_exact, ret_cell = won[entry], exact[entry], cells[entry]
                continue
            # entry >= 0 here: a bound too weak for this floor, searched again
            scalars[d, 1] = key
            scalars[d, 2] = entry
            safe = safe_at[d]
            safe[:] = 0                      # 0: the cell tells nothing
            counts = counts_at[d]
            free = -1
            m = 0
            for q in range(n_live[d]):
                i = live[d, q]
                row = values[i]
                counts[:] = 0
                for t in range(n):
                    counts[row[members[t]] + 1] += 1
                if counts.max() < n:
                    live[d + 1, m] = i
                    m += 1
                    safe[i] = n - counts[0]
                    if safe[i] == n and free < 0:
                        free = i             # safe everywhere: the only cell tried
            n_live[d + 1] = m
            if free >= 0:
                order_at[d, 0] = free
                n_order[d] = 1
            else:                            # safest first, so that the cut-offs bite
                order_at[d, :n_cells] = np.argsort(-safe, kind="mergesort")
                n_order[d] = n_cells
            scalars[d, 3] = 0
            scalars[d, 9] = -1
            scalars[d, 10] = -1
            bound_at[d] = 0
            state = _NEXT_CELL
        elif state == _NEXT_CELL:
            order = order_at[d, :n_order[d]]
            safe = safe_at[d]
            floor, best, best_i = scalars[d, 0], scalars[d, 9], scalars[d, 10]
            state = _FINISH
            k = scalars[d, 3]
            while k < len(order):
                i = order[k]
                k += 1
                if safe[i] == 0:
                    k = len(order)           # sorted: the rest tell nothing
                    break
                target = max(floor + 1, best + 1 if i > best_i else best)
                if safe[i] < target:         # it cannot reach the target even if always won
                    bound_at[d] = max(bound_at[d], safe[i])
                    continue
                members = pool[start[d]:start[d + 1]]
                row = values[i]
                counts = counts_at[d]
                counts[:] = 0
                for t in range(len(members)):
                    counts[row[members[t]] + 1] += 1
                scalars[d, 4] = i
                scalars[d, 5] = 0
                scalars[d, 6] = 0
                scalars[d, 7] = safe[i]
                scalars[d, 8] = target
                state = _NEXT_VALUE
                break
            scalars[d, 3] = k
        elif state == _NEXT_VALUE:
            counts = counts_at[d]
            total, left, target = scalars[d, 6], scalars[d, 7], scalars[d, 8]
            state = _CELL_DONE
            value = scalars[d, 5]
            while value < 9:
                size = counts[value + 1]
                value += 1
                if size == 0:
                    continue
                left -= size
                need = target - total - left     # what this group must win for the target
                if need > size:
                    bound_at[d] = max(bound_at[d], total + size + left)
                    state = _NEXT_CELL           # cut: the next cell
                    break
                if size == 1:
                    total += 1
                    continue
                lo, hi = start[d], start[d + 1]
                row = values[scalars[d, 4]]
                j = hi
                for t in range(lo, hi):
                    if row[pool[t]] == value - 1:
                        pool[j] = pool[t]
                        j += 1
                start[d + 2] = j
                scalars[d + 1, 0] = need - 1
                state = _ENTER
                break
            scalars[d, 5] = value
            scalars[d, 6] = total
            scalars[d, 7] = left
            if state == _ENTER:
                d += 1
            elif state == _CELL_DONE:        # every outcome counted: the cell's wins
                i = scalars[d, 4]
                if total > scalars[d, 9] or (total == scalars[d, 9] and i < scalars[d, 10]):
                    scalars[d, 9] = total
                    scalars[d, 10] = i
                state = _NEXT_CELL
        elif state == _AFTER_CHILD:
            if ret_exact:
                scalars[d, 6] += ret_wins
                state = _NEXT_VALUE
            else:                            # wins <= need - 1: the cell misses the target
                bound_at[d] = max(bound_at[d], scalars[d, 6] + ret_wins + scalars[d, 7])
                state = _NEXT_CELL
        elif state == _FINISH:
            best, best_i = scalars[d, 9], scalars[d, 10]
            ret_exact = best > scalars[d, 0]
            ret_wins = best if ret_exact else max(best, bound_at[d])
            ret_cell = best_i
            used += start[d + 1] - start[d]
            if used > MEMO_LIMIT:
                return -1, 0, len(sets), TOO_BIG
            entry = scalars[d, 2]
            if entry >= 0:                   # a stronger result for a set met before
                won[entry] = ret_wins
                exact[entry] = ret_exact
                cells[entry] = best_i
            else:
                table[scalars[d, 1]] = len(sets)
                sets.append(pool[start[d]:start[d + 1]].copy())
                won.append(ret_wins)
                exact.append(ret_exact)
                cells.append(best_i)
            state = _RETURN
        else:                                # _RETURN
            if d == 0:
                break
            d -= 1
            state = _AFTER_CHILD
    return ret_cell, ret_wins, len(sets), OK
