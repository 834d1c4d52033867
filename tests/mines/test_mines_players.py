"""Minesweeper players: the registry and its options, reproducible games, least risk's
guesses, and the guessing rules read from the board's shape (50/50s, the far corner)."""

import numpy as np
import pytest
from hypothesis import given, settings

from deductive.engine.minesweeper import Board, Position, analyze
from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.guess_rules import far_corner, unavoidable_fifty_fifty
from deductive.engine.minesweeper.players import make_player
from deductive.engine.minesweeper.simple import guess_probabilities
from deductive.errors import DeductiveError, UnknownNameError

from tests import reference
from tests.mines.mines_cases import consistent_positions


def test_unknown_player():
    with pytest.raises(UnknownNameError, match="rules-random.*csp-random.*least-risk.*best"):
        make_player("psychic")


@pytest.mark.parametrize("name", ["rules-random", "csp-random", "least-risk", "best",
                                  "strongest"])
def test_players_finish_games_reproducibly(name):
    a = run_bench("beginner8", make_player(name), 12, first_click="zero", first_move="centre")
    b = run_bench("beginner8", make_player(name), 12, first_click="zero", first_move="centre")
    assert [r.won for r in a.records] == [r.won for r in b.records]
    assert [r.decisions for r in a.records] == [r.decisions for r in b.records]
    report = a.to_json()
    assert report["games"] == 12 and 0 <= report["wins"] <= 12
    assert set(report["decisions"]) == {"rules", "forced", "guess"}


def test_player_options_in_the_name():
    player = make_player("best:endgame=400, far_corner=false,margin=0.03")
    assert (player.endgame, player.far_corner, player.margin) == (400, False, 0.03)
    assert player.name == "best:endgame=400,far_corner=false,margin=0.03"
    assert make_player("best").name == "best"
    with pytest.raises(DeductiveError, match="takes no option 'depth'"):
        make_player("best:depth=3")
    with pytest.raises(DeductiveError, match="not OPTION=VALUE"):
        make_player("best:endgame")
    with pytest.raises(DeductiveError, match="not a number, true or false"):
        make_player("best:endgame=lots")


def test_least_risk_never_guesses_when_something_is_forced():
    player = make_player("least-risk")
    for g in range(5):
        board = Board(9, 9, 10, seed=g, first_click="safe")
        rng = np.random.default_rng(g)
        board.click(0)
        while not board.over:
            position = board.position()
            move = player.decide(position, rng)
            if move.kind == "guess":
                a = analyze(position)
                assert not len(a.safe) and not len(a.mines)
                probs = np.where(position.cells == -1, a.probabilities, np.inf)
                assert move.reveal == [int(np.argmin(probs))]
            board.apply(move)


def test_unavoidable_fifty_fifty_examples():
    # the corner pair: one mine, the two cells alike in every constraint
    assert unavoidable_fifty_fifty(Position.parse("1x\n1x", mines=1)) == 1
    # still alike: a later click on the right column sees both cells
    assert unavoidable_fifty_fifty(Position.parse("1xx\n1xx", mines=1)) == 1
    # (2,0) touches only the lower cell: not a 50/50 (here the count even decides it)
    assert unavoidable_fifty_fifty(Position.parse("1x\n1x\n1x", mines=1)) is None
    # the lower cell of the pair has covered neighbours the upper one lacks: a click on
    # the bottom row can tell them apart
    assert unavoidable_fifty_fifty(Position.parse("1xx\n1xx\nxxx", mines=2)) is None


@settings(max_examples=80, deadline=None)
@given(consistent_positions())
def test_unavoidable_fifty_fifty_is_an_even_pair(found):
    """A pair it finds holds exactly one mine in every arrangement, at probability 1/2."""
    (rows, cols, mines, cells), position, a = found
    cell = unavoidable_fifty_fifty(position)
    if cell is None:
        return
    arrangements = reference.mines_arrangements(rows, cols, mines, cells.tolist())
    assert a.probabilities[cell] == pytest.approx(0.5, abs=1e-12)
    share = sum(cell in arr for arr in arrangements) / len(arrangements)
    assert share == pytest.approx(0.5, abs=1e-12)


def test_far_corner_after_a_first_click_without_zero():
    position = Position.parse("1xxxxx\n" + "xxxxxx\n" * 4, mines=5)
    probs = guess_probabilities(position, analyze(position))
    assert far_corner(position, probs) == 4 * 6 + 5          # (4, 5), opposite the click
    move = make_player("best").decide(position, np.random.default_rng(0))
    assert move.kind == "guess" and move.reveal == [29]
    assert make_player("best", far_corner=False).decide(
        position, np.random.default_rng(0)).reveal != [29]
    # a second revealed cell: the rule is over
    later = Position.parse("1xxxxx\nxxxxxx\nxx2xxx\nxxxxxx\nxxxxxx", mines=5)
    assert far_corner(later, guess_probabilities(later, analyze(later))) is None
