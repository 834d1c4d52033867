"""The ``strongest`` Minesweeper player: each refinement switchable, ``best`` when all are
off, and the properties each one promises, checked against exhaustive enumeration."""

import numpy as np
import pytest

from deductive.engine.minesweeper import Position, analyze, parse_preset
from deductive.engine.minesweeper.bench import moves, new_game, run_bench
from deductive.engine.minesweeper.board import COVERED, neighbours_of
from deductive.engine.minesweeper.endgame import enumerate_solutions
from deductive.engine.minesweeper.guess_rules import unavoidable_fifty_fifty
from deductive.engine.minesweeper.players import make_player


def _guess_positions(spec, games, seed=3):
    """The positions at which ``best`` guesses (exact endgame included) in a few games."""
    player, found = make_player("best"), []
    for g in range(games):
        board, rng = new_game(*parse_preset(spec), g, seed=seed)
        board.click(0)
        found += [position for position, move in moves(board, player, rng)
                  if move.kind == "guess"]
    return found


def test_all_refinements_off_is_best():
    off = "strongest:cutoff=0,mix=0,fifty_penalty=0,dominance=false"
    for spec in ("beginner", "expert"):
        a = run_bench(spec, make_player("best"), 25, seed=41)
        b = run_bench(spec, make_player(off), 25, seed=41)
        assert [r.won for r in a.records] == [r.won for r in b.records]
        assert [r.decisions for r in a.records] == [r.decisions for r in b.records]
    assert b.player == off


def test_relative_cutoff_pool():
    """Every frontier cell at least 0.9x as safe as the safest, at most 3 cells off the
    frontier (the fewest covered neighbours first), at most ``candidates`` in all."""
    player = make_player("strongest")
    for position in _guess_positions("expert", 4)[:12]:
        a = analyze(position)
        probs = np.where(position.cells == COVERED, np.round(a.probabilities, 12), np.inf)
        nbrs = neighbours_of(position.rows, position.cols)
        pool = player._pool(position, probs, nbrs)
        safest = 1 - probs.min()
        assert all(1 - probs[k] >= 0.9 * safest - 1e-9 for k in pool)
        off = [k for k in pool if not a.frontier[k]]
        assert len(off) <= 3 and len(pool) <= 10
        eligible = [k for k in np.flatnonzero(a.frontier)
                    if position.cells[k] == COVERED and 1 - probs[k] >= 0.9 * safest + 1e-9]
        if len(eligible) + len(off) <= 10:
            assert set(eligible) <= set(pool)


def test_dominance_swap_is_safer_and_safe_whenever_the_choice_is():
    """Checked on every arrangement, for every candidate of positions where ``best``
    guesses: the swapped-in cell is a mine only where the cell it replaces is one, and
    strictly less often."""
    player = make_player("strongest:dominance=true")
    swaps = 0
    for position in _guess_positions("beginner", 60) + [Position.parse(DOMINANCE, 9)]:
        a = analyze(position)
        if a.log_count > np.log(5000):
            continue                      # keep the enumeration small
        probs = np.where(position.cells == COVERED, np.round(a.probabilities, 12), np.inf)
        nbrs = neighbours_of(position.rows, position.cols)
        covered, sols = enumerate_solutions(position)
        col = {k: i for i, k in enumerate(covered)}
        for cell in position.covered:
            other = player.dominating(position, int(cell), probs, nbrs)
            if other == cell:
                continue
            swaps += 1
            mine_new, mine_old = sols[:, col[other]], sols[:, col[int(cell)]]
            assert not (mine_new & ~mine_old).any()
            assert mine_new.sum() < mine_old.sum()
    assert swaps >= 1


# found by a random search: several cells at 2/3 are each dominated by a cell at 1/3
DOMINANCE = "xxx2\nxxxx\n233x\n12x2\nxxxx"


def test_fifty_fifty_near_a_cell_is_a_fifty_fifty():
    position = Position.parse("1xx\n1xx\nxxx", mines=2)
    assert unavoidable_fifty_fifty(position, around=8) is None
    pair = Position.parse("x1...\nx1...", mines=1)
    assert unavoidable_fifty_fifty(pair) == 0
    assert unavoidable_fifty_fifty(pair, around=1) == 0
    assert unavoidable_fifty_fifty(pair, around=4) is None      # the 1s are 3 columns away
    # a cell known safe (about to open) is a revealed neighbour of both: the 1 then needs
    # one mine in exactly two alike cells
    ahead = Position.parse("1xx\nxxx", mines=2)
    opened = np.zeros(6, dtype=bool)
    opened[3] = True
    assert unavoidable_fifty_fifty(ahead) is None
    assert unavoidable_fifty_fifty(ahead, opened=opened) == 1
    for position in _guess_positions("beginner", 20)[:30]:
        for cell in np.flatnonzero(position.cells >= 0)[::7]:
            near = unavoidable_fifty_fifty(position, around=int(cell))
            if near is not None:
                assert unavoidable_fifty_fifty(position) is not None


@pytest.mark.parametrize("options", ["mix=1", "fifty_penalty=1", "cutoff=0.8,off_frontier=1",
                                     "dominance=true", "candidates=20", "corners=3",
                                     "near_off=4"])
def test_each_refinement_plays_reproducible_games(options):
    a = run_bench("beginner", make_player(f"strongest:{options}"), 10, seed=9)
    b = run_bench("beginner", make_player(f"strongest:{options}"), 10, seed=9)
    assert [r.won for r in a.records] == [r.won for r in b.records]
    assert sum(r.decisions["guess"] for r in a.records) == sum(r.guesses for r in b.records)


def test_open_corner_while_no_zero_is_open():
    """The covered corner off the frontier farthest from the numbers, only while every
    revealed cell is a number, at most ``most`` of them, and within the limit."""
    from deductive.engine.minesweeper.guess_rules import open_corner

    nbrs = neighbours_of(5, 6)
    position = Position.parse("1xxxxx\nxxxxxx\nxxxxxx\nxxxxxx\nxxxxx2", mines=6)
    probs = np.full(30, 0.2)
    assert open_corner(position, probs, nbrs, 3, 0.25) == 5          # (0, 5): 25 > 16
    assert open_corner(position, probs, nbrs, 1, 0.25) is None       # two numbers revealed
    assert open_corner(position, probs, nbrs, 3, 0.1) is None        # not safe enough
    zero = Position.parse("0xxxxx\nxxxxxx\nxxxxxx\nxxxxxx\nxxxxxx", mines=6)
    assert open_corner(zero, probs, nbrs, 3, 0.25) is None
    blank = Position.parse("xxxxxx\nxxxxxx\nxxxxxx\nxxxxxx\nxxxxxx", mines=6)
    assert open_corner(blank, probs, nbrs, 3, 0.25) is None
    # without the cut-off the limit is the margin's: a risky corner is not played
    player = make_player("strongest:cutoff=0,corners=3")
    risky = Position.parse("1xxxxx\nxxxxxx\nxxxxxx\nxxxxxx\nxxxxx2", mines=25)
    a = analyze(risky)
    probs = np.where(risky.cells == COVERED, np.round(a.probabilities, 12), np.inf)
    assert player._limit(probs) == probs.min() + player.margin
    cell, _ = player._look_ahead_choice(risky, probs, nbrs)
    assert probs[cell] <= probs.min() + player.margin


def test_open_corner_plays_in_games():
    """In real expert games the rule fires, and only while no zero is open."""
    player, fired = make_player("strongest:corners=3"), 0
    for g in range(30):
        board, rng = new_game(*parse_preset("expert"), g, seed=20000)
        board.click(0)
        for position, move in moves(board, player, rng):
            if move.reason == "open corner":
                fired += 1
                assert not (position.cells == 0).any()
    assert fired >= 1


def test_cells_two_away_from_numbers_join_the_pool():
    """``near_off``: cells off the frontier two rows or columns straight from a number are
    added (at most ``near_off``), and every one is off the frontier and within the cut-off."""
    from deductive.engine.minesweeper.guess_rules import two_away

    position = Position.parse("xxxxx\nxxxxx\nxx3xx\nxxxxx\nxxxxx", mines=5)
    off = np.array([0, 2, 4, 10, 14, 20, 22, 24])
    assert two_away(position, off) == [2, 10, 14, 22]
    assert all(_check_near_off(cutoff) for cutoff in (0.9, 0))


def _check_near_off(cutoff):
    """The near cells added over some expert positions (checked as they are found)."""
    player = make_player(f"strongest:near_off=2,cutoff={cutoff}")
    plain = make_player(f"strongest:cutoff={cutoff}")
    added = 0
    for position in _guess_positions("expert", 3)[:10]:
        a = analyze(position)
        probs = np.where(position.cells == COVERED, np.round(a.probabilities, 12), np.inf)
        nbrs = neighbours_of(position.rows, position.cols)
        base, pool = plain._pool(position, probs, nbrs), player._pool(position, probs, nbrs)
        assert pool[:len(base)] == base and len(pool) <= len(base) + 2
        limit = player._limit(probs) + 1e-9
        assert all(not a.frontier[k] and probs[k] <= limit for k in pool[len(base):])
        added += len(pool) - len(base)
    return added


def test_every_guess_says_why_and_losses_add_up():
    """Each guess names its rule (an endgame guess its win probability, in [0, 1]); in the
    loss report the deaths are the games lost, and the guesses those the bench counts."""
    from benchmarks.mines_losses import losses

    reasons = set()
    for name in ("strongest", "least-risk", "csp-random"):
        player = make_player(name)
        for g in range(6):
            board, rng = new_game(*parse_preset("beginner"), g, seed=5)
            board.click(0)
            for _, move in moves(board, player, rng):
                if move.kind == "guess":
                    reasons.add(move.reason)
                    assert (move.win is not None) == (move.reason == "endgame")
                    assert move.win is None or 0 <= move.win <= 1
                else:
                    assert move.reason == "" and move.win is None
    assert {"random", "least risk", "look-ahead"} <= reasons
    assert reasons <= {"random", "least risk", "endgame", "fifty-fifty", "far corner",
                       "open corner", "look-ahead", "dominance", "pseudo 50/50"}
    report = losses(make_player("strongest"), "beginner", 40, 3, "safe", "corner")
    bench = run_bench("beginner", make_player("strongest"), 40, seed=3)
    assert report["wins"] == bench.wins
    for table in ("by_reason", "by_stage"):
        rows = report[table].values()
        assert round(sum(r["deaths"] for r in rows) * 40) == 40 - bench.wins
        assert round(sum(r["guesses"] for r in rows) * 40) == sum(r.guesses for r in
                                                                   bench.records)


def test_covered_space_counts_across_one_revealed_cell():
    from deductive.engine.minesweeper.guess_rules import covered_space

    # a pocket of three covered cells closed by two revealed columns, and a wide open right
    position = Position.parse("xx11xxx\nx111xxx\n1111xxx", mines=4)
    for k in (0, 1, 7):
        assert covered_space(position, k, 64) == 3
        assert covered_space(position, k, 2) == 2           # stops at the limit
    assert covered_space(position, 4, 64) == 9
    # one revealed column between covered cells: hopped (two columns apart)
    assert covered_space(Position.parse("x1x", mines=1), 0, 64) == 2
    assert covered_space(Position.parse("x11x", mines=1), 0, 64) == 1


# from an expert game (seed 3): the safest candidates by the look-ahead are in the pocket
# at the bottom left: four covered cells, closed by numbers and flags
POCKET_LATE = """
..1F2F21112xxxxxxxxxxxx21...11
.12223F21F4xxxxxxxxxxxxF1...1F
12F114F312FFxxxxxxxxxxx32...22
1F212FF3234F4xxFxx2xx33F1..12F
11113F32FF43F24F41112F222212F2
...1F2224FF3222F421.1111F2F211
.123211F2222F112FF22211333221.
.1FF1.1221.12323333FF22FF11F1.
.1221.12F1..1FF3F13F5F22322121
111..13F3211124F424F411.1F1.1F
1F1..1FF21F21.2F3F3F2...111.11
111..133213F2.1121211.111.....
.1221.1F1.2F2.111.111.1F21....
13FF11221.111.1F112F1.24F32121
xxF421F21222212112F4322FFF2F3F
xx3F1112F2FF2F1..2F3FF223222F2
"""


def test_deferred_cells_are_played_last():
    """With ``defer``, a candidate in a space smaller than it is scored only when every
    candidate is in one."""
    from deductive.engine.minesweeper.guess_rules import covered_space

    position = Position.parse(POCKET_LATE, 99)
    a = analyze(position)
    probs = np.where(position.cells == COVERED, np.round(a.probabilities, 12), np.inf)
    nbrs = neighbours_of(position.rows, position.cols)
    plain, player = make_player("strongest"), make_player("strongest:defer=8")
    full = plain._pool(position, probs, nbrs)
    small = [k for k in full if covered_space(position, k, 8) < 8]
    assert small == [420, 451, 450]
    assert player._pool(position, probs, nbrs) == [k for k in full if k not in small]
    rng = np.random.default_rng(0)
    assert plain.decide(position, rng).reveal == [420]
    move = player.decide(position, rng)
    assert move.reveal == [106] and move.reason == "look-ahead"
    # every candidate deferred: all of them stay
    assert make_player("strongest:defer=64")._pool(position, probs, nbrs) == full


@pytest.mark.parametrize("value, shown", [("-1", "-1"), ("65", "65"), ("2.5", "2.5"),
                                          ("true", "True")])
def test_a_bad_defer_is_named(value, shown):
    from deductive.errors import DeductiveError

    with pytest.raises(DeductiveError, match=f"defer={shown}: use 0"):
        make_player(f"strongest:defer={value}")
