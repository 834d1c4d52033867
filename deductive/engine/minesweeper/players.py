"""Minesweeper players, found by name through a registry.

Each turn a player looks at the position and returns a :class:`Move`: cells to reveal and
cells to flag, and the kind of decision (``rules``: the original programs' two local rules,
``forced``: cells the exact analysis proves, ``guess``: anything else). Every player plays
proven-safe cells before guessing.

``rules-random``
    The original programs' rules, then a random covered cell.
``csp-random``
    Rules, then every cell the exact analysis (global mine count included) forces, then
    a random covered cell.
``least-risk``
    As ``csp-random``, but the guess is the covered cell with the lowest mine probability;
    ties go to the lowest cell index (row-major).
``best``
    As ``least-risk``, with these refinements. When at most ``endgame`` (120) arrangements
    of the mines remain, an exact search over clicks and outcomes picks the click with the
    highest probability of winning the game (:func:`.endgame.endgame_choice`, compiled in
    ``kernels/mines_endgame.py``; past its memory limit the player guesses as below).
    Otherwise, among the cells whose probability is within ``margin`` (0.02) of the lowest
    (equally safe cells with fewer covered neighbours first, at most ``candidates``, 10), it
    plays the one with the best chance to survive this click *and* the best next one: for
    each candidate and each number it may show, the position is analysed again and weighted
    by how many arrangements give that number. Ties go to the safest cell, then the fewest
    covered neighbours, then the lowest index. Three rules come first: after a first click
    that opened no zero, the far corner (:func:`far_corner`); an unavoidable 50/50
    (:func:`unavoidable_fifty_fifty`) is guessed at once; and a dead cell (one whose number
    can take a single value, so that revealing it teaches nothing) is only played when every
    candidate is dead.
``strongest``
    ``best`` with refinements taken from D. Hill's solver, each an option that can be
    switched off (:class:`Strongest`): a relative cut-off for the candidates, next-click
    safety mixing the two safest cells, a penalty for outcomes that leave a 50/50,
    dominance swaps, long-term safety and pseudo 50/50s (:mod:`.longterm`), isolated
    regions played exactly (:mod:`.endgame`) and small spaces deferred. With all of them
    off it plays exactly as ``best``.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field

import numpy as np

from ...errors import DeductiveError
from ..registry import Registry
from .analysis import analyze
from .board import COVERED, FLAGGED, MAX_CELLS, Position, neighbours_of
from .endgame import _endgame, isolated_choice
from .longterm import LongTermRisk

__all__ = ["Move", "Player", "PLAYERS", "make_player", "rule_deductions"]

#: The players by name, in the order ``--help`` lists them.
PLAYERS = Registry("player")


@dataclass
class Move:
    """Cells to reveal and to flag (flat indices), and the kind of decision. A guess also
    says which rule chose it (``reason``: ``random``, ``least risk``, ``endgame``,
    ``fifty-fifty``, ``pseudo 50/50``, ``isolated region``, ``far corner``, ``open corner``,
    ``look-ahead`` or ``dominance``) and, from the exact endgame, the probability of winning
    the game from here (``win``)."""

    kind: str
    reveal: list = field(default_factory=list)
    flag: list = field(default_factory=list)
    probability: float = 0.0      # mine probability of a guessed cell
    reason: str = ""
    win: float | None = None


def rule_deductions(position: Position):
    """The original programs' rules: a number whose covered neighbours all must be mines (rule 1) or
    that has all its mines flagged (rule 2). Returns (safe cells, mine cells)."""
    from ...kernels.mines import rule_moves

    safe, mines = rule_moves(position.cells, neighbours_of(position.rows, position.cols))
    return np.flatnonzero(safe), np.flatnonzero(mines)


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


def _guess_probabilities(position, analysis):
    """Mine probabilities of the covered cells (inf elsewhere), rounded to 1e-12 so that
    cells whose probabilities are mathematically equal tie exactly (then the lowest index)."""
    probs = np.round(analysis.probabilities, 12)
    return np.where(position.cells == COVERED, probs, np.inf)


def _ring(cells, nbrs, k):
    """The covered neighbours of cell ``k`` (an array) and how many of its neighbours are
    flagged."""
    around = nbrs[k][nbrs[k] >= 0]
    return around[cells[around] == COVERED], int((cells[around] == FLAGGED).sum())


def _safety_order(position, probs, nbrs):
    """Cells by mine probability; among equally safe cells, those with fewer covered
    neighbours first (more likely to open a zero), then the lowest index."""
    around = np.where(nbrs >= 0, position.cells[np.maximum(nbrs, 0)] == COVERED, False)
    return np.lexsort((np.arange(len(probs)), around.sum(axis=1), probs))


def _random_cell(position, rng):
    """A covered cell at random. Its chance to be a mine, averaged over the covered cells,
    is the mines left over the covered cells (every flag these players set is a mine)."""
    covered = position.covered
    return Move("guess", [int(covered[rng.integers(len(covered))])],
                probability=(position.mines - position.flags) / len(covered), reason="random")


@PLAYERS.register("rules-random", "the original programs' rules, then a random cell")
class RulesRandom(Player):
    name = "rules-random"

    def after_rules(self, position, rng):
        return _random_cell(position, rng)


@PLAYERS.register("csp-random", "rules and exactly forced cells, then a random cell")
class CSPRandom(Player):
    name = "csp-random"

    def after_rules(self, position, rng):
        analysis = analyze(position)
        if len(analysis.safe) or len(analysis.mines):
            return Move("forced", analysis.safe.tolist(), analysis.mines.tolist())
        return _random_cell(position, rng)


@PLAYERS.register("least-risk", "rules, forced cells, then the lowest mine probability")
class LeastRisk(Player):
    name = "least-risk"

    def after_rules(self, position, rng):
        analysis = analyze(position)
        if len(analysis.safe) or len(analysis.mines):
            return Move("forced", analysis.safe.tolist(), analysis.mines.tolist())
        return self.guess(position, analysis)

    def guess(self, position, analysis):
        probs = _guess_probabilities(position, analysis)
        cell = int(np.argmin(probs))      # first minimum: the lowest index
        return Move("guess", [cell], probability=float(probs[cell]), reason="least risk")


_BEST_OPTIONS = ("margin", "candidates", "endgame", "endgame_cells", "progress_weight",
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


@PLAYERS.register("best", "least risk refined by two-step survival", options=_BEST_OPTIONS)
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

    def guess(self, position, analysis):
        probs = _guess_probabilities(position, analysis)
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
        :func:`_safety_order`, at most ``candidates``."""
        lowest = float(probs.min())
        order = _safety_order(position, probs, nbrs)
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

        covered, flagged = _ring(position.cells, nbrs, cell)
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


#: The most arrangements ``strongest:isolated`` may enumerate in a region (a 64-cell
#: region's table of them is then at most 64 MB).
ISOLATED_MAX = 1_000_000

_STRONGEST_OPTIONS = _BEST_OPTIONS + ("cutoff", "off_frontier", "mix", "fifty_penalty",
                                      "dominance", "corners", "near_off", "ltr", "pseudo",
                                      "isolated", "defer")


@PLAYERS.register("strongest", "best with Hill's guessing refinements, each switchable",
                  options=_STRONGEST_OPTIONS)
class Strongest(Best):
    """``best`` with refinements from D. Hill's solver, each an option (0 or False: off,
    which with the other defaults of ``best`` plays exactly as ``best``):

    ``cutoff`` (0.9)
        Candidates by a relative cut-off: every cell at least ``cutoff`` times as safe as
        the safest (instead of ``margin``), at most ``candidates``; among the cells off the
        frontier (all equally safe) the ``off_frontier`` (3) with the fewest covered
        neighbours.
    ``mix`` (0.0)
        Next-click safety: ``(1 - mix)`` x the safest next cell + ``mix`` x the second
        safest (one cell is a thin hope when it is the only good one).
    ``fifty_penalty`` (0.0)
        Long-term risk: an outcome of the candidate that leaves an unavoidable 50/50 next to
        it (once its forced mines are flagged and its forced safe cells opened) counts its
        survival times ``1 - fifty_penalty / 2``.
    ``dominance`` (False)
        After the choice, a strictly safer cell that is safe whenever the chosen one is
        (so it is a mine only when the chosen one is too) is played instead (the safest
        such, then the lowest index).
    ``corners`` (0)
        While no zero is open and at most ``corners`` cells are revealed, the covered
        corner off the frontier farthest from the numbers, when it is among the candidates'
        safety (:func:`open_corner`): the far-corner rule carried on.
    ``near_off`` (0)
        Up to ``near_off`` more candidates (beyond ``candidates``): cells off the frontier
        two rows or columns straight from a number, whose number will overlap the
        frontier's (D. Hill's solver looks at such cells).
    ``ltr`` (0.0)
        Long-term safety (:mod:`.longterm`): a candidate's score is multiplied by
        ``1 + ltr x influence / P(safe)``, the influence being the share of the
        arrangements where it is a mine of a pair or 2x2 box no number could ever split
        (or an enabler of one), which would be half lost to that 50/50 later anyway; the
        cells such patterns touch whose long-term safety (``P(safe) + influence``) passes
        the cut-off join the candidates. D. Hill's solver uses 0.9.
    ``pseudo`` (False)
        A pseudo 50/50 (a cell that is a mine only as the mine of a closed pair or box:
        safe, or a 50/50 due sooner or later) is guessed at once, the safest such cell
        whose number can take two values or more (then the lowest index).
    ``isolated`` (0)
        When the whole board is past the exact endgame, an isolated region (a part of
        the frontier nothing else touches, with a fixed number of mines: see
        :mod:`.endgame`) of at most ``isolated`` arrangements (2 to
        :data:`ISOLATED_MAX`) and ``endgame_cells`` cells is played exactly, its best
        click first (:func:`.endgame.isolated_choice`; the smallest region first). D.
        Hill's solver does this for its "isolated edges".
    ``defer`` (0)
        Candidates whose covered space is smaller than ``defer`` cells (covered cells
        reached from it through covered cells at most two rows or columns apart, so across
        one revealed cell) are left for last: scored only when every candidate is in such
        a space. D. Hill's Java solver defers them at 8 (its ``SpaceCounter``).
    """

    name = "strongest"

    def __init__(self, cutoff: float = 0.9, off_frontier: int = 3, mix: float = 0.0,
                 fifty_penalty: float = 0.0, dominance: bool = False, candidates: int = 10,
                 corners: int = 0, near_off: int = 0, ltr: float = 0.0, pseudo: bool = False,
                 isolated: int = 0, defer: int = 0, **options):
        super().__init__(candidates=candidates, **options)
        check_options(off_frontier=off_frontier, corners=corners, near_off=near_off)
        if (isinstance(isolated, bool) or not isinstance(isolated, int)
                or not (isolated == 0 or 2 <= isolated <= ISOLATED_MAX)):
            raise DeductiveError(f"player option isolated={isolated}: use 0 (off) or a whole "
                                 f"number of arrangements from 2 to {ISOLATED_MAX:,}")
        self.isolated = isolated
        if isinstance(defer, bool) or not isinstance(defer, int) or not 0 <= defer <= 64:
            raise DeductiveError(f"player option defer={defer}: use 0 (off) or a whole "
                                 "number of cells up to 64")
        self.defer = defer
        for key, value in (("cutoff", cutoff), ("mix", mix), ("fifty_penalty", fifty_penalty),
                           ("ltr", ltr)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not 0 <= value <= 1:
                raise DeductiveError(f"player option {key}={value}: use a number from 0 "
                                     "(off) to 1")
        for key, value in (("dominance", dominance), ("pseudo", pseudo)):
            if not isinstance(value, bool):
                raise DeductiveError(f"player option {key}={value}: use true or false")
        self.ltr, self.pseudo = ltr, pseudo
        self._risk = None               # the LongTermRisk of the guess being chosen
        self.corners, self.near_off = corners, near_off
        self.cutoff, self.off_frontier, self.mix = cutoff, off_frontier, mix
        self.fifty_penalty, self.dominance = fifty_penalty, dominance

    def _limit(self, probs):
        """The highest mine probability a candidate may have: the cut-off's, or the
        margin's when the cut-off is off."""
        lowest = float(probs.min())
        if not self.cutoff:
            return lowest + self.margin
        return 1.0 - self.cutoff * (1.0 - lowest) + 1e-12

    def _pool(self, position, probs, nbrs):
        return self._deferred(position, self._candidates(position, probs, nbrs))

    def _candidates(self, position, probs, nbrs):
        if not self.cutoff and not self.near_off:
            return self._influenced(super()._pool(position, probs, nbrs), probs)
        order = _safety_order(position, probs, nbrs)
        order = order[probs[order] <= self._limit(probs)]
        # cells off the frontier have no revealed neighbour: all share one probability
        revealed = np.where(nbrs >= 0, position.cells[np.maximum(nbrs, 0)] >= 0, False)
        off = ~revealed.any(axis=1)[order]
        if self.cutoff:
            kept = np.concatenate([order[~off], order[off][:self.off_frontier]])
            kept = kept[np.lexsort((np.arange(len(kept)), probs[kept]))]   # stable by safety
            pool = [int(k) for k in kept[:self.candidates]]
        else:
            pool = super()._pool(position, probs, nbrs)
        if self.near_off:
            near = _two_away(position, order[off])
            pool += [k for k in near if k not in pool][:self.near_off]
        return self._influenced(pool, probs)

    def _shortcut(self, position, analysis, probs, nbrs):
        found = super()._shortcut(position, analysis, probs, nbrs)
        if found[0] is None and self.isolated:
            region = isolated_choice(position, self.isolated, self.endgame_cells, nbrs)
            if region is not None:
                return region[0], "isolated region", None
        return found

    def _deferred(self, position, pool):
        """``pool`` without the cells whose space is smaller than ``defer`` (all of it if
        every cell is in such a space)."""
        if not self.defer:
            return pool
        roomy = [k for k in pool if covered_space(position, k, self.defer) >= self.defer]
        return roomy or pool

    def _influenced(self, pool, probs):
        """``pool`` and, with ``ltr``, the cells around closed patterns whose long-term
        safety passes the cut-off (or the margin)."""
        if self._risk is None:
            return pool
        least = 1.0 - self._limit(probs)
        return pool + [k for k, safety in self._risk.influenced()
                       if safety >= least - 1e-12 and k not in pool]

    def _choice(self, position, analysis, probs, nbrs):
        if not (self.ltr or self.pseudo):
            return super()._choice(position, analysis, probs, nbrs)
        risk = LongTermRisk(position, analysis, probs)
        if self.pseudo:     # a dead cell (its number known in advance) teaches nothing
            pseudo = risk.scan(lambda k: self._next_survival(position, k, nbrs)[2] > 1)[0]
            if pseudo:
                return min(pseudo, key=lambda k: (probs[k], k)), "pseudo 50/50"
        self._risk = risk if self.ltr else None
        try:
            return super()._choice(position, analysis, probs, nbrs)
        finally:
            self._risk = None

    def _long_term(self, cell):
        return 1.0 if self._risk is None else self._risk.safety(cell, self.ltr)

    def _look_ahead_choice(self, position, probs, nbrs):
        if self.corners:
            cell = open_corner(position, probs, nbrs, self.corners, self._limit(probs))
            if cell is not None:
                return cell, "open corner"
        cell, reason = super()._look_ahead_choice(position, probs, nbrs)
        if self.dominance:
            other = self.dominating(position, cell, probs, nbrs)
            if other != cell:
                return other, "dominance"
        return cell, reason

    def dominating(self, position, cell, probs, nbrs):
        """The safest cell (then the lowest index) that is strictly safer than ``cell`` and
        safe in every arrangement where ``cell`` is safe; ``cell`` when there is none."""
        safe_after = self._next_survival(position, cell, nbrs)[3]
        safer = [k for k in safe_after if probs[k] < probs[cell] - 1e-12]
        return min(safer, key=lambda k: (probs[k], k)) if safer else cell

    def _outcome_survival(self, position, cell, trial, nxt, nbrs):
        if len(nxt.safe):
            survive = 1.0
        else:
            rest = nxt.probabilities[trial == COVERED]
            two = np.partition(rest, 1)[:2] if len(rest) > 1 else np.concatenate([rest] * 2)
            survive = 1.0 - ((1.0 - self.mix) * two.min() + self.mix * two.max()) \
                if len(rest) else 1.0
        if self.fifty_penalty:
            # as play will find it: forced mines flagged, forced safe cells about to open
            ahead = trial.copy()
            ahead[nxt.mines] = FLAGGED
            opened = np.zeros(len(trial), dtype=bool)
            opened[nxt.safe] = True
            near = Position(position.rows, position.cols, position.mines, ahead)
            if unavoidable_fifty_fifty(near, nbrs, around=cell, opened=opened) is not None:
                survive *= 1.0 - self.fifty_penalty / 2
        return survive


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


def _two_away(position, off):
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


def make_player(spec: str, **options) -> Player:
    """A player by name (see :data:`PLAYERS`), with options given as keywords or in the
    name: ``"strongest:endgame=400,cutoff=0.9"`` (values: integers, decimals, true or
    false). An unknown name or option lists the valid ones. A player made with options in
    its name reports that name (``player.name``), so results say which variant played."""
    name, _, given = str(spec).partition(":")
    parsed = {}
    for item in filter(None, (part.strip() for part in given.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise DeductiveError(f"player {spec!r}: option {item!r} is not OPTION=VALUE; "
                                 "write e.g. best:endgame=400")
        parsed[key.strip()] = _option_value(text.strip())
    player = PLAYERS.create(name.strip(), **parsed, **options)
    if parsed:
        player.name = "".join(str(spec).split())
    return player


def _option_value(text: str):
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    raise DeductiveError(f"player option value {text!r} is not a number, true or false")


#: The ``player`` of the benchmarks: a name, options after a colon.
PLAYER = PLAYERS.param("player", "best", "; options after a colon (e.g. strongest:endgame=400)",
                       metavar="NAME[:OPT=V,...]")
