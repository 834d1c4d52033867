"""The simple Minesweeper players: the local rules, the exact analysis's forced cells, then
a random cell (``rules-random``, ``csp-random``) or the safest one (``least-risk``).
"""

from __future__ import annotations

import numpy as np

from .analysis import analyze
from .base import Move, Player
from .board import COVERED

__all__ = ["RulesRandom", "CSPRandom", "LeastRisk", "guess_probabilities", "random_cell"]


def guess_probabilities(position, analysis):
    """Mine probabilities of the covered cells (inf elsewhere), rounded to 1e-12 so that
    cells whose probabilities are mathematically equal tie exactly (then the lowest index)."""
    probs = np.round(analysis.probabilities, 12)
    return np.where(position.cells == COVERED, probs, np.inf)


def random_cell(position, rng):
    """A covered cell at random. Its chance to be a mine, averaged over the covered cells,
    is the mines left over the covered cells (every flag these players set is a mine)."""
    covered = position.covered
    return Move("guess", [int(covered[rng.integers(len(covered))])],
                probability=(position.mines - position.flags) / len(covered), reason="random")


class RulesRandom(Player):
    """The original programs' rules, then a random covered cell."""

    name = "rules-random"

    def after_rules(self, position, rng):
        return random_cell(position, rng)


class CSPRandom(Player):
    """Rules, then every cell the exact analysis (global mine count included) forces, then
    :meth:`guess` (here a random covered cell)."""

    name = "csp-random"

    def after_rules(self, position, rng):
        analysis = analyze(position)
        if len(analysis.safe) or len(analysis.mines):
            return Move("forced", analysis.safe.tolist(), analysis.mines.tolist())
        return self.guess(position, analysis, rng)

    def guess(self, position, analysis, rng):
        """The move when nothing is forced."""
        return random_cell(position, rng)


class LeastRisk(CSPRandom):
    """As ``csp-random``, but the guess is the covered cell with the lowest mine
    probability; ties go to the lowest cell index (row-major)."""

    name = "least-risk"

    def guess(self, position, analysis, rng=None):
        probs = guess_probabilities(position, analysis)
        cell = int(np.argmin(probs))      # first minimum: the lowest index
        return Move("guess", [cell], probability=float(probs[cell]), reason="least risk")
