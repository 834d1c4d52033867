"""The ``strongest`` Minesweeper player: ``best`` with refinements taken from D. Hill's
solver, each an option that can be switched off (see :class:`Strongest`).
"""

from __future__ import annotations

import numpy as np

from ...errors import DeductiveError
from .best import BEST_OPTIONS, Best, check_options, safety_order
from .board import COVERED, FLAGGED, Position
from .endgame import isolated_choice
from .guess_rules import covered_space, open_corner, two_away, unavoidable_fifty_fifty
from .longterm import LongTermRisk

__all__ = ["Strongest", "STRONGEST_OPTIONS", "ISOLATED_MAX"]

#: The most arrangements ``strongest:isolated`` may enumerate in a region (a 64-cell
#: region's table of them is then at most 64 MB).
ISOLATED_MAX = 1_000_000

#: The options ``strongest`` takes: those of ``best`` and its own.
STRONGEST_OPTIONS = BEST_OPTIONS + ("cutoff", "off_frontier", "mix", "fifty_penalty",
                                    "dominance", "corners", "near_off", "ltr", "pseudo",
                                    "isolated", "defer")


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
        order = safety_order(position, probs, nbrs)
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
            near = two_away(position, order[off])
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
