"""``deductive mastermind`` and ``deductive bulls``: one set of commands, two games."""

import json

from click.testing import CliRunner

from deductive.cli import cli
from tests.provenance import payload


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_bench_knuth_json():
    r = run("mastermind", "bench", "--solver", "knuth", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert (out["total"], out["worst"], out["opener"]) == (5801, 5, "1122")
    assert out["distribution"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}


def test_search_worst_tree_round_trip(tmp_path):
    tree = tmp_path / "worst.json"
    r = run("mastermind", "search", "--objective", "worst", "--tree", str(tree), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["worst"] == 5
    r = run("mastermind", "tree-check", str(tree), "--json")
    assert r.exit_code == 0 and json.loads(r.output)["worst"] == 5
    opener = json.loads(r.output)["opener"]
    text = run("mastermind", "tree-check", str(tree)).output
    assert text.startswith(f"opener {opener}: total ") and ", worst 5" in text
    r = run("mastermind", "tree-check", str(tree), "--pegs", "3")
    assert r.exit_code == 2 and r.output.startswith("error: ")
    assert "not a tree of this game" in r.output


def test_small_search_and_openers():
    r = run("mastermind", "search", "--pegs", "3", "--colours", "3", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["exact"] is True
    r = run("bulls", "openers", "--digits", "2", "--top", "1", "--json")
    assert r.exit_code == 0 and payload(r.output)[0]["word"] == "01"
    r = run("mastermind", "search", "--max-guesses", "3")
    assert r.exit_code == 2 and "--max-guesses 3" in r.output


def test_play_and_assist():
    r = run("mastermind", "play", "3632", "--solver", "knuth")
    assert r.exit_code == 0 and r.output.splitlines()[0] == "1122  1B0W"
    assert r.output.strip().endswith("solved in 5")
    r = run("bulls", "assist", input="0123 4B0C\n")
    assert r.exit_code == 0 and "the answer is 0123" in r.output
    r = run("mastermind", "assist", input="1122 nonsense\nquit\n")
    assert r.exit_code == 0 and "not applied" in r.output


def test_user_mistakes_exit_2():
    for args in (("mastermind", "play", "7777"), ("mastermind", "bench", "--solver", "nope"),
                 ("mastermind", "openers", "--pegs", "9"),
                 ("bulls", "bench", "--digits", "6"),
                 ("mastermind", "search", "--objective", "worst", "--opener", "1122")):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert r.output.startswith("error: ") and len(r.output.strip().splitlines()) == 1
