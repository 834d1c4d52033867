"""Kernels of the no-guess board generator: the local rules applied to a fixed point.

A board is a flat ``int8`` array of numbers (mines around each cell) with ``bool`` masks of
the revealed and flagged cells, and the ``(cells, 8)`` neighbour table padded with -1
(:func:`deductive.kernels.mines.neighbours`). Cells are row-major.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit
from .mines import flood_reveal


@njit(cache=CACHE, **SERIAL)
def rules_closure(numbers, revealed, flagged, nbrs):
    """Apply the original programs' two local rules until they prove nothing more.

    A revealed number whose flagged neighbours account for all its mines opens its other
    covered neighbours (each with the flood fill through zeros); one whose covered
    neighbours are exactly the mines it still needs flags them. Both rules are sound, and
    what they prove only grows as cells open, so the fixed point does not depend on the
    order of the cells: the cells are scanned in index order, again until a pass changes
    nothing. ``revealed`` and ``flagged`` are updated in place; flags must be mines and the
    revealed cells must not be (the rules then never open a mine).

    Returns
    -------
    int
        Cells opened plus cells flagged.
    """
    n = numbers.shape[0]
    changed = True
    done = 0
    while changed:
        changed = False
        for cell in range(n):
            if not revealed[cell]:
                continue
            covered = 0
            flags = 0
            for k in range(8):
                nb = nbrs[cell, k]
                if nb >= 0:
                    flags += flagged[nb]
                    covered += not (flagged[nb] or revealed[nb])
            if covered == 0:
                continue
            need = numbers[cell] - flags
            if need != 0 and need != covered:
                continue
            for k in range(8):
                nb = nbrs[cell, k]
                if nb < 0 or flagged[nb] or revealed[nb]:
                    continue
                if need == 0:
                    done += flood_reveal(numbers, revealed, flagged, nbrs, nb)
                else:
                    flagged[nb] = True
                    done += 1
            changed = True
    return done


@njit(cache=CACHE, **SERIAL)
def frontier_mask(revealed, flagged, nbrs):
    """Covered, unflagged cells next to a revealed cell (``bool`` mask)."""
    n = revealed.shape[0]
    out = np.zeros(n, np.bool_)
    for cell in range(n):
        if revealed[cell] or flagged[cell]:
            continue
        for k in range(8):
            nb = nbrs[cell, k]
            if nb >= 0 and revealed[nb]:
                out[cell] = True
                break
    return out


@njit(cache=CACHE, **SERIAL)
def _unknowns(numbers, revealed, flagged, nbrs, cell, out):
    """The covered, unflagged neighbours of ``cell`` into ``out``; returns (how many, the
    mines among them its number still needs)."""
    count = 0
    need = numbers[cell]
    for k in range(8):
        nb = nbrs[cell, k]
        if nb < 0:
            continue
        if flagged[nb]:
            need -= 1
        elif not revealed[nb]:
            out[count] = nb
            count += 1
    return count, need


@njit(cache=CACHE, **SERIAL)
def subset_moves(numbers, revealed, flagged, nbrs, rows, cols):
    """The subset rule: when the unknown neighbours U_a of a revealed number a all lie
    among those of another, U_b, the cells of U_b outside U_a hold exactly need_b - need_a
    mines, so they are all safe when that is 0 and all mines when it is their number.
    (Two such numbers share a cell, so they are at most two rows and two columns apart.)

    Returns
    -------
    safe, mines : bool arrays over cells
    """
    n = numbers.shape[0]
    safe = np.zeros(n, np.bool_)
    mines = np.zeros(n, np.bool_)
    ua = np.empty(8, np.int64)
    ub = np.empty(8, np.int64)
    for a in range(n):
        if not revealed[a]:
            continue
        na, need_a = _unknowns(numbers, revealed, flagged, nbrs, a, ua)
        if na == 0:
            continue
        ra, ca = a // cols, a % cols
        for rb in range(max(0, ra - 2), min(rows, ra + 3)):
            for cb in range(max(0, ca - 2), min(cols, ca + 3)):
                b = rb * cols + cb
                if b == a or not revealed[b]:
                    continue
                nb_count, need_b = _unknowns(numbers, revealed, flagged, nbrs, b, ub)
                if nb_count <= na:
                    continue
                inside = 0
                for i in range(na):
                    for j in range(nb_count):
                        if ua[i] == ub[j]:
                            inside += 1
                            break
                if inside != na:
                    continue
                extra = need_b - need_a
                if extra != 0 and extra != nb_count - na:
                    continue
                for j in range(nb_count):
                    member = False
                    for i in range(na):
                        if ua[i] == ub[j]:
                            member = True
                            break
                    if not member:
                        if extra == 0:
                            safe[ub[j]] = True
                        else:
                            mines[ub[j]] = True
    return safe, mines
