"""Minesweeper's exact probabilities and forced cells against brute force, an independent
exact engine (``tests/reference/``), the dynamic-programme fallback and OR-Tools."""

import numpy as np
import pytest
from hypothesis import given, settings

from deductive.engine.minesweeper import Position, PositionError, analyze
from deductive.engine.minesweeper.analysis import NODE_BUDGET
from deductive.engine.minesweeper.players import rule_deductions

from tests import reference
from tests.mines.mines_cases import positions_from_games, small_positions


def test_no_frontier_and_single_cell():
    position = Position.parse("xxx\nxxx\n", 2)
    a = analyze(position)
    assert np.allclose(a.probabilities, 2 / 6) and not len(a.safe)
    position = Position.parse("1x\n11\n", 1)
    a = analyze(position)
    assert a.mines.tolist() == [1] and a.probabilities[1] == 1.0


def test_global_count_forces_cells():
    # the 1 has two candidates; with one mine in all, the far corner is forced safe
    position = Position.parse("x1.\nx1.\nx..\nxxx", 1)
    a = analyze(position)
    exact = reference.mines_brute_force(4, 3, 1, position.cells.tolist())
    for cell, p in exact.items():
        assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-12)
    assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_probabilities_match_brute_force(case):
    rows, cols, mines, cells = case
    try:
        position = Position(rows, cols, mines, cells)
        position.validate()
    except PositionError:
        return
    exact = reference.mines_brute_force(rows, cols, mines, cells.tolist())
    if exact is None:
        with pytest.raises(PositionError):
            analyze(position)
        return
    a = analyze(position)
    for cell, p in exact.items():
        assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-9)
    assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}
    assert set(a.mines.tolist()) == {k for k, p in exact.items() if p == 1}
    safe, mines_found = reference.mines_rule_deductions(rows, cols, cells.tolist())
    assert safe <= set(a.safe.tolist()) and mines_found <= set(a.mines.tolist())
    assert set(rule_deductions(position)[0].tolist()) == safe


@settings(max_examples=60, deadline=None)
@given(small_positions())
def test_dynamic_programme_fallback_matches(case):
    rows, cols, mines, cells = case
    position = Position(rows, cols, mines, cells)
    try:
        fast = analyze(position)
    except PositionError:
        with pytest.raises(PositionError):
            analyze(position, budget=0)
        return
    slow = analyze(position, budget=0)
    assert slow.dp_components == slow.components
    np.testing.assert_allclose(slow.probabilities, fast.probabilities, atol=1e-12)
    assert slow.safe.tolist() == fast.safe.tolist() and slow.mines.tolist() == fast.mines.tolist()


@pytest.mark.parametrize("spec,games,stride,limit", [("beginner", 6, 2, 12),
                                                      ("intermediate", 3, 5, 10),
                                                      ("expert", 2, 12, 8)])
def test_probabilities_match_independent_exact_engine(spec, games, stride, limit):
    positions = positions_from_games(spec, games, stride)[:limit]
    assert positions
    for position in positions:
        a = analyze(position)
        exact = reference.mines_exact_dp(position.rows, position.cols, position.mines,
                                         position.cells.tolist())
        for cell, p in exact.items():
            assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-9)
        assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}
        assert set(a.mines.tolist()) == {k for k, p in exact.items() if p == 1}


def test_large_open_board_does_not_hang():
    # a long row of 1s over a wide covered band: many solutions, still exact and fast
    cols = 60
    text = "\n".join(["x" * cols, "x" * cols, "1" + "1" * (cols - 2) + "1", "." * cols])
    position = Position.parse(text, 40)
    a = analyze(position)
    assert np.isfinite(a.probabilities[:2 * cols]).all()
    slow = analyze(position, budget=0)
    np.testing.assert_allclose(a.probabilities, slow.probabilities, atol=1e-12)
    assert NODE_BUDGET > 0


def test_ortools_cross_check():
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    for position in positions_from_games("beginner", 4, 3)[:12]:
        a = analyze(position)
        covered = position.covered.tolist()
        forced_safe, forced_mine = set(), set()
        for cell in covered:
            for value, bucket in ((1, forced_safe), (0, forced_mine)):
                model = cp_model.CpModel()
                x = {k: model.NewBoolVar(str(k)) for k in covered}
                for unknown, need in reference._mines_constraints(
                        position.rows, position.cols, position.cells.tolist())[2]:
                    if unknown:
                        model.Add(sum(x[k] for k in unknown) == need)
                model.Add(sum(x.values()) == position.mines - position.flags)
                model.Add(x[cell] == value)
                if cp_model.CpSolver().Solve(model) == cp_model.INFEASIBLE:
                    bucket.add(cell)
        assert forced_safe == set(a.safe.tolist()) and forced_mine == set(a.mines.tolist())
