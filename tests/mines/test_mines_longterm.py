"""Long-term risk (engine/minesweeper/longterm.py): closed pairs and boxes, their tallies
against a brute force over every arrangement, and the players that use them."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.minesweeper import longterm
from deductive.engine.minesweeper.analysis import analyze, log_arrangements
from deductive.engine.minesweeper import parse_preset
from deductive.engine.minesweeper.bench import moves, new_game, run_bench
from deductive.engine.minesweeper.board import Position, PositionError
from deductive.engine.minesweeper.longterm import PAIR, LongTermRisk
from deductive.engine.minesweeper.endgame import endgame_choice
from deductive.engine.minesweeper.players import make_player

from tests import reference
from tests.mines.mines_cases import any_positions
from tests.mines.test_mines_endgame import brute_forceable, endgame_positions


def _risk(position):
    analysis = analyze(position)
    probs = np.where(position.cells == -1, analysis.probabilities, np.inf)
    return LongTermRisk(position, analysis, probs)


@settings(max_examples=100, deadline=None)
@given(endgame_positions())
def test_patterns_and_tallies_match_a_brute_force(position):
    if not brute_forceable(position):
        return
    cells = position.cells.tolist()
    want = {tuple(tiles): enablers for tiles, enablers in
            reference.mines_closed_patterns(position.rows, position.cols, cells)}
    risk = _risk(position)
    got = {}
    for p in np.flatnonzero(risk.ok).tolist():
        tiles = tuple(k for k in risk.tiles[p].tolist() if k >= 0)
        got[tiles] = p
    assert set(got) == set(want)
    saved = longterm.ESTIMATE_FLOOR
    longterm.ESTIMATE_FLOOR = 0.0
    try:
        for tiles, p in got.items():
            enablers = want[tiles]
            assert risk.missing[p] == len(enablers)
            fill, other = ([tiles[0]], [tiles[1]]) if risk.kinds[p] == PAIR else \
                ([tiles[0], tiles[3]], [tiles[1], tiles[2]])
            if len(enablers) + len(fill) > risk.left:
                assert risk.tally(p) == 0.0
                continue
            share = reference.mines_share(position.rows, position.cols, position.mines, cells,
                                          enablers + fill, other)
            assert risk.tally(p) == pytest.approx(float(share), abs=1e-9)
            # closed: the other filling is exactly as likely
            mirror = reference.mines_share(position.rows, position.cols, position.mines,
                                           cells, enablers + other, fill)
            assert mirror == share
        # a pseudo 50/50 is a mine only as the mine of its closed pattern
        pseudo = risk.scan()[0]
        for k in pseudo:
            alone = reference.mines_share(position.rows, position.cols, position.mines, cells,
                                          [k], [])
            assert alone > 0 and float(alone) == pytest.approx(risk.probs[k], abs=1e-9)
            closed = []
            for tiles, p in got.items():
                if k not in tiles:
                    continue
                if risk.kinds[p] == PAIR:
                    fill = [k]
                else:
                    fill = [tiles[0], tiles[3]] if k in (tiles[0], tiles[3]) else \
                        [tiles[1], tiles[2]]
                other = [t for t in tiles if t not in fill]
                closed.append(reference.mines_share(position.rows, position.cols,
                                                    position.mines, cells,
                                                    want[tiles] + fill, other))
            assert alone in closed
    finally:
        longterm.ESTIMATE_FLOOR = saved


def _corner_pseudo():
    """2x3, two mines, one flagged: one mine left among (0,0), (0,2) and (1,2). (0,2) and
    (1,2) are a vertical pair against the right wall and the board's bottom and top: no
    number can split them. (0,0) always shows 1 (dead); (0,2), if safe, shows whether
    (1,2) is the mine: guessing it wins 2/3, guessing (0,0) first 1/3."""
    return Position.parse("""
        x2x
        F2x
    """, 2)


def test_a_pseudo_fifty_fifty_is_found_and_guessed():
    position = _corner_pseudo()
    risk = _risk(position)
    pseudo, fifty, enabler = risk.scan()
    assert pseudo == [2, 5]
    assert fifty[[2, 5]].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert not enabler.any()
    assert risk.influence(0) == 0.0
    assert risk.safety(2, 0.9) == pytest.approx(1 + 0.9 * (1 / 3) / (2 / 3))
    # without the exact endgame (at most one arrangement), the pseudo rule plays (0,2),
    # the exact endgame's choice
    move = make_player("strongest:pseudo=true,endgame=1").decide(position, None)
    assert (move.reveal, move.reason) == ([2], "pseudo 50/50")
    exact = make_player("strongest").decide(position, None)
    assert (exact.reveal, exact.reason) == ([2], "endgame")
    assert exact.win == pytest.approx(2 / 3)


def test_long_term_safety_brings_in_an_enabler_the_exact_endgame_prefers():
    """3x4, seven mines. (0,2) is a mine with probability 2/3, but mostly as the mine of a
    closed pattern or as its enabler; its influence is capped at its safe probability
    (1/3), so its long-term safety is 2/3 and it joins the candidates (the safest cell is
    at 1/2). Long-term safety plays it, as the exact endgame does; without it the
    look-ahead plays (1,0)."""
    position = Position.parse("""
        x3xF
        xxxx
        2Fxx
    """, 7)
    risk = _risk(position)
    assert risk.probs[2] == pytest.approx(2 / 3)
    assert risk.scan()[2][2] == pytest.approx(2 / 9)          # as an enabler
    assert risk.influence(2) == pytest.approx(1 / 3)          # capped
    assert risk.safety(2, 0.9) == pytest.approx(1.9)
    assert endgame_choice(position)[0] == 2
    without = make_player("strongest:endgame=1").decide(position, None)
    assert (without.reveal, without.reason) == ([4], "look-ahead")
    with_ltr = make_player("strongest:ltr=0.9,endgame=1").decide(position, None)
    assert (with_ltr.reveal, with_ltr.reason) == ([2], "look-ahead")
    # with the margin instead of the cut-off, the same cell joins the candidates
    margin = make_player("strongest:ltr=0.9,endgame=1,cutoff=0").decide(position, None)
    assert margin.reveal == [2]


def test_an_enabler_counts_the_tallies_it_closes():
    """3x6, eight mines: (2,3) closes a pattern of tally 0.1 and is in no other."""
    position = Position.parse("""
        xFx2xx
        3xxFxF
        xxxxxx
    """, 8)
    risk = _risk(position)
    assert risk.scan()[2][15] == pytest.approx(0.1)
    assert risk.influence(15) == pytest.approx(0.1)
    assert risk.probs[15] == pytest.approx(0.4)


def test_long_term_options_play_whole_games():
    """With ``ltr`` and ``pseudo`` on, games finish, every guess names a rule of the
    player, and the same seed plays the same games."""
    player = make_player("strongest:ltr=0.9,pseudo=true")
    reasons = set()
    for g in range(8):
        board, rng = new_game(*parse_preset("intermediate"), g, seed=11)
        board.click(0)
        reasons |= {move.reason for _, move in moves(board, player, rng)
                    if move.kind == "guess"}
    assert "look-ahead" in reasons
    assert reasons <= {"endgame", "fifty-fifty", "pseudo 50/50", "far corner", "look-ahead"}
    first = run_bench("intermediate", player, 6, seed=11)
    again = run_bench("intermediate", player, 6, seed=11)
    assert [(r.won, r.decisions) for r in first.records] == \
        [(r.won, r.decisions) for r in again.records]


@pytest.mark.parametrize("spec, word", [("strongest:ltr=2", "ltr=2"),
                                        ("strongest:ltr=-0.5", "ltr=-0.5"),
                                        ("strongest:pseudo=1", "pseudo=1"),
                                        ("strongest:cutoff=true", "cutoff=True")])
def test_bad_option_values_are_named(spec, word):
    from deductive.errors import DeductiveError

    with pytest.raises(DeductiveError, match=word):
        make_player(spec)


@settings(max_examples=200, deadline=None)
@given(any_positions(), st.integers(0, 25))
def test_log_arrangements_is_analyze_log_count(case, mines):
    """The count alone is analyze's count, bit for bit, and fails as analyze does."""
    rows, cols, cells = case
    position = Position(rows, cols, min(mines, rows * cols), cells)
    try:
        want = analyze(position).log_count
    except PositionError as error:
        with pytest.raises(PositionError, match=re.escape(str(error))):
            log_arrangements(position)
        return
    assert log_arrangements(position) == want
