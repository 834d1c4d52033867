"""Long-term risk: the 50/50s a position may still form, after D. Hill's solver.

Two covered cells side by side form a *closed pair* when the cells that touch one of them
but not the other (the three beyond each short end) are all mines or off the board: no
number can ever tell the two apart, so if exactly one of them is a mine the game ends in a
50/50. A 2x2 block is a *closed box* when its four diagonal corners are mines or off the
board and its mines lie on one diagonal: its side neighbours each touch one cell of each
diagonal. The corner or end cells still covered are the pattern's *enablers* (they must be
mines for it to close).

For a pattern, ``tally`` is the share of the arrangements in which its enablers are mines
and one given filling holds (one cell of the pair a mine, the other safe; one diagonal of
the box). Swapping the fillings maps arrangements one to one, so ``2 x tally`` is the
chance that the 50/50 exists and ``tally`` the chance of losing to it later. A guess at a
cell of the pattern, or at an enabler, that finds a mine there dies in arrangements that
were half lost anyway: its *long-term safety* counts those deaths at a discount. A cell
that is a mine only in arrangements where it is the mine of a closed pattern is a
*pseudo 50/50*: safe, or a 50/50 that must be guessed sooner or later, so guessing it now
costs nothing in the long run and its number may help.

Every share is a ratio of exact arrangement counts (:func:`~.analysis.log_arrangements` with
the enablers and the filling flagged; a cell forced safe by inclusion-exclusion), in floating
point (to about 1e-12). Patterns whose tally looks negligible if the cells were independent
are skipped (:data:`ESTIMATE_FLOOR`): a heuristic, which can miss a pattern whose cells are
strongly correlated (on 94 guess positions of real games it changed no pseudo 50/50).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import numpy as np

from .analysis import log_arrangements
from .board import COVERED, FLAGGED, Position, PositionError

#: Patterns whose tally is at most this share of the arrangements are ignored by the board
#: scan (D. Hill's solver: 0.025).
INFLUENCE_THRESHOLD = 0.025

#: Patterns whose tally, estimated as if the cells were independent (the product of the
#: enablers' and the filling's probabilities), is below this are not counted: most
#: patterns of the untouched part of the board (2x2 boxes along an edge), whose tally is
#: around 0.001 and would move a cell's safety by about as much. Not a bound: correlated
#: cells can have a larger tally (the module docstring).
ESTIMATE_FLOOR = 0.002

#: Most enablers a pattern may have: in the board scan (which finds pseudo 50/50s and the
#: enablers' influence) and around a candidate (D. Hill's solver: 1 and 2 for the scan, 3
#: around a candidate).
SCAN_PAIR, SCAN_BOX, NEAR = 1, 2, 3

PAIR, BOX = 0, 1


@lru_cache(maxsize=8)
def patterns(rows: int, cols: int):
    """Every pair (horizontal, then vertical) and every 2x2 box of the board.

    Returns
    -------
    kind : int64[n]
        :data:`PAIR` or :data:`BOX`.
    tiles : int64[n, 4]
        A pair's two cells (then -1), a box's top-left, top-right, bottom-left and
        bottom-right cells.
    closure : int64[n, 6]
        The cells that would tell them apart (-1: off the board or unused).
    member : list of lists
        The patterns each cell is a tile of.
    """
    kinds, tiles, closure = [], [], []

    def flat(r, c):
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else -1

    for r in range(rows):                       # horizontal pairs
        for c in range(cols - 1):
            kinds.append(PAIR)
            tiles.append([flat(r, c), flat(r, c + 1), -1, -1])
            closure.append([flat(r + d, c - 1) for d in (-1, 0, 1)]
                           + [flat(r + d, c + 2) for d in (-1, 0, 1)])
    for r in range(rows - 1):                   # vertical pairs
        for c in range(cols):
            kinds.append(PAIR)
            tiles.append([flat(r, c), flat(r + 1, c), -1, -1])
            closure.append([flat(r - 1, c + d) for d in (-1, 0, 1)]
                           + [flat(r + 2, c + d) for d in (-1, 0, 1)])
    for r in range(rows - 1):                   # boxes
        for c in range(cols - 1):
            kinds.append(BOX)
            tiles.append([flat(r, c), flat(r, c + 1), flat(r + 1, c), flat(r + 1, c + 1)])
            closure.append([flat(r - 1, c - 1), flat(r - 1, c + 2), flat(r + 2, c - 1),
                            flat(r + 2, c + 2), -1, -1])
    kinds_arr = np.array(kinds, np.int64)
    tiles_arr = np.array(tiles, np.int64).reshape(-1, 4)
    closure_arr = np.array(closure, np.int64).reshape(-1, 6)
    # the patterns each cell belongs to (as a tile)
    member: list[list[int]] = [[] for _ in range(rows * cols)]
    for p, row in enumerate(tiles_arr.tolist()):
        for k in row:
            if k >= 0:
                member[k].append(p)
    for arr in (kinds_arr, tiles_arr, closure_arr):
        arr.flags.writeable = False
    return kinds_arr, tiles_arr, closure_arr, member


class LongTermRisk:
    """The closed pairs and boxes a position may still form, with their tallies.

    Parameters
    ----------
    position : Position
        A position where a guess is due (no cell proven safe or mine but the flagged).
    analysis : Analysis
        Its analysis (:func:`~.analysis.analyze`).
    probs : ndarray
        Mine probabilities of the covered cells.
    """

    def __init__(self, position: Position, analysis, probs):
        self.position = position
        self.log_total = float(analysis.log_count)
        self.probs = probs
        cells = position.cells
        self.left = position.mines - int((cells == FLAGGED).sum())
        kinds, tiles, closure, self._member = patterns(position.rows, position.cols)
        self.kinds, self.tiles, self.closure = kinds, tiles, closure
        state = np.where(cells == COVERED, 1, np.where(cells == FLAGGED, 0, 2))
        state = np.append(state, 0)                 # index -1: off the board (closed)
        tile_state = state[tiles]
        self.ok = ((tile_state == 1) | (tiles < 0)).all(axis=1) \
            & ~(state[closure] == 2).any(axis=1)
        self.missing = (state[closure] == 1).sum(axis=1)
        self._tallies: dict = {}
        self._scan = None

    # -- tallies --------------------------------------------------------------------------
    def _share(self, mines) -> float:
        """The share of the arrangements in which every cell of ``mines`` is a mine."""
        cells = self.position.cells.copy()
        cells[list(mines)] = FLAGGED
        try:
            counted = log_arrangements(Position(self.position.rows, self.position.cols,
                                                self.position.mines, cells))
        except PositionError:
            return 0.0
        return math.exp(counted - self.log_total)

    def _given(self, mines, safe) -> float:
        """The share of the arrangements in which ``mines`` are mines and ``safe`` are
        not (inclusion-exclusion over ``safe``)."""
        total = 0.0
        for size in range(len(safe) + 1):
            for subset in itertools.combinations(safe, size):
                total += (-1) ** size * self._share(mines + list(subset))
        return total

    def tally(self, p: int) -> float:
        """Pattern ``p``'s tally (see the module docstring); 0 if it cannot close."""
        if p in self._tallies:
            return self._tallies[p]
        value = 0.0
        need = self.missing[p] + (1 if self.kinds[p] == PAIR else 2)
        if self.ok[p] and need <= self.left:
            enablers = [k for k in self.closure[p].tolist()
                        if k >= 0 and self.position.cells[k] == COVERED]
            t = self.tiles[p].tolist()
            if self.kinds[p] == PAIR:       # the first cell a mine, the second safe
                mines, safe = enablers + [t[0]], [t[1]]
            else:                           # top-left and bottom-right mines, the others safe
                mines, safe = enablers + [t[0], t[3]], [t[1], t[2]]
            estimate = float(np.prod(self.probs[mines]) * np.prod(1.0 - self.probs[safe]))
            if estimate >= ESTIMATE_FLOOR:
                value = max(0.0, self._given(mines, safe))   # (rounding of the differences)
        self._tallies[p] = value
        return value

    # -- the board scan -------------------------------------------------------------------
    def scan(self, living=None):
        """``(pseudo, fifty, enabler)``: the pseudo 50/50 cells (the first pattern's that
        has any for which ``living(cell)`` holds: pairs before boxes; default: every cell),
        and per cell the summed tallies of the patterns above
        :data:`INFLUENCE_THRESHOLD` it belongs to (as a tile, as an enabler), over the
        patterns of at most :data:`SCAN_PAIR` (pairs) or :data:`SCAN_BOX` (boxes)
        enablers. The maps are made once; ``living`` is read at the first call."""
        if self._scan is not None:
            return self._scan
        n = len(self.position.cells)
        fifty, enabler = np.zeros(n), np.zeros(n)
        pseudo: list = []
        for kind, most in ((PAIR, SCAN_PAIR), (BOX, SCAN_BOX)):
            for p in np.flatnonzero(self.ok & (self.kinds == kind)
                                    & (self.missing <= most)).tolist():
                value = self.tally(p)
                if value <= 0.0:
                    continue
                cells = [k for k in self.tiles[p].tolist() if k >= 0]
                if not pseudo:
                    pseudo = [k for k in cells if _same(value, self.probs[k])
                              and (living is None or living(k))]
                if value > INFLUENCE_THRESHOLD:
                    fifty[cells] += value
                    for k in self.closure[p].tolist():
                        if k >= 0 and self.position.cells[k] == COVERED:
                            enabler[k] += value
        self._scan = (pseudo, fifty, enabler)
        return self._scan

    def influence(self, cell: int) -> float:
        """The share of all arrangements in which ``cell`` is the mine of a closed pattern
        or one of its enablers (arrangements a 50/50 would lose half of later anyway): the
        tallies of the pairs it belongs to (at most :data:`NEAR` enablers), the largest of
        the boxes', and its influence as an enabler (:meth:`scan`); at most its mine and
        its safe probability."""
        pairs = boxes = 0.0
        for p in self._member[cell]:
            if self.missing[p] > NEAR:
                continue
            value = self.tally(p)
            if self.kinds[p] == PAIR:
                pairs += value
            else:
                boxes = max(boxes, value)
        total = pairs + boxes + float(self.scan()[2][cell])
        p = float(self.probs[cell])
        return min(total, p, 1.0 - p)

    def safety(self, cell: int, scale: float) -> float:
        """The factor on ``cell``'s safety: ``1 + scale x influence / P(safe)``."""
        p = float(self.probs[cell])
        if p >= 1.0:
            return 1.0
        return 1.0 + scale * self.influence(cell) / (1.0 - p)

    def influenced(self):
        """Cells the scan found in or around a pattern above the threshold, and their
        long-term safety (``P(safe) + influence``)."""
        _, fifty, enabler = self.scan()
        cells = np.flatnonzero((fifty + enabler) > 0)
        return [(int(k), 1.0 - float(self.probs[k]) + self.influence(int(k))) for k in cells]


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))
