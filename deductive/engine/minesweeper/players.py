"""Minesweeper players, found by name through a registry.

Each turn a player looks at the position and returns a :class:`Move`: cells to reveal and
cells to flag, and the kind of decision (``rules``: the seed's two local rules,
``forced``: cells the exact analysis proves, ``guess``: anything else). Every player plays
proven-safe cells before guessing.

``rules-random``
    The seed's rules, then a random covered cell.
``csp-random``
    Rules, then every cell the exact analysis (global mine count included) forces, then
    a random covered cell.
``least-risk``
    As ``csp-random``, but the guess is the covered cell with the lowest mine probability;
    ties go to the lowest cell index (row-major).
``best``
    As ``least-risk``, but among the cells whose probability is within ``margin`` of the
    lowest it plays the one with the best chance to survive this click *and* the best
    next one: for each candidate and each number it may show, the position is analysed
    again and weighted by how many arrangements give that number. Ties go to the safest
    cell, then the lowest index.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import UnknownNameError
from .analysis import analyze
from .board import COVERED, FLAGGED, Position, neighbours_of

__all__ = ["Move", "Player", "PLAYERS", "make_player", "rule_deductions"]


@dataclass
class Move:
    """Cells to reveal and to flag (flat indices), and the kind of decision."""

    kind: str
    reveal: list = field(default_factory=list)
    flag: list = field(default_factory=list)
    probability: float = 0.0      # mine probability of a guessed cell


def rule_deductions(position: Position):
    """The seed's rules: a number whose covered neighbours all must be mines (rule 1) or
    that has all its mines flagged (rule 2). Returns (safe cells, mine cells)."""
    cells = position.cells
    nbrs = neighbours_of(position.rows, position.cols)
    valid = nbrs >= 0
    nb_cells = np.where(valid, cells[np.maximum(nbrs, 0)], 127)
    cov = (nb_cells == COVERED)
    flags = (nb_cells == FLAGGED).sum(axis=1)
    n_cov = cov.sum(axis=1)
    revealed = cells >= 0
    need = cells.astype(np.int64) - flags
    safe_src = revealed & (n_cov > 0) & (need == 0)
    mine_src = revealed & (n_cov > 0) & (need == n_cov)
    safe = np.unique(nbrs[safe_src][cov[safe_src]])
    mines = np.unique(nbrs[mine_src][cov[mine_src]])
    return safe, mines


class Player(abc.ABC):
    """Base class: ``decide(position, rng)`` returns the next :class:`Move`."""

    name = "player"

    def decide(self, position: Position, rng) -> Move:
        safe, mines = rule_deductions(position)
        if len(safe) or len(mines):
            return Move("rules", safe.tolist(), mines.tolist())
        return self.after_rules(position, rng)

    @abc.abstractmethod
    def after_rules(self, position: Position, rng) -> Move:
        """The move when the local rules prove nothing."""


def _random_cell(position, rng):
    covered = position.covered
    return Move("guess", [int(covered[rng.integers(len(covered))])])


class RulesRandom(Player):
    name = "rules-random"

    def after_rules(self, position, rng):
        return _random_cell(position, rng)


class CSPRandom(Player):
    name = "csp-random"

    def after_rules(self, position, rng):
        analysis = analyze(position)
        if len(analysis.safe) or len(analysis.mines):
            return Move("forced", analysis.safe.tolist(), analysis.mines.tolist())
        return _random_cell(position, rng)


class LeastRisk(Player):
    name = "least-risk"

    def after_rules(self, position, rng):
        analysis = analyze(position)
        if len(analysis.safe) or len(analysis.mines):
            return Move("forced", analysis.safe.tolist(), analysis.mines.tolist())
        return self.guess(position, analysis)

    def guess(self, position, analysis):
        probs = np.where(position.cells == COVERED, analysis.probabilities, np.inf)
        cell = int(np.argmin(probs))      # first minimum: the lowest index
        return Move("guess", [cell], probability=float(probs[cell]))


class Best(LeastRisk):
    """Least risk refined by a two-step survival look-ahead (see the module docstring)."""

    name = "best"

    def __init__(self, margin: float = 0.05, candidates: int = 6):
        self.margin = margin
        self.candidates = candidates

    def guess(self, position, analysis):
        cells = position.cells
        probs = np.where(cells == COVERED, analysis.probabilities, np.inf)
        lowest = float(probs.min())
        order = np.lexsort((np.arange(len(probs)), probs))
        pool = [int(k) for k in order[:self.candidates] if probs[k] <= lowest + self.margin]
        nbrs = neighbours_of(position.rows, position.cols)
        best_cell, best_score = pool[0], -1.0
        for cell in pool:
            score = (1.0 - probs[cell]) * self._next_survival(position, cell, nbrs)
            if score > best_score + 1e-12:
                best_cell, best_score = cell, score
        return Move("guess", [best_cell], probability=float(probs[best_cell]))

    @staticmethod
    def _next_survival(position, cell, nbrs):
        """Chance that the best next click survives, given that ``cell`` is safe."""
        from .board import PositionError

        around = nbrs[cell][nbrs[cell] >= 0]
        flagged = int((position.cells[around] == FLAGGED).sum())
        covered = int((position.cells[around] == COVERED).sum())
        outcomes = []
        for value in range(flagged, flagged + covered + 1):
            trial = position.cells.copy()
            trial[cell] = value
            try:
                nxt = analyze(Position(position.rows, position.cols, position.mines, trial))
            except PositionError:
                continue
            if len(nxt.safe):
                survive = 1.0
            else:
                rest = np.where(trial == COVERED, nxt.probabilities, np.inf)
                survive = 1.0 - float(rest.min()) if np.isfinite(rest.min()) else 1.0
            outcomes.append((nxt.log_count, survive))
        if not outcomes:
            return 0.0
        top = max(log for log, _ in outcomes)
        weights = [math.exp(log - top) for log, _ in outcomes]
        return sum(w * s for w, (_, s) in zip(weights, outcomes)) / sum(weights)


PLAYERS = {
    "rules-random": "the seed's rules, then a random cell",
    "csp-random": "rules and exactly forced cells, then a random cell",
    "least-risk": "rules, forced cells, then the lowest mine probability",
    "best": "least risk refined by two-step survival",
}
_CLASSES = {"rules-random": RulesRandom, "csp-random": CSPRandom, "least-risk": LeastRisk,
            "best": Best}


def make_player(name: str, **options) -> Player:
    """A player by name; an unknown name lists the valid ones."""
    try:
        cls = _CLASSES[name]
    except KeyError:
        raise UnknownNameError(
            f"unknown player {name!r}; choose one of: "
            + "; ".join(f"{k} ({v})" for k, v in PLAYERS.items())
        ) from None
    return cls(**options)
