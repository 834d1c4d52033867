"""Exact Hangman: the optimal strategy with L lives, the adversary's value, strategy trees.

:class:`ExactHangman` wraps the memoised search of :mod:`deductive.kernels.hangman_exact`
for one word list: :meth:`~ExactHangman.value` is the most words (or prior weight) any
strategy wins with L lives (the L-th miss loses), :meth:`~ExactHangman.play` plays every
word by an optimal strategy and returns its tree, :meth:`~ExactHangman.evil_misses` is the
least number of misses a guesser can guarantee against an adversary who may switch to any
word consistent with the answers so far (the minimax value). The memo grows by doubling up
to a memory budget and then evicts, so memory stays bounded and results stay exact.

Trees are plain JSON (:func:`tree_to_json`) and :func:`check_tree` replays every word
against one without using the search or the kernels.

Ties between equally good letters go to the first letter in the search's order: fewest
misses (by weight) first, then the earliest letter; a letter that every candidate has
(a free letter) is played at once, the earliest if several.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass

import numpy as np

from ..errors import DeductiveError

__all__ = ["ExactHangman", "ExactPlay", "tree_to_json", "check_tree", "TreeCheck",
           "DEFAULT_MEMORY", "PRIOR_SCALE"]

#: Default memory budget of the memo (bytes).
DEFAULT_MEMORY = 4 * 2 ** 30
#: A prior is quantised to integers summing to about this (relative error 1e-12), so that
#: the search adds and compares weights exactly.
PRIOR_SCALE = 2 ** 40
_SLOT_BYTES = 32 + 8 + 8 + 1 + 1 + 4
TREE_FORMAT = "deductive-hangman-tree"


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

    def __init__(self, game, *, memory: int = DEFAULT_MEMORY, uniform: bool = False,
                 weights=None):
        from ..kernels import hangman_exact as kx

        self._kx = kx
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
        kx = self._kx
        return {"entries": int(self._stats[kx.ST_ENTRIES]), "nodes": int(self._stats[kx.ST_NODES]),
                "expanded": int(self._stats[kx.ST_EXPANDED]),
                "evicted": int(self._stats[kx.ST_EVICTED]),
                "table_bytes": int(self._table[0].shape[0] * _SLOT_BYTES)}

    # -- the memo --------------------------------------------------------------------------
    def _grow(self):
        kx = self._kx
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
        kx = self._kx
        while True:
            self._stats[kx.ST_FULL] = 0
            result = run()
            if not self._stats[kx.ST_FULL]:
                return result
            self._grow()

    def _search(self, lives, alpha):
        kx = self._kx
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
        kx = self._kx
        lives = _check_lives(lives)
        self.value(lives)
        n = len(self.weights)
        if n > lives:
            zero = np.uint64(0)
            slot = kx.table_find(self._table[0], self._table[5], zero, zero, zero,
                                 np.uint64(lives) << np.uint64(kx.LIVES_SHIFT))
            if slot >= 0 and self._table[4][slot] == kx.SEARCHED:
                return chr(97 + int(self._table[3][slot]))
        from ..kernels.hangman import MIN_MISS, choose_greedy

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
        kx = self._kx
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
        kx = self._kx
        n = len(self.weights)
        zero = np.uint64(0)

        def run():
            idx = np.arange(n, dtype=np.int64)
            return int(kx.evil_search(self.masks, self.presence, self.weights, idx, 0, n,
                                      (1 << self.length) - 1, zero, zero, zero, 0, n + 1,
                                      *self._table, self._wtab, self._stats))

        return self._until_done(run)

    def evil_state(self, candidates, pattern: str, wrong: str = "") -> int:
        """The adversary's value (:meth:`evil_misses`) from a position of the game: the
        candidates (word indices) that fit ``pattern`` (``_`` unknown) without the
        ``wrong`` letters. Shares the memo with every other position of this list."""
        if not self.uniform:
            raise DeductiveError("evil_state needs a solver with unit weights (uniform=True)")
        kx = self._kx
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


# -- trees ---------------------------------------------------------------------------------
def words_sha256(words) -> str:
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


def tree_to_json(play: ExactPlay, words, *, strategy="optimal", source="") -> dict:
    """The strategy of ``play`` as a JSON-ready dict.

    A node is ``{"guess": letter, "hits": {pattern: node}, "miss": node}`` (a pattern
    shows the guessed letter where the word has it, ``_`` elsewhere; ``miss`` is absent if
    every candidate has the letter) or a leaf ``{"word": word}`` once one candidate is left.
    """
    words = list(words)
    length = len(words[0])
    nodes = [None] * len(play.node_letter)
    order = range(len(nodes) - 1, -1, -1)      # children are numbered after their parent
    children: dict = {}
    for k in order:
        if play.node_letter[k] < 0:
            nodes[k] = {"word": words[int(play.node_word[k])]}
        else:
            letter = chr(97 + int(play.node_letter[k]))
            node = {"guess": letter, "hits": {}}
            for child in reversed(children.get(k, [])):
                mask = int(play.node_mask[child])
                if mask == 0:
                    node["miss"] = nodes[child]
                else:
                    pattern = "".join(letter if mask >> i & 1 else "_" for i in range(length))
                    node["hits"][pattern] = nodes[child]
            nodes[k] = node
        if k:
            children.setdefault(int(play.node_parent[k]), []).append(k)
    return {"format": TREE_FORMAT, "version": 1, "strategy": strategy, "source": source,
            "length": length, "lives": play.lives, "words": len(words),
            "words_sha256": words_sha256(words), "wins": int((play.wrong < play.lives).sum()),
            "tree": nodes[0]}


@dataclass
class TreeCheck:
    """What :func:`check_tree` found."""

    words: int
    wins: int
    lives: int
    max_misses: int
    claimed_wins: int | None
    errors: list

    @property
    def ok(self) -> bool:
        return not self.errors and (self.claimed_wins is None or self.claimed_wins == self.wins)


def check_tree(tree: dict, words, lives: int | None = None, max_errors: int = 10) -> TreeCheck:
    """Replay every word against a strategy tree (plain Python, independent of the search).

    A word is won when the tree reaches its own leaf with fewer than ``lives`` misses
    (default: the tree's). Errors: a leaf naming another word (the tree confuses two
    words), a missing branch, a letter guessed twice on a path, a malformed node.
    """
    words = list(words)
    if not isinstance(tree, dict) or tree.get("format") != TREE_FORMAT or "tree" not in tree:
        raise DeductiveError(f"not a deductive Hangman tree (expected \"format\": "
                             f"\"{TREE_FORMAT}\"); write one with --tree")
    if lives is None:
        lives = int(tree.get("lives", 0))
    if lives < 1:
        raise DeductiveError("the tree names no lives; give --lives")
    errors = []
    wins = 0
    max_misses = 0
    for word in words:
        node = tree["tree"]
        misses = 0
        guessed = set()
        problem = None
        while problem is None and "word" not in node:
            letter = node.get("guess")
            if not isinstance(letter, str) or len(letter) != 1 or letter in guessed:
                problem = f"bad or repeated guess {letter!r}"
                break
            guessed.add(letter)
            if letter in word:
                pattern = "".join(ch if ch == letter else "_" for ch in word)
                node = node.get("hits", {}).get(pattern)
                if node is None:
                    problem = f"no branch for {pattern} after {''.join(sorted(guessed))}"
            else:
                misses += 1
                node = node.get("miss")
                if node is None:
                    problem = f"no miss branch after {''.join(sorted(guessed))}"
            if problem is None and not isinstance(node, dict):
                problem = "malformed node"
        if problem is None and node["word"] != word:
            problem = f"reaches the leaf of {node['word']!r}"
        if problem is not None:
            if len(errors) < max_errors:
                errors.append(f"{word}: {problem}")
            else:
                errors.append("...")
                break
            continue
        max_misses = max(max_misses, misses)
        wins += misses < lives
    claimed = tree.get("wins") if lives == tree.get("lives") else None
    return TreeCheck(len(words), wins, lives, max_misses, claimed, errors)


def load_tree(path) -> dict:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise DeductiveError(f"{path}: no such file; give a tree written with --tree") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DeductiveError(f"{path}: not JSON ({exc}); give a tree written with --tree") \
            from None
