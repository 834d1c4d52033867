"""Minesweeper kernels: log-domain polynomials in the number of mines.

A polynomial in the number of mines is an array of natural logarithms of its coefficients
(-inf for a zero coefficient). Sums of positive terms are taken as max + log(sum(exp(x -
max))): nothing underflows or overflows whatever the size of the counts, a coefficient is
-inf exactly when no arrangement contributes to it, and each operation adds a relative
error of a few units in the last place.
"""

import numpy as np

from ._config import CACHE, SERIAL, njit


@njit(cache=CACHE, inline="always", **SERIAL)
def log_add(a, b):
    """``log(exp(a) + exp(b))``, exact for -inf."""
    if a == -np.inf:
        return b
    if b == -np.inf:
        return a
    if a > b:
        return a + np.log1p(np.exp(b - a))
    return b + np.log1p(np.exp(a - b))


@njit(cache=CACHE, **SERIAL)
def log_convolve(a, b):
    """``c[t] = log(sum_i exp(a[i] + b[t - i]))``: the product of two log-polynomials."""
    na = a.shape[0]
    nb = b.shape[0]
    out = np.full(na + nb - 1, -np.inf)
    for t in range(na + nb - 1):
        lo = max(0, t - nb + 1)
        hi = min(na - 1, t)
        top = -np.inf
        for i in range(lo, hi + 1):
            v = a[i] + b[t - i]
            if v > top:
                top = v
        if top == -np.inf:
            continue
        s = 0.0
        for i in range(lo, hi + 1):
            v = a[i] + b[t - i]
            if v > -np.inf:
                s += np.exp(v - top)
        out[t] = top + np.log(s)
    return out


@njit(cache=CACHE, **SERIAL)
def log_correlate(a, r, shift):
    """``out[j] = log(sum_i exp(a[i] + r[i + j + shift]))`` for ``j`` in
    ``0 .. len(r) - len(a) - shift``: weights of what ``a`` leaves to ``r``."""
    na = a.shape[0]
    n_out = r.shape[0] - na - shift + 1
    out = np.full(max(n_out, 0), -np.inf)
    for j in range(n_out):
        top = -np.inf
        for i in range(na):
            v = a[i] + r[i + j + shift]
            if v > top:
                top = v
        if top == -np.inf:
            continue
        s = 0.0
        for i in range(na):
            v = a[i] + r[i + j + shift]
            if v > -np.inf:
                s += np.exp(v - top)
        out[j] = top + np.log(s)
    return out


@njit(cache=CACHE, **SERIAL)
def log_sum(x):
    """``log(sum(exp(x)))``; -inf for an empty or all -inf array."""
    top = -np.inf
    for v in x:
        if v > top:
            top = v
    if top == -np.inf:
        return top
    s = 0.0
    for v in x:
        if v > -np.inf:
            s += np.exp(v - top)
    return top + np.log(s)
