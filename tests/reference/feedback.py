"""Wordle's feedback, its pattern matrix and its rules (hard mode, consistency)."""

from __future__ import annotations

from collections import Counter

import numpy as np


def feedback_digits(guess: str, answer: str) -> list[int]:
    """Wordle's rule, spelled out: greens first, then yellows left to right while copies last."""
    result = [0] * len(guess)
    unmatched = Counter()
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            result[i] = 2
        else:
            unmatched[a] += 1
    for i, g in enumerate(guess):
        if result[i] == 0 and unmatched[g] > 0:
            result[i] = 1
            unmatched[g] -= 1
    return result


def feedback_code(guess: str, answer: str) -> int:
    return sum(d * 3 ** i for i, d in enumerate(feedback_digits(guess, answer)))


def pattern_matrix(guesses, answers) -> np.ndarray:
    return np.array([[feedback_code(g, a) for a in answers] for g in guesses], dtype=np.int64)


def pattern_matrix_numpy(guess_codes: np.ndarray, answer_codes: np.ndarray,
                         chunk: int = 64, dtype=np.uint8) -> np.ndarray:
    """A careful plain-numpy builder (no numba, no Python loop per pair): the benchmark reference.

    Broadcasts a chunk of guesses against all answers, with small batched matmuls for the
    per-letter counts. For guess position i with letter c: green if the answer has c at i;
    else yellow while the answer's copies of c not matched green outnumber the earlier
    non-green positions of the guess that hold c.
    """
    n_guesses, length = guess_codes.shape
    n_answers = answer_codes.shape[0]
    out = np.empty((n_guesses, n_answers), dtype=dtype)
    counts = np.zeros((n_answers, 26), np.float32)       # copies of each letter in each answer
    np.add.at(counts, (np.repeat(np.arange(n_answers), length), answer_codes.ravel()), 1)
    powers = (3.0 ** np.arange(length)).astype(np.float32)
    before = np.triu(np.ones((length, length), bool), 1)  # [j, i]: position j comes before i
    for start in range(0, n_guesses, chunk):
        g = guess_codes[start:start + chunk]
        green = (g[:, None, :] == answer_codes[None]).astype(np.float32)  # chunk, answers, L
        same = g[:, :, None] == g[:, None, :]                              # chunk, L(j), L(i)
        # copies of letter g[i] in the answer, minus those matched green
        avail = counts[:, g].transpose(1, 0, 2) - green @ same.astype(np.float32)
        # earlier non-green positions of the guess with the same letter
        earlier = (1 - green) @ (same & before).astype(np.float32)
        yellow = (1 - green) * (avail > earlier)
        out[start:start + len(g)] = (2 * green + yellow) @ powers
    return out


def hard_mode_ok(word: str, history) -> bool:
    """NYT hard mode, spelled out: ``history`` is a list of (guess word, digits list)."""
    for guess, digits in history:
        for i, d in enumerate(digits):
            if d == 2 and word[i] != guess[i]:
                return False
        revealed = Counter(guess[i] for i, d in enumerate(digits) if d > 0)
        have = Counter(word)
        if any(have[c] < n for c, n in revealed.items()):
            return False
    return True


def consistent(answer: str, history) -> bool:
    """Whether ``answer`` gives every (guess, digits) of ``history``."""
    return all(feedback_digits(g, answer) == list(d) for g, d in history)
