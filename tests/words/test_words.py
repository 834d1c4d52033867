"""Word lists: files, folding, validation messages, built-in lists."""

import os
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


OPENERS = ["crate", "trace", "slate", "crane", "raise", "stare", "arise"]


def test_builtin_english_scowl_lists():
    guesses = wordle.load_words("en")
    answers = wordle.load_words("en", role="answers")
    assert len(guesses) == 6660 and len(answers) == 2315
    assert set(answers) <= set(guesses)
    assert list(guesses) == sorted(guesses) and list(answers) == sorted(answers)
    # the usual openers that are ordinary words; salet and reast (SCOWL size 80, "huge")
    # and soare and roate (95, "insane") are not
    assert all(w in guesses for w in OPENERS)
    assert not any(w in guesses for w in ("salet", "reast", "soare", "roate"))
    # inflections, names and fragments are not answers (they once ranked first)
    for word in ("tares", "lares", "cranes", "years", "tried", "kayson", "stanka", "garren"):
        assert word not in answers


@pytest.mark.parametrize("length", [5, 4, 6, 9])
def test_shipped_english_answers_follow_the_rule(length):
    """The shipped answers are exactly the rule applied to the shipped dictionary: the
    common words that are no inflection of a shorter common word, most frequent first."""
    entries = words_mod.dictionary("en")
    common = words_mod.common_words(entries)
    expected = words_mod.rank_answers(entries, common, length, "en", words_mod.ANSWER_LIST_SIZE)
    assert words_mod.builtin_answers("en", length) == expected
    guesses = set(words_mod.builtin_guesses("en", length))
    assert set(expected) <= guesses and set(expected) <= common


def test_a_sample_of_answers_against_the_rule():
    import random

    import wordfreq

    entries = words_mod.dictionary("en")
    common = words_mod.common_words(entries)
    rng = random.Random(13)
    for length in (3, 5, 7, 8, 11):
        ranked = words_mod.builtin_answers("en", length)
        for k in sorted(rng.sample(range(len(ranked)), min(40, len(ranked)))):
            word = ranked[k]
            assert entries[word].common and words_mod.inflection_base(word, common) is None
            assert word.isalpha() and word.islower() and len(word) == length
            if k:                                   # most frequent first
                before = max(wordfreq.word_frequency(f, "en") for f in entries[ranked[k - 1]].forms)
                here = max(wordfreq.word_frequency(f, "en") for f in entries[word].forms)
                assert before >= here


@pytest.mark.parametrize("word,base", [
    ("cranes", "crane"), ("boxes", "box"), ("flies", "fly"), ("jumped", "jump"),
    ("raised", "raise"), ("tried", "try"), ("stopped", "stop"), ("crane", None),
    ("seed", None), ("bed", None), ("gas", None), ("news", "new"),
])
def test_inflection_base(word, base):
    common = {"crane", "box", "fly", "jump", "raise", "try", "stop", "see", "be", "ga", "new"}
    assert words_mod.inflection_base(word, common) == base


def test_french_plurals():
    assert words_mod.inflection_base("chevaux", {"chevau"}, "fr") == "chevau"
    assert words_mod.inflection_base("cartes", {"carte"}, "fr") == "carte"
    assert words_mod.inflection_base("carte", {"cart"}, "fr") is None   # no feminine rule


@pytest.mark.skipif(not os.path.isdir("/usr/share/dict/scowl"),
                    reason="SCOWL is absent (Debian package scowl)")
def test_shipped_english_dictionary_is_scowl():
    from deductive.data import build

    scowl = build.read_scowl()
    entries = words_mod.dictionary("en")
    assert set(entries) == set(scowl)
    assert build.entries_of(scowl) == entries
    assert words_mod.builtin_guesses("en", 5) == sorted(w for w in scowl if len(w) == 5)


@pytest.mark.skipif(not os.path.isfile(words_mod.FRENCH_WORDS),
                    reason="Debian's wfrench is absent")
def test_builtin_french():
    guesses = wordle.load_words("fr")
    answers = wordle.load_words("fr", role="answers")
    assert len(answers) == 2315 and set(answers) <= set(guesses)
    assert all(w in guesses for w in ("laine", "carte", "trace", "train"))
    common = words_mod.common_words(words_mod.dictionary("fr"))
    assert all(words_mod.inflection_base(w, common, "fr") is None for w in answers)


def test_french_without_wfrench_is_one_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(words_mod.dictionaries, "FRENCH_WORDS", str(tmp_path / "absent"))
    words_mod.dictionary.cache_clear()
    try:
        with pytest.raises(WordListError, match="apt-get install wfrench"):
            wordle.load_words("fr")
    finally:
        words_mod.dictionary.cache_clear()


@pytest.mark.parametrize("lang,length", [("en", 6), ("en", 12), ("en", 2)])
def test_builtin_other_lengths(lang, length):
    guesses = wordle.load_words(lang, length=length)
    answers = wordle.load_words(lang, role="answers", length=length)
    assert guesses.length == length and 0 < len(answers) <= min(len(guesses), 2315)
    assert set(answers) <= set(guesses)


def test_bad_length():
    with pytest.raises(WordListError, match="length 13 is not supported"):
        wordle.load_words("en", length=13)
