"""Foundation benchmarks: the pattern kernel against a careful numpy builder, cache loads, entropy.

Run: ``pytest benchmarks/test_bench_foundation.py --benchmark-columns=median,min,max,rounds``.
Kernels are warmed (compiled) before timing; every comparison is timed in the same run.
"""

import numpy as np
import pytest

from deductive import wordle
from tests.reference import pattern_matrix_numpy


def _warm(func, *args):
    func(*args)
    return func


@pytest.mark.parametrize("shape", ["12972x12972", "12972x2315"])
def test_build_kernel(benchmark, original_lists, shape):
    guesses, answers = original_lists
    columns = guesses if shape == "12972x12972" else answers
    _warm(wordle.pattern_matrix, guesses[:10], columns[:10])
    result = benchmark.pedantic(wordle.pattern_matrix, (guesses, columns), rounds=7,
                                warmup_rounds=1)
    assert result.shape == (len(guesses), len(columns))


@pytest.mark.parametrize("shape", ["12972x12972", "12972x2315"])
def test_build_numpy_reference(benchmark, original_lists, shape):
    guesses, answers = original_lists
    columns = guesses if shape == "12972x12972" else answers
    result = benchmark.pedantic(pattern_matrix_numpy, (guesses.codes, columns.codes),
                                rounds=3 if shape == "12972x12972" else 5)
    assert result.shape == (len(guesses), len(columns))


def test_cache_load_12972x12972(benchmark, original_lists, tmp_path):
    guesses, _ = original_lists
    wordle.cached_pattern_matrix(guesses, guesses, tmp_path)   # build once

    def load():
        info = {}
        matrix = wordle.cached_pattern_matrix(guesses, guesses, tmp_path, info=info)
        assert info["source"] == "cache"
        return matrix

    result = benchmark.pedantic(load, rounds=7, warmup_rounds=1)
    assert result.shape == (12972, 12972)


def entropy_numpy(matrix: np.ndarray) -> np.ndarray:
    """Reference: one bincount over all rows (codes offset by row), then the entropy formula."""
    n_rows, n = matrix.shape
    offsets = (np.arange(n_rows, dtype=np.int64) * 243)[:, None]
    counts = np.bincount((matrix + offsets).ravel(), minlength=n_rows * 243).reshape(n_rows, 243)
    p = counts / n
    with np.errstate(divide="ignore", invalid="ignore"):
        return -np.where(counts > 0, p * np.log2(p), 0.0).sum(axis=1)


@pytest.fixture(scope="module")
def answer_matrix(original_lists):
    guesses, answers = original_lists
    return wordle.pattern_matrix(guesses, answers)


def test_entropy_all_guesses_kernel(benchmark, answer_matrix):
    _warm(wordle.partition_stats, answer_matrix[:5])
    stats = benchmark.pedantic(wordle.partition_stats, (answer_matrix,), rounds=21,
                               warmup_rounds=2)
    np.testing.assert_allclose(stats.entropy, entropy_numpy(answer_matrix), atol=1e-9)


def test_entropy_all_guesses_numpy_reference(benchmark, answer_matrix):
    result = benchmark.pedantic(entropy_numpy, (answer_matrix,), rounds=7, warmup_rounds=1)
    assert result.shape == (12972,)
