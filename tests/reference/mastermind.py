"""Mastermind and Bulls and Cows: pegs, the code matrix, symmetry, exact depths."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np


def mastermind_pegs(guess, answer) -> tuple[int, int]:
    """(black, white): pegs in place, then colours in common less those in place."""
    black = sum(g == a for g, a in zip(guess, answer))
    common = sum((Counter(guess) & Counter(answer)).values())
    return black, common - black


def mastermind_matrix(codes) -> np.ndarray:
    pegs = len(codes[0])
    return np.array([[b * (pegs + 1) + w for b, w in (mastermind_pegs(g, a) for a in codes)]
                     for g in codes], dtype=np.int64)


def canonical_sequence(history, feedbacks) -> tuple:
    """The least reading of a history over every order of it and every permutation of
    the positions: its feedbacks, then its columns in the permuted order with the colours
    renamed 0, 1, ... by first appearance (brute force: the kernel's twin)."""
    pegs = len(history[0])
    best = None
    for order in itertools.permutations(range(len(history))):
        for sigma in itertools.permutations(range(pegs)):
            names = {}
            seq = [feedbacks[j] for j in order]
            for i in range(pegs):
                for j in order:
                    seq.append(names.setdefault(history[j][sigma[i]], len(names)))
            if best is None or seq < best:
                best = seq
    return tuple(best)


def _guess_groups(matrix, win, cands):
    """For every guess that tells the candidates apart (or may win): code -> candidates."""
    for g in range(matrix.shape[0]):
        groups = {}
        for a in cands:
            groups.setdefault(int(matrix[g, a]), []).append(a)
        if len(groups) > 1 or win in groups:
            yield groups


def minimax_depth(matrix, win, cands=None, _memo=None) -> int:
    """Least worst case over every tree (brute force over every guess, memoised by set)."""
    memo = {} if _memo is None else _memo
    cands = tuple(range(matrix.shape[1])) if cands is None else cands
    if len(cands) == 1:
        return 1
    if cands in memo:
        return memo[cands]
    best = math.inf
    for groups in _guess_groups(matrix, win, cands):
        depth = 1 + max((minimax_depth(matrix, win, tuple(grp), memo)
                         for code, grp in groups.items() if code != win), default=0)
        best = min(best, depth)
    memo[cands] = best
    return best


def optimal_total(matrix, win, cands=None, _memo=None) -> tuple[int, int]:
    """(total, worst) of the best tree over any guess matrix, ties to the smaller worst
    case (brute force over every guess, memoised by set)."""
    memo = {} if _memo is None else _memo
    cands = tuple(range(matrix.shape[1])) if cands is None else cands
    if len(cands) == 1 and matrix[cands[0], cands[0]] == win:
        return 1, 1
    if cands in memo:
        return memo[cands]
    best = (math.inf, math.inf)
    for groups in _guess_groups(matrix, win, cands):
        total, worst = len(cands), 1
        for code, grp in groups.items():
            if code != win:
                sub = optimal_total(matrix, win, tuple(grp), memo)
                total, worst = total + sub[0], max(worst, 1 + sub[1])
        best = min(best, (total, worst))
    memo[cands] = best
    return best
