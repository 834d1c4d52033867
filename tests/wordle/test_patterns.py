"""The pattern kernel against the Counter-based reference, and the pattern spellings."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive import wordle
from deductive.errors import PatternError, WordListError

from tests import reference

SEED_CASES = [  # the seeds' table: guess, answer, feedback (G green, Y yellow, . grey)
    ("crane", "crane", "GGGGG"),
    ("aimer", "table", "Y..Y."),
    ("trace", "crane", ".GGYG"),
    ("annee", "aimer", "G..G."),
    ("arbre", "brave", "YGY.G"),
    ("speed", "abide", "..Y.Y"),   # the answer's one e goes to the first e, the second is grey
    ("eerie", "enter", "GYY.."),
    ("geese", "eerie", ".GY.G"),   # greens claim first, then yellows left to right
]


@pytest.mark.parametrize("guess,answer,expected", SEED_CASES)
def test_seed_cases(guess, answer, expected):
    code = wordle.feedback(guess, answer)
    assert wordle.format_pattern(code, 5) == expected
    assert code == reference.feedback_code(guess, answer)


def word_lists(alphabet, min_len=2, max_len=7):
    return st.integers(min_len, max_len).flatmap(
        lambda n: st.tuples(
            st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=1, max_size=12,
                     unique=True),
            st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=1, max_size=12,
                     unique=True),
        )
    )


@settings(max_examples=300, deadline=None)
@given(word_lists("abc"))
def test_kernel_matches_reference_repeated_letters(lists):
    guesses, answers = lists
    got = wordle.pattern_matrix(guesses, answers)
    assert got.dtype == wordle.pattern_dtype(len(guesses[0]))
    np.testing.assert_array_equal(got, reference.pattern_matrix(guesses, answers))


@settings(max_examples=150, deadline=None)
@given(word_lists("abcdefghijklmnopqrstuvwxyz"))
def test_kernel_matches_reference_full_alphabet(lists):
    guesses, answers = lists
    np.testing.assert_array_equal(wordle.pattern_matrix(guesses, answers),
                                  reference.pattern_matrix(guesses, answers))


@settings(max_examples=100, deadline=None)
@given(word_lists("abcd", 2, 12), st.integers(1, 9), st.data())
def test_serial_twin_equals_parallel_kernel(lists, chunks, data):
    """fill_pattern_rows (any range) and fill_pattern_matrix (any chunk count) agree with
    the reference; rows outside the range stay untouched."""
    from deductive.kernels.patterns import fill_pattern_matrix, fill_pattern_rows

    guesses, answers = (wordle.load_words(w) for w in lists)
    ref = reference.pattern_matrix(list(guesses), list(answers))
    columns = np.ascontiguousarray(answers.codes.T)
    out = np.zeros(ref.shape, dtype=ref.dtype)
    fill_pattern_matrix(guesses.codes, columns, out, chunks)
    np.testing.assert_array_equal(out, ref)
    lo = data.draw(st.integers(0, len(guesses)))
    hi = data.draw(st.integers(lo, len(guesses)))
    out = np.full(ref.shape, 7, dtype=ref.dtype)
    fill_pattern_rows(guesses.codes, columns, out, lo, hi)
    np.testing.assert_array_equal(out[lo:hi], ref[lo:hi])
    assert (out[:lo] == 7).all() and (out[hi:] == 7).all()


@settings(max_examples=60, deadline=None)
@given(word_lists("abcd", 2, 7))
def test_numpy_reference_matches_kernel(lists):
    guesses, answers = lists
    g = wordle.WordList(guesses)
    a = wordle.WordList(answers)
    expected = wordle.pattern_matrix(g, a)
    got = reference.pattern_matrix_numpy(g.codes, a.codes, chunk=3, dtype=expected.dtype)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("length,dtype", [(2, np.uint8), (5, np.uint8), (6, np.uint16),
                                          (10, np.uint16), (11, np.uint32), (12, np.uint32)])
def test_dtype_by_length_and_long_words(length, dtype):
    rng = np.random.default_rng(length)
    words = sorted({"".join(rng.choice(list("abcde"), length)) for _ in range(30)})
    got = wordle.pattern_matrix(words, words)
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, reference.pattern_matrix(words, words))
    assert (np.diag(got) == wordle.all_green(length)).all()


def test_one_word_and_shapes():
    got = wordle.pattern_matrix(["abc"], ["abc", "cab"])
    assert got.shape == (1, 2)
    assert got[0, 0] == 26


def test_mismatched_lengths_error():
    with pytest.raises(WordListError, match="give lists of one length"):
        wordle.pattern_matrix(["crane"], ["cranes"])


def test_single_string_is_rejected():
    with pytest.raises(WordListError, match="not a single str"):
        wordle.pattern_matrix("crane", ["crane"])


@pytest.mark.parametrize("text", ["GY..G", "gy--g", "GY__G", "GYBBG", "21002", "🟩🟨⬜⬛🟩",
                                  "🟩🟨⬛⬛🟩", "🟧🟦⬛⬛🟧", [2, 1, 0, 0, 2], " G Y . . G "])
def test_parse_pattern_spellings(text):
    assert wordle.parse_pattern(text, 5) == 2 + 1 * 3 + 2 * 81


def test_format_pattern_round_trip():
    for code in range(243):
        for style in ("letters", "digits", "emoji"):
            assert wordle.parse_pattern(wordle.format_pattern(code, 5, style), 5) == code


@pytest.mark.parametrize("text,match", [("GYQ.G", "unknown symbol 'Q'"), ("GY.G", "has 4 symbols"),
                                        ("", "empty pattern"), (243, "from 0 to 242"),
                                        ([3, 0, 0, 0, 0], "digits must be 0, 1 or 2")])
def test_parse_pattern_errors(text, match):
    with pytest.raises(PatternError, match=match):
        wordle.parse_pattern(text, 5)


def test_pattern_digits_order():
    # position 0 is the least significant digit
    assert wordle.pattern_digits(2, 5) == (2, 0, 0, 0, 0)
    assert wordle.pattern_digits(2 * 81, 5) == (0, 0, 0, 0, 2)
    with pytest.raises(PatternError):
        wordle.pattern_digits(243, 5)


def test_original_lists_sample(wordle_lists):
    guesses = wordle.load_words(wordle_lists[0])
    answers = wordle.load_words(wordle_lists[1])
    got = wordle.pattern_matrix(guesses, answers)
    assert got.shape == (12972, 2315) and got.dtype == np.uint8
    rng = np.random.default_rng(0)
    for g, a in zip(rng.integers(0, 12972, 3000), rng.integers(0, 2315, 3000)):
        assert got[g, a] == reference.feedback_code(guesses[g], answers[a])


def test_import_compiles_nothing():
    import subprocess
    import sys

    code = (
        "import deductive, deductive.wordle, deductive.cli\n"
        "from deductive.kernels import patterns, partition\n"
        "assert patterns.fill_pattern_matrix.signatures == []\n"
        "assert partition.bucket_stats.signatures == []\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
