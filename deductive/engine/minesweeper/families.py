"""Seeded families of hard Minesweeper positions, for tests and benchmarks of the engine.

Every position is made from a true layout of mines, so it is consistent by construction:
the revealed numbers are the layout's, and flags (when asked for) sit on true mines.

Families (``density`` is the share of the safe cells revealed where it applies):

``lattice``
    Every cell on even rows and even columns is revealed (and kept mine-free): a grid of
    overlapping constraints, the widest structure a board can have.
``scatter``
    Safe cells revealed independently at random with probability ``density``.
``stripes``
    Every third row revealed: long, narrow components.
``islands``
    Square islands of revealed cells (3x3 to 5x5) at random places, covering about
    ``density`` of the board.
"""

from __future__ import annotations

import numpy as np

from .board import COVERED, FLAGGED, Position, neighbours_of

__all__ = ["FAMILIES", "hard_position"]

FAMILIES = ("lattice", "scatter", "stripes", "islands")


def hard_position(family: str, rows: int, cols: int, mines: int, *, density: float = 0.15,
                  flags: float = 0.0, seed: int = 0) -> Position:
    """A consistent position of the given family.

    Parameters
    ----------
    family : str
        One of :data:`FAMILIES`.
    rows, cols, mines : int
        Board size and mine total (mines are never put on cells the family reveals, so at
        most the cells it leaves covered).
    density : float
        Share of the cells revealed (``scatter``, ``islands``).
    flags : float
        Share of the mines next to a revealed number that are flagged (0: a player who
        never flags).
    seed : int
        Seed of the generator: the same arguments give the same position.

    Examples
    --------
    >>> p = hard_position("lattice", 9, 9, 10, seed=1)
    >>> (p.rows, p.cols, p.mines)
    (9, 9, 10)
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; use one of {', '.join(FAMILIES)}")
    rng = np.random.default_rng(seed)
    n = rows * cols
    r, c = np.divmod(np.arange(n), cols)
    if family == "lattice":
        open_ = (r % 2 == 0) & (c % 2 == 0)
    elif family == "stripes":
        open_ = r % 3 == 1
    elif family == "islands":
        open_ = np.zeros(n, bool)
        while open_.mean() < density:
            size = int(rng.integers(3, 6))
            r0, c0 = int(rng.integers(0, rows)), int(rng.integers(0, cols))
            block = (r >= r0) & (r < r0 + size) & (c >= c0) & (c < c0 + size)
            open_ |= block
    else:
        open_ = rng.random(n) < density
    free = np.flatnonzero(~open_)
    if mines > len(free):
        raise ValueError(f"{mines} mines do not fit in the {len(free)} cells the {family} "
                         "family leaves covered")
    layout = np.zeros(n, bool)
    layout[rng.choice(free, size=mines, replace=False)] = True
    nbrs = neighbours_of(rows, cols)
    counts = np.where(nbrs >= 0, layout[np.maximum(nbrs, 0)], False).sum(axis=1)
    cells = np.full(n, COVERED, np.int8)
    cells[open_] = counts[open_]
    if flags > 0:
        touching = np.zeros(n, bool)
        for k in range(8):
            nb = nbrs[:, k]
            ok = nb >= 0
            touching[nb[ok & open_]] = True
        candidates = np.flatnonzero(layout & touching)
        chosen = candidates[rng.random(len(candidates)) < flags]
        cells[chosen] = FLAGGED
    return Position(rows, cols, mines, cells)
