"""No-guess boards: the rules kernel against its twin, the no-guess test against a brute
force, uniformity of the uniform mode on a board small enough to enumerate, and the CLI."""

import itertools
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.cli import cli
from deductive.engine.minesweeper.board import neighbours_of
from deductive.engine.minesweeper.generate import (generate_boards, is_no_guess,
                                                   verify_no_guess)
from deductive.errors import DeductiveError
from deductive.kernels.mines import mine_counts
from deductive.kernels.mines_generate import frontier_mask, rules_closure
from tests import reference


@st.composite
def small_boards(draw, max_side=6):
    """(rows, cols, mine mask, a safe first cell)."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(2, max_side))
    n = rows * cols
    mines = draw(st.integers(0, n - 1))
    rng = np.random.default_rng(draw(st.integers(0, 10 ** 6)))
    mine = np.zeros(n, dtype=bool)
    mine[rng.choice(n, size=mines, replace=False)] = True
    first = int(rng.choice(np.flatnonzero(~mine)))
    return rows, cols, mine, first


@st.composite
def partial_states(draw):
    """A board, the cells opened from its first click and some of its mines flagged."""
    rows, cols, mine, first = draw(small_boards())
    numbers = mine_counts(mine, neighbours_of(rows, cols))
    revealed, flagged = set(), {int(k) for k in np.flatnonzero(mine)
                                if draw(st.booleans())}
    reference._mines_open(rows, cols, numbers.tolist(), revealed, flagged, first)
    return rows, cols, mine, numbers, revealed, flagged


def _masks(n, revealed, flagged):
    r, f = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    r[list(revealed)], f[list(flagged)] = True, True
    return r, f


@settings(max_examples=300, deadline=None)
@given(partial_states())
def test_rules_closure_matches_twin(state):
    rows, cols, mine, numbers, revealed, flagged = state
    r, f = _masks(rows * cols, revealed, flagged)
    before = int(r.sum() + f.sum())
    done = rules_closure(numbers, r, f, neighbours_of(rows, cols))
    want_r, want_f = reference.mines_rules_closure(rows, cols, numbers.tolist(), revealed,
                                                   flagged)
    assert set(np.flatnonzero(r).tolist()) == want_r
    assert set(np.flatnonzero(f).tolist()) == want_f
    assert done == len(want_r) + len(want_f) - before
    assert not (r & mine).any() and not (f & ~mine).any()        # sound


@settings(max_examples=200, deadline=None)
@given(partial_states())
def test_frontier_mask_matches_twin(state):
    rows, cols, _, _, revealed, flagged = state
    r, f = _masks(rows * cols, revealed, flagged)
    got = frontier_mask(r, f, neighbours_of(rows, cols))
    assert set(np.flatnonzero(got).tolist()) == reference.mines_frontier_cells(rows, cols,
                                                                                revealed, flagged)


def test_rules_closure_degenerate():
    # Nothing revealed: nothing to do. A board without mines opens whole from any cell.
    nbrs = neighbours_of(3, 3)
    numbers = np.zeros(9, dtype=np.int8)
    r, f = np.zeros(9, dtype=bool), np.zeros(9, dtype=bool)
    assert rules_closure(numbers, r, f, nbrs) == 0 and not r.any()
    assert is_no_guess(3, 3, np.zeros(9, dtype=bool), 4)
    # A 1x2 board with one mine: the other cell shows 1 and the global count decides.
    assert is_no_guess(1, 2, np.array([True, False]), 1)


@settings(max_examples=120, deadline=None)
@given(small_boards(max_side=4))
def test_no_guess_matches_brute_force(board):
    rows, cols, mine, first = board
    want = reference.mines_no_guess(rows, cols, np.flatnonzero(mine).tolist(), first)
    assert is_no_guess(rows, cols, mine, first) == want
    assert verify_no_guess(rows, cols, mine, first) == want


def test_a_first_click_on_a_mine_is_no_board():
    mine = np.zeros(9, dtype=bool)
    mine[0] = True
    assert not is_no_guess(3, 3, mine, 0) and not verify_no_guess(3, 3, mine, 0)


def _no_guess_set(rows, cols, mines, first, allowed):
    """Every board (a tuple of mine cells) with that many mines among ``allowed`` cells that
    the brute force clears from ``first`` without a guess."""
    return {combo for combo in itertools.combinations(allowed, mines)
            if reference.mines_no_guess(rows, cols, combo, first)}


def test_uniform_mode_is_uniform_over_every_no_guess_board():
    # 3x4 with 3 mines, a safe first click in the corner: 165 boards, enumerated.
    rows, cols, mines, first = 3, 4, 3, 0
    allowed = [k for k in range(rows * cols) if k != first]
    boards = _no_guess_set(rows, cols, mines, first, allowed)
    assert 10 < len(boards) < math.comb(len(allowed), mines)
    n = 40 * len(boards)
    result = generate_boards(f"{rows}x{cols}/{mines}", first_click="safe", first_move="corner",
                             count=n, seed=7, no_guess="uniform")
    counts = {b: 0 for b in boards}
    for b in result.boards:
        counts[b.mine_cells] += 1            # a KeyError would be a board that needs a guess
    expected = n / len(boards)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    df = len(boards) - 1
    # Wilson-Hilferty: chi2 / df is about normal with mean 1 - 2/(9 df); 4 sigma is rare.
    z = ((chi2 / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    assert abs(z) < 4, (chi2, df)
    assert min(counts.values()) > 0
    # The share of no-guess boards, estimated by the draws, is about the enumerated one.
    share = len(boards) / math.comb(len(allowed), mines)
    assert result.to_json()["no_guess_share"] == pytest.approx(share, rel=0.1)


def test_zero_rule_keeps_the_block_free_and_boards_are_reproducible():
    a = generate_boards("intermediate", first_click="zero", first_move="8,8", count=3, seed=5)
    b = generate_boards("intermediate", first_click="zero", first_move="8,8", count=2, seed=5)
    assert [x.mine_cells for x in a.boards[:2]] == [x.mine_cells for x in b.boards]
    nbrs = neighbours_of(16, 16)
    first = 7 * 16 + 7
    for board in a.boards:
        assert len(board.mine_cells) == 40 and board.verified
        assert not {first, *nbrs[first][nbrs[first] >= 0]} & set(board.mine_cells)
        mine = np.zeros(256, dtype=bool)
        mine[list(board.mine_cells)] = True
        assert is_no_guess(16, 16, mine, first)


@pytest.mark.parametrize("mode", ["fast", "uniform"])
def test_expert_boards_in_both_modes(mode):
    result = generate_boards("expert", first_move="8,15", count=2, seed=3, no_guess=mode)
    doc = result.to_json()
    assert doc["count"] == 2 and doc["mode"] == mode and doc["draws"] >= 2
    for board in doc["boards"]:
        assert board["verified"] and len(board["mines"]) == 99
        assert sum(row.count("*") for row in board["grid"]) == 99
        assert board["grid"][7][14] == "o"


def test_bad_settings_and_exhausted_draws():
    with pytest.raises(DeductiveError, match="no_guess"):
        generate_boards("beginner", no_guess="slow")
    with pytest.raises(DeductiveError, match="do not fit"):
        generate_boards("3x3/2", first_click="zero", first_move="2,2")
    # 2x2 with 1 mine, a safe corner: the corner shows 1 and three cells are equally likely.
    with pytest.raises(DeductiveError, match="no no-guess board found in 50 draws"):
        generate_boards("2x2/1", first_click="safe", first_move="corner", no_guess="uniform",
                        max_draws=50)


def run(*args):
    return CliRunner().invoke(cli, ["mines", "generate", *map(str, args)])


def test_cli_generate_text_and_json():
    out = run("--preset", "beginner", "--first-move", "5,5", "--count", 2, "--seed", 1)
    assert out.exit_code == 0, out.output
    assert out.output.startswith("2 no-guess board(s), 9x9/10, first click zero at row 5, "
                                 "column 5, fast mode, seed 1")
    assert out.output.count("board ") == 2
    out = run("--preset", "beginner", "--first-click", "safe", "--first-move", "corner",
              "--no-guess", "uniform", "--json")
    doc = json.loads(out.output)
    assert out.exit_code == 0 and doc["count"] == 1 and doc["boards"][0]["verified"]
    assert doc["version"] and doc["mode"] == "uniform"


@pytest.mark.parametrize("args, message", [
    (("--no-guess", "slow"), "'slow' is not one of"),
    (("--first-move", "99,1"), "--first-move '99,1' is off the 16x30 board"),
    (("--count", 0), "--count"),
    (("--preset", "3x3/8"), "8 mines do not fit on a 3x3 board"),
])
def test_cli_generate_bad_input(args, message):
    out = CliRunner().invoke(cli, ["mines", "generate", *map(str, args)])
    assert out.exit_code == 2
    assert message in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


@settings(max_examples=300, deadline=None)
@given(partial_states())
def test_subset_moves_match_twin(state):
    from deductive.kernels.mines_generate import subset_moves

    rows, cols, mine, numbers, revealed, flagged = state
    r, f = _masks(rows * cols, revealed, flagged)
    safe, mines = subset_moves(numbers, r, f, neighbours_of(rows, cols), rows, cols)
    cells = reference._mines_cells(rows, cols, numbers.tolist(), revealed, flagged)
    want_safe, want_mines = reference.mines_subset_deductions(rows, cols, cells)
    assert set(np.flatnonzero(safe).tolist()) == want_safe
    assert set(np.flatnonzero(mines).tolist()) == want_mines
    assert not (safe & mine).any() and not (mines & ~mine).any()     # sound


def test_subset_rule_on_a_one_one_pattern():
    # 2x3: three covered cells over a 1, a 2 and a flag. The 1 needs one mine in the first
    # two cells; the 2 needs one more (besides the flag) among all three, so the third
    # cell is safe. The local rules alone prove nothing here.
    from deductive.kernels.mines_generate import subset_moves

    cells = np.array([-1, -1, -1, 1, 2, -2], dtype=np.int8)
    revealed, flagged = cells >= 0, cells == -2
    numbers = np.where(revealed, cells, 0).astype(np.int8)
    safe, mines = subset_moves(numbers, revealed, flagged, neighbours_of(2, 3), 2, 3)
    assert np.flatnonzero(safe).tolist() == [2] and not mines.any()
    assert reference.mines_rule_deductions(2, 3, cells.tolist()) == (set(), set())


@pytest.mark.parametrize("game_id, rows, cols, mines", [
    # Printed by Debian's sgt-mines 20230122 (--generate 1 9x9n10 and 30x16n99).
    ("9x9:3,6,mcf6180d29d544e23939b8", 9, 9, 10),
    ("30x16:29,7,mc86750d7b752b714616f88c12341ce7e88e8141a66a846c06c743dd89007ee79398c5c2ffe"
     "fbd780718de84cb2196a21de3b1d083bdbaf7c7cd2e63a", 16, 30, 99),
])
def test_tatham_ids_decode_to_no_guess_boards(game_id, rows, cols, mines):
    from benchmarks.mines_generate import decode_tatham

    r, c, start, mine = decode_tatham(game_id)
    nbrs = neighbours_of(rows, cols)
    assert (r, c) == (rows, cols) and mine.sum() == mines
    assert not mine[start] and not mine[nbrs[start][nbrs[start] >= 0]].any()
    assert is_no_guess(rows, cols, mine, start) and verify_no_guess(rows, cols, mine, start)
