"""The built-in original Wordle lists: contents, names, defaults and ``deductive lists``."""

import hashlib
import json

import pytest
from click.testing import CliRunner

from deductive.cli import cli
from deductive.engine import words as words_mod
from deductive.engine.wordle.game import Wordle
from deductive.errors import UnknownNameError, WordListError

from tests.conftest import shared_data_dir

# SHA-256 of the canonical files (one word per line, final newline), as published with the
# lists the project was seeded from (../shared/data/wordle/SOURCE.md)
FILE_SHA256 = {
    "answers": "f40e47975cf360ff9febe7d49c8e285054d8fa3fb9644cea575922060951d6ee",
    "guesses": "feacc549249b5dcb43e2799fbbcda14ebc33d55904fb15d043779104e60c1579",
}


@pytest.mark.parametrize("role", ["guesses", "answers"])
def test_wordle_lists_are_the_original_files(role):
    words = words_mod.builtin_words("wordle", role=role)
    text = "".join(w + "\n" for w in words)
    assert hashlib.sha256(text.encode()).hexdigest() == FILE_SHA256[role]
    assert len(words) == {"guesses": 12_972, "answers": 2_315}[role]
    assert words.name == f"wordle:{role}"


def test_shipped_lists_match_the_shared_copies():
    base = shared_data_dir()
    if base is None:
        pytest.skip("../shared/data is absent (set DEDUCTIVE_SHARED_DATA)")
    for role in ("guesses", "answers"):
        shared = (base / "wordle" / f"{role}.txt").read_text().split()
        assert list(words_mod.builtin_words("wordle", role=role)) == shared


def test_nyt_answers_lack_exactly_the_six_removed():
    original = words_mod.builtin_words("wordle", role="answers")
    nyt = words_mod.builtin_words("nyt", role="answers")
    assert len(nyt) == 2_309
    assert set(original) - set(nyt) == set(words_mod.NYT_REMOVED)
    assert set(nyt) <= set(original)
    assert words_mod.builtin_words("nyt") == words_mod.builtin_words("wordle")


def test_default_lists_are_the_original_for_five_letters_only():
    guesses, answers = words_mod.load_lists()
    assert (guesses.name, len(guesses), answers.name, len(answers)) == \
        ("wordle:guesses", 12_972, "wordle:answers", 2_315)
    guesses, answers = words_mod.load_lists(length=6)
    assert guesses.name == "en:6:guesses" and answers.name == "en:6:answers"
    game = Wordle()
    assert len(game.guesses) == 12_972 and len(game.answers) == 2_315
    assert len(Wordle(answers="nyt").answers) == 2_309


@pytest.mark.parametrize("name", ["wordle", "nyt", "fr-seed"])
def test_five_letter_lists_refuse_other_lengths(name):
    with pytest.raises(WordListError, match=f"{name} has only 5-letter words"):
        words_mod.load_words(name, length=6)


def test_lists_command_text_and_json():
    runner = CliRunner()
    out = runner.invoke(cli, ["lists", "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)["results"]
    by_key = {(r["name"], r["role"]): r for r in rows}
    assert by_key[("wordle", "answers")]["size"] == 2_315
    assert by_key[("nyt", "answers")]["size"] == 2_309
    assert by_key[("wordle", "guesses")]["sha256"] == \
        words_mod.builtin_words("wordle").sha256
    text = runner.invoke(cli, ["lists"]).output
    assert "wordle" in text and "12,972" in text and "2,309" in text
    six = json.loads(runner.invoke(cli, ["lists", "--length", "6", "--json"]).output)["results"]
    assert {r["name"] for r in six} <= {"en", "fr"} and all(r["length"] == 6 for r in six)


def test_wordle_search_salet_with_no_file_given():
    """The flagship figure on a fresh install: salet's exact total over the original lists."""
    out = CliRunner().invoke(cli, ["wordle", "search", "--opener", "salet", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["total"] == 7_920


def test_role_qualified_names_pick_one_list():
    every = words_mod.load_words("wordle:guesses", role="answers")
    assert len(every) == 12_972 and every.name == "wordle:guesses"
    assert len(words_mod.load_words("nyt:answers")) == 2_309
    guesses, answers = words_mod.load_lists("wordle", "wordle:guesses")
    assert guesses == answers
    with pytest.raises(UnknownNameError):
        words_mod.load_words("wordle:hidden")
