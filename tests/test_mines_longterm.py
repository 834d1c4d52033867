"""Long-term risk (engine/minesweeper/longterm.py): closed pairs and boxes, their tallies
against a brute force over every arrangement, and the players that use them."""

import math

import numpy as np
import pytest
from hypothesis import given, settings

from deductive.engine.minesweeper import longterm
from deductive.engine.minesweeper.analysis import analyze
from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.board import Position, PositionError
from deductive.engine.minesweeper.longterm import PAIR, LongTermRisk
from deductive.engine.minesweeper.players import make_player

from . import reference
from .test_mines_endgame import endgame_positions


def _risk(position):
    analysis = analyze(position)
    probs = np.where(position.cells == -1, analysis.probabilities, np.inf)
    return LongTermRisk(position, analysis, probs)


@settings(max_examples=100, deadline=None)
@given(endgame_positions())
def test_patterns_and_tallies_match_a_brute_force(position):
    try:
        if analyze(position).log_count > math.log(2_000):
            return                      # too many arrangements for the brute force
    except PositionError:
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


def test_long_term_options_off_play_as_strongest():
    """``ltr=0`` and ``pseudo=false`` (the defaults) play as ``strongest``; with them on,
    games finish."""
    def plays(spec):
        result = run_bench("intermediate", make_player(spec), 10, seed=11)
        return [(r.won, r.decisions, r.guesses) for r in result.records]

    base = plays("strongest")
    assert plays("strongest:ltr=0,pseudo=false") == base
    assert len(plays("strongest:ltr=0.9,pseudo=true")) == len(base)
