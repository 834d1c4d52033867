"""Hangman's word loader: files as every game reads them, and the built-in secrets."""

import pytest

from deductive.engine import words as words_mod
from deductive.engine.hangman import load_hangman_words
from deductive.errors import WordListError


def test_a_byte_order_mark_is_not_part_of_the_first_word(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffhello\nworld\n".encode("utf-8"))
    assert words_mod.read_word_file(str(path), hint="") == ["hello", "world"]
    assert load_hangman_words(path, 5)[5].words == ("hello", "world")
    # the same file through the Wordle loader: the same words
    assert list(words_mod.load_words(path)) == ["hello", "world"]
    # a first word that fits only without the mark is kept by both games
    path.write_bytes("\ufeffab\ncd\n".encode("utf-8"))
    assert load_hangman_words(path)[2].words == ("ab", "cd")
    assert list(words_mod.load_words(path)) == ["ab", "cd"]


def test_both_games_refuse_a_file_that_is_not_utf8_alike(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("hello\ncaf\xe9s\n".encode("latin-1"))
    with pytest.raises(WordListError) as hangman_error:
        load_hangman_words(path, 5)
    with pytest.raises(WordListError) as wordle_error:
        words_mod.load_words(path)
    assert str(hangman_error.value) == str(wordle_error.value)
    assert "not UTF-8 text (byte 9); save the list as UTF-8" in str(wordle_error.value)


def test_unreadable_sources_are_one_error(tmp_path):
    with pytest.raises(WordListError, match="is a directory"):
        load_hangman_words(tmp_path)
    with pytest.raises(WordListError, match="no such file"):
        load_hangman_words(tmp_path / "missing.txt")


def test_builtin_secrets_are_the_answer_rule():
    lists = load_hangman_words("en", 6)
    assert list(lists) == [6]
    words = lists[6].words
    assert words == tuple(sorted(words_mod.builtin_answers("en", 6)))
    assert len(words) == words_mod.ANSWER_LIST_SIZE
    # names and fragments that the wordfreq-based list used to offer
    for word in ("kayson", "stanka", "garren"):
        assert word not in words
    common = words_mod.common_words(words_mod.dictionary("en"))
    assert all(w in common and words_mod.inflection_base(w, common) is None for w in words)


def test_builtin_all_lengths():
    lists = load_hangman_words("en", "all")
    assert min(lists) == 2 and all(len(v) <= words_mod.ANSWER_LIST_SIZE for v in lists.values())
    assert all(len(w) == n for n, v in lists.items() for w in v.words)
