"""Exact play over few arrangements: every arrangement of the mines that fits a position,
the click that wins most often (compiled in ``kernels/mines_endgame.py``), and the same
over an isolated region of the board.

An *isolated region* is a part of the frontier (covered cells next to a number, linked
when they share a number or touch) such that every covered neighbour of its cells is in it
and all of its arrangements hold the same number of mines. Nothing revealed elsewhere can then
tell anything about it, nor it about the rest: the position's arrangements are those of
the region times those of the rest, so the chance of winning is the product of the two
parts' and the best play of the region can come first. :func:`isolated_choice` plays it
(D. Hill's solver solves such "isolated edges" by brute force too).
"""

from __future__ import annotations

import numpy as np

from ...errors import DeductiveError
from .analysis import _frontier_structure
from .board import COVERED, FLAGGED, neighbours_of

__all__ = ["closed_regions", "endgame_choice", "enumerate_solutions", "isolated_choice"]


def _endgame_arrays(position, covered=None):
    """The covered cells (flat indices) and, over their numbering 0..n-1: the constraints
    (CSR: members, need), each cell's constraints (CSR), each cell's covered neighbours
    (CSR) and flagged neighbours, and the mines left. ``covered`` (ascending) restricts
    this to those cells, the numbers next to them and the mines left on the board: the
    caller makes sure no number or cell there sees a covered cell outside."""
    cells = position.cells
    nbrs = neighbours_of(position.rows, position.cols)
    if covered is None:
        covered = np.flatnonzero(cells == COVERED)
    col = np.full(len(cells) + 1, -1, np.int64)      # the last slot: padding (-1)
    col[covered] = np.arange(len(covered))
    around = col[nbrs]                                # covered neighbours' numbers, or -1
    flagged = np.where(nbrs >= 0, cells[np.maximum(nbrs, 0)] == FLAGGED, False).sum(axis=1)
    numbers = np.flatnonzero((cells >= 0) & (around >= 0).any(axis=1))
    ring = around[numbers]
    sizes = (ring >= 0).sum(axis=1)
    ptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    members = ring[ring >= 0].astype(np.int64)        # row-major: each constraint in turn
    need = (cells[numbers] - flagged[numbers]).astype(np.int64)
    owner = np.repeat(np.arange(len(numbers)), sizes)
    order = np.argsort(members, kind="stable")
    cell_ptr = np.searchsorted(members[order], np.arange(len(covered) + 1)).astype(np.int64)
    cell_cons = owner[order].astype(np.int64)
    near = around[covered]
    adj_ptr = np.concatenate([[0], np.cumsum((near >= 0).sum(axis=1))]).astype(np.int64)
    adj = near[near >= 0].astype(np.int64)
    left = position.mines - int((cells == FLAGGED).sum())
    return (covered, (ptr, members, need, cell_ptr, cell_cons), (adj_ptr, adj),
            flagged[covered].astype(np.int64), left)


def enumerate_solutions(position):
    """Every arrangement of the mines left on the covered cells that fits the numbers:
    (covered cells, bool matrix solutions x covered), depth-first over the covered cells
    in index order, 0 first (compiled: ``kernels/mines_endgame.py``). Meant for few
    arrangements."""
    from ...kernels.mines_endgame import enumerate_arrangements

    covered, constraints, _, _, left = _endgame_arrays(position)
    sols = enumerate_arrangements(len(covered), left, *constraints)
    return [int(k) for k in covered], sols.astype(bool)


def endgame_choice(position):
    """The click with the highest exact probability of winning, when few arrangements
    remain: (cell, win probability). Revealing a cell that is safe in every arrangement is
    free and never hurts, so such cells are played first inside the search; ties go to the
    lowest cell index. Compiled (``kernels/mines_endgame.py``); its slow twin is
    ``tests/reference/mines_play.py: mines_endgame_choice``. Raises :class:`DeductiveError` when the
    search would pass its memory limit (``kernels.mines_endgame.MEMO_LIMIT``)."""
    found = _endgame(position)
    if found is None:
        raise DeductiveError("the exact endgame of this position needs more memory than "
                             "allowed; use it on positions with fewer arrangements")
    return found


def _endgame(position):
    """:func:`endgame_choice`, or None past the memory limit."""
    from ...kernels.mines_endgame import (OK, best_click, enumerate_arrangements,
                                          shown_values)

    covered, constraints, (adj_ptr, adj), flags_around, left = _endgame_arrays(position)
    sols = enumerate_arrangements(len(covered), left, *constraints)
    values = shown_values(sols, adj_ptr, adj, flags_around)
    i, wins, _, status = best_click(values)
    if status != OK:
        return None
    if i < 0:      # everything is determined: any safe cell
        safe = np.flatnonzero(~sols.any(axis=0)) if len(sols) else np.arange(len(covered))
        return int(covered[safe[0] if len(safe) else 0]), 1.0
    return int(covered[i]), wins / len(sols)


def closed_regions(position, nbrs=None) -> list[np.ndarray]:
    """The frontier's closed regions: its components (covered cells next to a number,
    linked when they share one), joined when their cells touch, that have no covered
    neighbour off the frontier (cells ascending; regions by their lowest cell). Isolated
    when, besides, their arrangements all hold the same number of mines (not checked
    here: :func:`isolated_choice` does)."""
    cells = position.cells
    if nbrs is None:
        nbrs = neighbours_of(position.rows, position.cols)
    f = _frontier_structure(position)
    if not f.n_comp:
        return []
    comp = np.where(f.box_of >= 0, f.box_comp[np.maximum(f.box_of, 0)], -1)
    around = np.where(nbrs >= 0, np.maximum(nbrs, 0), len(cells))
    covered = np.append(cells == COVERED, False)[around]
    near = np.append(comp, -1)[around]            # each neighbour's component (-1: none)
    front = (comp >= 0)[:, None]
    leaky = np.unique(np.broadcast_to(comp[:, None], near.shape)[front & covered & (near < 0)])
    touch = front & covered & (near >= 0) & (near != comp[:, None])
    root = list(range(f.n_comp))

    def find(c):
        while root[c] != c:
            root[c] = root[root[c]]
            c = root[c]
        return c

    for a, b in zip(np.broadcast_to(comp[:, None], near.shape)[touch].tolist(),
                    near[touch].tolist()):
        root[find(a)] = find(b)
    group = np.array([find(c) for c in range(f.n_comp)], dtype=np.int64)
    closed = np.setdiff1d(group, group[leaky])
    of_cell = np.where(comp >= 0, group[np.maximum(comp, 0)], -1)
    found = [np.flatnonzero(of_cell == g) for g in closed.tolist()]
    return sorted(found, key=lambda r: int(r[0]))


def isolated_choice(position, limit: int, max_cells: int = 64, nbrs=None):
    """The best click of the smallest isolated region (then the one with the lowest cell)
    that has at most ``limit`` arrangements, ``max_cells`` cells and a cell that is not
    decided: (cell, the region's win probability), or None. Its arrangements are
    enumerated without the board's mine count, so the region counts only when they all
    hold the same number of mines (then every one of them fits with every arrangement of
    the rest). Ties as in :func:`endgame_choice`."""
    from ...kernels.mines_endgame import (OK, best_click, enumerate_arrangements,
                                          shown_values)

    regions = [r for r in closed_regions(position, nbrs) if len(r) <= max_cells]
    for region in sorted(regions, key=len):
        covered, constraints, (adj_ptr, adj), flags_around, _ = _endgame_arrays(position,
                                                                                  region)
        sols = enumerate_arrangements(len(covered), 0, *constraints, limit, True)
        if not 1 < len(sols) <= limit:
            continue
        mines = sols.sum(axis=1, dtype=np.int64)
        if (mines != mines[0]).any():
            continue
        i, wins, _, status = best_click(shown_values(sols, adj_ptr, adj, flags_around))
        if status == OK and i >= 0:
            return int(covered[i]), wins / len(sols)
    return None
