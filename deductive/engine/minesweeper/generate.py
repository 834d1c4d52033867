"""No-guess Minesweeper boards: from a given first click, our exact engine finds a safe
cell at every step until the board is clear.

A board is *no-guess* (for a first click and a first-click rule) when, from the position
that click opens, repeatedly opening every cell the exact analysis proves safe (the global
mine count included, :func:`~.analysis.analyze`) opens every safe cell. What the analysis
proves only grows as cells open, so the order of the opened cells does not matter and the
test is a fixed point: the local rules and the subset rule (compiled, :mod:`deductive.
kernels.mines_generate`) do the cheap steps, the exact analysis the rest, and the board is
no-guess exactly when that fixed point is the cleared board.

Two ways to make them:

``uniform``
    Rejection sampling. Draw a board uniformly among the boards the first-click rule
    allows (``safe``: the clicked cell is no mine; ``zero``: nor are its neighbours;
    ``none``: any cell), keep it if it is no-guess, else draw again. Every allowed board
    is drawn with the same probability and kept exactly when it is no-guess, so each
    no-guess board is equally likely to be returned. The draws needed are 1 / (share of
    no-guess boards), reported as ``draws``.
``fast``
    Perturbation, like S. Tatham's generator: draw a board; when the deduction gets stuck,
    move one mine from the covered cells next to the open region (chosen at random) to a
    random covered cell away from it, and carry on. While moving mines only the local and
    subset rules deduce (the exact analysis costs more than a move); a board they clear is
    then checked from the first click with the exact analysis. The boards are not uniform
    among the no-guess boards (they lean towards mines away from the first click's region,
    and towards boards the cheap rules clear).

Either way each board returned has been verified by replaying it: a fresh game
(:class:`~.board.Board`) with those mines, played from the first click by the local
rules, the subset rule and the exact analysis only, must be won without a guess (and a
mine under a cell proved safe raises an error).

Board k of a run seeded S is drawn from its own generator, ``numpy.random.default_rng((S,
k))``, so any board of a run can be made again alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ...errors import DeductiveError
from ..params import Param
from .analysis import analyze
from .bench import first_move_cell
from .board import COVERED, FLAGGED, FIRST_CLICK_RULES, Board, Position, neighbours_of, \
    parse_preset

__all__ = ["GeneratedBoard", "GenerateResult", "generate_boards", "is_no_guess",
           "verify_no_guess", "MODES", "GENERATE"]

#: How boards are made: rejection sampling (uniform) or perturbation (fast).
MODES = ("uniform", "fast")

#: The settings of ``deductive mines generate``.
GENERATE = (
    Param("preset", "expert", "beginner (9x9/10), beginner8 (8x8/10), intermediate (16x16/40), "
          "expert (16x30/99), or ROWSxCOLS/MINES."),
    Param("first_click", "zero", "safe: the first cell is no mine; zero: it opens a 0; none: "
          "mines placed before the click.", FIRST_CLICK_RULES),
    Param("first_move", "centre", "corner, centre, or ROW,COL counted from 1.",
          metavar="WHERE"),
    Param("count", 1, "How many boards.", int, low=1),
    Param("seed", 0, "Board k is drawn from a generator seeded (S, k).", int, low=0),
    Param("no_guess", "fast", "uniform: each no-guess board equally likely (rejection "
          "sampling); fast: perturbation, like Tatham's.", MODES),
    Param("max_draws", 1_000_000, "Give up on a board after this many draws (uniform) or "
          "restarts (fast).", int, low=1))

#: Mines moved before the fast mode gives up on a board and draws another.
MAX_MOVES_PER_DRAW = 2000


@dataclass(frozen=True)
class GeneratedBoard:
    """One no-guess board: its mines (flat cells, row-major from 0), the first click, how it
    was found and the proof that it is no-guess (``verified``)."""

    rows: int
    cols: int
    first: int
    mine_cells: tuple
    draws: int
    moves: int
    verified: bool

    def grid(self) -> list[str]:
        """One string per row: ``*`` a mine, ``.`` a safe cell, ``o`` the first click."""
        cells = np.full(self.rows * self.cols, ".")
        cells[list(self.mine_cells)] = "*"
        cells[self.first] = "o"
        return ["".join(cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]

    def to_json(self) -> dict:
        rows_cols = [[int(c) // self.cols + 1, int(c) % self.cols + 1] for c in self.mine_cells]
        return {"mines": rows_cols, "grid": self.grid(), "draws": self.draws,
                "moves": self.moves, "verified": self.verified}


@dataclass(frozen=True)
class GenerateResult:
    """The boards of one run and what they cost."""

    board: tuple
    first_click: str
    first_move: str
    mode: str
    seed: int
    boards: list = field(repr=False)
    seconds: float

    @property
    def draws(self) -> int:
        return sum(b.draws for b in self.boards)

    @property
    def boards_per_second(self) -> float:
        return len(self.boards) / self.seconds if self.seconds else float("inf")

    def to_json(self) -> dict:
        from ... import __version__

        rows, cols, mines = self.board
        draws = self.draws
        return {"version": __version__, "rows": rows, "cols": cols, "mines": mines,
                "first_click": self.first_click, "first_move": self.first_move,
                "mode": self.mode, "seed": self.seed, "count": len(self.boards),
                "draws": draws, "moves": sum(b.moves for b in self.boards),
                "no_guess_share": round(len(self.boards) / draws, 6) if draws else None,
                "seconds": round(self.seconds, 4),
                "boards_per_second": round(self.boards_per_second, 3),
                "boards": [b.to_json() for b in self.boards]}


class _Deduction:
    """The state of the deduction on one board: numbers, open and flagged cells."""

    def __init__(self, rows, cols, mine, nbrs):
        from ...kernels.mines import mine_counts

        self.rows, self.cols, self.nbrs = rows, cols, nbrs
        self.mine = mine
        self.total = int(mine.sum())
        self.numbers = mine_counts(mine, nbrs)
        self.revealed = np.zeros(len(mine), dtype=bool)
        self.flagged = np.zeros(len(mine), dtype=bool)

    def open(self, cell: int) -> None:
        from ...kernels.mines import flood_reveal

        flood_reveal(self.numbers, self.revealed, self.flagged, self.nbrs, cell)

    @property
    def cleared(self) -> bool:
        return int(self.revealed.sum()) == len(self.mine) - self.total

    def position(self) -> Position:
        cells = np.full(len(self.mine), COVERED, dtype=np.int8)
        cells[self.flagged] = FLAGGED
        cells[self.revealed] = self.numbers[self.revealed]
        return Position(self.rows, self.cols, self.total, cells)

    def run(self, exact: bool = True) -> bool:
        """Deduce to the fixed point; True when the board is cleared. Without ``exact`` only
        the local and subset rules are used (a fixed point short of the exact one)."""
        from ...kernels.mines_generate import rules_closure, subset_moves

        while True:
            rules_closure(self.numbers, self.revealed, self.flagged, self.nbrs)
            if self.cleared:
                return True
            safe, mines = subset_moves(self.numbers, self.revealed, self.flagged, self.nbrs,
                                       self.rows, self.cols)
            safe, mines = np.flatnonzero(safe), np.flatnonzero(mines)
            if not len(safe) and not len(mines):
                if not exact:
                    return False
                analysis = analyze(self.position())
                safe, mines = analysis.safe, analysis.mines
                if not len(safe) and not len(mines):
                    return False
            self.flagged[mines] = True
            for cell in safe:
                self.open(int(cell))

    def move_a_mine(self, rng, protected) -> bool:
        """Move one random mine next to the open region to a random covered cell away from
        it (never a protected cell); False when either set is empty."""
        from ...kernels.mines_generate import frontier_mask

        front = frontier_mask(self.revealed, self.flagged, self.nbrs)
        sources = np.flatnonzero(front & self.mine)
        away = ~front & ~self.revealed & ~self.flagged & ~self.mine & ~protected
        targets = np.flatnonzero(away)
        if not len(sources) or not len(targets):
            return False
        src, dst = int(rng.choice(sources)), int(rng.choice(targets))
        self.mine[src], self.mine[dst] = False, True
        # Only numbers next to the source can be revealed (none is next to the target); one
        # that falls to 0 opens its neighbours at the next closure (its rule "all found").
        for cell, step in ((src, -1), (dst, 1)):
            around = self.nbrs[cell][self.nbrs[cell] >= 0]
            self.numbers[around] += step
        return True


def _protected(rows, cols, first, rule, nbrs) -> np.ndarray:
    """Cells the first-click rule keeps free of mines."""
    keep = np.zeros(rows * cols, dtype=bool)
    if rule != "none":
        keep[first] = True
    if rule == "zero":
        keep[nbrs[first][nbrs[first] >= 0]] = True
    return keep


def _draw(rng, n, mines, protected) -> np.ndarray:
    mine = np.zeros(n, dtype=bool)
    mine[rng.choice(np.flatnonzero(~protected), size=mines, replace=False)] = True
    return mine


def is_no_guess(rows: int, cols: int, mine, first: int) -> bool:
    """Whether the board with mines ``mine`` (a ``bool`` mask, row-major) is cleared from a
    click on ``first`` by the local rules, the subset rule and the exact analysis, without a
    guess."""
    mine = np.asarray(mine, dtype=bool)
    if mine[first]:
        return False
    state = _Deduction(rows, cols, mine.copy(), neighbours_of(rows, cols))
    state.open(first)
    return state.run()


def verify_no_guess(rows: int, cols: int, mine, first: int) -> bool:
    """Replay the board as a game: a fresh :class:`~.board.Board` holding these mines (its
    numbers counted again), clicked at ``first``, then played by what the local rules prove
    (to their fixed point, on the board's own arrays), else the subset rule, else the exact
    analysis of the position the board shows: safe cells opened, mines flagged; never a
    guess. True when the game is won."""
    from ...kernels.mines import mine_counts
    from ...kernels.mines_generate import rules_closure, subset_moves

    mine = np.asarray(mine, dtype=bool)
    board = Board(rows, cols, int(mine.sum()), first_click="none")
    board.mine = mine.copy()
    board.numbers = mine_counts(board.mine, board.nbrs)
    if not board.click(first):
        return False
    while True:
        rules_closure(board.numbers, board.revealed, board.flagged, board.nbrs)
        if board.won:
            return True
        safe, mines = (np.flatnonzero(m) for m in subset_moves(
            board.numbers, board.revealed, board.flagged, board.nbrs, rows, cols))
        if not len(safe) and not len(mines):
            analysis = analyze(board.position())
            safe, mines = analysis.safe, analysis.mines
        if not len(safe) and not len(mines):
            return False
        for cell in mines:
            board.flag(int(cell))
        for cell in safe:
            if not board.click(int(cell)):
                raise AssertionError("a cell proved safe held a mine")


def _uniform(rows, cols, mines, first, protected, nbrs, rng, max_draws):
    for draw in range(1, max_draws + 1):
        mine = _draw(rng, rows * cols, mines, protected)
        if mine[first]:                     # rule "none": the click may hit a mine
            continue
        state = _Deduction(rows, cols, mine, nbrs)
        state.open(first)
        if state.run():
            return mine, draw, 0
    return None


def _fast(rows, cols, mines, first, protected, nbrs, rng, max_draws):
    moves = 0
    for draw in range(1, max_draws + 1):
        mine = _draw(rng, rows * cols, mines, protected)
        if mine[first]:
            continue
        moved = 0
        while True:
            # Deduce from the first click with the cheap rules; when stuck, move a mine and
            # carry on from there. A move changes numbers that earlier deductions used, so a
            # board cleared that way is checked again from the first click, exactly (and, if
            # stuck, moved again).
            state = _Deduction(rows, cols, mine, nbrs)
            state.open(first)
            before = moved
            while not state.run(exact=False):
                if moved >= MAX_MOVES_PER_DRAW or not state.move_a_mine(rng, protected):
                    break
                moved += 1
            if not state.cleared:
                break                       # nowhere (or no budget) to move: draw again
            if moved == before or is_no_guess(rows, cols, mine, first):
                return mine, draw, moves + moved
        moves += moved
    return None


def generate_boards(preset: str = "expert", *, first_click: str = "zero",
                    first_move: str = "centre", count: int = 1, seed: int = 0,
                    no_guess: str = "fast", max_draws: int = 1_000_000,
                    progress=None) -> GenerateResult:
    """Make ``count`` verified no-guess boards.

    Parameters
    ----------
    preset : str
        ``beginner``, ``beginner8``, ``intermediate``, ``expert`` or ``RxC/N``.
    first_click : {"safe", "zero", "none"}
        The rule the first click obeys (``zero``: it opens a 0).
    first_move : str
        ``corner``, ``centre`` or ``"R,C"`` (from 1).
    count, seed : int
        Board k comes from ``numpy.random.default_rng((seed, k))``.
    no_guess : {"uniform", "fast"}
        Rejection sampling (every no-guess board equally likely) or perturbation.
    max_draws : int
        Draws (uniform) or fresh boards (fast) tried for one board before giving up.
    progress : callable, optional
        Called with the number of boards made so far.

    Returns
    -------
    GenerateResult

    Raises
    ------
    DeductiveError
        A bad setting, or no no-guess board found within ``max_draws``.

    Examples
    --------
    >>> result = generate_boards("beginner", first_move="5,5", count=2, seed=1)
    >>> [board.verified for board in result.boards]
    [True, True]
    """
    if first_click not in FIRST_CLICK_RULES:
        raise DeductiveError(f"`first_click` {first_click!r} is not one of "
                             f"{', '.join(FIRST_CLICK_RULES)}")
    if no_guess not in MODES:
        raise DeductiveError(f"`no_guess` {no_guess!r} is not one of {', '.join(MODES)}")
    if count < 1 or max_draws < 1:
        raise DeductiveError("`count` and `max_draws` must be at least 1")
    rows, cols, mines = parse_preset(preset)
    first = first_move_cell(rows, cols, first_move)
    nbrs = neighbours_of(rows, cols)
    protected = _protected(rows, cols, first, first_click, nbrs)
    if rows * cols - int(protected.sum()) < mines:
        raise DeductiveError(f"{mines} mines do not fit on a {rows}x{cols} board outside the "
                             f"{int(protected.sum())} cells the first click keeps free; use "
                             "fewer mines or another `first_click`")
    make = _uniform if no_guess == "uniform" else _fast
    start = time.perf_counter()
    boards = []
    for k in range(count):
        found = make(rows, cols, mines, first, protected, nbrs,
                     np.random.default_rng((seed, k)), max_draws)
        if found is None:
            raise DeductiveError(f"no no-guess board found in {max_draws:,} draws (board {k}); "
                                 "raise `max_draws`, or try `first_click` zero or fewer mines")
        mine, draws, moves = found
        verified = verify_no_guess(rows, cols, mine, first)
        if not verified:
            raise AssertionError("a generated board failed its replay; this is a bug")
        boards.append(GeneratedBoard(rows, cols, first, tuple(np.flatnonzero(mine).tolist()),
                                     draws, moves, verified))
        if progress is not None:
            progress(k + 1)
    return GenerateResult((rows, cols, mines), first_click, first_move, no_guess, seed, boards,
                          time.perf_counter() - start)
