"""Minesweeper positions several test modules share: hypothesis strategies (small boards
for the brute-force twins, raw cells for the kernels) and positions met in real games."""

import numpy as np
from hypothesis import strategies as st

from deductive.engine.minesweeper import Board, Position, PositionError, analyze, parse_preset
from deductive.engine.minesweeper.board import neighbours_of
from deductive.engine.minesweeper.players import make_player
from deductive.kernels.mines import mine_counts


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


def _consistent(case):
    """``(case, position, analysis)``, or None when no arrangement fits the case."""
    position = Position(*case)
    try:
        position.validate()
        return case, position, analyze(position)
    except PositionError:
        return None


def consistent_positions():
    """``(case, position, analysis)`` of the :func:`small_positions` cases some arrangement
    fits (the others are drawn again)."""
    return small_positions().map(_consistent).filter(lambda found: found is not None)


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


@st.composite
def any_positions(draw):
    """Boards from 1x1 to 5x5 with 0 to every cell a mine, any share revealed (none: no
    frontier), some mines flagged, and now and then one number nudged (maybe past what its
    neighbours hold): the kernels see raw cells, so no check is made."""
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
