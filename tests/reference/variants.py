"""Wordle variants: Absurdle and multi-board Wordle."""

from __future__ import annotations

import itertools
import math
from collections import Counter

from .feedback import feedback_code, feedback_digits


def absurdle_keep(guess: str, candidates) -> tuple[int, list]:
    """The adversary's (code, kept words): the largest bucket; ties to fewest greens, then
    fewest yellows, then grey < yellow < green from the first letter."""
    buckets: dict = {}
    for word in candidates:
        buckets.setdefault(tuple(feedback_digits(guess, word)), []).append(word)
    digits = min(buckets, key=lambda d: (-len(buckets[d]), d.count(2), d.count(1), d))
    return sum(x * 3 ** i for i, x in enumerate(digits)), buckets[digits]


def absurdle_fewest(guesses, answers, limit=6):
    """Brute force: fewest guesses forcing a win (breadth-first over kept sets), or None."""
    level = {tuple(answers)}
    for depth in range(1, limit + 1):
        if any(len(s) == 1 for s in level):
            return depth
        level = {tuple(absurdle_keep(g, s)[1]) for s in level for g in guesses}
    return None


def multi_play(guesses, answers, targets) -> list:
    """One multi-board game with the entropy rule computed over the product partition
    itself (every tuple of the boards' candidates): the guesses played."""
    boards = {k: list(answers) for k in range(len(targets))}
    played = []
    while boards:
        known = [c[0] for c in boards.values() if len(c) == 1]
        if known:
            guess = known[0]
        else:
            def joint(g):
                mass: Counter = Counter()
                for combo in itertools.product(*boards.values()):
                    mass[tuple(feedback_code(g, a) for a in combo)] += 1
                n = sum(mass.values())
                return round(-sum(m / n * math.log2(m / n) for m in mass.values()), 9)

            scores = {g: joint(g) for g in guesses}
            top = max(scores.values())
            tied = [g for g in guesses if scores[g] == top]
            listed = [g for g in tied if any(g in c for c in boards.values())]
            guess = (listed or tied)[0]
        played.append(guess)
        for k in list(boards):
            code = feedback_code(guess, targets[k])
            if guess == targets[k]:
                del boards[k]
            else:
                boards[k] = [a for a in boards[k] if feedback_code(guess, a) == code]
    return played
