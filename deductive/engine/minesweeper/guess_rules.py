"""Guessing rules read from the shape of a Minesweeper position: the far and open corners,
unavoidable 50/50 pairs, and the covered space around a cell (used by ``best`` and
``strongest``).
"""

from __future__ import annotations

import numpy as np

from .board import COVERED, FLAGGED, neighbours_of

__all__ = ["far_corner", "open_corner", "unavoidable_fifty_fifty", "covered_space",
           "two_away"]


def far_corner(position, probs):
    """After a first click that opened no zero (one revealed cell, nothing forced): the
    covered corner farthest from it, if it is among the safest cells (ties: lowest index),
    else None. A corner opens a zero more often than any other cell (3 neighbours), and far
    from the first number its cascade starts a second front, where the two-step guess mostly
    plays next to the first number (the README gives the paired win rates)."""
    revealed = np.flatnonzero(position.cells >= 0)
    if len(revealed) != 1:
        return None
    lowest = float(probs.min())
    return _farthest_corner(position, revealed, lambda k: probs[k] <= lowest + 1e-12)


def _farthest_corner(position, revealed, eligible):
    """The corner (``eligible(k)`` true) farthest from the ``revealed`` cells: the largest
    least squared distance, ties to the first of the top-left, top-right, bottom-left and
    bottom-right corners; None if no corner is eligible."""
    rows, cols = position.rows, position.cols
    rr, rc = np.divmod(revealed, cols)
    best, best_distance = None, -1
    for r, c in ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)):
        k = r * cols + c
        if not eligible(k):
            continue
        distance = int(((rr - r) ** 2 + (rc - c) ** 2).min())
        if distance > best_distance:
            best, best_distance = k, distance
    return best


def two_away(position, off):
    """The cells of ``off`` (covered, off the frontier, in that order) two rows or two
    columns straight from a revealed number: their number will overlap the frontier."""
    cells, cols = position.cells, position.cols
    numbers = np.flatnonzero(cells > 0)
    r, c = np.divmod(numbers, cols)
    marks = set()
    for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
        rr, cc = r + dr, c + dc
        ok = (rr >= 0) & (rr < position.rows) & (cc >= 0) & (cc < cols)
        marks.update((rr[ok] * cols + cc[ok]).tolist())
    return [int(k) for k in off if int(k) in marks]


def open_corner(position, probs, nbrs, most, limit):
    """While no zero is open (every revealed cell a number) and at most ``most`` cells are
    revealed: the covered corner off the frontier farthest from the revealed cells (the
    largest least squared distance, then the lowest index), if its probability is at most
    ``limit``; else None."""
    cells = position.cells
    revealed = np.flatnonzero(cells >= 0)
    if not len(revealed) or len(revealed) > most or (cells[revealed] == 0).any():
        return None

    def eligible(k):            # covered, off the frontier, safe enough
        ring = nbrs[k][nbrs[k] >= 0]
        return cells[k] == COVERED and not (cells[ring] >= 0).any() and probs[k] <= limit

    return _farthest_corner(position, revealed, eligible)


def unavoidable_fifty_fifty(position, nbrs=None, around=None, opened=None):
    """A cell of an unavoidable 50/50, or None.

    Two covered cells A and B form one when a revealed number needs exactly one more mine
    among its covered neighbours and those are exactly A and B, and A and B have the same
    covered neighbours (apart from each other) and the same revealed neighbours: they are
    interchangeable in every constraint, now and after any click, so one of
    them must be guessed at even odds sooner or later. Guessing it first costs nothing and
    its number may help the rest. Returns the lower cell index of the first such pair (in
    the order of the numbers' indices). With ``around`` (a cell), only the numbers within
    two rows and columns of it are looked at: the pairs a reveal there may have made.
    ``opened`` (a bool mask) marks covered cells known to be safe: they count as revealed
    neighbours whose numbers are not known yet (a look-ahead, before they are opened)."""
    cells = position.cells
    if nbrs is None:
        nbrs = neighbours_of(position.rows, position.cols)
    covered_now = cells == COVERED
    revealed = cells >= 0
    if opened is not None:
        covered_now, revealed = covered_now & ~opened, revealed | opened

    def ring_of(k, mask):
        ring = nbrs[k][nbrs[k] >= 0]
        return set(int(n) for n in ring[mask[ring]])

    numbers = np.flatnonzero(cells > 0)
    if around is not None:
        r0, c0 = divmod(int(around), position.cols)
        r, c = np.divmod(numbers, position.cols)
        numbers = numbers[(np.abs(r - r0) <= 2) & (np.abs(c - c0) <= 2)]
    for k in numbers:
        ring = nbrs[k][nbrs[k] >= 0]
        covered = ring[covered_now[ring]]
        flagged = int((cells[ring] == FLAGGED).sum())
        if len(covered) != 2 or int(cells[k]) - flagged != 1:
            continue
        a, b = int(covered[0]), int(covered[1])
        if (ring_of(a, covered_now) - {b} == ring_of(b, covered_now) - {a}
                and ring_of(a, revealed) == ring_of(b, revealed)):
            return min(a, b)
    return None


def covered_space(position, cell, most):
    """How many covered cells are reached from ``cell`` through covered cells at most two
    rows and two columns apart (so across one revealed or flagged cell), counting stops
    at ``most``."""
    rows, cols, cells = position.rows, position.cols, position.cells
    seen, todo = {cell}, [cell]
    while todo and len(seen) < most:
        r, c = divmod(todo.pop(), cols)
        for rr in range(max(0, r - 2), min(rows, r + 3)):
            for cc in range(max(0, c - 2), min(cols, c + 3)):
                k = rr * cols + cc
                if cells[k] == COVERED and k not in seen:
                    seen.add(k)
                    todo.append(k)
    return min(len(seen), most)
