"""Absurdle: Wordle against an adversary who keeps the largest bucket.

There is no secret word. After each guess the adversary (qntm, 2022) splits the answers
still possible by the feedback they would give and keeps the largest bucket, so a game is
won only by guessing the last word left. Tie rule (deterministic, ours to state): among
buckets of equal size the adversary keeps the least revealing feedback -- fewest greens,
then fewest yellows, then, reading the letters from the first, grey before yellow before
green at the first position where two feedbacks differ.

The game is then a path, not a tree: :func:`absurdle_search` finds the fewest guesses that
force a win by iterative deepening, each depth searched exhaustively (no win within d
guesses is a proof), with two bounds: a set of m > 1 words needs at least
``1 + need(ceil(m / n_codes))`` guesses (no guess splits it into more buckets than there
are codes), and at two guesses left a win needs a guess whose kept bucket is one word.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ArgumentError, DeductiveError
from ...kernels.absurdle import adversary_matrix, adversary_rows
from .._parallel import run_rows
from ..params import Param
from ..._deprecated import OldAsDict
from .patterns import n_patterns

__all__ = ["Absurdle", "AbsurdleResult", "adversary_rank", "absurdle_search"]

#: Rows x candidates from which the adversary's choices are computed in parallel (as the
#: partition statistics: :data:`deductive.engine.feedback.scoring.PARALLEL_WORK`).
PARALLEL_WORK = 7_000_000


def adversary_rank(length: int) -> np.ndarray:
    """``rank[code]`` of every feedback code under the tie rule (least rank kept)."""
    n = n_patterns(length)
    digits = np.array([[(c // 3 ** i) % 3 for i in range(length)] for c in range(n)])
    keys = [digits[:, i] for i in range(length - 1, -1, -1)]
    order = np.lexsort(keys + [(digits == 1).sum(1), (digits == 2).sum(1)])
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n)
    return rank


#: :func:`absurdle_search`'s ``max_guesses``.
MAX_GUESSES = Param("max_guesses", 8, "Give up beyond this many guesses.", int, 1, 20)


class Absurdle:
    """The adversary over a Wordle game (its lists and pattern matrix).

    Examples
    --------
    >>> from deductive.engine.wordle import Wordle
    >>> game = Absurdle(Wordle(["aa", "ab", "ba", "bb"]))
    >>> game.play(["aa", "bb"])
    [('aa', '..', 1), ('bb', 'GG', 1)]
    """

    def __init__(self, game):
        self.game = game
        self.rank = adversary_rank(game.length)
        self.win = game.win_code

    def choices(self, cands: np.ndarray, rows=None) -> tuple[np.ndarray, np.ndarray]:
        """(code kept, size kept) for each guess row (all by default) over ``cands``."""
        matrix = self.game.matrix
        rows = np.arange(matrix.shape[0], dtype=np.int64) if rows is None else rows
        code = np.zeros(len(rows), np.int64)
        size = np.zeros(len(rows), np.int64)
        if len(cands):
            run_rows(adversary_matrix, adversary_rows, len(rows), len(rows) * len(cands),
                     PARALLEL_WORK, matrix, rows, np.ascontiguousarray(cands, np.int64),
                     self.rank, code, size)
        return code, size

    def respond(self, cands: np.ndarray, guess: int) -> tuple[int, np.ndarray]:
        """The adversary's feedback to ``guess`` and the candidates it keeps."""
        code, _ = self.choices(cands, np.array([guess], np.int64))
        return int(code[0]), cands[self.game.matrix[guess, cands] == code[0]]

    def start(self) -> np.ndarray:
        return np.arange(len(self.game.answers), dtype=np.int64)

    def run(self, read):
        """A game as the lines to show: a guess per line ``read()`` returns (blank lines
        skipped, ``quit`` or the end of input stops; a word outside the list is not
        applied), the adversary's answer to each, until a win."""
        cands, turn = self.start(), 0
        yield f"{len(cands)} words possible; type a guess per line ('quit' stops)"
        for line in iter(read, ""):
            word = line.strip().lower()
            if word in ("quit", "q"):
                return
            if not word:
                continue
            try:
                g = self.game.guess_index(word)
            except DeductiveError as exc:   # a typo in a game: say so, go on
                yield f"not applied: {exc}"
                continue
            turn += 1
            code, cands = self.respond(cands, g)
            yield f"{turn}: {word} {self.game.format(code)}  {len(cands)} word(s) left"
            if code == self.win:
                yield f"won in {turn}"
                return

    def play(self, guesses) -> list[tuple[str, str, int]]:
        """Replay ``guesses``: ``(word, feedback, words left)`` for each; stops at a win."""
        cands, out = self.start(), []
        for word in guesses:
            g = self.game.guess_index(word)
            code, cands = self.respond(cands, g)
            out.append((self.game.word(g), self.game.format(code), len(cands)))
            if code == self.win:
                break
        return out


@dataclass
class AbsurdleResult(OldAsDict):
    """The fewest guesses that force a win, a sequence that does, and the proof's cost."""

    guesses: int
    sequence: list
    seconds: float
    nodes: int
    lower_bounds: list     # depths proven impossible, in order

    def to_json(self) -> dict:
        """The form ``--json`` prints."""
        return {"guesses": self.guesses, "sequence": self.sequence,
                "proven_impossible": self.lower_bounds, "seconds": round(self.seconds, 3),
                "nodes": self.nodes}


def _need(m: int, n_codes: int) -> int:
    """Fewest guesses that can force a win over m words (a lower bound)."""
    k = 1
    while m > 1:
        m, k = -(-m // n_codes), k + 1
    return k


def absurdle_search(absurdle: Absurdle, max_guesses: int = 8, progress=None) -> AbsurdleResult:
    """The fewest guesses that force a win, proven by exhaustive search of each depth.

    Raises
    ------
    DeductiveError
        No win within ``max_guesses``.
    """
    if max_guesses < 1:
        raise ArgumentError(f"`max_guesses` must be at least 1, not {max_guesses}")
    game, start = absurdle.game, time.perf_counter()
    n_codes = game.patterns.n_codes
    memo: set = set()
    nodes = [0]

    def win(cands, d):
        if len(cands) == 1:
            return [int(game.answer_to_guess[cands[0]])]
        if d < _need(len(cands), n_codes):
            return None
        key = (cands.tobytes(), d)
        if key in memo:
            return None
        nodes[0] += 1
        code, size = absurdle.choices(cands)
        if d == 2:
            ones = np.flatnonzero(size == 1)
            if len(ones):
                g = int(ones[0])
                return [g, int(game.answer_to_guess[cands[game.matrix[g, cands] == code[g]][0]])]
        else:
            useful = np.flatnonzero((size < len(cands)) | (code == absurdle.win))
            for g in useful[np.lexsort((useful, size[useful]))].tolist():
                if _need(int(size[g]), n_codes) > d - 1:
                    break
                kept = cands[game.matrix[g, cands] == code[g]]
                rest = [] if code[g] == absurdle.win else win(kept, d - 1)
                if rest is not None:
                    return [g] + rest
        memo.add(key)
        return None

    proven: list[Any] = []
    for d in range(1, max_guesses + 1):
        path = win(absurdle.start(), d)
        if progress is not None:
            progress(d)
        if path is not None:
            return AbsurdleResult(len(path), [game.word(g) for g in path],
                                  time.perf_counter() - start, nodes[0], proven)
        proven.append(d)
    raise DeductiveError(f"no sequence forces a win within `max_guesses` {max_guesses}")
