"""Wordle commands beyond the foundation: bench, tree-check, second, play, assist, plots."""

import json

import pytest
from click.testing import CliRunner

from deductive.cli import cli
from tests.provenance import payload

FR = ["--guesses", "fr-seed", "--answers", "fr-seed"]


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


def test_bench_json_french_seed():
    result = run("wordle", "bench", *FR, "--solver", "entropy", "--pool", "candidates",
                 "--opener", "laine", "--answers-subset", "50", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    for key in ("solver", "opener", "hard", "answers", "total", "average", "worst", "fails",
                "distribution", "seconds"):
        assert key in report
    assert report["answers"] == 50 and report["average"] == pytest.approx(2.60)
    assert report["fails"] == 0 and report["opener"] == "laine"


def test_bench_text_tree_and_plot(tmp_path):
    tree, plot = tmp_path / "t.json", tmp_path / "h.png"
    result = run("wordle", "bench", *FR, "--opener", "laine", "--tree", tree, "--plot", plot)
    assert result.exit_code == 0, result.stderr
    assert "total " in result.stdout and "fail" in result.stdout
    assert plot.stat().st_size > 1000
    check = run("wordle", "tree-check", tree, *FR, "--json")
    assert check.exit_code == 0, check.stderr
    assert json.loads(check.stdout)["answers"] == 297
    doc = json.loads(tree.read_text())
    doc["tree"]["then"].pop(next(iter(doc["tree"]["then"])))
    tree.write_text(json.dumps(doc))
    check = run("wordle", "tree-check", tree, *FR)
    assert check.exit_code == 2 and "misses answer" in check.stderr
    assert check.stderr.count("\n") == 1


def test_bench_hard_and_random():
    result = run("wordle", "bench", *FR, "--hard", "--solver", "minimax", "--json")
    assert json.loads(result.stdout)["hard"] is True
    result = run("wordle", "bench", *FR, "--solver", "random", "--seed", "3", "--json")
    assert json.loads(result.stdout)["solver"] == "random"
    result = run("wordle", "bench", *FR, "--solver", "random", "--tree", "x.json")
    assert result.exit_code == 2 and "no single tree" in result.stderr


def test_bench_errors():
    result = run("wordle", "bench", *FR, "--solver", "oracle")
    assert result.exit_code == 2 and "unknown solver 'oracle'" in result.stderr
    result = run("wordle", "bench", *FR, "--opener", "zzzzz")
    assert result.exit_code == 2 and "'zzzzz' is not in the word list" in result.stderr


def test_second_json():
    result = run("wordle", "second", *FR, "--opener", "laine", "--json")
    doc = json.loads(result.stdout)
    rows = doc["feedbacks"]
    assert doc["opener"] == "laine" and sum(r["candidates"] for r in rows) == 297
    assert rows[0]["candidates"] == max(r["candidates"] for r in rows)
    assert all(r["guess"] for r in rows if r["pattern"] != "GGGGG")


def test_play_grid():
    result = run("wordle", "play", *FR, "--answer", "crane", "--opener", "laine")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert ".Y.GG" in lines[0] and lines[-1].startswith("solved in")
    result = run("wordle", "play", *FR, "--answer", "house")
    assert result.exit_code == 2 and "not in the answer list" in result.stderr


def test_assist_through_stdin():
    script = "laine _Y_GG\nlaine ZZ\nundo\nundo\nlaine _Y_GG\nfoo\nmonde GGGGG\ncrane 🟩🟩🟩🟩🟩\n"
    result = run("wordle", "assist", *FR, input=script)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "297 candidate(s) left" in out
    assert "2 candidate(s) left: arene, crane" in out
    assert "not applied: pattern 'ZZ'" in out
    assert "undone: laine .Y.GG" in out and "nothing to undo" in out
    assert "not applied: expected a guess and its colours" in out
    assert "not applied: no answer fits monde GGGGG" in out
    assert out.rstrip().endswith("solved in 2")


def test_assist_hard_mode_violation():
    result = run("wordle", "assist", *FR, "--hard", input="laine ...GG\nbidon .....\nquit\n")
    assert "not applied: turn 2: 'bidon' breaks hard mode" in result.stdout


def test_openers_hard_and_plot(tmp_path):
    plot = tmp_path / "o.png"
    result = run("wordle", "openers", *FR, "--hard", "--top", "1", "--plot", plot, "--json")
    assert payload(result.stdout)[0]["word"] == "laine"
    assert plot.stat().st_size > 1000


def test_assist_lookahead():
    result = run("wordle", "assist", *FR, "--lookahead", "3", input="laine ....G\nquit\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count("lookahead (beam 3) plays:") == 2


def test_plots_leave_the_callers_matplotlib_backend_alone(tmp_path):
    """deductive.plot draws on Figure objects: pyplot's backend and figures are untouched."""
    import subprocess
    import sys

    code = (
        "import matplotlib; matplotlib.use('svg'); import matplotlib.pyplot as plt\n"
        "from deductive import wordle\n"
        "from deductive.plot import plot_guess_histogram\n"
        "game = wordle.Wordle('fr-seed', 'fr-seed')\n"
        f"plot_guess_histogram(game.bench('entropy', answers=20), r'{tmp_path / 'h.png'}')\n"
        "print(matplotlib.get_backend(), len(plt.get_fignums()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["svg", "0"]
    assert (tmp_path / "h.png").stat().st_size > 0
