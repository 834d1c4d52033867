"""Minesweeper boards and positions: presets, the first-click rules, flood fill, winning and
losing, reading and writing positions, and the errors a malformed one gets."""

import numpy as np
import pytest

from deductive.engine.minesweeper import Board, Position, PositionError, analyze, parse_preset
from deductive.errors import DeductiveError


def test_presets_and_custom():
    assert parse_preset("expert") == (16, 30, 99)
    assert parse_preset("beginner8") == (8, 8, 10)
    assert parse_preset("10x12/20") == (10, 12, 20)
    with pytest.raises(DeductiveError, match="ROWSxCOLS/MINES"):
        parse_preset("huge")
    with pytest.raises(DeductiveError, match="mines must be"):
        parse_preset("3x3/9")


@pytest.mark.parametrize("rule", ["safe", "zero"])
def test_first_click_rules_and_seeding(rule):
    for seed in range(30):
        a = Board(9, 9, 10, seed=seed, first_click=rule)
        b = Board(9, 9, 10, seed=seed, first_click=rule)
        assert a.click(40) and b.click(40)
        assert (a.mine == b.mine).all() and a.mine.sum() == 10
        assert not a.mine[40]
        if rule == "zero":
            assert a.numbers[40] == 0 and a.revealed.sum() > 1


def flood_reference(board, start):
    """Breadth-first reveal, written out."""
    seen, todo = {start}, [start]
    while todo:
        cell = todo.pop()
        if board.numbers[cell] == 0:
            for nb in board.nbrs[cell]:
                if nb >= 0 and nb not in seen:
                    seen.add(int(nb))
                    todo.append(int(nb))
    return seen


def test_flood_fill_matches_reference():
    for seed in range(40):
        board = Board(12, 15, 25, seed=seed, first_click="safe")
        board.click(7)
        assert set(np.flatnonzero(board.revealed).tolist()) == flood_reference(board, 7)


def test_win_and_loss():
    board = Board(3, 3, 1, seed=0, first_click="safe")
    board.click(0)
    safe = [k for k in range(9) if not board.mine[k]]
    for k in safe:
        board.click(k)
    assert board.won and not board.lost
    mine = int(np.flatnonzero(board.mine)[0])
    board2 = Board(3, 3, 1, seed=0, first_click="safe")
    board2.click(0)
    assert not board2.click(mine) and board2.lost and not board2.won


# -- positions ------------------------------------------------------------------------------
def test_parse_format_round_trip():
    text = "x1.\n*2x\nxxF"
    position = Position.parse(text, 3)
    assert position.format() == "x1.\n*2x\nxx*"
    assert position.cells.tolist() == [-1, 1, 0, -2, 2, -1, -1, -1, -2]


@pytest.mark.parametrize("text,mines,match", [
    ("xxx\nxx\n", 1, "row 2 has 2 cells but row 1 has 3"),
    ("xxx\nx?x\n", 1, "row 2, column 2: unknown character '?'"),
    ("**x\nxxx\n", 1, "2 flags but only 1 mines"),
    ("4x\nxx\n", 1, "row 1, column 1: 4 is more than its 3 neighbours"),
    ("", 1, "empty position"),
])
def test_bad_positions(text, mines, match):
    with pytest.raises(PositionError, match=match):
        Position.parse(text, mines)


@pytest.mark.parametrize("text,mines,match", [
    ("1*\n*x\n", 3, "row 1, column 1: the 1 has more flagged neighbours"),
    ("3x\nxx\n", 1, "cannot"),
    ("x1x\nxxx\n", 3, "no arrangement"),
])
def test_inconsistent_positions(text, mines, match):
    with pytest.raises(PositionError, match=match):
        analyze(Position.parse(text, mines))
