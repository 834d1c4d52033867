"""Partition statistics (entropy, minimax, expected size) against the dict-based reference."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from deductive import wordle
from deductive.errors import UnknownNameError

from . import reference


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
    assert counts.sum() == len(candidates) and len(counts) == 243
    assert {c: int(n) for c, n in enumerate(counts) if n} == ref
    kept = wordle.filter_candidates(matrix, row, code, candidates)
    assert kept.tolist() == [k for k in candidates if matrix[row, k] == code]
