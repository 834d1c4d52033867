"""Bit tricks with names, so kernels read as what they mean."""

from ._config import CACHE, SERIAL, njit


@njit(cache=CACHE, inline="always", **SERIAL)
def popcount(x):
    """Number of set bits of a non-negative integer."""
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=CACHE, inline="always", **SERIAL)
def lowest_bit_index(x):
    """Index of the lowest set bit of x > 0."""
    index = 0
    while (x & 1) == 0:
        x >>= 1
        index += 1
    return index
