"""Exact Hangman: the optimal strategy with L lives, the adversary's value, strategy trees.

:class:`ExactHangman` wraps the memoised search of :mod:`deductive.kernels.hangman_exact`
for one word list: :meth:`~ExactHangman.value` is the most words (or prior weight) any
strategy wins with L lives (the L-th miss loses), :meth:`~ExactHangman.play` plays every
word by an optimal strategy and returns its tree, :meth:`~ExactHangman.evil_misses` is the
least number of misses a guesser can guarantee against an adversary who may switch to any
word consistent with the answers so far (the minimax value). The memo grows by doubling up
to a memory budget and then evicts, so memory stays bounded and results stay exact.

Trees are plain JSON (:mod:`deductive.engine.hangman.trees`).

Ties between equally good letters go to the first letter in the search's order: fewest
misses (by weight) first, then the earliest letter; a letter that every candidate has
(a free letter) is played at once, the earliest if several.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import DeductiveError
from ...kernels import hangman_exact as kx
from ...kernels.hangman import MIN_MISS, choose_greedy

__all__ = ["ExactHangman", "ExactPlay", "DEFAULT_MEMORY", "PRIOR_SCALE"]

#: Default memory budget of the memo (bytes).
DEFAULT_MEMORY = 4 * 2 ** 30
#: A prior is quantised to integers summing to about this (relative error 1e-12), so that
#: the search adds and compares weights exactly.
PRIOR_SCALE = 2 ** 40
_SLOT_BYTES = 32 + 8 + 8 + 1 + 1 + 4


@dataclass
class ExactPlay:
    """Every word played by an optimal strategy with ``lives`` lives.

    ``wrong``, ``count`` and ``letters`` are per word (in list order) as in a sweep: the
    misses, the guesses and the letters until the word is the only candidate (a lost
    word's game goes on with ``min-miss``). ``value`` is the weight won (words, under a
    uniform prior). The tree arrays are described in :func:`deductive.kernels.hangman_exact.walk`.
    """

    lives: int
    value: int
    wrong: np.ndarray
    count: np.ndarray
    letters: np.ndarray
    node_letter: np.ndarray
    node_parent: np.ndarray
    node_mask: np.ndarray
    node_word: np.ndarray
    seconds: float
    stats: dict


class ExactHangman:
    """Exact search over one word list (a :class:`~deductive.engine.hangman.Hangman`).

    Parameters
    ----------
    game : Hangman
        (Typed ``Any``: :mod:`.game` imports this module.)
    memory : int
        Budget of the memo in bytes (default 4 GiB). Past it the memo evicts entries:
        slower, never wrong.
    uniform : bool
        Count words even if the game has a frequency prior (the adversary's game).
    weights : sequence of int, optional
        A weight for each word (non-negative integers, in list order) instead of the
        game's prior.

    Examples
    --------
    >>> from deductive.engine.hangman import Hangman
    >>> exact = ExactHangman(Hangman("bill dill fill gill hill kill mill pill".split()))
    >>> exact.value(3), exact.evil_misses()
    (3, 7)
    """

    def __init__(self, game: Any, *, memory: int = DEFAULT_MEMORY, uniform: bool = False,
                 weights: Any = None):
        self.game = game
        self.masks, self.presence = game.masks, game.presence
        n = len(game.words)
        self.uniform = weights is None and (uniform or game.prior == "uniform")
        if weights is not None:
            w = np.asarray(weights)
            if w.shape != (n,) or not np.issubdtype(w.dtype, np.integer) or (w < 0).any() \
                    or w.sum() >= 2 ** 53:
                raise DeductiveError(f"weights: give {n} non-negative integers (one a word) "
                                     "summing to less than 2**53")
            self.weights = w.astype(np.int64)
        elif self.uniform:
            self.weights = np.ones(n, np.int64)
        else:
            w = np.asarray(game.weights, dtype=np.float64)
            self.weights = np.maximum(np.rint(w / w.sum() * PRIOR_SCALE), 1).astype(np.int64)
        self.fweights = self.weights.astype(np.float64)
        self.memory = int(memory)
        if self.memory < 2 ** 20:
            raise DeductiveError(f"memory budget {self.memory} bytes is too small; give at "
                                 "least 1 MiB")
        self.length = game.words.length
        self._wtab = kx.count_table(32, 26)
        self._table = kx.new_table(1 << 10)
        self._stats = np.zeros(kx.N_STATS, np.int64)
        self._stats[kx.ST_GROW] = 1

    @property
    def total(self) -> int:
        return int(self.weights.sum())

    @property
    def stats(self) -> dict:
        return {"entries": int(self._stats[kx.ST_ENTRIES]), "nodes": int(self._stats[kx.ST_NODES]),
                "expanded": int(self._stats[kx.ST_EXPANDED]),
                "evicted": int(self._stats[kx.ST_EVICTED]),
                "table_bytes": int(self._table[0].shape[0] * _SLOT_BYTES)}

    # -- the memo --------------------------------------------------------------------------
    def _grow(self):
        cap = self._table[0].shape[0]
        # the old and the new table live together while entries are copied
        if 3 * cap * _SLOT_BYTES > self.memory:
            self._stats[kx.ST_GROW] = 0            # at the budget: evict from now on
            return
        new = kx.new_table(2 * cap // kx.WAYS)
        kx.rehash(*self._table, *new, self._stats)
        self._table = new

    def _until_done(self, run):
        """Call ``run()`` until the search finishes without asking for a larger table."""
        while True:
            self._stats[kx.ST_FULL] = 0
            result = run()
            if not self._stats[kx.ST_FULL]:
                return result
            self._grow()

    def _search(self, lives, alpha):
        n = len(self.weights)
        idx = np.arange(n, dtype=np.int64)
        zero = np.uint64(0)
        return int(kx.search(self.masks, self.presence, self.weights, self.fweights,
                             self.uniform, idx, 0, n, lives, (1 << self.length) - 1, 0, zero,
                             zero, zero, 0, alpha, *self._table, self._wtab,
                             self._stats))

    # -- public ----------------------------------------------------------------------------
    def value(self, lives: int) -> int:
        """The most weight (words, under a uniform prior) won with ``lives`` lives."""
        lives = _check_lives(lives)
        return self._until_done(lambda: self._search(lives, -1))

    def all_won(self, lives: int) -> bool:
        """Whether some strategy wins every word with ``lives`` lives (a cut-off search)."""
        lives = _check_lives(lives)
        return self._until_done(lambda: self._search(lives, self.total - 1)) == self.total

    def first_letter(self, lives: int) -> str:
        """The optimal strategy's first letter (ties as in the module docstring)."""
        lives = _check_lives(lives)
        self.value(lives)
        n = len(self.weights)
        if n > lives:
            zero = np.uint64(0)
            slot = kx.table_find(self._table[0], self._table[5], zero, zero, zero,
                                 np.uint64(lives) << np.uint64(kx.LIVES_SHIFT))
            if slot >= 0 and self._table[4][slot] == kx.SEARCHED:
                return chr(97 + int(self._table[3][slot]))
        idx = np.arange(n, dtype=np.int64)
        return chr(97 + int(choose_greedy(self.masks, self.presence, self.fweights, idx, 0, n,
                                          0, MIN_MISS)))

    def play(self, lives: int) -> ExactPlay:
        """Play every word by an optimal strategy; per-word results and the tree."""
        return self._play(_check_lives(lives), False)

    def evil_play(self) -> ExactPlay:
        """Every word played by a strategy that never makes more than
        :meth:`evil_misses` misses (``lives`` one more), with its tree."""
        if not self.uniform:
            return ExactHangman(self.game, memory=self.memory, uniform=True).evil_play()
        return self._play(self.evil_misses() + 1, True)

    def _play(self, lives, evil):
        start = time.perf_counter()
        value = self.total if evil else self.value(lives)
        n = len(self.weights)
        wrong = np.zeros(n, np.int64)
        count = np.zeros(n, np.int64)
        letters = np.zeros((n, 26), np.uint8)
        size = max(1, n * 27)
        node_letter = np.empty(size, np.int64)
        node_parent = np.empty(size, np.int64)
        node_mask = np.empty(size, np.int64)
        node_word = np.empty(size, np.int64)
        grow = self._stats[kx.ST_GROW]
        self._stats[kx.ST_GROW] = 0        # the walk never stops for a larger table
        try:
            nodes = kx.walk(self.masks, self.presence, self.weights, self.fweights, self.uniform,
                            lives, evil, *self._table, self._wtab, self._stats, wrong,
                            count, letters, node_letter, node_parent, node_mask, node_word)
        finally:
            self._stats[kx.ST_GROW] = grow
        won = int(self.weights[wrong < lives].sum())
        if nodes < 0 or won != value:       # a broken invariant, never a user's mistake
            raise RuntimeError(f"the optimal tree wins {won}, the search found {value}")
        return ExactPlay(lives, value, wrong, count, letters, node_letter[:nodes].copy(),
                         node_parent[:nodes].copy(), node_mask[:nodes].copy(),
                         node_word[:nodes].copy(), time.perf_counter() - start, self.stats)

    def evil_misses(self) -> int:
        """The least number of misses a guesser can guarantee against an adversary who may
        switch to any word consistent with the answers (uniform weights whatever the prior).
        A guesser with one more life than this wins every word."""
        if not self.uniform:
            return ExactHangman(self.game, memory=self.memory, uniform=True).evil_misses()
        n = len(self.weights)
        zero = np.uint64(0)

        def run():
            idx = np.arange(n, dtype=np.int64)
            return int(kx.evil_search(self.masks, self.presence, self.weights, idx, 0, n,
                                      (1 << self.length) - 1, zero, zero, zero, 0, n + 1,
                                      *self._table, self._wtab, self._stats))

        return self._until_done(run)

    def evil_state(self, candidates: Any, pattern: str, wrong: str = "") -> int:
        """The adversary's value (:meth:`evil_misses`) from a position of the game: the
        candidates (word indices) that fit ``pattern`` (``_`` unknown) without the
        ``wrong`` letters. Shares the memo with every other position of this list."""
        if not self.uniform:
            raise DeductiveError("evil_state needs a solver with unit weights (uniform=True)")
        idx0 = np.asarray(candidates, dtype=np.int64)
        if len(idx0) <= 1:
            return 0
        k0 = k1 = k2 = np.uint64(0)
        open_mask = (1 << self.length) - 1
        for ch in set(pattern) - {"_"}:
            mask = sum(1 << i for i, x in enumerate(pattern) if x == ch)
            k0, k1, k2 = kx.reveal(k0, k1, k2, ord(ch) - 97, mask)
            open_mask &= ~mask
        missed = sum(1 << (ord(ch) - 97) for ch in set(wrong))

        def run():
            idx = idx0.copy()
            return int(kx.evil_search(self.masks, self.presence, self.weights, idx, 0, len(idx),
                                      open_mask, k0, k1, k2, missed, len(idx) + 1,
                                      *self._table, self._wtab, self._stats))

        return self._until_done(run)


def _check_lives(lives) -> int:
    lives = int(lives)
    if not 1 <= lives <= 26:
        raise DeductiveError(f"lives must be between 1 and 26, not {lives}")
    return lives
