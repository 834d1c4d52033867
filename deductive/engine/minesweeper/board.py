"""Minesweeper boards (with the mines) and positions (what a player sees).

A :class:`Position` holds a flat ``int8`` array of cells, row-major: -1 covered, -2 flagged,
0-8 revealed, and the total number of mines. Its text form has one line per row: ``x``
covered, ``0``-``8`` (or ``.`` for 0) revealed, ``*`` or ``F`` a flagged mine.

A :class:`Board` places its mines at the first click, by a first-click rule: ``safe`` (the
clicked cell is never a mine), ``zero`` (the clicked cell and its neighbours are mine-free,
so it opens a 0) or ``none`` (mines placed uniformly before the click).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..._io import read_text
from ...errors import DeductiveError

__all__ = ["PRESETS", "FIRST_CLICK_RULES", "parse_preset", "Position", "Board", "PositionError",
           "COVERED", "FLAGGED"]

COVERED = -1
FLAGGED = -2

#: The most cells a board or a position may have (a preset ``RxC/N`` or a position file).
MAX_CELLS = 1 << 20
#: name -> (rows, cols, mines)
PRESETS = {
    "beginner": (9, 9, 10),
    "beginner8": (8, 8, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
}
FIRST_CLICK_RULES = ("safe", "zero", "none")


class PositionError(DeductiveError, ValueError):
    """A Minesweeper position is malformed or admits no arrangement of mines."""


def parse_preset(spec: str) -> tuple[int, int, int]:
    """``beginner``, ``beginner8``, ``intermediate``, ``expert`` or ``RxC/N`` (rows x cols /
    mines)."""
    if spec in PRESETS:
        return PRESETS[spec]
    match = re.fullmatch(r"\s*(\d+)\s*x\s*(\d+)\s*/\s*(\d+)\s*", spec)
    if not match:
        raise DeductiveError(
            f"unknown board {spec!r}; use {', '.join(PRESETS)} or ROWSxCOLS/MINES (e.g. 16x30/99)"
        )
    rows, cols, mines = (int(g) for g in match.groups())
    if rows < 1 or cols < 1 or rows * cols > MAX_CELLS:
        raise DeductiveError(f"board {spec!r}: rows and columns must be positive (at most "
                             "2**20 cells)")
    if not 0 <= mines < rows * cols:
        raise DeductiveError(f"board {spec!r}: mines must be from 0 to {rows * cols - 1}")
    return rows, cols, mines


@lru_cache(maxsize=32)
def _neighbours(rows: int, cols: int) -> np.ndarray:
    from ...kernels.mines import neighbours

    nbrs = neighbours(rows, cols)
    nbrs.flags.writeable = False
    return nbrs


def where(cell: int, cols: int) -> str:
    """``row R, column C`` (from 1) of a flat cell index: how errors and moves name a cell."""
    return f"row {cell // cols + 1}, column {cell % cols + 1}"


def neighbours_of(rows: int, cols: int) -> np.ndarray:
    """``(rows*cols, 8)`` neighbour table padded with -1 (cached per size)."""
    return _neighbours(int(rows), int(cols))


@dataclass
class Position:
    """What a player sees: revealed numbers, flags, covered cells, and the mine total."""

    rows: int
    cols: int
    mines: int
    cells: np.ndarray

    @classmethod
    def parse(cls, text: str, mines: int) -> "Position":
        """Read the text form; errors name the row and column (1-based)."""
        lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
        if not lines:
            raise PositionError("empty position; write one line of x, 0-8, ., * or F per row")
        cols = len(lines[0])
        if len(lines) * cols > MAX_CELLS:
            raise PositionError(f"a position of {len(lines)} x {cols} cells is over the limit of "
                                f"{MAX_CELLS:,} cells; give a smaller board")
        cells = np.empty(len(lines) * cols, dtype=np.int8)
        for r, line in enumerate(lines):
            if len(line) != cols:
                raise PositionError(f"row {r + 1} has {len(line)} cells but row 1 has {cols}; "
                                    "every row needs the same length")
            for c, ch in enumerate(line):
                if ch in "xX":
                    value = COVERED
                elif ch in "*F":
                    value = FLAGGED
                elif ch == ".":
                    value = 0
                elif "0" <= ch <= "8":
                    value = int(ch)
                else:
                    raise PositionError(f"row {r + 1}, column {c + 1}: unknown character {ch!r}; "
                                        "use x (covered), 0-8 or . (revealed), * or F (flag)")
                cells[r * cols + c] = value
        position = cls(len(lines), cols, int(mines), cells)
        position.validate()
        return position

    @classmethod
    def read(cls, path: str | os.PathLike[str], mines: int) -> "Position":
        """Read a position file (``-``: standard input); errors name the file and the fix."""
        what = ("give a position file (one row per line: x covered, 0-8 or . revealed, "
                "* or F flag) or - for stdin")
        return cls.parse(read_text(path, what="position file", error=PositionError, hint=what,
                                   stdin=True), mines)

    def validate(self) -> None:
        """Static checks: sizes, flag count, numbers larger than their neighbours allow."""
        n = self.rows * self.cols
        if self.cells.shape != (n,):
            raise PositionError(f"cells has shape {self.cells.shape}, expected ({n},)")
        if not 0 <= self.mines <= n:
            raise PositionError(f"{self.mines} mines do not fit in {n} cells")
        flags = int((self.cells == FLAGGED).sum())
        if flags > self.mines:
            raise PositionError(f"{flags} flags but only {self.mines} mines; remove flags or "
                                "give the right `mines`")
        nbrs = neighbours_of(self.rows, self.cols)
        degree = (nbrs >= 0).sum(axis=1)
        too_big = np.flatnonzero(self.cells > degree)
        if len(too_big):
            cell = int(too_big[0])
            raise PositionError(f"{where(cell, self.cols)}: {self.cells[cell]} is more than "
                                f"its {degree[cell]} neighbours can hold")

    def format(self) -> str:
        """The text form (revealed 0 written as ``.``)."""
        symbols = {COVERED: "x", FLAGGED: "*", 0: "."}
        rows = []
        for r in range(self.rows):
            row = self.cells[r * self.cols:(r + 1) * self.cols]
            rows.append("".join(symbols.get(int(v), str(int(v))) for v in row))
        return "\n".join(rows)

    def where(self, cell: int) -> str:
        return where(cell, self.cols)

    @property
    def covered(self) -> np.ndarray:
        return np.flatnonzero(self.cells == COVERED)

    @property
    def flags(self) -> int:
        return int((self.cells == FLAGGED).sum())


class Board:
    """A board with its mines, placed at the first click.

    Parameters
    ----------
    rows, cols, mines : int
    seed : int, optional
        Seed of the mine placement.
    first_click : {"safe", "zero", "none"}
    """

    def __init__(self, rows: int, cols: int, mines: int, seed: int | None = None,
                 first_click: str = "safe") -> None:
        if first_click not in FIRST_CLICK_RULES:
            raise DeductiveError(f"unknown first-click rule {first_click!r}; choose one of: "
                                 f"{', '.join(FIRST_CLICK_RULES)}")
        self.rows, self.cols, self.mines = int(rows), int(cols), int(mines)
        n = self.rows * self.cols
        if not 0 <= self.mines < n:
            raise DeductiveError(f"{mines} mines do not fit on a {rows}x{cols} board")
        self.first_click = first_click
        self.rng = np.random.default_rng(seed)
        self.nbrs = neighbours_of(self.rows, self.cols)
        self.mine = np.zeros(n, dtype=bool)
        self.numbers: np.ndarray | None = None      # the mines' counts, from the first click
        self.revealed = np.zeros(n, dtype=bool)
        self.flagged = np.zeros(n, dtype=bool)
        self.lost = False
        self.clicks = 0
        if first_click == "none":
            self._place(excluded=np.zeros(n, dtype=bool))

    @classmethod
    def preset(cls, spec: str, seed: int | None = None, first_click: str = "safe") -> "Board":
        return cls(*parse_preset(spec), seed=seed, first_click=first_click)

    def _place(self, excluded: np.ndarray) -> None:
        from ...kernels.mines import mine_counts

        allowed = np.flatnonzero(~excluded)
        if len(allowed) < self.mines:
            raise DeductiveError(f"{self.mines} mines do not fit outside the first click's "
                                 f"{int(excluded.sum())} protected cells")
        self.mine[self.rng.choice(allowed, size=self.mines, replace=False)] = True
        self.numbers = mine_counts(self.mine, self.nbrs)

    def index(self, r: int, c: int) -> int:
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise DeductiveError(f"cell ({r}, {c}) is off the {self.rows}x{self.cols} board")
        return r * self.cols + c

    def click(self, cell: int) -> bool:
        """Reveal a cell (flat index). Returns False if it was a mine (the game is lost)."""
        from ...kernels.mines import flood_reveal

        if self.numbers is None:
            excluded = np.zeros(self.rows * self.cols, dtype=bool)
            excluded[cell] = True
            if self.first_click == "zero":
                excluded[self.nbrs[cell][self.nbrs[cell] >= 0]] = True
            self._place(excluded)
        self.clicks += 1
        if self.mine[cell]:
            self.lost = True
            return False
        flood_reveal(self.numbers, self.revealed, self.flagged, self.nbrs, cell)
        return True

    def apply(self, move: Any) -> bool:
        """Play a player's move (a :class:`~.base.Move`, typed ``Any``: that module imports
        this one): its flags, then its reveals (stopping at a mine). Returns False if a
        revealed cell was a mine."""
        for cell in move.flag:
            if not self.flagged[cell]:
                self.flag(cell)
        for cell in move.reveal:
            if self.revealed[cell] or self.flagged[cell]:
                continue
            if not self.click(cell):
                return False
        return True

    def flag(self, cell: int) -> None:
        if not self.revealed[cell]:
            self.flagged[cell] = not self.flagged[cell]

    @property
    def won(self) -> bool:
        return not self.lost and int(self.revealed.sum()) == self.rows * self.cols - self.mines

    @property
    def over(self) -> bool:
        return self.lost or self.won

    def position(self) -> Position:
        """The position a player sees."""
        cells = np.full(self.rows * self.cols, COVERED, dtype=np.int8)
        cells[self.flagged] = FLAGGED
        if self.numbers is not None:
            cells[self.revealed] = self.numbers[self.revealed]
        return Position(self.rows, self.cols, self.mines, cells)

    def draw(self, show_mines: bool = False) -> str:
        """The board in the position format :meth:`Position.parse` reads (``x`` covered,
        ``.`` an open 0, ``1``-``8``, ``F`` a flag; ``*`` the mines, when ``show_mines``),
        with rows and columns numbered from 1 as the moves are reported (a column's tens
        above its units). Without the row labels it is a position file."""
        width = len(str(self.rows))
        labels = [f"{c + 1:>{len(str(self.cols))}}" for c in range(self.cols)]
        lines = [" " * (width + 2) + "".join(label[i] for label in labels)
                 for i in range(len(labels[-1]))]
        # no cell is revealed before the first click places the mines and their numbers
        numbers = self.numbers if self.numbers is not None else np.zeros(len(self.mine), int)
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                k = r * self.cols + c
                if self.revealed[k]:
                    row.append("." if numbers[k] == 0 else str(int(numbers[k])))
                elif self.flagged[k]:
                    row.append("F")
                elif show_mines and self.mine[k]:
                    row.append("*")
                else:
                    row.append("x")
            lines.append(f"{r + 1:>{width}}  " + "".join(row))
        return "\n".join(lines)
