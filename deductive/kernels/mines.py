"""Minesweeper kernels on a board: neighbours, numbers, flood fill and the local rules.

A position is a flat ``int8`` array over cells (row-major): ``COVERED`` (-1), ``FLAGGED``
(-2), or the revealed number 0-8. ``nbrs[cell]`` lists the neighbours, padded with -1.
The counting of a position's solutions is compiled in :mod:`.mines_frontier` (its
constraints, boxes and components), :mod:`.mines_count` (enumeration of a component),
:mod:`.mines_logpoly` and :mod:`.mines_tables` (the tree-decomposition count).
"""

import numpy as np

from ._config import CACHE, SERIAL, njit

COVERED = -1
FLAGGED = -2


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
