"""The compiled frontier structure (``kernels/mines_frontier.py``: constraints, boxes,
components) against its twin in ``tests/reference/``."""

import numpy as np
import pytest
from hypothesis import given, settings

from deductive.engine.minesweeper.board import neighbours_of
from deductive.kernels.mines_frontier import OK, frontier_structure

from tests import reference
from tests.mines.mines_cases import EDGE_CASES, any_positions


def kernel_frontier(rows, cols, cells):
    """frontier_structure's result in the twin's terms (constraints numbered row-major),
    after checking its numbering rules: boxes by their first constraint, components by their
    first box."""
    twin = reference.mines_frontier(rows, cols, cells.tolist())
    (status, bad, box_of, box_size, box_comp, ptr, ids, cons_value,
     n_comp) = frontier_structure(cells, neighbours_of(rows, cols))
    if status != OK:
        return ("bad", status, bad)
    assert len(cons_value) == len(twin["need"])
    cell_of = sorted(twin["need"])
    boxes = {}
    for b in range(len(box_size)):
        members = frozenset(np.flatnonzero(box_of == b).tolist())
        assert len(members) == box_size[b] and list(ids[ptr[b]:ptr[b + 1]]) == sorted(
            ids[ptr[b]:ptr[b + 1]])
        boxes[members] = frozenset(cell_of[j] for j in ids[ptr[b]:ptr[b + 1]])
    firsts = [ids[ptr[b]] for b in range(len(box_size))]
    assert firsts == sorted(firsts)
    assert list(dict.fromkeys(box_comp.tolist())) == list(range(n_comp))
    components = {frozenset(np.flatnonzero(np.isin(box_of, np.flatnonzero(box_comp == c)))
                            .tolist()) for c in range(n_comp)}
    return {"need": {cell_of[j]: int(v) for j, v in enumerate(cons_value)}, "boxes": boxes,
            "components": components}


@pytest.mark.parametrize("rows,cols,cells", EDGE_CASES)
def test_frontier_edge_cases(rows, cols, cells):
    cells = np.array(cells, dtype=np.int8)
    assert kernel_frontier(rows, cols, cells) == reference.mines_frontier(rows, cols,
                                                                          cells.tolist())


@settings(max_examples=300, deadline=None)
@given(any_positions())
def test_frontier_structure_matches_twin(case):
    rows, cols, cells = case
    assert kernel_frontier(rows, cols, cells) == reference.mines_frontier(rows, cols,
                                                                          cells.tolist())
