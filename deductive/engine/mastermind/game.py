"""Mastermind and Bulls and Cows: codes of pegs, black and white feedback, the game.

A code is ``pegs`` symbols of an alphabet of ``colours`` (Mastermind: ``1 .. 6`` spelled as
digits, ``1122``; Bulls and Cows: the digits ``0 .. 9``, all distinct, ``0123``). Codes are
listed in lexicographic order, so the lowest index is the numerically lowest code: the
order of Knuth's tie rule. Every code is both a guess and an answer.

Feedback ``(black, white)`` is spelled ``2B1W`` (Bulls and Cows: ``2B1C``); the parser
also reads ``2 1``, ``2,1`` and peg strings ``BBW`` (``BBC``); the code is
``black * (pegs + 1) + white`` (:mod:`deductive.kernels.mastermind`).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator

import numpy as np

from ...errors import ArgumentError, PatternError
from ...kernels.mastermind import fill_peg_matrix, fill_peg_rows
from .._parallel import run_rows
from ..feedback.game import FeedbackGame
from ..feedback.matrix import PatternMatrix, code_dtype
from .solvers import MASTERMIND_SOLVERS

__all__ = ["Mastermind", "BullsAndCows", "all_codes", "peg_matrix", "opener_classes",
           "MAX_CODES"]

#: The most codes a game may have: 5 pegs of 8 colours (32,768 codes, the size of the
#: 2014 MM(5,8) challenge), whose matrix takes 1 GiB (one byte a pair); memo keys spell
#: a code index in two bytes (int16), which holds exactly this many.
MAX_CODES = 1 << 15

#: The most digits of a Bulls and Cows game within :data:`MAX_CODES` (5: 30,240 numbers).
MAX_DIGITS = max(d for d in range(1, 11) if math.perm(10, d) <= MAX_CODES)

#: Guess rows x answers from which the matrix is filled in parallel (as for Wordle's
#: matrix, a whole-matrix fill of a million pairs and up is worth waking the threads).
PARALLEL_WORK = 1_000_000


def all_codes(pegs: int, colours: int, repeat: bool = True) -> np.ndarray:
    """Every code, lexicographically: ``uint8[n, pegs]`` of colours ``0 .. colours - 1``."""
    rows: Iterator[tuple[int, ...]]
    if repeat:
        rows = itertools.product(range(colours), repeat=pegs)
    else:
        rows = itertools.permutations(range(colours), pegs)
    return np.array(list(rows), dtype=np.uint8).reshape(-1, pegs)


def peg_matrix(guesses: np.ndarray, answers: np.ndarray, colours: int) -> np.ndarray:
    """``uint8[n_guesses, n_answers]`` of feedback codes ``black * (pegs + 1) + white``."""
    guesses = np.ascontiguousarray(guesses, dtype=np.uint8)
    answers = np.ascontiguousarray(answers, dtype=np.uint8)
    counts = [np.stack([(x == c).sum(axis=1) for c in range(colours)], axis=1).astype(np.uint8)
              for x in (guesses, answers)]
    out = np.zeros((len(guesses), len(answers)), dtype=code_dtype((guesses.shape[1] + 1) ** 2))
    run_rows(fill_peg_matrix, fill_peg_rows, len(guesses), len(guesses) * len(answers),
             PARALLEL_WORK, guesses, counts[0], np.ascontiguousarray(answers.T),
             np.ascontiguousarray(counts[1].T), out)
    return out


def opener_classes(codes: np.ndarray, repeat: bool) -> list[int]:
    """One first guess per class of first guesses equivalent under permuting colours and
    positions (a bijection of codes that keeps every feedback): the lowest code of each.

    With repetition a code's class is the multiset of its colours' multiplicities (4 pegs:
    ``1111, 1112, 1122, 1123, 1234``); without, every code is in one class."""
    if not repeat:
        return [0]
    seen, reps = set(), []
    for k, code in enumerate(codes):
        shape = tuple(sorted(np.bincount(code).tolist(), reverse=True))
        shape = tuple(x for x in shape if x)
        if shape not in seen:
            seen.add(shape)
            reps.append(k)
    return reps


class Mastermind(FeedbackGame):
    """Mastermind with ``pegs`` pegs and ``colours`` colours (repetition allowed or not).

    Parameters
    ----------
    pegs : int
        1 to 8.
    colours : int
        2 to 10, spelled by :attr:`alphabet` (``1`` to ``9``, then ``0`` for the tenth).
    repeat : bool
        Whether a code may repeat a colour.

    Examples
    --------
    >>> game = Mastermind(4, 6)
    >>> game.format(int(game.matrix[game.guess_index("1122"), game.answer_index("1213")]))
    '1B2W'
    """

    name = "mastermind"
    solvers = MASTERMIND_SOLVERS
    alphabet = "1234567890"
    white = "W"
    feedback_name = "feedback (black and white pegs, e.g. 1B2W)"

    def __init__(self, pegs: int = 4, colours: int = 6, repeat: bool = True):
        if not 1 <= pegs <= 8:
            raise ArgumentError(f"`pegs` {pegs}: give 1 to 8 pegs")
        if not 2 <= colours <= len(self.alphabet):
            raise ArgumentError(f"`colours` {colours}: give 2 to {len(self.alphabet)} colours")
        if not repeat and colours < pegs:
            raise ArgumentError(f"{pegs} distinct colours need `colours` >= {pegs}, not {colours}")
        size = colours ** pegs if repeat else int(np.prod(range(colours - pegs + 1, colours + 1)))
        if size > MAX_CODES:
            raise ArgumentError(f"`pegs` {pegs}, `colours` {colours} give {size:,} codes; the "
                                f"matrix is limited to {MAX_CODES:,} codes: fewer pegs or "
                                "colours")
        self.pegs, self.colours, self.repeat = pegs, colours, repeat
        self.pegs_array = all_codes(pegs, colours, repeat)
        words = ["".join(self.alphabet[c] for c in row) for row in self.pegs_array]
        super().__init__(guesses=words, answers=words)
        self.max_guesses = None

    def build_patterns(self) -> PatternMatrix:
        codes = peg_matrix(self.pegs_array, self.pegs_array, self.colours)
        codes.flags.writeable = False
        return PatternMatrix(codes, self.guesses, self.answers, (self.pegs + 1) ** 2,
                             self.pegs * (self.pegs + 1))

    def identity(self) -> dict:
        return {"hard": False, "pegs": self.pegs, "colours": self.colours,
                "repeat": self.repeat, "guesses": len(self.guesses),
                "answers": len(self.answers)}

    def knuth_opener(self) -> int:
        """Knuth's first guess: ``1122`` in general, the first half of the pegs in the
        lowest colour and the rest in the next (distinct colours: the lowest code)."""
        if not self.repeat:
            return 0
        half = self.pegs // 2
        return self.guess_index(self.alphabet[0] * half + self.alphabet[1] * (self.pegs - half))

    def openers(self) -> list[int]:
        """One first guess of each symmetry class (:func:`opener_classes`)."""
        return opener_classes(self.pegs_array, self.repeat)

    def format(self, code: int) -> str:
        black, white = divmod(int(code), self.pegs + 1)
        return f"{black}B{white}{self.white}"

    def parse(self, text: str | int | np.integer) -> int:
        if isinstance(text, (int, np.integer)):
            return super().parse(text)
        s = str(text).strip().upper()
        w = self.white
        m = (re.fullmatch(rf"(\d+)\s*B\s*(\d+)\s*{w}", s)
             or re.fullmatch(r"(\d+)\s*[ ,/]\s*(\d+)", s))
        if m:
            black, white = int(m.group(1)), int(m.group(2))
        elif re.fullmatch(rf"[B{w}.\-]*", s) and s:
            black, white = s.count("B"), s.count(w)
        else:
            raise PatternError(f"feedback {text!r} is not black and white pegs; write e.g. "
                               f"2B1{w}, '2 1' or BB{w}")
        if black + white > self.pegs or (black == self.pegs - 1 and white == 1):
            raise PatternError(f"feedback {text!r} is impossible with {self.pegs} pegs")
        return black * (self.pegs + 1) + white


class BullsAndCows(Mastermind):
    """Bulls and Cows: codes of ``pegs`` distinct digits 0-9 (4 by default); bulls are
    digits in place, cows digits elsewhere (``2B1C``)."""

    name = "bulls"
    alphabet = "0123456789"
    white = "C"
    feedback_name = "feedback (bulls and cows, e.g. 1B2C)"

    def __init__(self, pegs: int = 4, colours: int = 10, repeat: bool = False):
        if not repeat and colours == 10 and not 1 <= pegs <= MAX_DIGITS:
            raise ArgumentError(f"`digits` {pegs}: give 1 to {MAX_DIGITS} digits (the matrix "
                                f"is limited to {MAX_CODES:,} numbers; {MAX_DIGITS} digits "
                                f"make {math.perm(10, MAX_DIGITS):,})")
        super().__init__(pegs, colours, repeat)
