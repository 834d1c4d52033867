"""Hangman commands through CliRunner."""

import json

import pytest
from click.testing import CliRunner

from deductive.cli import cli

WORDS = "deed\neven\neyes\nheel\nmere\npeep\nstar\nPeter\nbaker\nmaker\ntaker\nbloke\n"


@pytest.fixture
def words(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text(WORDS)
    return str(path)


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def test_sweep_json(words):
    result = run("hangman", "sweep", "--words", words, "--length", "4", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["words"] == 7 and doc["results"][0] == [0, 1, "mere", "e"]
    assert doc["results"][-1] == [2, 3, "peep", "edh"]
    assert {"mean_misses", "win_rate"} <= set(doc)


def test_sweep_all_lengths_text(words):
    result = run("hangman", "sweep", "--words", words, "--top", "2", "--strategy", "best-lives")
    assert result.exit_code == 0, result.stderr
    assert "length 4: 7 words" in result.stdout and "length 5: 4 words" in result.stdout
    assert "all lengths: 11 words" in result.stdout


def test_sweep_errors(words, tmp_path):
    result = run("hangman", "sweep", "--words", words, "--strategy", "psychic")
    assert result.exit_code == 2 and "unknown strategy 'psychic'" in result.stderr
    result = run("hangman", "sweep", "--words", tmp_path / "nope.txt")
    assert result.exit_code == 2 and "no such file" in result.stderr
    result = run("hangman", "sweep", "--words", words, "--length", "9")
    assert result.exit_code == 2 and "no lowercase a-z words of 9 letters" in result.stderr


def test_solve(words):
    result = run("hangman", "solve", "_ake_", "--words", words)
    assert result.exit_code == 0, result.stderr
    assert "3 candidate(s): baker, maker, taker" in result.stdout
    assert "best letter (min-miss" in result.stdout
    result = run("hangman", "solve", "_ake_", "--wrong", "bmt", "--words", words)
    assert result.exit_code == 2 and "no word" in result.stderr
    assert result.stderr.count("\n") == 1
    result = run("hangman", "solve", "b_ke_", "--words", words, "--json")
    assert json.loads(result.stdout)["words"] == ["baker"]


def test_play_auto_and_stdin(words):
    result = run("hangman", "play", "--words", words, "--length", "4", "--word", "peep", "--auto")
    assert result.exit_code == 0 and "won: peep" in result.stdout
    result = run("hangman", "play", "--words", words, "--length", "4", "--word", "deed",
                 input="e\nhint\nzz\ne\ns\nquit\n")
    out = result.stdout
    assert "_ e e _   wrong: -" in out and "hint (min-miss): d" in out
    assert "type one letter" in out and "e was already guessed" in out
    assert "_ e e _   wrong: s   lives: 5   candidates: 3" in out
    assert "stopped: the word was deed" in out
    result = run("hangman", "play", "--words", words, "--length", "4", "--word", "zzzz")
    assert result.exit_code == 2 and "not in the list" in result.stderr
