"""Minesweeper benchmarks' setup: the first move, the zero first click and the Wilson
interval of a win rate."""

import pytest

from deductive.engine.minesweeper.bench import (first_move_cell, new_game, run_bench,
                                               wilson_interval)
from deductive.engine.minesweeper.players import make_player
from deductive.errors import DeductiveError


@pytest.mark.parametrize("how,cell", [("corner", 0), ("centre", 8 * 30 + 15), ("center", 255),
                                      ("4,4", 3 * 30 + 3), (" 16 , 30 ", 16 * 30 - 1),
                                      ("1,1", 0)])
def test_first_move_cells(how, cell):
    assert first_move_cell(16, 30, how) == cell


@pytest.mark.parametrize("how,match", [("0,1", "off the 16x30 board"), ("17,1", "rows go from 1"),
                                       ("1,31", "columns from 1 to 30"), ("edge", "ROW,COL"),
                                       ("4;4", "ROW,COL"), ("-1,2", "ROW,COL")])
def test_bad_first_moves_name_the_parameter(how, match):
    with pytest.raises(DeductiveError, match=f"`first_move`.*{match}"):
        first_move_cell(16, 30, how)


def test_zero_first_click_anywhere_opens_a_zero():
    """Hill's modern rules: a first click that opens a 0 at (3,3) from 0, row 4 column 4."""
    result = run_bench("expert", make_player("least-risk"), 6, first_click="zero",
                       first_move="4,4")
    assert result.to_json()["first_move"] == "4,4"
    for g in range(6):
        board, _ = new_game(16, 30, 99, g, first_click="zero")
        board.click(first_move_cell(16, 30, "4,4"))
        assert board.numbers[3 * 30 + 3] == 0 and board.revealed[3 * 30 + 3]
        assert int(board.revealed.sum()) >= 9


def test_wilson_interval():
    lo, hi = wilson_interval(40, 100)
    assert lo == pytest.approx(0.3094, abs=1e-4) and hi == pytest.approx(0.4980, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
