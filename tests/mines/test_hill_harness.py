"""The harness that plays D. N. Hill's solver on our boards (benchmarks/hill_compare.py and
benchmarks/hill/driver.mjs): the layouts it sends, the driver's rules against our Board,
its errors, and the paired report. Hill's solver itself is needed only by the last test
(skipped without HILL_JSMINESWEEPER)."""

import json
import os
import shutil
import subprocess
from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks import hill_compare
from deductive.engine.minesweeper.bench import GameRecord, new_game
from deductive.engine.minesweeper.board import Board, neighbours_of
from deductive.kernels.mines import mine_counts
from tests import reference

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")


@pytest.mark.parametrize("first_click, first_move, cell", [("safe", "corner", 0),
                                                           ("zero", "4,4", 3 * 30 + 3)])
def test_layouts_are_the_bench_games(first_click, first_move, cell):
    nbrs = neighbours_of(16, 30)
    for g in range(5):
        game = hill_compare.layout("expert", g, seed=1000, first_click=first_click,
                                   first_move=first_move)
        board, _ = new_game(16, 30, 99, g, seed=1000, first_click=first_click)
        board.click(cell)
        assert game == {"rows": 16, "cols": 30, "first": cell,
                        "mines": np.flatnonzero(board.mine).tolist()}
        free = {cell} | (set(nbrs[cell][nbrs[cell] >= 0].tolist()) if first_click == "zero"
                         else set())
        assert len(game["mines"]) == 99 and not free & set(game["mines"])


def _driver(*args, input=""):
    return subprocess.run([NODE, hill_compare.DRIVER, *args], input=input, capture_output=True,
                          text=True)


@needs_node
def test_driver_rules_match_our_board():
    rng = np.random.default_rng(3)
    games, want = [], []
    for _ in range(60):
        rows, cols = int(rng.integers(1, 9)), int(rng.integers(2, 12))
        n = rows * cols
        mines = int(rng.integers(0, n))
        mine_cells = rng.choice(n, size=mines, replace=False).tolist()
        clicks = rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False).tolist()
        games.append({"rows": rows, "cols": cols, "mines": mine_cells, "clicks": clicks})
        board = Board(rows, cols, mines, first_click="none")
        board.mine[:] = False
        board.mine[mine_cells] = True
        board.numbers = mine_counts(board.mine, board.nbrs)
        for cell in clicks:
            if not board.click(cell):
                break
        want.append({"open": board.revealed.astype(int).tolist(), "won": board.won,
                     "lost": board.lost})
    out = _driver("rules", input="".join(json.dumps(g) + "\n" for g in games))
    assert out.returncode == 0, out.stderr
    got = [json.loads(line) for line in out.stdout.splitlines()]
    assert got == want
    assert any(w["won"] for w in want) and any(w["lost"] for w in want)


@needs_node
@pytest.mark.parametrize("args, message", [
    ((), "give a command"),
    (("play",), "give the JSMinesweeper checkout with --hill"),
    (("own", "--hill", "/nonexistent"), "/nonexistent/Minesweeper/Utility/PrimeSieve.js is "
                                        "missing"),
    (("play", "--frobnicate"), 'unknown argument "--frobnicate"'),
])
def test_driver_errors_are_one_line(args, message):
    env = {k: v for k, v in os.environ.items() if k != hill_compare.ENV}
    out = subprocess.run([NODE, hill_compare.DRIVER, *args], capture_output=True, text=True,
                         env=env)
    assert out.returncode == 2 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_check_hill_names_the_problem(tmp_path, monkeypatch):
    monkeypatch.delenv(hill_compare.ENV, raising=False)
    assert hill_compare.hill_path() is None
    if NODE is not None:
        assert "--hill PATH" in hill_compare.check_hill(None)
        assert "must be a checkout" in hill_compare.check_hill(str(tmp_path))
        client = tmp_path / "Minesweeper" / "client"
        client.mkdir(parents=True)
        (client / "solver_main.js").write_text("")
        assert hill_compare.check_hill(str(tmp_path)) is None
    monkeypatch.setenv(hill_compare.ENV, str(tmp_path))
    assert hill_compare.hill_path() == str(tmp_path)


def _block(path, lo, wins):
    rows = [GameRecord(bool(w), {"rules": 0, "forced": 0, "guess": 1}, 1, 0.01).as_row()
            for w in wins]
    with open(path, "a") as fh:
        fh.write(json.dumps({"lo": lo, "rows": rows}) + "\n")


def test_paired_report_counts_the_discordant_games(tmp_path):
    setup = {"preset": "expert", "first_click": "safe", "first_move": "corner", "seed": 1000}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    rng = np.random.default_rng(0)
    hill = rng.random(250) < 0.4
    ours = rng.random(230) < 0.42          # fewer games finished: pairs the first 230
    _block(tmp_path / "hill.jsonl", 0, hill[:100])
    _block(tmp_path / "hill.jsonl", 100, hill[100:])
    _block(tmp_path / "strongest.jsonl", 0, ours)
    (row,) = hill_compare.paired(str(tmp_path))
    h = hill[:230]
    only_ours, only_hill = int((ours & ~h).sum()), int((h & ~ours).sum())
    assert row["games"] == 230 and row["a"]["player"] == "strongest"
    assert (row["only_a_won"], row["only_b_won"]) == (only_ours, only_hill)
    assert row["sign_test_p"] == pytest.approx(reference.sign_test_p(only_ours, only_hill),
                                               rel=1e-3)
    assert row["a"]["wins"] == int(ours.sum()) and row["b"]["wins"] == int(h.sum())


def test_run_refuses_another_setup(tmp_path):
    args = dict(dir=str(tmp_path), players=["strongest"], hill=None, preset="beginner",
                games=1, seed=5, first_click="safe", first_move="corner")
    hill_compare.run(SimpleNamespace(**args))
    assert (tmp_path / "strongest.jsonl").exists()
    with pytest.raises(SystemExit, match="holds games of"):
        hill_compare.run(SimpleNamespace(**{**args, "seed": 6}))


@needs_node
@pytest.mark.skipif(not os.environ.get(hill_compare.ENV), reason="set HILL_JSMINESWEEPER to "
                    "a JSMinesweeper checkout")
def test_hill_plays_our_layouts():
    with hill_compare.HillSolver(hill_compare.hill_path()) as solver:
        records = hill_compare.hill_bench(solver, "beginner", range(5), seed=1000,
                                          first_click="safe", first_move="corner")
    assert len(records) == 5 and all(r.guesses >= 0 and r.seconds > 0 for r in records)
