"""Multi-board Wordle: games against the product-partition twin, the sweep, the CLI."""

import json

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.cli import cli
from deductive.engine.wordle import Wordle
from deductive.engine.wordle.multi import MultiBoard, wilson_interval

from tests import reference


@st.composite
def small_games(draw):
    word = st.text("abc", min_size=2, max_size=2)
    answers = draw(st.lists(word, min_size=2, max_size=6, unique=True))
    extra = draw(st.lists(word, max_size=3, unique=True))
    boards = draw(st.integers(1, min(3, len(answers))))
    targets = draw(st.lists(st.sampled_from(answers), min_size=boards, max_size=boards,
                            unique=True))
    return sorted(set(answers) | set(extra)), sorted(answers), targets


@settings(max_examples=60, deadline=None)
@given(small_games())
def test_games_match_the_product_partition_twin(case):
    guesses, answers, targets = case
    game = Wordle(guesses, answers)
    multi = MultiBoard(game, len(targets))
    moves = multi.play([answers.index(t) for t in targets])
    assert [game.word(g) for g, _ in moves] == reference.multi_play(guesses, answers, targets)


def test_runs_are_seeded_per_game():
    game = Wordle(["ab", "ba", "bb", "aa", "ca", "cb"])
    multi = MultiBoard(game, 2)
    whole = multi.run(30, seed=4).guesses
    assert (multi.run(30, seed=4).guesses == whole).all()
    draws = multi.draw(30, 4)
    assert all(len(set(row)) == 2 for row in draws.tolist())
    assert (MultiBoard(game, 2).draw(10, 4) == draws[:10]).all()


def test_wilson_interval():
    low, high = wilson_interval(95, 100)
    assert round(low, 4) == 0.8882 and round(high, 4) == 0.9785     # the textbook values
    assert wilson_interval(10, 10)[1] == 1.0 and wilson_interval(0, 0) == (0.0, 1.0)


def test_cli_multi_and_absurdle(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["cigar", "rebut", "sissy", "humph", "awake", "blush",
                                "focal", "evade", "naval", "serve"]))
    r = CliRunner().invoke(cli, ["wordle", "multi", "--guesses", str(words), "--boards", "2",
                                 "--games", "20", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["games"] == 20 and out["limit"] == 7 and sum(out["distribution"].values()) == 20
    r = CliRunner().invoke(cli, ["wordle", "absurdle", "search", "--guesses", str(words),
                                 "--json"])
    assert r.exit_code == 0, r.output
    seq = json.loads(r.output)["sequence"]
    r = CliRunner().invoke(cli, ["wordle", "absurdle", "play", "--guesses", str(words)],
                           input="\n".join(["nope!"] + seq) + "\n")
    assert r.exit_code == 0 and "not applied" in r.output
    assert r.output.strip().endswith(f"won in {len(seq)}")
    r = CliRunner().invoke(cli, ["wordle", "multi", "--guesses", str(words), "--boards", "11"])
    assert r.exit_code == 2 and r.output.startswith("error: --boards 11")
