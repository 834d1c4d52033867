"""Word lists: files, folding, validation messages, built-in lists."""

import warnings

import numpy as np
import pytest

from deductive import wordle
from deductive.engine import words as words_mod
from deductive.errors import DuplicateWordWarning, UnknownNameError, WordListError


def write(tmp_path, text, name="list.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_file_comments_blank_case_accents(tmp_path):
    path = write(tmp_path, "# header\n\nÉlève\n  crane  # trailing comment\nSLATE\ncœur\n")
    assert list(wordle.load_words(path)) == ["eleve", "crane", "slate", "coeur"]


def test_fold_word():
    assert wordle.fold_word("Élève") == "eleve"
    assert wordle.fold_word("cœur") == "coeur"
    assert wordle.fold_word("Straße") == "strasse"


def test_bad_character_names_file_line_word(tmp_path):
    path = write(tmp_path, "crane\nslate\nca3te\n")
    with pytest.raises(WordListError) as err:
        wordle.load_words(path)
    message = str(err.value)
    assert f"{path}:3" in message and "'ca3te'" in message and "'3'" in message


def test_mixed_lengths_error_and_length_filter(tmp_path):
    path = write(tmp_path, "crane\nslates\n")
    with pytest.raises(WordListError, match=r":2: word 'slates' has 6 letters"):
        wordle.load_words(path)
    assert list(wordle.load_words(path, length=6)) == ["slates"]


def test_empty_list(tmp_path):
    path = write(tmp_path, "# nothing\n\n")
    with pytest.raises(WordListError, match="empty"):
        wordle.load_words(path)
    with pytest.raises(WordListError, match="no words of 7 letters"):
        wordle.load_words(write(tmp_path, "crane\n", "b.txt"), length=7)


def test_missing_file_and_unknown_name(tmp_path):
    with pytest.raises(WordListError, match="no such file"):
        wordle.load_words(tmp_path / "nope.txt")
    with pytest.raises(UnknownNameError, match="fr-seed"):
        wordle.load_words("klingon")


def test_duplicates_removed_with_warning(tmp_path):
    path = write(tmp_path, "crane\nslate\nCrane\n")
    with pytest.warns(DuplicateWordWarning, match="1 duplicate"):
        wl = wordle.load_words(path)
    assert list(wl) == ["crane", "slate"]


def test_wordlist_api():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        wl = wordle.WordList(["crane", "slate"])
    assert wl.index("SLATE") == 1 and "crane" in wl and len(wl) == 2 and wl.length == 5
    np.testing.assert_array_equal(wl.codes[0], [2, 17, 0, 13, 4])
    assert not wl.codes.flags.writeable
    with pytest.raises(WordListError, match="not in the word list"):
        wl.index("trace")
    with pytest.raises(WordListError, match="not a word"):
        wordle.WordList(["crane", 5])
    with pytest.raises(WordListError, match="lengths 2 to 12"):
        wordle.WordList(["a"])


def test_fr_seed():
    wl = wordle.load_words("fr-seed")
    assert len(wl) == 297 and wl[0] == "abord" and wl[-1] == "zones"
    assert wordle.load_words("fr-seed", role="answers") == wl
    with pytest.raises(WordListError, match="only 5-letter"):
        wordle.load_words("fr-seed", length=6)


def test_builtin_english_default():
    guesses = wordle.load_words("en")
    answers = wordle.load_words("en", role="answers")
    assert len(guesses) == 12972 and len(answers) == 2315
    assert set(answers) <= set(guesses)
    assert list(guesses) == sorted(guesses)


def test_shipped_english_list_follows_the_rule():
    shipped = words_mod._package_lines("en-5.txt")
    assert shipped == words_mod.wordfreq_ranked("en", 5, words_mod.GUESS_LIST_SIZE)


@pytest.mark.parametrize("lang,length", [("en", 6), ("fr", 5), ("en", 12), ("fr", 2)])
def test_builtin_other_lengths(lang, length):
    guesses = wordle.load_words(lang, length=length)
    answers = wordle.load_words(lang, role="answers", length=length)
    assert guesses.length == length and 0 < len(answers) <= len(guesses) <= 12972
    assert set(answers) <= set(guesses)


def test_bad_length():
    with pytest.raises(WordListError, match="length 13 is not supported"):
        wordle.load_words("en", length=13)
