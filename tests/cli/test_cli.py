"""The command line through click's CliRunner: exit codes, stdout and stderr."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from deductive import __version__
from deductive.cli import cli
from tests.provenance import payload


@pytest.fixture
def run(tmp_path):
    def invoke(*args):
        runner = CliRunner()
        return runner.invoke(cli, [str(a) for a in args], catch_exceptions=False)

    return invoke


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_python_dash_m():
    out = subprocess.run([sys.executable, "-m", "deductive", "--version"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and __version__ in out.stdout


def test_pattern(run):
    result = run("wordle", "pattern", "annee", "aimer")
    assert result.exit_code == 0
    assert "G..G.  20020  🟩⬛⬛🟩⬛  code 56" in result.stdout
    assert "A  N  N  E  E" in result.stdout


def test_pattern_errors(run):
    result = run("wordle", "pattern", "crane", "cranes")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    assert "Traceback" not in result.output


def test_openers_french_seed_json(run):
    result = run("wordle", "openers", "--guesses", "fr-seed", "--answers", "fr-seed", "--json")
    assert result.exit_code == 0, result.stderr
    rows = payload(result.stdout)
    assert [r["word"] for r in rows] == ["laine", "paire", "clair", "carte", "crane", "trace",
                                         "train", "lance", "parie", "ancre"]
    assert {"word", "entropy", "buckets", "largest"} <= set(rows[0])
    assert round(rows[0]["entropy"], 4) == 5.5115


def test_openers_table_and_metric(run):
    result = run("wordle", "openers", "--guesses", "fr-seed", "--top", "3", "--metric", "minimax")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "best minimax first" in lines[0] and len(lines) == 5


def test_openers_default_english(run):
    result = run("wordle", "openers", "--top", "2", "--json")
    assert result.exit_code == 0, result.stderr
    assert len(payload(result.stdout)) == 2


def test_openers_original_lists(run, wordle_lists):
    result = run("wordle", "openers", "--guesses", wordle_lists[0], "--answers",
                 wordle_lists[1], "--top", "3", "--json")
    rows = payload(result.stdout)
    assert [(r["word"], round(r["entropy"], 4)) for r in rows] == [
        ("soare", 5.8860), ("roate", 5.8828), ("raise", 5.8779)]


@pytest.mark.parametrize("content,needle", [
    ("crane\nsl4te\n", ":2: word 'sl4te' contains '4'"),
    ("crane\nslates\n", ":2: word 'slates' has 6 letters"),
    ("# only a comment\n", "the word list is empty"),
])
def test_bad_lists_one_line_exit_2(run, tmp_path, content, needle):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    result = run("wordle", "openers", "--guesses", path)
    assert result.exit_code == 2
    assert needle in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_missing_file_and_bad_option(run, tmp_path):
    result = run("wordle", "openers", "--guesses", tmp_path / "missing.txt")
    assert result.exit_code == 2 and "no such file" in result.stderr
    assert result.stderr.count("\n") == 1
    result = run("wordle", "openers", "--metric", "nope")
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1


def test_duplicate_warning_is_one_line(run, tmp_path):
    path = tmp_path / "dups.txt"
    path.write_text("crane\nslate\ncrane\ntrace\n")
    result = run("wordle", "openers", "--guesses", path, "--top", "1")
    assert result.exit_code == 0
    assert result.stderr.startswith("warning: ") and "1 duplicate" in result.stderr


def test_matrix_and_cache_commands(run, tmp_path):
    cache = tmp_path / "c"
    result = run("wordle", "matrix", "--guesses", "fr-seed", "--cache-dir", cache, "--json")
    report = json.loads(result.stdout)
    assert report["shape"] == [297, 297] and report["dtype"] == "uint8"
    assert report["source"] == "built" and report["cache"].startswith(str(cache))
    result = run("wordle", "matrix", "--guesses", "fr-seed", "--cache-dir", cache)
    assert "loaded from the cache" in result.stdout
    result = run("cache", "info", "--cache-dir", cache, "--json")
    entries = json.loads(result.stdout)["entries"]
    assert len(entries) == 1 and entries[0]["shape"] == [297, 297]
    assert entries[0]["guesses_name"] == "fr-seed"
    result = run("cache", "info", "--cache-dir", cache)
    assert "297 x 297 uint8" in result.stdout
    result = run("cache", "build", "--guesses", "fr-seed", "--cache-dir", cache)
    assert "already cached" in result.stdout
    result = run("cache", "clear", "--cache-dir", cache)
    assert "removed 1 file" in result.stdout
    result = run("wordle", "matrix", "--guesses", "fr-seed", "--no-cache", "--json")
    assert json.loads(result.stdout)["cache"] is None


@pytest.mark.parametrize("command", [["wordle", "openers"], ["wordle", "pattern"],
                                     ["wordle", "matrix"], ["cache", "info"], ["cache", "build"],
                                     ["cache", "clear"], []])
def test_help_has_examples(run, command):
    result = run(*command, "--help")
    assert result.exit_code == 0 and "Example" in result.stdout
