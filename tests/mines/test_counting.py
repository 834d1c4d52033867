"""Minesweeper engine at any size: exact combination of components, the tree-decomposition
count of big components, its budgets, and the positions the engine once got wrong."""

import os
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deductive.cli import cli
from deductive.engine.minesweeper import Position, PositionError, analyze
from deductive.engine.minesweeper.counting import CountingBudgetError
from deductive.engine.minesweeper.families import FAMILIES, hard_position

from tests import reference

ROOT = Path(__file__).resolve().parents[2]


def mines_data() -> Path:
    env = os.environ.get("DEDUCTIVE_SHARED_DATA")
    for base in ([Path(env)] if env else []) + [ROOT.parent / "shared" / "data"]:
        if (base / "mines").is_dir():
            return base / "mines"
    pytest.skip("../shared/data/mines is absent (set DEDUCTIVE_SHARED_DATA)")


def load(name, mines):
    return Position.parse((mines_data() / name).read_text(), mines)


def assert_matches_reference(position, analysis, tol=1e-9):
    exact = reference.mines_by_components(position.rows, position.cols, position.mines,
                                          position.cells.tolist())
    assert exact is not None
    got = analysis.probabilities
    worst = max(abs(got[k] - float(p)) for k, p in exact.items())
    assert worst <= tol
    assert set(analysis.safe.tolist()) == {k for k, p in exact.items() if p == 0}
    assert set(analysis.mines.tolist()) == {k for k, p in exact.items() if p == 1}


def assert_expected_mines(position, analysis):
    """The probabilities of the covered cells add up to the mines left, exactly."""
    covered = position.cells == -1
    left = position.mines - position.flags
    assert analysis.probabilities[covered].sum() == pytest.approx(left, rel=1e-10, abs=1e-9)


# -- the positions of ../shared/data/mines ---------------------------------------------------
def test_underflow_position_is_exact():
    position = load("underflow-90x90-972.txt", 972)
    a = analyze(position)
    for r, c in [(52, 49), (52, 51), (52, 52), (52, 54), (42, 63)]:
        assert a.probabilities[(r - 1) * position.cols + c - 1] == pytest.approx(0.5, abs=1e-12)
    assert_expected_mines(position, a)
    slow = analyze(position, budget=0)
    np.testing.assert_allclose(slow.probabilities, a.probabilities, atol=1e-12)


def test_false_reject_position_is_consistent():
    position = load("false-reject-100x100-1500.txt", 1500)
    a = analyze(position)
    assert_expected_mines(position, a)
    slow = analyze(position, budget=0)
    np.testing.assert_allclose(slow.probabilities, a.probabilities, atol=1e-12)
    assert slow.safe.tolist() == a.safe.tolist() and slow.mines.tolist() == a.mines.tolist()


def test_memory_position_finishes_within_budget():
    position = load("memory-40x40-320.txt", 320)
    a = analyze(position, max_memory=1 << 30)
    assert a.dp_components >= 1
    assert_expected_mines(position, a)
    slow = analyze(position, budget=0, max_memory=1 << 30)
    np.testing.assert_allclose(slow.probabilities, a.probabilities, atol=1e-12)


# -- generated large positions against the integer reference ---------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(20, 70), density=st.floats(0.01, 0.03), flags=st.sampled_from([0, 0.5]),
       mine_share=st.floats(0.1, 0.3), seed=st.integers(0, 10**6))
def test_scattered_positions_match_integer_reference(size, density, flags, mine_share, seed):
    mines = int(size * size * mine_share)
    position = hard_position("scatter", size, size, mines, density=density, flags=flags,
                             seed=seed)
    try:
        exact = reference.mines_by_components(position.rows, position.cols, position.mines,
                                              position.cells.tolist())
    except ValueError:
        assume(False)       # a component too large for the enumerating twin (> 40 cells)
    try:
        a = analyze(position)
    except PositionError:
        assert exact is None
        return
    assert_matches_reference(position, a)
    assert_expected_mines(position, a)


@pytest.mark.parametrize("flags", [0.0, 0.5])
@pytest.mark.parametrize("size, mines", [
    (120, 3_600),                       # counts near 10**3500: far past a double's range
    pytest.param(200, 10_000, marks=pytest.mark.slow)])    # the integer twin takes minutes
def test_large_board_matches_integer_reference(size, mines, flags):
    position = hard_position("scatter", size, size, mines, density=0.004, flags=flags, seed=7)
    a = analyze(position)
    assert_matches_reference(position, a)
    assert_expected_mines(position, a)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("flags", [0.0, 0.4])
def test_tree_count_equals_enumeration(family, flags):
    # every component through the tree decomposition (budget=0) against the backtracker
    position = hard_position(family, 14, 14, 30, density=0.2, flags=flags, seed=3)
    fast = analyze(position, budget=10**8)
    slow = analyze(position, budget=0)
    assert slow.dp_components == slow.components
    np.testing.assert_allclose(slow.probabilities, fast.probabilities, atol=1e-12)
    assert slow.safe.tolist() == fast.safe.tolist() and slow.mines.tolist() == fast.mines.tolist()
    assert slow.log_count == pytest.approx(fast.log_count, rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(rows=st.integers(2, 6), cols=st.integers(2, 6), seed=st.integers(0, 10**6),
       family=st.sampled_from(FAMILIES), flags=st.sampled_from([0, 0.5]))
def test_tree_count_equals_brute_force_on_small_boards(rows, cols, seed, family, flags):
    n = rows * cols
    rng = np.random.default_rng(seed)
    try:
        position = hard_position(family, rows, cols, int(rng.integers(1, max(2, n // 3))),
                                 density=0.4, flags=flags, seed=seed)
    except ValueError:
        return                           # more mines than the family leaves covered
    exact = reference.mines_brute_force(rows, cols, position.mines, position.cells.tolist())
    a = analyze(position, budget=0)
    for cell, p in exact.items():
        assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-12)
    assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}
    assert set(a.mines.tolist()) == {k for k, p in exact.items() if p == 1}


def test_generated_positions_are_seeded_and_consistent():
    a = hard_position("islands", 30, 30, 100, density=0.2, flags=0.5, seed=11)
    b = hard_position("islands", 30, 30, 100, density=0.2, flags=0.5, seed=11)
    assert (a.cells == b.cells).all()
    a.validate()
    with pytest.raises(ValueError, match="family"):
        hard_position("spiral", 9, 9, 10)


# -- budgets ---------------------------------------------------------------------------------
def test_memory_budget_stops_cleanly():
    position = hard_position("lattice", 24, 24, 120, seed=0)
    with pytest.raises(CountingBudgetError, match="tree width .*memory budget.*`max_memory`"):
        analyze(position, max_memory=4 << 20)


def test_work_budget_stops_cleanly(monkeypatch):
    from deductive.engine.minesweeper import analysis

    monkeypatch.setattr(analysis, "STEP_BUDGET", 10_000)
    position = hard_position("lattice", 16, 16, 40, seed=0)
    with pytest.raises(CountingBudgetError, match="steps of work"):
        analyze(position, budget=0)


def test_cli_budget_error_is_one_line(tmp_path):
    path = tmp_path / "lattice.txt"
    path.write_text(hard_position("lattice", 24, 24, 120, seed=0).format())
    result = CliRunner().invoke(cli, ["mines", "probs", str(path), "--mines", "120",
                                       "--max-memory", "4M"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "--max-memory" in lines[0]
