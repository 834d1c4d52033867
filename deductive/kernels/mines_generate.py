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
