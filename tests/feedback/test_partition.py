"""Partition statistics (entropy, minimax, expected size) against the dict-based reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from deductive import wordle
from deductive.kernels.partition import group_by_code
from deductive.errors import UnknownNameError

from tests import reference


@st.composite
def matrices_and_candidates(draw):
    n_guesses = draw(st.integers(1, 8))
    n_answers = draw(st.integers(1, 40))
    high = draw(st.sampled_from([3, 20, 243]))
    matrix = draw(arrays(np.uint8, (n_guesses, n_answers), elements=st.integers(0, high - 1)))
    mask = draw(arrays(np.bool_, (n_answers,)))
    return matrix, np.flatnonzero(mask)


@settings(max_examples=300, deadline=None)
@given(matrices_and_candidates())
def test_stats_match_reference(case):
    matrix, candidates = case
    stats = wordle.partition_stats(matrix, candidates)
    for r in range(matrix.shape[0]):
        ref = reference.partition_summary(matrix[r], candidates)
        assert stats.buckets[r] == ref["buckets"]
        assert stats.largest[r] == ref["largest"]
        assert stats.entropy[r] == pytest.approx(ref["entropy"], abs=1e-11)
        assert stats.expected[r] == pytest.approx(ref["expected"], abs=1e-11)


def test_empty_candidate_set():
    matrix = np.array([[0, 1, 2]], dtype=np.uint8)
    stats = wordle.partition_stats(matrix, np.array([], dtype=np.int64))
    assert stats.buckets.tolist() == [0] and stats.largest.tolist() == [0]
    assert stats.entropy.tolist() == [0.0] and stats.expected.tolist() == [0.0]


def test_mask_and_rows_selection():
    matrix = np.array([[0, 0, 1, 1], [0, 1, 2, 3]], dtype=np.uint8)
    stats = wordle.partition_stats(matrix, np.array([True, True, False, True]), rows=[1])
    assert stats.rows.tolist() == [1] and stats.buckets.tolist() == [3]


def test_ties_are_exact_and_go_to_lower_index():
    # rows 0 and 2 split the candidates identically up to relabelling of codes
    matrix = np.array([[5, 5, 7, 9], [1, 1, 1, 1], [9, 9, 1, 2], [3, 4, 3, 4]], dtype=np.uint8)
    stats = wordle.partition_stats(matrix)
    assert stats.xlogx_sum[0] == stats.xlogx_sum[2]
    assert stats.order("entropy").tolist() == [0, 2, 3, 1]
    assert stats.order("minimax").tolist() == [0, 2, 3, 1]
    assert stats.order("buckets").tolist() == [0, 2, 3, 1]
    with pytest.raises(UnknownNameError, match="entropy, minimax, expected, buckets"):
        stats.order("bogus")


def test_wide_codes_use_the_sparse_path():
    rng = np.random.default_rng(1)
    matrix = rng.integers(0, 59049, size=(5, 30)).astype(np.uint16)
    stats = wordle.partition_stats(matrix)
    for r in range(5):
        ref = reference.partition_summary(matrix[r], range(30))
        assert stats.buckets[r] == ref["buckets"]
        assert stats.entropy[r] == pytest.approx(ref["entropy"], abs=1e-11)


def test_french_seed_top10():
    """The seeds' parity table: exact order and values to 4 decimals."""
    words = wordle.load_words("fr-seed")
    ranked = wordle.rank_guesses(wordle.pattern_matrix(words, words), words, top=10)
    assert [(s.word, round(s.entropy, 4)) for s in ranked] == [
        ("laine", 5.5115), ("paire", 5.4658), ("clair", 5.4650), ("carte", 5.4638),
        ("crane", 5.4451), ("trace", 5.4044), ("train", 5.3747), ("lance", 5.3664),
        ("parie", 5.3537), ("ancre", 5.2983),
    ]


def test_seed_sample_entropies():
    words = wordle.load_words("fr-seed")
    stats = wordle.partition_stats(wordle.pattern_matrix(words, words))
    got = {w: round(float(stats.entropy[words.index(w)]), 3)
           for w in ("crane", "adore", "aimer", "table", "extra", "fleur", "piste", "regle")}
    assert got == {"crane": 5.445, "adore": 4.954, "aimer": 5.027, "table": 5.082,
                   "extra": 4.128, "fleur": 4.368, "piste": 4.818, "regle": 4.759}


def test_original_lists_openers(wordle_lists):
    guesses = wordle.load_words(wordle_lists[0])
    answers = wordle.load_words(wordle_lists[1])
    matrix = wordle.cached_pattern_matrix(guesses, answers)
    ranked = wordle.rank_guesses(matrix, guesses, top=3)
    assert [(s.word, round(s.entropy, 4)) for s in ranked] == [
        ("soare", 5.8860), ("roate", 5.8828), ("raise", 5.8779)]
    full = wordle.partition_stats(matrix)
    for k in (0, 1234, 12971):
        ref = reference.partition_summary(matrix[k], range(2315))
        assert full.entropy[k] == pytest.approx(ref["entropy"], abs=1e-11)


@settings(max_examples=200, deadline=None)
@given(matrices_and_candidates(), st.integers(0, 7), st.integers(0, 242))
def test_bucket_counts_and_filtering_match_reference(case, row, code):
    matrix, candidates = case
    row = row % matrix.shape[0]
    counts = wordle.bucket_counts(matrix, row, candidates)
    ref = reference.bucket_sizes(matrix[row], candidates)
    # a bare array's alphabet ends at its largest code; a PatternMatrix names its own
    assert counts.sum() == len(candidates) and len(counts) == int(matrix.max()) + 1
    assert {c: int(n) for c, n in enumerate(counts) if n} == ref
    patterns = wordle.PatternMatrix.of(matrix, n_codes=243)
    assert wordle.bucket_counts(patterns, row, candidates).tolist() == (
        counts.tolist() + [0] * (243 - len(counts)))
    kept = wordle.filter_candidates(matrix, row, code, candidates)
    assert kept.tolist() == [k for k in candidates if matrix[row, k] == code]


@st.composite
def kernel_cases(draw):
    """A matrix (uint8 or uint16 codes), guess rows (a range or scattered, maybe repeated),
    a candidate set of 1 to 64 answers, and a chunk count."""
    wide = draw(st.booleans())
    n_guesses = draw(st.integers(1, 40))
    n_answers = draw(st.integers(1, 70))
    high = draw(st.sampled_from([2, 5, 243] + ([59049] if wide else [])))
    dtype = np.uint16 if wide else np.uint8
    matrix = draw(arrays(dtype, (n_guesses, n_answers), elements=st.integers(0, high - 1)))
    if draw(st.booleans()):
        lo = draw(st.integers(0, n_guesses - 1))
        rows = np.arange(lo, draw(st.integers(lo + 1, n_guesses)), dtype=np.int64)
    else:
        rows = np.array(draw(st.lists(st.integers(0, n_guesses - 1), min_size=1, max_size=60)),
                        dtype=np.int64)
    k = draw(st.integers(1, min(64, n_answers)))
    candidates = np.array(sorted(draw(st.sets(st.integers(0, n_answers - 1), min_size=k,
                                              max_size=k))), dtype=np.int64)
    return matrix, rows, candidates, (59049 if wide else 243), draw(st.integers(1, 9))


def _stats(kernel, matrix, rows, candidates, n_codes, *tail):
    from deductive.engine.feedback.scoring import xlogx_table

    table, _ = xlogx_table(len(candidates))
    out = [np.full(len(rows), -1, dtype=np.int64) for _ in range(4)]
    if kernel.__name__ == "bucket_stats_columns":
        kernel(np.ascontiguousarray(matrix.T), rows, candidates, table, *out, *tail)
    else:
        kernel(matrix, rows, candidates, n_codes, table, *out, *tail)
    return [o.tolist() for o in out]


@settings(max_examples=300, deadline=None)
@given(kernel_cases())
def test_serial_parallel_and_column_kernels_agree(case):
    """The serial twin, the parallel kernel (any chunk count) and the column kernel give
    the same integers, and they match the dict-based reference."""
    from deductive.kernels import partition

    matrix, rows, candidates, n_codes, chunks = case
    serial = _stats(partition.bucket_stats_rows, matrix, rows, candidates, n_codes,
                    0, len(rows))
    assert _stats(partition.bucket_stats, matrix, rows, candidates, n_codes, chunks) == serial
    assert _stats(partition.bucket_stats_columns, matrix, rows, candidates, n_codes,
                  0, len(rows)) == serial
    for r, row in enumerate(rows):
        ref = reference.partition_summary(matrix[row], candidates)
        assert (serial[1][r], serial[2][r]) == (ref["buckets"], ref["largest"])


@settings(max_examples=200, deadline=None)
@given(kernel_cases())
def test_column_kernel_without_a_table_counts_buckets_and_squares(case):
    """With an empty table the column kernel gives the buckets and squared sizes alone (the
    search's fast path), the same integers as with one."""
    from deductive.kernels import partition

    matrix, rows, candidates, n_codes, _ = case
    full = _stats(partition.bucket_stats_columns, matrix, rows, candidates, n_codes,
                  0, len(rows))
    out = [np.full(len(rows), -1, dtype=np.int64) for _ in range(4)]
    partition.bucket_stats_columns(np.ascontiguousarray(matrix.T), rows, candidates,
                                   np.zeros(0, np.int64), *out, 0, len(rows))
    assert out[1].tolist() == full[1] and out[3].tolist() == full[3]
    assert out[0].tolist() == out[2].tolist() == [0] * len(rows)


@settings(max_examples=200, deadline=None)
@given(kernel_cases())
def test_histogram_counts_match_the_row_kernel(case):
    from deductive.kernels import partition

    matrix, rows, candidates, n_codes, _ = case
    full = _stats(partition.bucket_stats_rows, matrix, rows, candidates, n_codes, 0, len(rows))
    buckets, sumsq = (np.full(len(rows), -1, np.int64) for _ in range(2))
    partition.bucket_counts_columns(np.ascontiguousarray(matrix.T), rows, candidates,
                                    n_codes, buckets, sumsq, 0, len(rows))
    assert buckets.tolist() == full[1] and sumsq.tolist() == full[3]


def test_column_kernel_blocks_and_driver(wordle_lists):
    """More rows than one block, scattered and consecutive, through partition_stats."""
    from deductive.engine.feedback.scoring import COLUMNS_MAX, answer_major

    guesses = wordle.load_words(wordle_lists[0])
    answers = wordle.load_words(wordle_lists[1])
    matrix = wordle.cached_pattern_matrix(guesses, answers)
    columns = answer_major(matrix)
    assert answer_major(matrix) is columns                 # kept for the same matrix
    rng = np.random.default_rng(3)
    for n in (1, 2, 17, COLUMNS_MAX):
        cand = np.sort(rng.choice(len(answers), n, replace=False))
        for rows in (None, np.sort(rng.choice(len(guesses), 3000, replace=False)),
                     np.arange(100, 1337)):
            a = wordle.partition_stats(matrix, cand, rows)
            b = wordle.partition_stats(matrix, cand, rows, columns=columns)
            for x, y in zip((a.xlogx_sum, a.buckets, a.largest, a.sumsq),
                            (b.xlogx_sum, b.buckets, b.largest, b.sumsq)):
                np.testing.assert_array_equal(x, y)
    with pytest.raises(ValueError, match="answer_major"):
        wordle.partition_stats(matrix, [0, 1], columns=matrix)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), st.sampled_from([np.uint8, np.uint16]))
def test_answer_major_is_the_transpose(rows, cols, dtype):
    from deductive.engine.feedback.matrix import answer_major

    matrix = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols).astype(dtype)
    columns = answer_major(matrix)
    assert columns.flags.c_contiguous and np.array_equal(columns, matrix.T)


def test_answer_major_is_dropped_with_its_matrix():
    import gc

    from deductive.engine.feedback import matrix as scoring

    matrix = np.arange(12, dtype=np.uint8).reshape(3, 4)
    assert scoring.answer_major(matrix).tolist() == matrix.T.tolist()
    del matrix
    gc.collect()
    assert scoring._answer_major is None


@settings(max_examples=100, deadline=None)
@given(kernel_cases(), st.data())
def test_weighted_entropy_twin_equals_parallel(case, data):
    from deductive.kernels import partition

    matrix, rows, candidates, n_codes, chunks = case
    weights = np.array(data.draw(st.lists(st.floats(0.01, 10), min_size=len(candidates),
                                          max_size=len(candidates))))
    serial = np.zeros(len(rows))
    parallel = np.ones(len(rows))
    partition.weighted_entropy_rows(matrix, rows, candidates, weights, n_codes, serial,
                                    0, len(rows))
    partition.weighted_entropy(matrix, rows, candidates, weights, n_codes, parallel, chunks)
    assert serial.tolist() == parallel.tolist()            # bit for bit
    for r, row in enumerate(rows):
        assert serial[r] == pytest.approx(
            reference.weighted_entropy(matrix[row], candidates, weights), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(kernel_cases(), st.data())
def test_weighted_column_kernel_equals_row_kernel(case, data):
    """Bit for bit, when there are fewer candidates than codes (the solvers' condition)."""
    from deductive.kernels import partition

    matrix, rows, candidates, n_codes, _ = case
    if len(candidates) >= n_codes:
        candidates = candidates[:n_codes - 1]
    weights = np.array(data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.25, 1e-3, 7.0]),
                                          min_size=len(candidates),
                                          max_size=len(candidates))))
    if not weights.sum():
        weights[0] = 1.0
    rowwise = np.zeros(len(rows))
    columnwise = np.ones(len(rows))
    partition.weighted_entropy_rows(matrix, rows, candidates, weights, n_codes, rowwise,
                                    0, len(rows))
    partition.weighted_entropy_columns(np.ascontiguousarray(matrix.T), rows, candidates,
                                       weights, columnwise, 0, len(rows))
    assert columnwise.tolist() == rowwise.tolist()


@settings(max_examples=300, deadline=None)
@given(matrices_and_candidates(), st.sampled_from([np.uint8, np.uint16, np.uint32]))
def test_group_by_code_matches_reference(case, dtype):
    matrix, candidates = case
    for r in range(matrix.shape[0]):
        row = matrix[r].astype(dtype)
        ordered, codes, starts = group_by_code(row, candidates.astype(np.int64))
        got = [(c, ordered[a:b].tolist())
               for c, a, b in zip(codes.tolist(), starts[:-1].tolist(), starts[1:].tolist())]
        assert got == reference.groups_by_code(row, candidates)
