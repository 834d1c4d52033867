"""The pattern matrix of a feedback game: codes, the words behind them, their provenance.

A feedback game is any game in which a guess gets a feedback that is a function of the
guess and the hidden answer (Wordle's colours, Mastermind's pegs). Its whole state space
reduces to one guess x answer matrix of small integer codes, computed once; every solver
of :mod:`deductive.engine.feedback` is a reduction over it.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import ArgumentError
from ...kernels.search import distinct_codes

__all__ = ["PatternMatrix", "answer_major", "code_dtype"]


def code_dtype(n_codes: int) -> np.dtype:
    """The smallest unsigned dtype that holds codes ``0 .. n_codes - 1``."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if n_codes - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    raise ArgumentError(f"{n_codes} feedback codes do not fit in 32 bits")


@dataclass(frozen=True, eq=False)
class PatternMatrix:
    """A guess x answer matrix of feedback codes with everything needed to read it.

    Attributes
    ----------
    codes : ndarray
        ``codes[g, a]`` is the feedback of guess ``g`` when the answer is ``a``; unsigned,
        read-only, C-contiguous.
    guesses, answers : sequence of str
        The words (or codes, for Mastermind) of the rows and columns.
    n_codes : int
        Size of the code alphabet: every code is below it.
    win_code : int
        The code of a guess that is the answer.
    source : str
        Provenance: ``"computed"``, ``"cache"`` or a description of where it came from.

    Examples
    --------
    >>> def higher_lower(g, a):          # 0: the answer is lower, 1: found, 2: higher
    ...     return 1 + (a > g) - (a < g)
    >>> pm = PatternMatrix.from_function(range(4), range(4), higher_lower, n_codes=3,
    ...                                  win_code=1)
    >>> pm.codes.tolist()[1]
    [0, 1, 2, 2]
    """

    codes: np.ndarray
    guesses: Sequence
    answers: Sequence
    n_codes: int
    win_code: int
    source: str = "computed"
    key: str | None = field(default=None, repr=False)

    def __post_init__(self):
        codes = self.codes
        if codes.ndim != 2 or codes.shape != (len(self.guesses), len(self.answers)):
            raise ArgumentError(f"codes have shape {codes.shape}, expected "
                                f"({len(self.guesses)}, {len(self.answers)}): guesses x "
                                "answers")
        if codes.dtype.kind != "u":
            raise ArgumentError(f"codes must be unsigned integers, not {codes.dtype}")
        if not 0 <= self.win_code < self.n_codes:
            raise ArgumentError(f"win_code {self.win_code} is not below n_codes "
                                f"{self.n_codes}")

    @classmethod
    def from_function(cls, guesses: Iterable[Any], answers: Iterable[Any], feedback: Callable,
                      *, n_codes: int,
                      win_code: int, source: str = "computed") -> "PatternMatrix":
        """Build the matrix by calling ``feedback(guess, answer)`` for every pair (plain
        Python: for small games and tests; large games compute their codes in a kernel)."""
        guesses, answers = list(guesses), list(answers)
        codes = np.empty((len(guesses), len(answers)), dtype=code_dtype(n_codes))
        for i, g in enumerate(guesses):
            for j, a in enumerate(answers):
                c = int(feedback(g, a))
                if not 0 <= c < n_codes:
                    raise ArgumentError(f"feedback({g!r}, {a!r}) = {c}, outside 0..{n_codes - 1}")
                codes[i, j] = c
        codes.flags.writeable = False
        return cls(codes, guesses, answers, n_codes, win_code, source)

    @classmethod
    def of(cls, matrix: Any, n_codes: int | None = None) -> "PatternMatrix":
        """``matrix`` itself, or a bare code array wrapped (rows and columns numbered; the
        alphabet is ``n_codes``, else one more than the largest code present)."""
        if isinstance(matrix, cls):
            return matrix
        codes = np.asarray(matrix)
        if n_codes is None:
            n_codes = int(codes.max()) + 1 if codes.size else 1
        return cls(codes, range(codes.shape[0]), range(codes.shape[1]), n_codes,
                   n_codes - 1, "array")

    @property
    def shape(self) -> tuple[int, int]:
        return self.codes.shape

    @functools.cached_property
    def spread(self) -> int:
        """The most non-winning feedbacks one guess can get: the codes the matrix holds,
        the winning one left out (the searches' counting bound)."""
        # counted a block of rows at a time: np.unique sorted the whole matrix (0.57 s of
        # an exact salet search's 3.8 s), and one bincount would copy it to int64
        seen = np.zeros(max(self.n_codes, int(self.win_code) + 1), dtype=bool)
        step = max(1, (1 << 21) // max(1, self.codes.shape[1]))
        for lo in range(0, self.codes.shape[0], step):
            block = self.codes[lo:lo + step].ravel()
            seen[:] |= np.bincount(block, minlength=len(seen))[:len(seen)] > 0
        return max(1, int(seen.sum()) - int(seen[self.win_code]))

    @functools.cached_property
    def buckets(self) -> np.ndarray:
        """Each guess's number of buckets (distinct codes) over all the answers: at least
        its buckets over any set of them (int64[n_guesses], read only)."""
        out = np.empty(self.shape[0], np.int64)
        distinct_codes(self.codes, np.arange(self.shape[0], dtype=np.int64),
                       np.arange(self.shape[1], dtype=np.int64), self.n_codes, out)
        out.flags.writeable = False
        return out

    @property
    def nbytes(self) -> int:
        return self.codes.nbytes

    def __array__(self, dtype=None, copy=None):
        return self.codes if dtype is None else self.codes.astype(dtype)

    def columns(self) -> np.ndarray:
        """The answer-major copy (answers x guesses), see :func:`answer_major`."""
        return answer_major(self.codes)

    def __repr__(self) -> str:
        return (f"PatternMatrix({self.shape[0]} x {self.shape[1]} {self.codes.dtype}, "
                f"{self.n_codes} codes, {self.source})")


_answer_major: tuple | None = None      # (weak reference to a matrix, its transpose)


#: Side of the tiles :func:`answer_major` transposes one at a time (a tile of each array
#: stays in cache): 0.05 s for the 30 MB Wordle matrix, against 0.19-0.24 s at once.
TRANSPOSE_TILE = 128


def answer_major(matrix: np.ndarray) -> np.ndarray:
    """``matrix`` transposed into a C-contiguous array (answers x guesses), for the
    ``columns`` argument of :func:`~deductive.engine.feedback.scoring.partition_stats`.

    The copy of the last matrix asked for is kept (and dropped when that matrix is freed),
    so a search or a benchmark builds it once: about as large as the matrix, and built in
    a few milliseconds per million codes. It is not refreshed if the matrix is changed in
    place afterwards (deductive never does; a changed matrix wants a new array).
    """
    global _answer_major
    matrix = matrix.codes if isinstance(matrix, PatternMatrix) else matrix
    kept = _answer_major
    if kept is not None and kept[0]() is matrix:
        return kept[1]
    columns = np.empty(matrix.shape[::-1], matrix.dtype)
    step = TRANSPOSE_TILE              # tile by tile: 4x faster than one strided copy
    for r in range(0, matrix.shape[0], step):
        for c in range(0, matrix.shape[1], step):
            columns[c:c + step, r:r + step] = matrix[r:r + step, c:c + step].T

    def forget(ref):
        global _answer_major
        if _answer_major is not None and _answer_major[0] is ref:
            _answer_major = None

    _answer_major = (weakref.ref(matrix, forget), columns)
    return columns
