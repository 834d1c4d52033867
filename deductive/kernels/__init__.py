"""Compiled kernels: pure numba functions over arrays and scalars (no str, dict or objects).

Importing this package compiles nothing; each kernel is compiled (or loaded from numba's
on-disk cache) on its first call.
"""
