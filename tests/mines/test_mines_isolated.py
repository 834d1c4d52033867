"""Isolated regions (engine/minesweeper/endgame.py): found as a brute force over every
arrangement finds them, independent of the rest of the board when their mine count is
fixed, played exactly by ``strongest:isolated``."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.minesweeper import Position, analyze
from deductive.engine.minesweeper.endgame import (_endgame_arrays, closed_regions,
                                                  isolated_choice)
from deductive.engine.minesweeper.guess_rules import unavoidable_fifty_fifty
from deductive.engine.minesweeper.players import make_player
from deductive.errors import DeductiveError
from deductive.kernels.mines_endgame import enumerate_arrangements

from tests import reference
from tests.mines.test_mines_endgame import brute_forceable, endgame_positions


def _own(position, region, limit=-1):
    """The region's arrangements by its own numbers, any mine count (the kernel)."""
    covered, constraints, _, _, _ = _endgame_arrays(position, region)
    return enumerate_arrangements(len(covered), 0, *constraints, limit, True).astype(bool)


@settings(max_examples=200, deadline=None)
@given(endgame_positions())
def test_closed_regions_match_a_brute_force(position):
    if not brute_forceable(position):
        return
    rows, cols, mines, cells = (position.rows, position.cols, position.mines,
                                position.cells.tolist())
    twin = reference.mines_closed_regions(rows, cols, mines, cells)
    regions = closed_regions(position)
    assert [r.tolist() for r in regions] == [members for members, _, _ in twin]
    covered, sols = reference.mines_enumerate_solutions(rows, cols, mines, cells)
    col = {k: i for i, k in enumerate(covered)}
    expected = None
    for region, (members, counts, product) in zip(regions, twin):
        own = _own(position, region)
        if len(set(own.sum(axis=1).tolist())) != 1:
            continue
        # a fixed count: every arrangement of the region fits every one of the rest
        board = {tuple(row) for row in sols[:, [col[k] for k in members]].tolist()}
        assert board == {tuple(row) for row in own.tolist()}
        assert len(counts) == 1 and product
        if len(own) > 1 and (expected is None or len(members) < len(expected)):
            expected = members
    choice = isolated_choice(position, 10 ** 6)
    if expected is None:
        assert choice is None
        return
    cell, win = reference.mines_endgame_choice(rows, cols, mines, cells, only=expected)
    assert choice == (cell, pytest.approx(win, abs=1e-12))
    # the player plays it once nothing is safe and no shortcut comes first
    forced = analyze(position)
    if not (len(forced.safe) or len(forced.mines)) and unavoidable_fifty_fifty(position) is None:
        player = make_player("strongest:isolated=2000,endgame=1,far_corner=false")
        move = player.decide(position, np.random.default_rng(0))
        assert (move.reveal, move.reason) == ([cell], "isolated region")


@settings(max_examples=100, deadline=None)
@given(endgame_positions(), st.integers(0, 20))
def test_enumeration_limit_and_any_total(position, limit):
    """A limit keeps the first ``limit + 1`` rows; any total lists the arrangements of
    every mine count, in the same depth-first order."""
    covered, constraints, _, _, left = _endgame_arrays(position)
    n = len(covered)
    if n > 14:
        return
    full = enumerate_arrangements(n, left, *constraints)
    capped = enumerate_arrangements(n, left, *constraints, limit)
    assert capped.tolist() == full[:limit + 1].tolist()
    every = enumerate_arrangements(n, 0, *constraints, -1, True)
    rows = sorted(tuple(r) for k in range(n + 1)
                  for r in enumerate_arrangements(n, k, *constraints).tolist())
    assert [tuple(r) for r in every.tolist()] == rows      # depth-first: 0 before 1


# two pairs down the left edge, linked by the 2 between them and closed by numbers and
# flags: four cells, two mines, two ways to place them (from an expert game); the columns
# on the right are off the frontier (the flags say nothing about them)
POCKET = """
23F3Fxxx
FF34Fxxx
xF23Fxxx
x434Fxxx
2FF4Fxxx
x324Fxxx
x102Fxxx
"""


def test_a_closed_region_is_played_exactly_before_the_rest():
    position = Position.parse(POCKET, mines=18)
    regions = closed_regions(position)
    pocket = [16, 24, 40, 48]
    assert [r.tolist() for r in regions] == [pocket]
    own = _own(position, regions[0])
    assert Counter(own.sum(axis=1).tolist()) == {2: 2}
    assert unavoidable_fifty_fifty(position) is None and not len(analyze(position).safe)
    choice = isolated_choice(position, 100)
    cell, win = reference.mines_endgame_choice(position.rows, position.cols, 18,
                                               position.cells.tolist(), only=pocket)
    assert choice == (cell, pytest.approx(win, abs=1e-12)) and cell in pocket
    move = make_player("strongest:isolated=100").decide(position, np.random.default_rng(0))
    assert (move.reveal, move.reason) == ([cell], "isolated region")
    other = make_player("strongest").decide(position, np.random.default_rng(0))
    assert other.reason == "look-ahead" and other.reveal[0] not in pocket
    # a limit below its arrangements leaves it to the usual guess
    assert isolated_choice(position, 2) == choice
    assert isolated_choice(position, 1) is None


# the same, and a pair of cells at the bottom right closed by flags: two isolated regions,
# the smaller one (with the higher cells) first
TWO = """
23F3Fxxx
FF34Fxxx
xF23Fxxx
x434Fxxx
2FF4FFFF
x324FF63
x102FFxx
"""

# numbers around 13 cells that three arrangements fit, with one mine or two: the region's
# count is not fixed (the board's mine total ties it to the rest), so it is not isolated
VARYING = """
2xx3Fxxx
x22xFxxx
222xFxxx
1x2xFxxx
x3xxFxxx
xxx3Fxxx
"""


def test_the_smallest_isolated_region_first_and_a_varying_count_never():
    two = Position.parse(TWO, mines=23)
    assert [r.tolist() for r in closed_regions(two)] == [[16, 24, 40, 48], [54, 55]]
    assert isolated_choice(two, 100) == (54, 0.5)
    varying = Position.parse(VARYING, mines=16)
    (region,) = closed_regions(varying)
    own = _own(varying, region)
    assert len(own) == 3 and len(set(own.sum(axis=1).tolist())) == 2
    assert isolated_choice(varying, 100) is None


@pytest.mark.parametrize("value, shown", [("-1", "-1"), ("1", "1"), ("1.5", "1.5"),
                                          ("true", "True"), ("1000001", "1000001")])
def test_a_bad_isolated_limit_is_named(value, shown):
    with pytest.raises(DeductiveError, match=f"isolated={shown}: use 0 .off. or a whole"):
        make_player(f"strongest:isolated={value}")
