"""Hangman: letter masks, partitions, greedy and exact play, the adversary."""

from __future__ import annotations

import math


ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def hangman_mask(word: str, letter: str) -> int:
    return sum(1 << i for i, ch in enumerate(word) if ch == letter)


def hangman_partition(letter: str, words) -> dict:
    """The original programs' partition: mask of the letter's positions -> words, in order."""
    groups: dict = {}
    for w in words:
        groups.setdefault(hangman_mask(w, letter), []).append(w)
    return groups


def hangman_min_miss(words, wrong=0, letters=""):
    """The original programs' greedy sweep, as written there: yields (wrong, guesses, word,
    letters)."""
    if len(words) == 1:
        yield wrong, len(letters), words[0], letters
        return
    best = min((g for g in ALPHABET if g not in letters),
               key=lambda g: sum(g not in w for w in words))
    for pattern, group in hangman_partition(best, words).items():
        yield from hangman_min_miss(group, wrong + (pattern == 0), letters + best)


def hangman_split_entropy(words, letter, weights=None) -> float:
    weights = weights or {w: 1.0 for w in words}
    total = sum(weights[w] for w in words)
    mass: dict = {}
    for w in words:
        key = hangman_mask(w, letter)
        mass[key] = mass.get(key, 0.0) + weights[w]
    return -sum(m / total * math.log2(m / total) for m in mass.values() if m > 0)


def hangman_greedy(words, choose, wrong=0, letters=""):
    """A greedy sweep with any letter rule ``choose(words, letters) -> letter``."""
    if len(words) == 1:
        yield wrong, len(letters), words[0], letters
        return
    best = choose(words, letters)
    for pattern, group in hangman_partition(best, words).items():
        yield from hangman_greedy(group, choose, wrong + (pattern == 0), letters + best)


def hangman_best_wins(words, lives) -> int:
    """Brute force: the most words any strategy wins (fewer than ``lives`` misses left)."""
    if lives <= 0:
        return 0
    if len(words) == 1:
        return 1
    best = 0
    for letter in ALPHABET:
        groups = hangman_partition(letter, words)
        if len(groups) == 1:
            continue
        value = sum(hangman_best_wins(g, lives - (key == 0)) for key, g in groups.items())
        best = max(best, value)
    return best


def hangman_best_weight(words, weights, lives) -> int:
    """Brute force: the most weight any strategy wins with ``lives`` lives (the L-th miss
    loses); ``weights`` maps each word to an integer."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def best(group, left):
        if left <= 0:
            return 0
        if len(group) == 1:
            return weights[group[0]]
        value = 0
        for letter in ALPHABET:
            parts = hangman_partition(letter, group)
            if len(parts) == 1:
                continue
            value = max(value, sum(best(tuple(g), left - (key == 0)) for key, g in parts.items()))
        return value

    return best(tuple(words), lives)


def hangman_evil_misses(words) -> int:
    """Brute force: the least number of misses a guesser can guarantee when the adversary
    may answer with any word consistent so far (minimax over every splitting letter)."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def value(group):
        if len(group) <= 1:
            return 0
        result = len(group)
        for letter in ALPHABET:
            parts = hangman_partition(letter, group)
            if len(parts) == 1:
                continue
            result = min(result, max(value(tuple(g)) + (key == 0) for key, g in parts.items()))
        return result

    return value(tuple(words))


def hangman_play_tree(tree, word):
    """(misses, reached leaf word or None) of ``word`` played against a JSON tree."""
    node, misses = tree["tree"], 0
    while "word" not in node:
        letter = node["guess"]
        if letter in word:
            node = node["hits"].get("".join(ch if ch == letter else "_" for ch in word))
        else:
            misses += 1
            node = node.get("miss")
        if node is None:
            return misses, None
    return misses, node["word"]
