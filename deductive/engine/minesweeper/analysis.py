"""Exact mine probabilities of every covered cell, honouring the global mine count.

Steps (the counting itself is compiled, see :mod:`deductive.kernels.mines_frontier` and
:mod:`deductive.kernels.mines_count`):

1. constraints, boxes (cells with the same constraints) and independent components;
2. each component counted by its number of mines m: W_i[m], and per box the solutions
   weighted by its mines S_b[m] (boxes weighted by C(size, k));
3. components combined by convolution over mine totals, each total m weighted by
   C(cells off the frontier, mines left - m).

Accuracy: every count is a sum of positive products of at most B binomials (B boxes),
so each term carries a relative error of at most B * 2**-53 and the compensated sums add
2 * 2**-53; the convolutions and the binomial weights come from a table of
log-factorials (relative error about 1e-12 at these sizes) and the convolutions are sums of
positive terms too. The probabilities are ratios of such sums,
good to about 1e-12 on any board these presets make (the tests hold them to 1e-9 against
exact integer engines). Forced cells are decided on exact integer information (the least
and most mines of each box among the solutions of each total), never on a rounded value.
A component whose enumeration would exceed a node budget is counted instead by an exact
dynamic programme over its boxes (:func:`_count_component_dp`), so no position hangs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ...kernels.mines_logpoly import log_convolve, log_correlate, log_sum
from .._memory import available_memory
from ..params import Param
from ..._deprecated import OldAsDict
from .board import COVERED, FLAGGED, Position, PositionError, neighbours_of
from .counting import STEP_BUDGET, CountingBudgetError, TreeCount

__all__ = ["Analysis", "Deductions", "analyze", "log_arrangements", "NODE_BUDGET",
           "CountingBudgetError", "default_memory_budget"]

#: Search nodes one component may use before the exact dynamic programme takes over.
NODE_BUDGET = 2_000_000

_BINOM = np.array([[math.comb(n, k) for k in range(9)] for n in range(9)], dtype=np.float64)


@dataclass(frozen=True)
class Analysis(OldAsDict):
    """Result of :func:`analyze`.

    Attributes
    ----------
    probabilities : float64 array over cells
        Mine probability of each covered cell; 1.0 for flags; NaN for revealed cells.
    safe, mines : int arrays
        Covered cells that are mine-free / mines in every arrangement (probability 0 / 1).
    log_count : float
        Natural logarithm of the number of mine arrangements consistent with the position.
    frontier : bool array
        Covered cells next to a revealed number.
    """

    position: Position
    probabilities: np.ndarray
    safe: np.ndarray
    mines: np.ndarray
    log_count: float
    frontier: np.ndarray
    components: int
    dp_components: int

    def grid(self) -> np.ndarray:
        return self.probabilities.reshape(self.position.rows, self.position.cols)

    def to_json(self) -> dict:
        """The board's size and mines and the probabilities by row (None: revealed), rounded
        to 12 digits: the form ``--json`` prints."""
        rows = [[None if v != v else round(float(v), 12) for v in row] for row in self.grid()]
        p = self.position
        return {"rows": p.rows, "cols": p.cols, "mines": p.mines, "probabilities": rows}

    def forced_cells(self) -> dict:
        """``{"safe": [[row, column], ...], "mines": [...]}``, rows and columns from 1."""
        cols = self.position.cols
        return {kind: [[int(c) // cols + 1, int(c) % cols + 1] for c in cells]
                for kind, cells in (("safe", self.safe), ("mines", self.mines))}

    def deductions(self) -> Deductions:
        """The cells forced in every arrangement, as a result of their own (``mines
        deduce``)."""
        return Deductions(self)


@dataclass(frozen=True)
class Deductions:
    """The covered cells that are safe, or mines, in every arrangement of a position."""

    analysis: Analysis

    def to_json(self) -> dict:
        """:meth:`Analysis.forced_cells`: the form ``--json`` prints."""
        return self.analysis.forced_cells()


#: A position's total of ``mines`` (:meth:`Position.read`) and :func:`analyze`'s
#: ``max_memory``.
POSITION = (
    Param("mines", None, "Total number of mines on the board (flags included).", int, low=0,
          required=True),
    Param("max_memory", None, "Memory the exact count of a big component may hold (e.g. 2G; "
          "default: a quarter of the memory available, at most 1G). Past it: one error line.",
          metavar="SIZE", kind="size"))


def analyze(position: Position, budget: int = NODE_BUDGET, max_memory: int | None = None
            ) -> Analysis:
    """Exact mine probabilities and forced cells of a position.

    Parameters
    ----------
    budget : int
        Search nodes the compiled enumeration may spend on a component before the tree
        decomposition counts it instead (0: count every component that way).
    max_memory : int, optional
        Bytes the tree-decomposition tables may hold (default: a quarter of the memory
        available when the count starts, at most 1 GiB).

    Raises
    ------
    PositionError
        The position is malformed or no arrangement of the mines fits it; the message
        names the row and column where a number cannot be satisfied.
    CountingBudgetError
        A component needs more memory than ``max_memory`` to count exactly.
    """
    c = _counted(position, budget, max_memory)
    cells = position.cells
    covered = cells == COVERED
    on_frontier = c.frontier.box_of >= 0
    reach, prefix, log_prefix_scale = _reach(c.comps, c.log_bin)
    log_z = _log_total(prefix, c.log_bin, c.left)
    frontier = c.frontier
    probs = np.full(len(cells), np.nan)
    probs[cells == FLAGGED] = 1.0
    forced = np.zeros(len(cells), dtype=np.int8)       # 1 safe, 2 mine
    if c.n_off:
        off_cells = covered & ~on_frontier
        valid = (prefix > -np.inf) & c.bin_ok
        probs[off_cells], forced[off_cells] = _off_frontier_probability(
            prefix[valid], c.log_bin[valid], c.r[valid], c.n_off, log_z)
    dp_used = len(c.trees)
    box_prob, box_forced = _box_probabilities(c.comps, reach, c.trees, frontier.box_size,
                                              c.steps_left)
    front_cells = np.flatnonzero(on_frontier)
    probs[front_cells] = box_prob[frontier.box_of[front_cells]]
    forced[front_cells] = box_forced[frontier.box_of[front_cells]]
    return Analysis(position, probs, np.flatnonzero(forced == 1), np.flatnonzero(forced == 2),
                    c.log_scale + log_prefix_scale + log_z, on_frontier, frontier.n_comp,
                    dp_used)


def log_arrangements(position: Position, budget: int = NODE_BUDGET,
                     max_memory: int | None = None) -> float:
    """The log of the number of arrangements of the mines that fit ``position``: the
    ``log_count`` of :func:`analyze`, the same number, without the probabilities (about
    half the work). Raises as :func:`analyze` does."""
    c = _counted(position, budget, max_memory)
    prefix, shift = np.zeros(1), 0.0
    for comp in c.comps:                # as _reach's forward pass
        prefix, top = _shifted(log_convolve(prefix, comp[2]))
        shift += top
    return c.log_scale + shift + _log_total(prefix, c.log_bin, c.left)


class _Counts(NamedTuple):
    """What :func:`analyze` and :func:`log_arrangements` share: the frontier, its
    components counted (:func:`_count_components`), the covered cells off the frontier,
    the mines left and the off-frontier weights (:func:`_off_frontier_weights`)."""

    frontier: "_Frontier"
    comps: list
    trees: dict
    log_scale: float
    steps_left: int
    n_off: int
    left: int
    r: np.ndarray
    bin_ok: np.ndarray
    log_bin: np.ndarray


def _counted(position, budget, max_memory) -> _Counts:
    """Validate ``position`` and count its components; a mine total the covered cells
    cannot hold raises :class:`PositionError`."""
    position.validate()
    frontier = _frontier_structure(position)
    comps, trees, log_scale, steps_left = _count_components(position, frontier, budget,
                                                            max_memory)
    cells = position.cells
    covered = int((cells == COVERED).sum())
    n_off = covered - int((frontier.box_of >= 0).sum())
    left = position.mines - int((cells == FLAGGED).sum())
    r, bin_ok, log_bin = _off_frontier_weights(comps, n_off, left)
    if not 0 <= left <= covered:
        raise PositionError(f"{left} mines left cannot be placed: too few or too many for the "
                            "covered cells")
    return _Counts(frontier, comps, trees, log_scale, steps_left, n_off, left, r, bin_ok,
                   log_bin)


def _log_total(prefix, log_bin, left) -> float:
    """The log of the arrangements' total weight (shifted as ``prefix``); none fits:
    :class:`PositionError`."""
    log_z = log_sum(prefix + log_bin)
    if log_z == -np.inf:
        raise PositionError("no arrangement of the mines fits this position (the numbers need "
                            f"a number of mines that {left} left cannot give)")
    return log_z


class _Frontier(NamedTuple):
    """The frontier structure (:func:`deductive.kernels.mines_frontier.frontier_structure`)."""

    box_of: np.ndarray
    box_size: np.ndarray
    box_comp: np.ndarray
    box_cons_ptr: np.ndarray
    box_cons: np.ndarray
    cons_value: np.ndarray
    n_comp: int


def _frontier_structure(position) -> _Frontier:
    """Boxes and components of the frontier; a number that cannot be satisfied by its own
    neighbours raises :class:`PositionError` naming it."""
    from ...kernels.mines_frontier import OK, TOO_MANY_FLAGS, frontier_structure

    cells = position.cells
    status, bad, *structure = frontier_structure(cells, neighbours_of(position.rows,
                                                                      position.cols))
    if status != OK:
        why = ("has more flagged neighbours than its number" if status == TOO_MANY_FLAGS
               else "needs more mines than it has covered neighbours")
        raise PositionError(f"{position.where(bad)}: the {cells[bad]} {why}")
    return _Frontier(*structure)


def _count_components(position, frontier: _Frontier, budget, max_memory):
    """Each component's solutions by mine total, as log-weights shifted to a maximum of 0.

    The compiled enumeration counts a component within ``budget`` nodes; past it, or when
    its counts pass the float range, a :class:`TreeCount` does. Returns the components
    (boxes, least mine total, log W, and for enumerated ones log S and which boxes may hold
    a mine / a free cell, each total kept), the tree counts by component, the sum of the
    shifts, and the work steps left.
    """
    from ...kernels.mines_count import count_all

    f = frontier
    (comp_ptr, comp_boxes, comp_width, w_ptr, weights, s_ptr, mines_in_box, kmin, kmax,
     nodes) = count_all(f.box_size, f.box_comp, f.box_cons_ptr, f.box_cons, f.cons_value,
                        f.n_comp, _BINOM, budget)
    comps, trees, log_scale, steps_left = [], {}, 0.0, STEP_BUDGET
    for i in range(f.n_comp):
        boxes = comp_boxes[comp_ptr[i]:comp_ptr[i + 1]]
        w = weights[w_ptr[i]:w_ptr[i + 1]]
        if nodes[i] >= 0 and np.isfinite(w).all():
            block = slice(s_ptr[i], s_ptr[i + 1])
            first = 0
            log_w, log_s, mine_ok, free_ok = _enumerated(
                w, mines_in_box[block], kmin[block], kmax[block], f.box_size[boxes])
        else:
            if max_memory is None:
                max_memory = default_memory_budget()
            tree = TreeCount(boxes, f.box_size, f.box_cons_ptr, f.box_cons, f.cons_value,
                             max_memory, steps_left)
            steps_left -= tree.budget.steps
            trees[i] = tree
            first, log_w, log_s, mine_ok, free_ok = tree.lo, tree.log_w, None, None, None
        live = np.flatnonzero(log_w > -np.inf)
        if not len(live):
            cell = int(np.flatnonzero(f.box_of == boxes[0])[0])
            raise PositionError(f"no arrangement of mines fits the numbers around "
                                f"{position.where(cell)}")
        cut = slice(live[0], live[-1] + 1)
        top = log_w[cut].max()
        log_scale += top
        if log_s is not None:
            log_s, mine_ok, free_ok = log_s[:, cut] - top, mine_ok[:, cut], free_ok[:, cut]
        comps.append((boxes, first + live[0], log_w[cut] - top, log_s, mine_ok, free_ok))
    return comps, trees, log_scale, steps_left


def _enumerated(w, mines_in_box, kmin, kmax, sizes):
    """An enumerated component's log W, log S (boxes x totals), and whether each box holds
    a mine / a free cell in some solution of each total."""
    width = len(w)
    with np.errstate(divide="ignore"):
        log_w = np.log(w)
        log_s = np.log(mines_in_box.reshape(len(sizes), width))
    lo = kmin.reshape(len(sizes), width)
    hi = kmax.reshape(len(sizes), width)
    return log_w, log_s, hi > 0, (lo < sizes[:, None]) & (hi >= 0)


def _off_frontier_weights(comps, n_off, left):
    """For every total t of frontier mines the components allow (from the least): the
    mines left off the frontier r = left - t, whether they fit, and log C(n_off, r)."""
    t_lo = sum(c[1] for c in comps)
    t_hi = sum(c[1] + len(c[2]) - 1 for c in comps)
    r = left - np.arange(t_lo, t_hi + 1)
    bin_ok = (r >= 0) & (r <= n_off)
    log_bin = np.full(len(r), -np.inf)
    log_bin[bin_ok] = _log_comb(n_off, r[bin_ok])
    return r, bin_ok, log_bin


def _off_frontier_probability(prefix, log_bin, r, n_off, log_z):
    """The mine probability of each cell off the frontier and whether they are forced
    (0, 1 safe, 2 mine), from the feasible totals (prefix weight, binomial, mines left)."""
    if (r == 0).all():
        return 0.0, 1
    if (r == n_off).all():
        return 1.0, 2
    pos = r > 0
    share = log_sum(prefix[pos] + log_bin[pos] + np.log(r[pos])) - log_z
    return math.exp(share) / n_off, 0


def _box_probabilities(comps, reach, trees, box_size, steps_left):
    """Mine probability and forced state (0, 1 safe, 2 mine) of every box, each component's
    solutions weighted by what the rest of the board allows (``reach``)."""
    box_prob = np.zeros(len(box_size))
    box_forced = np.zeros(len(box_size), dtype=np.int8)
    for i, ((boxes, _, log_w, log_s, mine_ok, free_ok), rch) in enumerate(zip(comps, reach)):
        sizes = box_size[boxes]
        if i in trees:
            tree = trees.pop(i)
            tree.budget.max_steps = tree.budget.steps + steps_left
            log_mines, log_free = tree.marginals(rch)
            steps_left -= tree.budget.steps
            z_i = log_sum(tree.log_w + rch)      # the tree's marginals are not shifted
            box_prob[boxes] = np.exp(log_mines - z_i) / sizes
            box_forced[boxes[log_mines == -np.inf]] = 1
            box_forced[boxes[log_free == -np.inf]] = 2
            continue
        z_i = log_sum(log_w + rch)
        live = (rch > -np.inf) & (log_w > -np.inf)
        box_prob[boxes] = np.exp(_row_log_sums(log_s + rch) - z_i) / sizes
        box_forced[boxes[~mine_ok[:, live].any(axis=1)]] = 1
        box_forced[boxes[~free_ok[:, live].any(axis=1)]] = 2
    box_prob[box_forced == 1] = 0.0
    box_prob[box_forced == 2] = 1.0
    return box_prob, box_forced


def _row_log_sums(x):
    """``log(sum(exp(row)))`` of each row of ``x`` (-inf for a row of -inf)."""
    top = x.max(axis=1)
    safe = np.where(top > -np.inf, top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(x - safe[:, None]).sum(axis=1))


def _reach(comps, log_bin):
    """For each component, the log-weight of the rest of the board given its mine count.

    ``reach[i][k]`` sums, over the other components' solutions and the cells off the
    frontier, the weights that complete component i's solutions with ``lo_i + k`` mines.
    Backward arrays R_i (the components after i with the off-frontier binomial, by the mines
    of the components up to i) meet forward prefixes P_i (the components before i), so the
    cost is quadratic in the number of mine totals, not in the number of components. Every
    array is shifted to a maximum of 0 as it is made: a shift common to one component's
    numerator and denominator cancels, so only the final prefix keeps track of its shift.
    """
    n = len(comps)
    rs = [None] * n
    r = log_bin
    for i in range(n - 1, -1, -1):
        rs[i] = r
        r = _shifted(log_correlate(comps[i][2], r, 0))[0]
    reach = []
    prefix, prefix_shift = np.zeros(1), 0.0
    for i in range(n):
        reach.append(log_correlate(prefix, rs[i], 0))
        rs[i] = None
        prefix, shift = _shifted(log_convolve(prefix, comps[i][2]))
        prefix_shift += shift
    return reach, prefix, prefix_shift


def _shifted(x):
    top = x.max()
    if top == -np.inf:
        return x, 0.0
    return x - top, float(top)


#: Most bytes the tables may hold by default: the process's peak stays near twice this
#: (temporary pair arrays, the interpreter), inside 2 GB. ``--max-memory`` raises it.
DEFAULT_TABLE_BYTES = 1 << 30


def default_memory_budget() -> int:
    """A quarter of the memory available now (:func:`available_memory`: the machine's,
    or the cgroup's limit where lower), at most :data:`DEFAULT_TABLE_BYTES` and at least
    256 MiB."""
    available = available_memory()
    quarter = DEFAULT_TABLE_BYTES if available is None else available // 4
    return max(min(quarter, DEFAULT_TABLE_BYTES), 256 << 20)


_LGAMMA = np.zeros(1)


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    """log C(n, k) for integer arrays 0 <= k <= n, from a cached table of log-factorials."""
    global _LGAMMA
    if len(_LGAMMA) <= n:
        _LGAMMA = np.array([math.lgamma(i + 1) for i in range(max(n + 1, 2 * len(_LGAMMA)))])
    return _LGAMMA[n] - _LGAMMA[k] - _LGAMMA[n - k]
