"""Small inconsistencies a newcomer met (issue 13, point 8), one test each. The Hangman
loader's byte-order mark is in test_hangman_words.py."""

import re

import pytest
from click.testing import CliRunner

from deductive import wordle
from deductive.cli import cli
from deductive.errors import ArgumentError, DeductiveError, IndexArgumentError, PatternError


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def one_error(result, needle):
    assert result.exit_code == 2 and result.stderr.startswith("error: "), result.output
    assert result.stderr.count("\n") == 1 and needle in result.stderr, result.stderr


def test_answers_subset_of_another_length_is_an_error(tmp_path):
    path = tmp_path / "subset.txt"
    path.write_text("crane\ntrace\nslates\n")
    one_error(run("wordle", "bench", "--answers-subset", path), ":3: word 'slates' has 6 letters")
    path.write_text("slates\ncranes\n")
    one_error(run("wordle", "bench", "--answers-subset", path),
              "its words have 6 letters, the game's 5")


def test_answers_subset_zero_is_an_error():
    one_error(run("wordle", "bench", "--answers-subset", "0"), "give at least 1 answer")
    result = run("wordle", "bench", "--answers-subset", "2", "--json")
    assert result.exit_code == 0 and '"total"' in result.stdout


def test_x_is_a_documented_grey():
    assert wordle.parse_pattern("GYXXG") == wordle.parse_pattern("GY..G")
    assert wordle.parse_pattern("gyxxg") == wordle.parse_pattern("21002")
    with pytest.raises(PatternError, match=r"grey as \. \(or - _ B X\)"):
        wordle.parse_pattern("GYQ.G")
    result = run("wordle", "assist", "--guesses", "fr-seed", input="laine XYXGG\n")
    assert result.exit_code == 0 and "not applied" not in result.stdout
    assert "grey also - _ B or X" in result.stdout


def test_duplicate_warning_prints_once(tmp_path):
    path = tmp_path / "dups.txt"
    path.write_text("crane\nslate\ncrane\ntrace\n")
    result = run("wordle", "openers", "--guesses", path, "--top", "1")
    assert result.exit_code == 0
    assert result.stderr.count("warning:") == 1 and "1 duplicate" in result.stderr
    result = run("wordle", "openers", "--guesses", path, "--answers", path, "--top", "1")
    assert result.stderr.count("warning:") == 1


def test_mines_play_draws_the_position_format_numbered_from_1():
    from deductive.engine.minesweeper import Position

    result = run("mines", "play", "--preset", "beginner", "--game", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    first = re.match(r"first click row (\d+), column (\d+)", lines[0])
    header, rows = lines[1], lines[2:11]
    assert header.split() == ["123456789"]
    assert [int(line.split()[0]) for line in rows] == list(range(1, 10))
    board = [line.split()[1] for line in rows]
    assert set("".join(board)) <= set("x.12345678F")
    # the cell named in the text is open on the board drawn beside it
    r, c = int(first.group(1)), int(first.group(2))
    assert board[r - 1][c - 1] != "x"
    # without its labels, the drawing is a position mines probs reads
    position = Position.parse("\n".join(board), 10)
    assert (position.rows, position.cols) == (9, 9)


@pytest.fixture
def matrix():
    words = wordle.load_words("fr-seed")
    return wordle.pattern_matrix(words, words), words


def test_bad_indices_are_deductive_errors(matrix):
    m, _ = matrix
    calls = [lambda: wordle.partition_stats(m, candidates=[0, 999]),
             lambda: wordle.partition_stats(m, rows=[-1]),
             lambda: wordle.bucket_counts(m, guess=999),
             lambda: wordle.bucket_counts(m, guess=0, candidates=[297]),
             lambda: wordle.filter_candidates(m, guess=-3, code=0)]
    for call in calls:
        with pytest.raises(IndexArgumentError, match=r"outside the matrix; .* from 0 to 296"):
            call()
    with pytest.raises(DeductiveError, match=r"mask has shape \(3,\), expected \(297,\)"):
        wordle.partition_stats(m, candidates=[True, False, True])


def test_rank_guesses_top(matrix):
    m, words = matrix
    with pytest.raises(ArgumentError, match="top=-1"):
        wordle.rank_guesses(m, words, top=-1)
    assert wordle.rank_guesses(m, words, top=0) == []
    assert len(wordle.rank_guesses(m, words, top=3)) == 3
    assert len(wordle.rank_guesses(m, words)) == len(words)
