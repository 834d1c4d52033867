"""Minesweeper commands through CliRunner."""

import json

import pytest
from click.testing import CliRunner

from deductive.cli import cli
from tests.provenance import payload


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


@pytest.fixture
def position_file(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("xxx\nx1x\nxxx\n")
    return path


def test_probs_json(position_file):
    result = run("mines", "probs", position_file, "--mines", "1", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["rows"] == 3 and doc["cols"] == 3 and doc["mines"] == 1
    assert doc["probabilities"][1][1] is None
    assert doc["probabilities"][0][0] == pytest.approx(0.125)


def test_probs_stdin_flags_and_plot(tmp_path):
    plot = tmp_path / "heat.png"
    result = run("mines", "probs", "-", "--mines", "1", "--json", "--plot", plot,
                 input="*1x\n11x\nxxx\n")
    doc = json.loads(result.stdout)
    assert doc["probabilities"][0][0] == 1.0 and doc["probabilities"][2][2] == 0.0
    assert plot.stat().st_size > 1000


def test_deduce(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("x1\n11\n")
    result = run("mines", "deduce", path, "--mines", "1")
    assert result.stdout.strip() == "mine  row 1, column 1"
    result = run("mines", "deduce", path, "--mines", "1", "--json")
    assert payload(result.stdout) == {"safe": [], "mines": [[1, 1]]}


@pytest.mark.parametrize("text,mines,needle", [
    ("xxx\nxx\n", 1, "row 2 has 2 cells"),
    ("x?x\n", 1, "row 1, column 2: unknown character '?'"),
    ("xxx\nx1x\nxxx\n", 2, "no arrangement"),
    ("**x\n", 1, "2 flags but only 1 mines"),
])
def test_bad_positions_one_line(tmp_path, text, mines, needle):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    result = run("mines", "probs", path, "--mines", mines)
    assert result.exit_code == 2 and needle in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_missing_file(tmp_path):
    result = run("mines", "probs", tmp_path / "nope.txt", "--mines", "3")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_bench_json_and_text():
    result = run("mines", "bench", "--preset", "beginner8", "--first-click", "zero",
                 "--first-move", "centre", "--player", "least-risk", "--games", "20", "--json")
    doc = json.loads(result.stdout)
    for key in ("wins", "win_rate", "ci95", "guesses_per_game", "seconds_per_game", "decisions"):
        assert key in doc
    assert doc["games"] == 20 and doc["ci95"][0] <= doc["win_rate"] <= doc["ci95"][1]
    result = run("mines", "bench", "--preset", "6x6/5", "--player", "rules-random", "--games", "5")
    assert "wins" in result.stdout and "95% CI" in result.stdout
    result = run("mines", "bench", "--preset", "huge", "--games", "5")
    assert result.exit_code == 2 and "ROWSxCOLS/MINES" in result.stderr
    result = run("mines", "bench", "--player", "psychic", "--games", "5")
    assert result.exit_code == 2 and "unknown player" in result.stderr


def test_bench_first_move_anywhere():
    result = run("mines", "bench", "--preset", "expert", "--first-click", "zero",
                 "--first-move", "4,4", "--player", "least-risk", "--games", "3")
    assert result.exit_code == 0 and "first click zero at row 4, column 4" in result.stdout
    for bad, needle in (("17,1", "--first-move '17,1' is off the 16x30 board"),
                        ("middle", "--first-move 'middle' is not corner, centre or ROW,COL")):
        result = run("mines", "bench", "--first-move", bad, "--games", "3")
        assert result.exit_code == 2 and needle in result.stderr
        assert result.stderr.count("\n") == 1
    result = run("mines", "play", "--first-move", "0,0")
    assert result.exit_code == 2 and "--first-move '0,0' is off" in result.stderr
    result = run("mines", "bench", "--player", "best:endgame=x", "--games", "3")
    assert result.exit_code == 2 and "'x' is not a number" in result.stderr


def test_seed_protocol_table():
    result = run("mines", "seed-protocol", "--json")
    rows = payload(result.stdout)
    assert [r["player"] for r in rows] == ["rules-random", "csp-random", "least-risk"]
    assert all(r["games"] == 50 and r["rows"] == 8 and r["mines"] == 10 for r in rows)
    text = run("mines", "seed-protocol").stdout
    assert "rules + CSP + probabilities" in text


def test_play_steps(tmp_path):
    plot = tmp_path / "p.png"
    result = run("mines", "play", "--preset", "beginner", "--player", "least-risk", "--game", "1",
                 "--plot", plot)
    assert result.exit_code == 0
    assert "step 1:" in result.stdout and result.stdout.rstrip().split("\n")[-1] in ("won", "lost")


def test_compare_text_json_and_errors():
    result = run("mines", "compare", "best", "least-risk", "--preset", "beginner", "--games", "40")
    assert result.exit_code == 0, result.stderr
    assert "the same 40 games" in result.stdout and "sign test p =" in result.stdout
    doc = json.loads(run("mines", "compare", "best", "least-risk", "--preset", "beginner",
                         "--games", "40", "--json").stdout)
    assert doc["a"]["player"] == "best" and doc["b"]["player"] == "least-risk"
    assert doc["ci95"][0] <= doc["difference"] <= doc["ci95"][1]
    for args, needle in ((("best", "psychic"), "unknown player 'psychic'"),
                         (("best", "best", "--checkpoint", "c.jsonl"), "--checkpoint works with"),
                         (("best", "best", "--first-move", "9,99"), "--first-move '9,99' is off")):
        result = run("mines", "compare", *args, "--games", "5")
        assert result.exit_code == 2 and needle in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1


def test_compare_on_dask_resumes_from_its_checkpoint(tmp_path):
    checkpoint = tmp_path / "pairs.jsonl"
    args = ("mines", "compare", "least-risk", "csp-random", "--preset", "beginner8", "--games",
            "24", "--first-click", "zero", "--first-move", "4,4", "--json")
    local = json.loads(run(*args).stdout)
    first = json.loads(run(*args, "--workers", "1", "--checkpoint", checkpoint).stdout)
    lines = checkpoint.read_text().splitlines()
    again = json.loads(run(*args, "--workers", "1", "--checkpoint", checkpoint).stdout)
    assert checkpoint.read_text().splitlines() == lines      # nothing replayed
    for doc in (first, again):
        for key in ("both_won", "only_a_won", "only_b_won", "difference", "ci95"):
            assert doc[key] == local[key]
    # a bench of player A with the same arguments and file finds its games there
    bench_args = ("mines", "bench", "--player", "least-risk", "--preset", "beginner8",
                  "--games", "24", "--first-click", "zero", "--first-move", "4,4", "--json")
    bench = json.loads(run(*bench_args, "--workers", "1", "--checkpoint", checkpoint).stdout)
    assert checkpoint.read_text().splitlines() == lines
    assert bench["wins"] == local["a"]["wins"]
