"""Hangman strategies, found by name in the registry :data:`STRATEGIES`.

A strategy sweeps a whole list (:meth:`~Strategy.sweep`: the per-word misses, guesses and
letters) and picks the next letter of one position (:meth:`~Strategy.choose`). Ties always
go to the earliest letter (entropies within 1e-12 bits of the best are ties:
:data:`~deductive.kernels.hangman.ENTROPY_TIE`).

``min-miss``
    The original programs' greedy: the letter fewest candidates lack.
``max-hit``
    The letter most likely to be in the word under the prior (``min-miss`` when uniform).
``entropy``
    The letter whose split of the candidates by positions has the most entropy.
``best-lives``
    Maximise the probability of winning with L lives (a word is won with at most L - 1
    misses). Every letter is scored by a rollout: the weight won when it is followed by
    ``min-miss``, so it never wins less than ``min-miss``. Wherever a candidate set has at
    most ``exact_limit`` words (default 16) and the rollout would lose some of them, an
    exact memoised search over the partition tree with an upper bound takes over: there it
    is optimal.
``optimal``
    The most words (prior weight) won with L lives, by exact search over the whole list
    (:mod:`deductive.engine.hangman.exact`); once a word is lost it finishes with
    ``min-miss``, as with ``best-lives``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import lru_cache
from typing import Any

import numpy as np

from ...kernels import hangman as kh
from ..params import Param
from ..registry import Registry

__all__ = ["STRATEGIES", "Strategy", "make_strategy"]

#: Name -> strategy factory, description and options.
STRATEGIES = Registry("strategy")


class Strategy(ABC):
    """What every strategy provides; a game (:class:`~deductive.engine.hangman.Hangman`)
    gives it the words' position masks, presence bits and prior weights (typed ``Any``:
    :mod:`.game` imports this module)."""

    name = ""

    @abstractmethod
    def sweep(self, game: Any, lives: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
        """Play every word of ``game``: ``(wrong, count, letters, exact_play)`` in list
        order (``exact_play`` is the :class:`~deductive.engine.hangman.ExactPlay` of an
        exact search, else None)."""

    @abstractmethod
    def choose(self, game: Any, idx: np.ndarray, guessed_bits: int, lives_left: int) -> int:
        """The next letter (0 = a) for the candidates ``idx`` (word indices)."""


def make_strategy(name: str, **settings: Any) -> Strategy:
    """The strategy ``name``, given those of ``settings`` it accepts (a sweep passes every
    setting; ``exact_limit`` matters to ``best-lives`` alone, ``memory`` to ``optimal``)."""
    entry = STRATEGIES[name]
    return STRATEGIES.create(name, **{k: v for k, v in settings.items() if k in entry.names})


def _tree(game, code, lives, exact_limit):
    """The kernel's decision tree over every word: per-word arrays and the deferred nodes."""
    n = len(game.words)
    wrong = np.zeros(n, np.int64)
    count = np.zeros(n, np.int64)
    letters = np.zeros((n, 26), np.uint8)
    deferred = np.zeros((max(n, 1), 4), np.int64)
    idx, n_deferred = kh.sweep_tree(game.masks, game.presence, game.weights, code, lives,
                                    exact_limit, wrong, count, letters, deferred)
    return wrong, count, letters, idx, deferred[:n_deferred]


class _Greedy(Strategy):
    def __init__(self, name, code):
        self.name, self.code = name, code

    def sweep(self, game, lives):
        wrong, count, letters, _, _ = _tree(game, self.code, lives, 0)
        return wrong, count, letters, None

    def choose(self, game, idx, guessed_bits, lives_left):
        return int(kh.choose_greedy(game.masks, game.presence, game.weights, idx, 0, len(idx),
                                    guessed_bits, self.code))


#: best-lives' option.
EXACT_LIMIT = Param("exact_limit", 16, "best-lives: exact search on candidate sets up to this "
                    "size.", int, 0, 64)


def _register_greedy(name, code, description):
    STRATEGIES.add(name, lambda: _Greedy(name, code), description)


_register_greedy("min-miss", kh.MIN_MISS,
                 "the letter fewest candidates lack (the original programs' greedy)")
_register_greedy("max-hit", kh.MAX_HIT, "the letter most likely in the word under the prior")
_register_greedy("entropy", kh.ENTROPY, "the letter whose position split has the most entropy")


@STRATEGIES.register("best-lives", "maximise the chance to win with L lives (rollout, exact "
                     "on small sets)", options=(EXACT_LIMIT,))
class BestLives(Strategy):
    """Rollout scores, and an exact search on candidate sets of at most ``exact_limit``."""

    name = "best-lives"

    def __init__(self, exact_limit: int = 16):
        self.exact_limit = exact_limit

    def sweep(self, game, lives):
        wrong, count, letters, idx, deferred = _tree(game, kh.BEST_LIVES, lives,
                                                     self.exact_limit)
        if len(deferred):
            solver = SmallSetSolver(game.masks, game.weights, lives)
            for a, b, guessed, misses in deferred:
                solver.play_out(tuple(int(w) for w in idx[a:b]), int(guessed), int(misses),
                                wrong, count, letters)
        return wrong, count, letters, None

    def choose(self, game, idx, guessed_bits, lives_left):
        if len(idx) <= self.exact_limit:
            _, letter = SmallSetSolver(game.masks, game.weights, lives_left).best(
                tuple(int(w) for w in idx), lives_left)
            if letter >= 0:
                return letter
        letter, _ = kh.choose_rollout(game.masks, game.presence, game.weights, idx, 0,
                                      len(idx), guessed_bits, 0, lives_left)
        return int(letter)


@STRATEGIES.register("optimal", "the most words won with L lives (exact search over the "
                     "whole list)", options=("memory",))
class Optimal(Strategy):
    """The exact search of :class:`~deductive.engine.hangman.ExactHangman`; ``memory`` is
    its memo's budget in bytes (default: that of the game's solver)."""

    name = "optimal"

    def __init__(self, memory: int | None = None):
        self.memory = memory

    def sweep(self, game, lives):
        play = game.exact(self.memory).play(lives)
        return play.wrong, play.count, play.letters, play

    def choose(self, game, idx, guessed_bits, lives_left):
        # a search over the candidates alone (the guessed letters split none of them)
        sub = game.subgame(idx)
        return ord(sub.exact(self.memory).first_letter(lives_left)) - 97


class SmallSetSolver:
    """Exact maximum of the weight won on small candidate sets, memoised.

    ``best(S, lives)`` is the most weight of S a player can win when ``lives`` more misses
    lose: only letters that split S (or that every word of S has) are worth trying, so the
    state is the set and the lives left. Letters are tried in order of fewest misses and
    cut off when even winning every word they could cannot beat the best so far.
    """

    def __init__(self, masks, weights, lives):
        self.masks = masks
        self.weights = weights
        self.lives = lives
        self.best = lru_cache(maxsize=None)(self._best)

    def _groups(self, words, c):
        groups: dict = {}
        for w in words:
            groups.setdefault(int(self.masks[w, c]), []).append(w)
        return groups

    def _best(self, words, lives):
        """(weight won, letter) for a tuple of word indices and the lives left."""
        total = float(sum(self.weights[w] for w in words))
        if lives <= 0:
            return 0.0, -1
        if len(words) == 1:
            return total, -1
        options = []
        for c in range(26):
            groups = self._groups(words, c)
            if len(groups) == 1:
                continue        # nobody has it (a wasted life), or no information
            miss_weight = float(sum(self.weights[w] for w in groups.get(0, [])))
            options.append((miss_weight, c, groups))
        options.sort(key=lambda item: (item[0], item[1]))
        best_value, best_letter = -1.0, -1
        for miss_weight, c, groups in options:
            bound = total - miss_weight if lives == 1 else total
            if bound <= best_value:
                continue
            value = 0.0
            for key, group in groups.items():
                value += self.best(tuple(group), lives - (1 if key == 0 else 0))[0]
            if value > best_value:
                best_value, best_letter = value, c
                if best_value >= total:
                    break
        return best_value, best_letter

    def play_out(self, words, guessed, misses, wrong, count, letters):
        """Follow the exact policy from a node; record each word's misses and letters.

        Once no word can be won any more, ``min-miss`` finishes the words (for their
        difficulty tuples).
        """
        stack = [(words, guessed, misses)]
        while stack:
            group, g, m = stack.pop()
            if len(group) == 1:
                continue
            letter = -1
            if m < self.lives:
                value, letter = self.best(group, self.lives - m)
                if value <= 0:
                    letter = -1
            if letter < 0:
                letter = self._min_miss(group, g)
            for key, sub in self._groups(group, letter).items():
                for w in sub:
                    letters[w, count[w]] = letter
                    count[w] += 1
                    wrong[w] += key == 0
                stack.append((tuple(sub), g | (1 << letter), m + (key == 0)))

    def _min_miss(self, words, guessed):
        best, best_count = -1, -1
        for c in range(26):
            if (guessed >> c) & 1:
                continue
            n = sum(1 for w in words if self.masks[w, c])
            if n > best_count:
                best, best_count = c, n
        return best


#: The parameters of a strategy's play: its name, the lives (the L-th miss loses) and the
#: ``memory`` (GB) of the exact searches.
STRATEGY = STRATEGIES.param("strategy", "min-miss")
LIVES = Param("lives", 6, "The L-th wrong guess loses (a word is won with at most L-1).", int,
              1, 26)
MEMORY = Param("memory", 4.0, "optimal / evil: memory budget of the search's memo (past it the "
               "memo evicts: slower, never wrong).", float, 0.01, 1024, metavar="GB")
