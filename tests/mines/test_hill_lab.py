"""The laboratory beside Hill's solver (benchmarks/hill_lab.py and the driver's query
mode): the summary of a guess log, and, with a JSMinesweeper checkout
(HILL_JSMINESWEEPER), Hill's answer in a position and our player with his guesses."""

import json
import os
import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks import hill_compare, hill_lab, mines_paired
from deductive.engine.minesweeper.analysis import analyze
from deductive.engine.minesweeper.bench import new_game
from deductive.engine.minesweeper.board import neighbours_of
from deductive.engine.minesweeper.players import make_player

NODE = shutil.which("node")
needs_hill = pytest.mark.skipif(NODE is None or not os.environ.get(hill_compare.ENV),
                                reason="set HILL_JSMINESWEEPER to a JSMinesweeper checkout "
                                       "(and install node)")


def _guess(game, at, ours, hill, ours_safety, hill_safety, reason="look-ahead"):
    return {"game": game, "at": at, "covered": 100, "ours": ours, "hill": hill,
            "ours_safety": ours_safety, "hill_safety": hill_safety, "hill_said": hill_safety,
            "reason": reason}


def test_summary_counts_each_kind_of_choice(tmp_path):
    rows = [_guess(0, 0, 5, 5, 0.9, 0.9), _guess(0, 1, 6, 7, 0.8, 0.8),
            _guess(1, 0, 8, 9, 0.9, 0.7, "endgame"), _guess(1, 1, 3, 4, 0.6, 0.75)]
    lines = [json.dumps(r) for r in rows]
    lines.insert(2, json.dumps(rows[1]))                    # a resumed block's repeat
    (tmp_path / "guesses.jsonl").write_text("\n".join(lines) + "\n" + '{"game": 2, "a')
    got = hill_lab.read_log(str(tmp_path))
    assert got == rows
    out = hill_lab.summarize(got)
    assert out[0] == "4 guesses in 2 games"
    assert out[1].startswith("all: 4 guesses; the same cell 1 (25.0%); Hill's safer 1, as "
                             "safe (another cell) 1, less safe 1; mean safety Hill 0.7875, "
                             "ours 0.8000")
    assert any(line.startswith("guess 1: 2 guesses; the same cell 1") for line in out)
    assert any(line.startswith("our reason 'endgame': 1 guesses") for line in out)
    assert out[-1].endswith("more than 1e-4 in 0")


def test_features_of_a_cell():
    board, _ = new_game(9, 9, 10, 4, seed=1000, first_click="zero")
    board.click(40)
    position = board.position()
    probs = analyze(position).probabilities
    nbrs = neighbours_of(9, 9)
    lab = hill_lab.WithHillGuesses(make_player("best"), None, [].append)
    covered = [int(k) for k in np.flatnonzero(position.cells < 0)]
    front = [k for k in covered if (position.cells[nbrs[k][nbrs[k] >= 0]] >= 0).any()]
    for cell in (front[0], covered[0]):
        got = lab.features(position, cell, probs)
        ring = nbrs[cell][nbrs[cell] >= 0]
        survive = lab.player._next_survival(position, cell, nbrs)[0]
        assert got["front"] == (cell in front)
        assert got["cov"] == int((position.cells[ring] < 0).sum())
        assert got["two"] == pytest.approx((1 - probs[cell]) * survive, abs=1e-6)
        assert 0 <= got["gain"] <= 1
    assert "two" not in hill_lab.WithHillGuesses(make_player("least-risk"), None,
                                                 [].append).features(position, cell, probs)


@needs_hill
def test_hill_answers_a_position_as_our_engine_sees_it():
    board, _ = new_game(9, 9, 10, 3, seed=1000, first_click="zero")
    board.click(40)
    position = board.position()
    analysis = analyze(position)
    with hill_lab.HillQuery(hill_compare.hill_path()) as hill:
        cell, safety = hill.first_clear(position)
    assert position.cells[cell] < 0
    if len(analysis.safe):
        assert safety == 1 and cell in set(analysis.safe.tolist())
    else:
        assert safety == pytest.approx(1 - analysis.probabilities[cell], abs=1e-6)


@needs_hill
def test_our_player_with_hills_guesses(tmp_path):
    args = SimpleNamespace(out=str(tmp_path), hill=None, player="best", games=4,
                           first_only=False, preset="beginner", seed=1000,
                           first_click="safe", first_move="corner")
    hill_lab.run(args)
    records = mines_paired._records(str(tmp_path / "best+hill.jsonl"))
    assert len(records) == 4
    logged = hill_lab.read_log(str(tmp_path))
    assert sum(r.guesses for r in records) == len(logged)
    for row in logged:
        assert 0 <= row["hill_safety"] <= 1
        assert row["hill_said"] == pytest.approx(row["hill_safety"], abs=1e-4)
    hill_lab.run(args)                                      # done: nothing added
    assert len(mines_paired._records(str(tmp_path / "best+hill.jsonl"))) == 4
    with pytest.raises(SystemExit, match="holds games of"):
        hill_lab.run(SimpleNamespace(**{**vars(args), "seed": 7}))
    hill_lab.run(SimpleNamespace(**{**vars(args), "first_only": True}))   # his first guess
    first = hill_lab.read_log(str(tmp_path), "guesses1.jsonl")
    assert len(mines_paired._records(str(tmp_path / "best+hill1.jsonl"))) == 4
    assert [r["at"] for r in first] == [0] * len(first)
    assert {r["game"] for r in first} == {r["game"] for r in logged if r["at"] == 0}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_query_needs_the_checkout():
    env = {k: v for k, v in os.environ.items() if k != hill_compare.ENV}
    out = subprocess.run([NODE, hill_compare.DRIVER, "query"], capture_output=True,
                         text=True, env=env)
    assert out.returncode == 2 and "--hill PATH" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@needs_hill
def test_fixed_clock_plays_and_logs_every_click():
    games = [hill_compare.layout("beginner", g, seed=1000, first_click="safe",
                                 first_move="corner") for g in range(3)]
    text = "".join(json.dumps(g) + "\n" for g in games)
    runs = [subprocess.run([NODE, hill_compare.DRIVER, "--hill", hill_compare.hill_path(),
                            "play", "--moves", *extra], input=text, capture_output=True,
                           text=True, check=True).stdout.splitlines()
            for extra in ((), ("--fixed-clock",))]
    for line in runs[1]:
        got = json.loads(line)
        assert len(got["moves"]) == got["clicks"] - 1        # every click after the first
        assert sum(safety < 1 for _, safety in got["moves"]) == got["guesses"]
    assert [json.loads(x)["moves"] for x in runs[0]] == [json.loads(x)["moves"] for x in runs[1]]


def test_a_variant_with_options_has_a_portable_file_and_resumes(tmp_path, capsys):
    args = SimpleNamespace(dir=str(tmp_path), players=["best", "best:endgame=50"],
                           preset="beginner8", games=120, seed=3, first_click="safe",
                           first_move="corner")
    mines_paired.run(args)
    assert sorted(os.listdir(tmp_path)) == ["best.jsonl", "best@endgame=50.jsonl",
                                            "setup.json"]
    variant = mines_paired._records(str(tmp_path / "best@endgame=50.jsonl"))
    assert len(variant) == 120
    mines_paired.run(args)                  # done: nothing is played or appended again
    assert mines_paired._records(str(tmp_path / "best@endgame=50.jsonl")) == variant
    capsys.readouterr()
    mines_paired.report(SimpleNamespace(dir=str(tmp_path), baseline="best", json=True))
    (row,) = json.loads(capsys.readouterr().out)
    assert row["a"]["player"] == "best:endgame=50" and row["games"] == 120
