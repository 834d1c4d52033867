"""The compiled count of each frontier component (``kernels/mines_count.py``) against its
twin's exact counts in ``tests/reference/``."""

import numpy as np
import pytest
from hypothesis import given, settings

from deductive.engine.minesweeper.analysis import _BINOM
from deductive.engine.minesweeper.board import neighbours_of
from deductive.kernels.mines_count import count_all, count_component
from deductive.kernels.mines_frontier import OK, frontier_structure

from tests import reference
from tests.mines.mines_cases import EDGE_CASES, any_positions


def check_component_counts(rows, cols, cells):
    """count_all, and count_component with the boxes in another order, equal the twin's
    exact counts on every component (integers well inside the float's exact range)."""
    (status, _, box_of, box_size, box_comp, ptr, ids, cons_value,
     n_comp) = frontier_structure(cells, neighbours_of(rows, cols))
    if status != OK:
        return
    (comp_ptr, comp_boxes, comp_width, w_ptr, weights, s_ptr, mines_in_box, kmin, kmax,
     nodes) = count_all(box_size, box_comp, ptr, ids, cons_value, n_comp, _BINOM, 10 ** 9)
    for i in range(n_comp):
        order = comp_boxes[comp_ptr[i]:comp_ptr[i + 1]]
        width = comp_width[i]
        block = slice(s_ptr[i], s_ptr[i + 1])
        results = [(weights[w_ptr[i]:w_ptr[i + 1]], mines_in_box[block].reshape(-1, width),
                    kmin[block].reshape(-1, width), kmax[block].reshape(-1, width), order)]
        shuffled = order[::-1].copy()
        w, s = np.zeros(width), np.zeros((len(order), width))
        lo = np.full((len(order), width), 99, np.int64)
        hi = np.full((len(order), width), -1, np.int64)
        assert count_component(shuffled, box_size, ptr, ids, cons_value, _BINOM, 10 ** 9,
                               w, s, lo, hi) >= 0
        results.append((w, s, lo, hi, shuffled))
        box_cells = [frozenset(np.flatnonzero(box_of == b).tolist()) for b in order]
        W, S, least, most = reference.mines_component_counts(
            rows, cols, cells.tolist(), frozenset().union(*box_cells))
        assert nodes[i] >= 0 and width == sum(len(b) for b in box_cells) + 1
        for w, s, lo, hi, boxes in results:
            assert w.tolist() == [W[m] for m in range(width)]
            for k, b in enumerate(boxes):
                cells_b = frozenset(np.flatnonzero(box_of == b).tolist())
                assert s[k].tolist() == [S[cells_b][m] for m in range(width)]
                assert lo[k].tolist() == [least[cells_b].get(m, 99) for m in range(width)]
                assert hi[k].tolist() == [most[cells_b].get(m, -1) for m in range(width)]


@pytest.mark.parametrize("rows,cols,cells", EDGE_CASES)
def test_component_counts_edge_cases(rows, cols, cells):
    check_component_counts(rows, cols, np.array(cells, dtype=np.int8))


@settings(max_examples=150, deadline=None)
@given(any_positions())
def test_component_counts_match_twin(case):
    check_component_counts(*case)
