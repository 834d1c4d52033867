"""Exact mine probabilities of every covered cell, honouring the global mine count.

Steps (the counting itself is compiled, see :mod:`deductive.kernels.mines`):

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

import numpy as np

from .board import COVERED, FLAGGED, Position, PositionError, neighbours_of

__all__ = ["Analysis", "analyze", "NODE_BUDGET"]

#: Search nodes one component may use before the exact dynamic programme takes over.
NODE_BUDGET = 2_000_000

_BINOM = np.array([[math.comb(n, k) for k in range(9)] for n in range(9)], dtype=np.float64)


@dataclass
class Analysis:
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


def analyze(position: Position, budget: int = NODE_BUDGET) -> Analysis:
    """Exact mine probabilities and forced cells of a position.

    Raises
    ------
    PositionError
        The position is malformed or no arrangement of the mines fits it; the message
        names the row and column where a number cannot be satisfied.
    """
    from ...kernels.mines import OK, TOO_MANY_FLAGS, count_all, frontier_structure

    position.validate()
    cells = position.cells
    nbrs = neighbours_of(position.rows, position.cols)
    (status, bad, box_of, box_size, box_comp, box_cons_ptr, box_cons, cons_value,
     n_comp) = frontier_structure(cells, nbrs)
    if status != OK:
        why = ("has more flagged neighbours than its number" if status == TOO_MANY_FLAGS
               else "needs more mines than it has covered neighbours")
        raise PositionError(f"{position.where(bad)}: the {cells[bad]} {why}")
    (comp_ptr, comp_boxes, comp_width, w_ptr, weights, s_ptr, mines_in_box, kmin, kmax,
     nodes) = count_all(box_size, box_comp, box_cons_ptr, box_cons, cons_value, n_comp, _BINOM,
                        budget)
    covered = cells == COVERED
    frontier = box_of >= 0
    n_off = int(covered.sum() - frontier.sum())
    left = position.mines - int((cells == FLAGGED).sum())

    comp_w, comp_scale, comp_rows, dp_used = [], [], [], 0
    for i in range(n_comp):
        boxes = comp_boxes[comp_ptr[i]:comp_ptr[i + 1]]
        width = int(comp_width[i])
        if nodes[i] < 0:
            w, s, lo, hi = _count_component_dp(boxes, box_size, box_cons_ptr, box_cons,
                                               cons_value, width)
            dp_used += 1
        else:
            w = weights[w_ptr[i]:w_ptr[i + 1]]
            block = slice(s_ptr[i], s_ptr[i + 1])
            s = mines_in_box[block].reshape(len(boxes), width)
            lo = kmin[block].reshape(len(boxes), width)
            hi = kmax[block].reshape(len(boxes), width)
        scale = w.max()
        if not scale > 0:
            cell = int(np.flatnonzero(box_of == boxes[0])[0])
            raise PositionError(f"no arrangement of mines fits the numbers around "
                                f"{position.where(cell)}")
        comp_w.append(w / scale)
        comp_scale.append(math.log(scale))
        comp_rows.append((boxes, s / scale, lo, hi))

    # weight of each total number of frontier mines m: C(n_off, left - m)
    width = 1 + sum(len(w) - 1 for w in comp_w)
    r = left - np.arange(width)
    bin_ok = (r >= 0) & (r <= n_off)
    if not bin_ok.any():
        raise PositionError(f"{left} mines left cannot be placed: too few or too many for the "
                            "covered cells")
    log_bin = np.full(width, -np.inf)
    log_bin[bin_ok] = _log_comb(n_off, r[bin_ok])
    top = log_bin[bin_ok].max()
    bin_w = np.exp(log_bin - top)                   # 0 where impossible

    prefix, prefix_ok = [np.ones(1)], [np.ones(1, dtype=bool)]
    for w in comp_w:
        prefix.append(np.convolve(prefix[-1], w))
        prefix_ok.append(np.convolve(prefix_ok[-1], w > 0) > 0)
    total, total_ok = prefix[-1], prefix_ok[-1]
    z = float((total * bin_w).sum())
    valid = total_ok & bin_ok
    if not valid.any() or not z > 0:
        raise PositionError("no arrangement of the mines fits this position (the numbers need "
                            f"a number of mines that {left} left cannot give)")
    log_count = sum(comp_scale) + top + math.log(z)

    probs = np.full(len(cells), np.nan)
    probs[cells == FLAGGED] = 1.0
    forced = np.zeros(len(cells), dtype=np.int8)       # 1 safe, 2 mine
    if n_off:
        off_cells = covered & ~frontier
        r_valid = r[valid]
        if (r_valid == 0).all():
            probs[off_cells] = 0.0
            forced[off_cells] = 1
        elif (r_valid == n_off).all():
            probs[off_cells] = 1.0
            forced[off_cells] = 2
        else:
            probs[off_cells] = float((total * bin_w * r).sum() / (n_off * z))

    box_prob = np.zeros(len(box_size))
    box_forced = np.zeros(len(box_size), dtype=np.int8)
    suffix, suffix_ok = [np.ones(1)], [np.ones(1, dtype=bool)]
    for w in reversed(comp_w):
        suffix.append(np.convolve(suffix[-1], w))
        suffix_ok.append(np.convolve(suffix_ok[-1], w > 0) > 0)
    suffix.reverse()
    suffix_ok.reverse()
    for i, (boxes, s, lo, hi) in enumerate(comp_rows):
        others = np.convolve(prefix[i], suffix[i + 1])
        others_ok = np.convolve(prefix_ok[i], suffix_ok[i + 1]) > 0
        # reach[a] = sum_c others[c] * bin_w[a + c]: the weight of the rest of the board
        reach = np.correlate(bin_w, others, mode="valid")
        reach_ok = np.correlate(bin_ok.astype(np.int64), others_ok.astype(np.int64),
                                mode="valid") > 0
        live = reach_ok & (comp_w[i] > 0)
        sizes = box_size[boxes]
        box_prob[boxes] = (s @ reach) / (sizes * z)
        safe_boxes = (hi[:, live] == 0).all(axis=1)
        mine_boxes = (lo[:, live] == sizes[:, None]).all(axis=1)
        box_forced[boxes[safe_boxes]] = 1
        box_forced[boxes[mine_boxes]] = 2
    box_prob[box_forced == 1] = 0.0
    box_prob[box_forced == 2] = 1.0
    front_cells = np.flatnonzero(frontier)
    probs[front_cells] = box_prob[box_of[front_cells]]
    forced[front_cells] = box_forced[box_of[front_cells]]
    return Analysis(position, probs, np.flatnonzero(forced == 1), np.flatnonzero(forced == 2),
                    log_count, frontier, n_comp, dp_used)


_LGAMMA = np.zeros(1)


def _log_comb(n: int, k: np.ndarray) -> np.ndarray:
    """log C(n, k) for integer arrays 0 <= k <= n, from a cached table of log-factorials."""
    global _LGAMMA
    if len(_LGAMMA) <= n:
        _LGAMMA = np.array([math.lgamma(i + 1) for i in range(max(n + 1, 2 * len(_LGAMMA)))])
    return _LGAMMA[n] - _LGAMMA[k] - _LGAMMA[n - k]


def _count_component_dp(boxes, box_size, box_cons_ptr, box_cons, cons_value, width):
    """Exact counting of one component by dynamic programming over its boxes.

    Boxes are taken in order; a state is the tuple of mines still needed by the
    constraints that have seen some but not all of their boxes. Forward vectors (by mines so
    far) meet backward vectors (by mines to come) at each box, which gives W, S and the
    least/most mines per box and total, with exact integers.
    """
    n = len(boxes)
    cons_lists = [list(box_cons[box_cons_ptr[b]:box_cons_ptr[b + 1]]) for b in boxes]
    last = {}
    for i, cl in enumerate(cons_lists):
        for j in cl:
            last[j] = i
    active_after = []
    active = []
    for i, cl in enumerate(cons_lists):
        seen = set(active) | set(cl)
        active = sorted(j for j in seen if last[j] > i)
        active_after.append(tuple(active))

    def step(i, state_before, k):
        keys_before = active_after[i - 1] if i else ()
        need = dict(zip(keys_before, state_before))
        for j in cons_lists[i]:
            need[j] = need.get(j, int(cons_value[j])) - k
            if need[j] < 0:
                return None
            if last[j] == i and need[j] != 0:
                return None
        return tuple(need[j] for j in active_after[i])

    forward = [{(): {0: 1}}]
    for i, b in enumerate(boxes):
        size = int(box_size[b])
        layer: dict = {}
        for state, vec in forward[-1].items():
            for k in range(size + 1):
                nxt = step(i, state, k)
                if nxt is None:
                    continue
                c = math.comb(size, k)
                out = layer.setdefault(nxt, {})
                for m, count in vec.items():
                    out[m + k] = out.get(m + k, 0) + count * c
        forward.append(layer)
    backward = [None] * (n + 1)
    backward[n] = {(): {0: 1}}
    for i in range(n - 1, -1, -1):
        b = boxes[i]
        size = int(box_size[b])
        layer = {}
        for state in forward[i]:
            for k in range(size + 1):
                nxt = step(i, state, k)
                if nxt is None or nxt not in backward[i + 1]:
                    continue
                c = math.comb(size, k)
                out = layer.setdefault(state, {})
                for m, count in backward[i + 1][nxt].items():
                    out[m + k] = out.get(m + k, 0) + count * c
        backward[i] = layer
    w = [0] * width
    for m, count in backward[0].get((), {}).items():
        w[m] += count
    s = [[0] * width for _ in range(n)]
    lo = np.full((n, width), 99, dtype=np.int64)
    hi = np.full((n, width), -1, dtype=np.int64)
    for i, b in enumerate(boxes):
        size = int(box_size[b])
        for state, fvec in forward[i].items():
            for k in range(size + 1):
                nxt = step(i, state, k)
                if nxt is None or nxt not in backward[i + 1]:
                    continue
                c = math.comb(size, k)
                for m1, f in fvec.items():
                    for m2, g in backward[i + 1][nxt].items():
                        m = m1 + k + m2
                        s[i][m] += f * g * c * k
                        lo[i, m] = min(lo[i, m], k)
                        hi[i, m] = max(hi[i, m], k)
    # exact integers -> floats scaled by the largest count, ratios kept to 2**-53
    scale = max(w) if max(w) > 0 else 1
    shift = max(0, scale.bit_length() - 1000)
    w_f = np.array([float(x >> shift) for x in w])
    s_f = np.array([[float(x >> shift) for x in row] for row in s])
    return w_f, s_f, lo, hi
