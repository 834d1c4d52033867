"""The compiled exact endgame (``kernels/mines_endgame.py``) against its slow Python twin
(``tests/reference/``): the same arrangements in the same order, the same chosen cell
and the same win probability, to the last bit."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.minesweeper import Board, Position, PositionError, analyze, parse_preset
from deductive.engine.minesweeper.bench import moves, new_game
from deductive.engine.minesweeper.endgame import (_endgame_arrays, endgame_choice,
                                                  enumerate_solutions)
from deductive.engine.minesweeper.players import make_player
from deductive.kernels.mines import mine_counts
from deductive.kernels.mines_endgame import OK, best_click, shown_values

from tests import reference
from tests.mines.mines_cases import consistent_positions


@st.composite
def endgame_positions(draw):
    """A consistent position on a board of up to 6x6 with up to 12 mines: some safe cells
    revealed, some mines flagged, the mine total exact."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(2, 6))
    n = rows * cols
    mines = draw(st.integers(0, min(n - 1, 12)))
    rng = np.random.default_rng(draw(st.integers(0, 10 ** 6)))
    mine = np.zeros(n, dtype=bool)
    mine[rng.choice(n, mines, replace=False)] = True
    board = Board(rows, cols, mines, seed=0, first_click="none")
    numbers = mine_counts(mine, board.nbrs)
    cells = np.full(n, -1, dtype=np.int8)
    reveal = rng.random(n) < draw(st.floats(0.0, 0.9))
    cells[reveal & ~mine] = numbers[reveal & ~mine]
    cells[mine & (rng.random(n) < draw(st.floats(0.0, 0.5)))] = -2
    return Position(rows, cols, mines, cells)


def brute_forceable(position, most: int = 2_000) -> bool:
    """Whether ``position`` is consistent and has at most ``most`` arrangements: few
    enough for the brute forces of ``tests/reference/``."""
    try:
        return analyze(position).log_count <= math.log(most)
    except PositionError:
        return False


def _twin(position):
    """The twin's (cell, win probability); its probability sums floats, the kernel counts
    the arrangements won, so they agree to rounding (1e-12)."""
    cell, win = reference.mines_endgame_choice(position.rows, position.cols, position.mines,
                                               position.cells.tolist())
    return cell, pytest.approx(win, abs=1e-12)


def _check(position):
    covered, sols = enumerate_solutions(position)
    twin_covered, twin_sols = reference.mines_enumerate_solutions(
        position.rows, position.cols, position.mines, position.cells.tolist())
    assert covered == twin_covered
    assert np.array_equal(sols, twin_sols)
    cell, win = endgame_choice(position)
    assert (cell, win) == _twin(position)
    return len(sols)


@settings(max_examples=250, deadline=None)
@given(endgame_positions())
def test_compiled_endgame_is_its_twin(position):
    if not len(position.covered) or math.exp(analyze(position).log_count) > 400:
        return                      # nothing to click, or the twin would be slow
    _check(position)


def test_compiled_endgame_on_positions_from_games():
    """Every position with 2 to 300 arrangements and at most 30 covered cells met in a
    few games (forced cells left in place: the search then reveals them first)."""
    player, checked = make_player("best"), 0
    for spec, games in (("beginner", 12), ("intermediate", 3), ("expert", 3)):
        for g in range(games):
            board, rng = new_game(*parse_preset(spec), g, seed=11)
            board.click(0)
            for position, move in moves(board, player, rng):
                if (len(position.covered) <= 30
                        and analyze(position).log_count <= math.log(300)):
                    checked += _check(position) > 1
    assert checked >= 20


def test_one_arrangement_or_everything_determined():
    # one arrangement: the lowest covered cell that is safe in it, won for sure
    position = Position.parse("1x\n1x\n11", mines=1)
    assert enumerate_solutions(position)[1].shape == (1, 2)
    assert endgame_choice(position) == (1, 1.0) == _twin(position)
    # no covered cell is safe (every one a mine)
    position = Position.parse("2x\nx2", mines=2)
    assert endgame_choice(position) == (1, 1.0) == _twin(position)


def test_no_safe_cell_and_no_information():
    # the corner 50/50: neither cell tells anything, both are a mine half the time
    position = Position.parse("1x\n1x", mines=1)
    assert endgame_choice(position) == (1, 0.5) == _twin(position)
    # a row of three, one mine: an end cell survives 2/3 and its number then tells the
    # other two apart; the middle one survives 2/3 but always shows 1 (then a 50/50)
    position = Position.parse("xxx", mines=1)
    cell, win = endgame_choice(position)
    assert (cell, win) == _twin(position) and (cell, win) == (0, pytest.approx(2 / 3))


def test_free_cell_is_revealed_first_inside_the_search():
    """A cell safe in every arrangement is not a guess the search weighs against others,
    and opening it never lowers the value: the search's value with it equals the value
    after it is revealed (here it shows a number that settles the rest)."""
    position = Position.parse("x1x\nxxx", mines=1)
    assert endgame_choice(position) == _twin(position)


def test_search_reports_its_states_and_status():
    position = Position.parse("xxxxx\nx1x1x", mines=2)
    covered, _, (adj_ptr, adj), flags, _ = _endgame_arrays(position)
    _, sols = enumerate_solutions(position)
    cell, wins, states, status = best_click(shown_values(sols.astype(np.uint8), adj_ptr,
                                                         adj, flags))
    assert status == OK and states >= 1
    assert (covered[cell], wins / len(sols)) == _twin(position)


def test_inconsistent_position_has_no_arrangement():
    position = Position(2, 2, 1, np.array([2, -1, -1, -1], np.int8))
    assert enumerate_solutions(position)[1].shape == (0, 3)


@settings(max_examples=60, deadline=None)
@given(endgame_positions())
def test_cascades_change_no_value(position):
    """The real game opens a 0's neighbours by itself; the search does not model that, but
    it reveals every cell that is safe in all remaining arrangements before any risky
    click, which is all a cascade opens: the win probability with cascades (brute force)
    is the search's."""
    if (not len(position.covered) or len(position.covered) > 9
            or math.exp(analyze(position).log_count) > 40):
        return
    args = position.rows, position.cols, position.mines, position.cells.tolist()
    assert endgame_choice(position)[1] == pytest.approx(
        reference.mines_best_win(*args, cascades=True), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(consistent_positions())
def test_enumerated_solutions_and_endgame_search(found):
    (rows, cols, mines, cells), position, a = found
    covered, sols = enumerate_solutions(position)
    expected = reference.mines_arrangements(rows, cols, mines, cells.tolist())
    got = {frozenset(c for c, x in zip(covered, row) if x) for row in sols}
    assert got == set(expected)
    assert len(sols) == pytest.approx(np.exp(a.log_count), rel=1e-9)
    if len(covered) <= 9 and 1 < len(expected) <= 40:
        cell, win = endgame_choice(position)
        assert win == pytest.approx(reference.mines_best_win(rows, cols, mines, cells.tolist()),
                                    abs=1e-12)
        assert cell in covered
