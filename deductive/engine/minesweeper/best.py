"""The ``best`` Minesweeper player: least risk refined by a two-step survival look-ahead and
an exact endgame search.

As ``least-risk``, with these refinements. When at most ``endgame`` (120) arrangements of
the mines remain, an exact search over clicks and outcomes picks the click with the highest
probability of winning the game (:func:`.endgame.endgame_choice`, compiled in
``kernels/mines_endgame.py``; past its memory limit the player guesses as below).
Otherwise, among the cells whose probability is within ``margin`` (0.02) of the lowest
(equally safe cells with fewer covered neighbours first, at most ``candidates``, 10), it
plays the one with the best chance to survive this click *and* the best next one: for each
candidate and each number it may show, the position is analysed again and weighted by how
many arrangements give that number. Ties go to the safest cell, then the fewest covered
neighbours, then the lowest index. Three rules come first: after a first click that opened
no zero, the far corner (:func:`.guess_rules.far_corner`); an unavoidable 50/50
(:func:`.guess_rules.unavoidable_fifty_fifty`) is guessed at once; and a dead cell (one
whose number can take a single value, so that revealing it teaches nothing) is only played
when every candidate is dead.

Its options, and those of ``strongest``, are checked against :data:`OPTION_RANGES` when the
player is made (:func:`check_options`).
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import DeductiveError
from .analysis import analyze
from .base import Move
from .board import COVERED, FLAGGED, MAX_CELLS, Position, neighbours_of
from .endgame import _endgame
from .guess_rules import far_corner, unavoidable_fifty_fifty
from .simple import LeastRisk, guess_probabilities

__all__ = ["Best", "BEST_OPTIONS", "OPTION_RANGES", "check_options", "safety_order", "ring"]

#: The options ``best`` takes (:data:`.players.PLAYERS` lists them).
BEST_OPTIONS = ("margin", "candidates", "endgame", "endgame_cells", "progress_weight",
                "far_corner")

#: The range of each numeric player option (kind, lowest, highest), checked when a player
#: is made, before any game: a value outside it would crash mid-game or mean nothing.
OPTION_RANGES = {
    "margin": (float, 0, 1), "candidates": (int, 1, 10_000),
    "endgame": (int, 1, 10 ** 7), "endgame_cells": (int, 1, MAX_CELLS),
    "progress_weight": (float, 0, 1_000), "off_frontier": (int, 0, 10_000),
    "corners": (int, 0, MAX_CELLS), "near_off": (int, 0, 10_000),
}


def check_options(**values) -> None:
    """Raise a one-line error for an option of :data:`OPTION_RANGES` outside its range or
    of the wrong kind (NaN, infinities, a fraction where a count goes, true or false where a
    number goes), and for a switch that is not true or false."""
    for key, value in values.items():
        if key not in OPTION_RANGES:
            if not isinstance(value, bool):
                raise DeductiveError(f"player option {key}={value}: use true or false")
            continue
        kind, low, high = OPTION_RANGES[key]
        whole = kind is int
        if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)) \
                or not low <= value <= high:        # NaN fails the comparison
            raise DeductiveError(f"player option {key}={value}: use a "
                                 f"{'whole number' if whole else 'number'} from {low:,} to "
                                 f"{high:,}")


def ring(cells, nbrs, k):
    """The covered neighbours of cell ``k`` (an array) and how many of its neighbours are
    flagged."""
    around = nbrs[k][nbrs[k] >= 0]
    return around[cells[around] == COVERED], int((cells[around] == FLAGGED).sum())


def safety_order(position, probs, nbrs):
    """Cells by mine probability; among equally safe cells, those with fewer covered
    neighbours first (more likely to open a zero), then the lowest index."""
    around = np.where(nbrs >= 0, position.cells[np.maximum(nbrs, 0)] == COVERED, False)
    return np.lexsort((np.arange(len(probs)), around.sum(axis=1), probs))


class Best(LeastRisk):
    """Least risk refined by a two-step survival look-ahead and an exact endgame search
    (see the module docstring)."""

    name = "best"

    def __init__(self, margin: float = 0.02, candidates: int = 10, endgame: int = 120,
                 endgame_cells: int = 64, progress_weight: float = 0.0,
                 far_corner: bool = True):
        check_options(margin=margin, candidates=candidates, endgame=endgame,
                      endgame_cells=endgame_cells, progress_weight=progress_weight,
                      far_corner=far_corner)
        self.far_corner = far_corner
        self.progress_weight = progress_weight
        self.margin = margin
        self.candidates = candidates
        self.endgame = endgame
        self.endgame_cells = endgame_cells

    def guess(self, position, analysis, rng=None):
        probs = guess_probabilities(position, analysis)
        nbrs = neighbours_of(position.rows, position.cols)
        cell, reason, win = self._shortcut(position, analysis, probs, nbrs)
        if cell is None:
            cell, reason = self._choice(position, analysis, probs, nbrs)
        return Move("guess", [cell], probability=float(probs[cell]), reason=reason, win=win)

    def _choice(self, position, analysis, probs, nbrs):
        """The guess when no shortcut applies: (cell, reason)."""
        return self._look_ahead_choice(position, probs, nbrs)

    def _shortcut(self, position, analysis, probs, nbrs):
        """The exact endgame, an unavoidable 50/50 or the far corner, when one applies:
        (cell or None, reason, win probability or None)."""
        if (analysis.log_count <= math.log(self.endgame)
                and len(position.covered) <= self.endgame_cells):
            found = _endgame(position)
            if found is not None:           # None: past the memo's limit, guess as usual
                return found[0], "endgame", found[1]
        fifty = unavoidable_fifty_fifty(position, nbrs)
        if fifty is not None:
            return fifty, "fifty-fifty", None
        if self.far_corner:
            return far_corner(position, probs), "far corner", None
        return None, "", None

    def _pool(self, position, probs, nbrs):
        """The candidates: within ``margin`` of the lowest probability, in
        :func:`safety_order`, at most ``candidates``."""
        lowest = float(probs.min())
        order = safety_order(position, probs, nbrs)
        return [int(k) for k in order[:self.candidates] if probs[k] <= lowest + self.margin]

    def _look_ahead_choice(self, position, probs, nbrs):
        scored = []
        for cell in self._pool(position, probs, nbrs):
            survive, gained, outcomes = self._next_survival(position, cell, nbrs)[:3]
            score = (1.0 - probs[cell]) * (survive + self.progress_weight * gained) \
                * self._long_term(cell)
            scored.append((outcomes <= 1, -score, cell))
        # a dead cell (its number is known in advance) teaches nothing: the others first
        live = [item for item in scored if not item[0]] or scored
        best_cell, best_score = live[0][2], live[0][1]
        for _, score, cell in live[1:]:
            if score < best_score - 1e-12:
                best_cell, best_score = cell, score
        return best_cell, "look-ahead"

    def _long_term(self, cell):
        """A factor on ``cell``'s score (here 1: see :class:`Strongest`'s ``ltr``)."""
        return 1.0

    def _next_survival(self, position, cell, nbrs):
        """Given that ``cell`` is safe: the chance that the best next click survives, the
        expected share (of 8) of cells its number proves safe, how many numbers it may
        show (1: a dead cell), and the cells safe whatever it shows."""
        from .board import PositionError

        covered, flagged = ring(position.cells, nbrs, cell)
        outcomes, safe_after = [], None
        for value in range(flagged, flagged + len(covered) + 1):
            trial = position.cells.copy()
            trial[cell] = value
            try:
                nxt = analyze(Position(position.rows, position.cols, position.mines, trial))
            except PositionError:
                continue
            survive = self._outcome_survival(position, cell, trial, nxt, nbrs)
            outcomes.append((nxt.log_count, survive, min(len(nxt.safe), 8) / 8))
            safe_after = (set(nxt.safe.tolist()) if safe_after is None
                          else safe_after & set(nxt.safe.tolist()))
        if not outcomes:
            return 0.0, 0.0, 0, set()
        top = max(o[0] for o in outcomes)
        weights = [math.exp(o[0] - top) for o in outcomes]
        total = sum(weights)
        return (sum(w * o[1] for w, o in zip(weights, outcomes)) / total,
                sum(w * o[2] for w, o in zip(weights, outcomes)) / total, len(outcomes),
                safe_after)

    def _outcome_survival(self, position, cell, trial, nxt, nbrs):
        """The chance to survive the best click after ``cell`` showed its number."""
        if len(nxt.safe):
            return 1.0
        rest = np.where(trial == COVERED, nxt.probabilities, np.inf)
        return 1.0 - float(rest.min()) if np.isfinite(rest.min()) else 1.0
