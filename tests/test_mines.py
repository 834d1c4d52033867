"""Minesweeper: boards, positions, exact probabilities against brute force and an
independent exact engine, forced cells, players and benchmarks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.minesweeper import Board, Position, PositionError, analyze, parse_preset
from deductive.engine.minesweeper.analysis import NODE_BUDGET
from deductive.engine.minesweeper.bench import (first_move_cell, new_game, run_bench,
                                               wilson_interval)
from deductive.engine.minesweeper.board import neighbours_of
from deductive.engine.minesweeper.players import make_player, rule_deductions
from deductive.errors import DeductiveError, UnknownNameError

from . import reference


# -- boards ---------------------------------------------------------------------------------
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


def test_no_frontier_and_single_cell():
    position = Position.parse("xxx\nxxx\n", 2)
    a = analyze(position)
    assert np.allclose(a.probabilities, 2 / 6) and not len(a.safe)
    position = Position.parse("1x\n11\n", 1)
    a = analyze(position)
    assert a.mines.tolist() == [1] and a.probabilities[1] == 1.0


def test_global_count_forces_cells():
    # the 1 has two candidates; with one mine in all, the far corner is forced safe
    position = Position.parse("x1.\nx1.\nx..\nxxx", 1)
    a = analyze(position)
    exact = reference.mines_brute_force(4, 3, 1, position.cells.tolist())
    for cell, p in exact.items():
        assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-12)
    assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}


# -- exact probabilities --------------------------------------------------------------------
@st.composite
def small_positions(draw):
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(2, 5))
    n = rows * cols
    mines = draw(st.integers(0, max(0, min(n - 1, 7))))
    seed = draw(st.integers(0, 10 ** 6))
    rng = np.random.default_rng(seed)
    mine = np.zeros(n, dtype=bool)
    mine[rng.choice(n, mines, replace=False)] = True
    board = Board(rows, cols, mines, seed=0, first_click="none")
    board.mine = mine
    from deductive.kernels.mines import mine_counts

    board.numbers = mine_counts(mine, board.nbrs)
    cells = np.full(n, -1, dtype=np.int8)
    reveal = rng.random(n) < draw(st.floats(0.1, 0.9))
    cells[reveal & ~mine] = board.numbers[reveal & ~mine]
    flag = rng.random(n) < 0.3
    cells[flag & mine] = -2
    if draw(st.booleans()):     # an inconsistent variant: one number nudged
        numbered = np.flatnonzero(cells >= 0)
        if len(numbered):
            k = numbered[rng.integers(len(numbered))]
            cells[k] = min(8, cells[k] + 1)
    total = mines + draw(st.sampled_from([0, 0, 0, 1, -1]))
    return rows, cols, max(0, total), cells


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_probabilities_match_brute_force(case):
    rows, cols, mines, cells = case
    try:
        position = Position(rows, cols, mines, cells)
        position.validate()
    except PositionError:
        return
    exact = reference.mines_brute_force(rows, cols, mines, cells.tolist())
    if exact is None:
        with pytest.raises(PositionError):
            analyze(position)
        return
    a = analyze(position)
    for cell, p in exact.items():
        assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-9)
    assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}
    assert set(a.mines.tolist()) == {k for k, p in exact.items() if p == 1}
    safe, mines_found = reference.mines_rule_deductions(rows, cols, cells.tolist())
    assert safe <= set(a.safe.tolist()) and mines_found <= set(a.mines.tolist())
    assert set(rule_deductions(position)[0].tolist()) == safe


@settings(max_examples=60, deadline=None)
@given(small_positions())
def test_dynamic_programme_fallback_matches(case):
    rows, cols, mines, cells = case
    position = Position(rows, cols, mines, cells)
    try:
        fast = analyze(position)
    except PositionError:
        with pytest.raises(PositionError):
            analyze(position, budget=0)
        return
    slow = analyze(position, budget=0)
    assert slow.dp_components == slow.components
    np.testing.assert_allclose(slow.probabilities, fast.probabilities, atol=1e-12)
    assert slow.safe.tolist() == fast.safe.tolist() and slow.mines.tolist() == fast.mines.tolist()


def positions_from_games(spec, games, stride, seed=5):
    """Positions met by the least-risk player, with the forced mines it flagged."""
    rows, cols, mines = parse_preset(spec)
    player = make_player("least-risk")
    found = []
    for g in range(games):
        board = Board(rows, cols, mines, seed=seed + g, first_click="safe")
        rng = np.random.default_rng(g)
        board.click(0)
        step = 0
        while not board.over:
            position = board.position()
            if step % stride == 0:
                found.append(position)
            board.apply(player.decide(position, rng))
            step += 1
    return found


@pytest.mark.parametrize("spec,games,stride,limit", [("beginner", 6, 2, 12),
                                                      ("intermediate", 3, 5, 10),
                                                      ("expert", 2, 12, 8)])
def test_probabilities_match_independent_exact_engine(spec, games, stride, limit):
    positions = positions_from_games(spec, games, stride)[:limit]
    assert positions
    for position in positions:
        a = analyze(position)
        exact = reference.mines_exact_dp(position.rows, position.cols, position.mines,
                                         position.cells.tolist())
        for cell, p in exact.items():
            assert a.probabilities[cell] == pytest.approx(float(p), abs=1e-9)
        assert set(a.safe.tolist()) == {k for k, p in exact.items() if p == 0}
        assert set(a.mines.tolist()) == {k for k, p in exact.items() if p == 1}


def test_large_open_board_does_not_hang():
    # a long row of 1s over a wide covered band: many solutions, still exact and fast
    cols = 60
    text = "\n".join(["x" * cols, "x" * cols, "1" + "1" * (cols - 2) + "1", "." * cols])
    position = Position.parse(text, 40)
    a = analyze(position)
    assert np.isfinite(a.probabilities[:2 * cols]).all()
    slow = analyze(position, budget=0)
    np.testing.assert_allclose(a.probabilities, slow.probabilities, atol=1e-12)
    assert NODE_BUDGET > 0


def test_ortools_cross_check():
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    for position in positions_from_games("beginner", 4, 3)[:12]:
        a = analyze(position)
        covered = position.covered.tolist()
        forced_safe, forced_mine = set(), set()
        for cell in covered:
            for value, bucket in ((1, forced_safe), (0, forced_mine)):
                model = cp_model.CpModel()
                x = {k: model.NewBoolVar(str(k)) for k in covered}
                for unknown, need in reference._mines_constraints(
                        position.rows, position.cols, position.cells.tolist())[2]:
                    if unknown:
                        model.Add(sum(x[k] for k in unknown) == need)
                model.Add(sum(x.values()) == position.mines - position.flags)
                model.Add(x[cell] == value)
                if cp_model.CpSolver().Solve(model) == cp_model.INFEASIBLE:
                    bucket.add(cell)
        assert forced_safe == set(a.safe.tolist()) and forced_mine == set(a.mines.tolist())


# -- players and benchmarks -----------------------------------------------------------------
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
    report = a.as_dict()
    assert report["games"] == 12 and 0 <= report["wins"] <= 12
    assert set(report["decisions"]) == {"rules", "forced", "guess"}


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
    assert result.as_dict()["first_move"] == "4,4"
    for g in range(6):
        board, _ = new_game(16, 30, 99, g, first_click="zero")
        board.click(first_move_cell(16, 30, "4,4"))
        assert board.numbers[3 * 30 + 3] == 0 and board.revealed[3 * 30 + 3]
        assert int(board.revealed.sum()) >= 9


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


def test_wilson_interval():
    lo, hi = wilson_interval(40, 100)
    assert lo == pytest.approx(0.3094, abs=1e-4) and hi == pytest.approx(0.4980, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _consistent(case):
    """(position, analysis) of a generated case, or (None, None) when it is inconsistent."""
    position = Position(*case)
    try:
        position.validate()
        return position, analyze(position)
    except PositionError:
        return None, None


@settings(max_examples=60, deadline=None)
@given(small_positions())
def test_enumerated_solutions_and_endgame_search(case):
    from deductive.engine.minesweeper.endgame import endgame_choice, enumerate_solutions

    rows, cols, mines, cells = case
    position, a = _consistent(case)
    if position is None:
        return
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


def test_unavoidable_fifty_fifty_examples():
    from deductive.engine.minesweeper.guess_rules import unavoidable_fifty_fifty

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
@given(small_positions())
def test_unavoidable_fifty_fifty_is_an_even_pair(case):
    """A pair it finds holds exactly one mine in every arrangement, at probability 1/2."""
    from deductive.engine.minesweeper.guess_rules import unavoidable_fifty_fifty

    rows, cols, mines, cells = case
    position, a = _consistent(case)
    if position is None:
        return
    cell = unavoidable_fifty_fifty(position)
    if cell is None:
        return
    arrangements = reference.mines_arrangements(rows, cols, mines, cells.tolist())
    assert a.probabilities[cell] == pytest.approx(0.5, abs=1e-12)
    share = sum(cell in arr for arr in arrangements) / len(arrangements)
    assert share == pytest.approx(0.5, abs=1e-12)


def test_far_corner_after_a_first_click_without_zero():
    from deductive.engine.minesweeper.guess_rules import far_corner
    from deductive.engine.minesweeper.simple import guess_probabilities

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


# -- frontier structure and component counts against their twins ---------------------------
@st.composite
def any_positions(draw):
    """Boards from 1x1 to 5x5 with 0 to every cell a mine, any share revealed (none: no
    frontier), some mines flagged, and now and then one number nudged (maybe past what its
    neighbours hold): the kernels see raw cells, so no check is made."""
    from deductive.kernels.mines import mine_counts

    size = st.integers(1, 5) | st.integers(3, 5)          # 1 to 5, mostly 3 or more
    rows, cols = draw(size), draw(size)
    n = rows * cols
    rng = np.random.default_rng(draw(st.integers(0, 10 ** 6)))
    mine = np.zeros(n, dtype=bool)
    count = draw(st.one_of(st.integers(0, n // 4), st.integers(0, n)))   # mostly sparse
    mine[rng.choice(n, count, replace=False)] = True
    numbers = mine_counts(mine, neighbours_of(rows, cols))
    cells = np.full(n, -1, dtype=np.int8)
    reveal = (rng.random(n) < draw(st.sampled_from([0.6, 0.3, 0.8, 0.5, 1.0, 0.0]))) & ~mine
    cells[reveal] = numbers[reveal]
    cells[mine & (rng.random(n) < draw(st.sampled_from([0.0, 0.4])))] = -2
    numbered = np.flatnonzero(cells >= 0)
    if len(numbered) and draw(st.booleans()):
        k = numbered[rng.integers(len(numbered))]
        cells[k] = min(8, max(0, cells[k] + draw(st.sampled_from([-1, 1, 3]))))
    return rows, cols, cells


EDGE_CASES = [
    (1, 1, [-1]),                          # one cell, covered
    (1, 1, [0]),                           # one cell, revealed
    (2, 3, [-1] * 6),                      # all covered: no frontier
    (2, 3, [-2] * 6),                      # every cell a (flagged) mine
    (2, 2, [0] * 4),                       # zero mines, all revealed: no frontier
    (3, 3, [0, 0, 0, 0, 0, 0, -1, -1, -1]),  # zero mines, covered cells next to zeros
    (3, 3, [3, -1, -1, -1, -1, -1, -1, -1, -1]),  # a number its neighbours cannot hold
    (2, 2, [-2, -2, -2, 1]),               # more flags than the number
    (3, 3, [-1, 1, -1, -1, -1, -1, -1, 1, -1]),  # two independent components
]


def kernel_frontier(rows, cols, cells):
    """frontier_structure's result in the twin's terms (constraints numbered row-major),
    after checking its numbering rules: boxes by their first constraint, components by their
    first box."""
    from deductive.kernels.mines_frontier import OK, frontier_structure

    twin = reference.mines_frontier(rows, cols, cells.tolist())
    (status, bad, box_of, box_size, box_comp, ptr, ids, cons_value,
     n_comp) = frontier_structure(cells, neighbours_of(rows, cols))
    if status != OK:
        return ("bad", status, bad)
    assert len(cons_value) == len(twin["need"])
    cell_of = sorted(twin["need"])
    boxes = {}
    for b in range(len(box_size)):
        members = frozenset(np.flatnonzero(box_of == b).tolist())
        assert len(members) == box_size[b] and list(ids[ptr[b]:ptr[b + 1]]) == sorted(
            ids[ptr[b]:ptr[b + 1]])
        boxes[members] = frozenset(cell_of[j] for j in ids[ptr[b]:ptr[b + 1]])
    firsts = [ids[ptr[b]] for b in range(len(box_size))]
    assert firsts == sorted(firsts)
    assert list(dict.fromkeys(box_comp.tolist())) == list(range(n_comp))
    components = {frozenset(np.flatnonzero(np.isin(box_of, np.flatnonzero(box_comp == c)))
                            .tolist()) for c in range(n_comp)}
    return {"need": {cell_of[j]: int(v) for j, v in enumerate(cons_value)}, "boxes": boxes,
            "components": components}


def check_component_counts(rows, cols, cells):
    """count_all, and count_component with the boxes in another order, equal the twin's
    exact counts on every component (integers well inside the float's exact range)."""
    from deductive.engine.minesweeper.analysis import _BINOM
    from deductive.kernels.mines_count import count_all, count_component
    from deductive.kernels.mines_frontier import OK, frontier_structure

    (status, _, box_of, box_size, box_comp, ptr, ids, cons_value,
     n_comp) = frontier_structure(cells, neighbours_of(rows, cols))
    if status != OK:
        return
    (comp_ptr, comp_boxes, comp_width, w_ptr, weights, s_ptr, mines_in_box, kmin, kmax,
     nodes) = count_all(box_size, box_comp, ptr, ids, cons_value, n_comp, _BINOM, 10 ** 9)
    for i in range(n_comp):
        order = comp_boxes[comp_ptr[i]:comp_ptr[i + 1]]
        width = comp_width[i]
        block = slice(s_ptr[i], s_ptr[i + 1])
        results = [(weights[w_ptr[i]:w_ptr[i + 1]], mines_in_box[block].reshape(-1, width),
                    kmin[block].reshape(-1, width), kmax[block].reshape(-1, width), order)]
        shuffled = order[::-1].copy()
        w, s = np.zeros(width), np.zeros((len(order), width))
        lo = np.full((len(order), width), 99, np.int64)
        hi = np.full((len(order), width), -1, np.int64)
        assert count_component(shuffled, box_size, ptr, ids, cons_value, _BINOM, 10 ** 9,
                               w, s, lo, hi) >= 0
        results.append((w, s, lo, hi, shuffled))
        box_cells = [frozenset(np.flatnonzero(box_of == b).tolist()) for b in order]
        W, S, least, most = reference.mines_component_counts(
            rows, cols, cells.tolist(), frozenset().union(*box_cells))
        assert nodes[i] >= 0 and width == sum(len(b) for b in box_cells) + 1
        for w, s, lo, hi, boxes in results:
            assert w.tolist() == [W[m] for m in range(width)]
            for k, b in enumerate(boxes):
                cells_b = frozenset(np.flatnonzero(box_of == b).tolist())
                assert s[k].tolist() == [S[cells_b][m] for m in range(width)]
                assert lo[k].tolist() == [least[cells_b].get(m, 99) for m in range(width)]
                assert hi[k].tolist() == [most[cells_b].get(m, -1) for m in range(width)]


@pytest.mark.parametrize("rows,cols,cells", EDGE_CASES)
def test_frontier_and_counts_edge_cases(rows, cols, cells):
    cells = np.array(cells, dtype=np.int8)
    assert kernel_frontier(rows, cols, cells) == reference.mines_frontier(rows, cols,
                                                                          cells.tolist())
    check_component_counts(rows, cols, cells)


@settings(max_examples=300, deadline=None)
@given(any_positions())
def test_frontier_structure_matches_twin(case):
    rows, cols, cells = case
    assert kernel_frontier(rows, cols, cells) == reference.mines_frontier(rows, cols,
                                                                          cells.tolist())


@settings(max_examples=150, deadline=None)
@given(any_positions())
def test_component_counts_match_twin(case):
    check_component_counts(*case)
