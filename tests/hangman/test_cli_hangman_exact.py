"""The exact Hangman commands through CliRunner: optimal sweeps, trees, the adversary."""

import json

import pytest

from tests.hangman.test_cli_hangman import run

WORDS = "bill\ndill\nfill\ngill\nhill\nkill\nmill\npill\ndeed\neven\neyes\nheel\nmere\npeep\n" \
        "star\nbake\nmake\ntake\nwake\nlake\n"


@pytest.fixture
def words(tmp_path):
    """The "_ill" clique and some other four-letter words."""
    path = tmp_path / "words.txt"
    path.write_text(WORDS)
    return str(path)


def test_optimal_sweep_tree_and_check(words, tmp_path):
    tree = tmp_path / "tree.json"
    result = run("hangman", "sweep", "--words", words, "--length", "4", "--strategy", "optimal",
                 "--lives", "3", "--tree", tree, "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    greedy = json.loads(run("hangman", "sweep", "--words", words, "--length", "4", "--lives",
                            "3", "--json").stdout)
    assert doc["wins"] >= greedy["wins"] and doc["words"] == 20
    check = run("hangman", "tree-check", tree, "--words", words, "--json")
    assert check.exit_code == 0, check.stdout
    report = json.loads(check.stdout)
    assert report["ok"] and report["wins"] == doc["wins"] and report["same_list"]
    text = run("hangman", "tree-check", tree, "--words", words, "--lives", "8")
    assert text.exit_code == 0 and text.stdout.rstrip().endswith("ok")
    # a tree that confuses two words fails the check
    broken = json.loads(tree.read_text())
    broken["tree"] = {"word": "bill"}
    tree.write_text(json.dumps(broken))
    bad = run("hangman", "tree-check", tree, "--words", words)
    assert bad.exit_code == 1 and "FAILED" in bad.stdout and "leaf of 'bill'" in bad.stdout


def test_hardest_printed_first(words):
    result = run("hangman", "sweep", "--words", words, "--length", "4", "--top", "3")
    lines = result.stdout.splitlines()
    start = lines.index("  3 hardest, hardest first:")
    hardest = [eval(line.strip()) for line in lines[start + 1:start + 4]]
    assert hardest == sorted(hardest, reverse=True) and hardest[0][0] >= hardest[-1][0]


def test_lives_all_and_checkpoint(words, tmp_path):
    ckpt = tmp_path / "run.jsonl"
    args = ("hangman", "sweep", "--words", words, "--strategy", "optimal", "--lives", "all",
            "--checkpoint", ckpt)
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    assert "length 4: 20 words, optimal" in first.stdout
    rows = [line.split() for line in first.stdout.splitlines() if line.startswith("  ")
            and line.split()[0].isdigit()]
    assert [int(r[0]) for r in rows][:10] == list(range(1, 11))
    wins = [int(r[1]) for r in rows[:10]]
    assert wins == sorted(wins) and wins[-1] == 20      # more lives never win less
    lines = ckpt.read_text().splitlines()
    again = run(*args)
    assert again.stdout == first.stdout and ckpt.read_text().splitlines() == lines
    doc = json.loads(run(*args, "--json").stdout)
    assert doc["by_length"]["4"]["10"]["wins"] == 20


def test_evil_and_play_evil(words, tmp_path):
    tree = tmp_path / "evil.json"
    result = run("hangman", "evil", "--words", words, "--length", "4", "--tree", tree, "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["misses"] == 7 and doc["lives_to_win"] == 8   # the _ill clique
    assert set(doc["held"]) <= set(WORDS.split())
    check = json.loads(run("hangman", "tree-check", tree, "--words", words, "--json").stdout)
    assert check["ok"] and check["wins"] == 20 and check["max_misses"] == 7
    text = run("hangman", "evil", "--words", words, "--length", "4")
    assert "hold the misses to 7" in text.stdout
    game = run("hangman", "play", "--evil", "--words", words, "--length", "4", "--lives", "2",
               input="i\nl\nb\nd\n")
    assert game.exit_code == 0, game.stderr
    assert "lost: the adversary could still answer" in game.stdout


def test_errors(words, tmp_path):
    result = run("hangman", "sweep", "--words", words, "--lives", "many")
    assert result.exit_code == 2 and "--lives 'many'" in result.stderr
    result = run("hangman", "sweep", "--words", words, "--strategy", "optimal", "--lives",
                 "all", "--tree", tmp_path / "t.json")
    assert result.exit_code == 2 and "--tree needs" in result.stderr
    result = run("hangman", "tree-check", tmp_path / "missing.json", "--words", words)
    assert result.exit_code == 2 and "no such file" in result.stderr
    (tmp_path / "x.json").write_text("[1, 2]")
    result = run("hangman", "tree-check", tmp_path / "x.json", "--words", words)
    assert result.exit_code == 2 and "not a deductive Hangman tree" in result.stderr
    result = run("hangman", "play", "--evil", "--word", "bill", "--words", words, "--length", "4")
    assert result.exit_code == 2 and "drop --word" in result.stderr
    assert result.stderr.count("\n") == 1


def test_tree_reader_is_bounded(words, tmp_path, monkeypatch):
    """A gzip bomb, an over-deep nesting and a device each get one line and exit 2; a
    gzip-compressed tree within the limit reads as the plain one."""
    import gzip

    tree = tmp_path / "tree.json"
    made = run("hangman", "sweep", "--words", words, "--length", "4", "--strategy", "optimal",
               "--lives", "3", "--tree", tree)
    assert made.exit_code == 0, made.stderr
    packed = tmp_path / "tree.json.gz"
    packed.write_bytes(gzip.compress(tree.read_bytes()))
    def report(path):
        result = run("hangman", "tree-check", path, "--words", words, "--json")
        assert result.exit_code == 0, result.stderr
        return {k: v for k, v in json.loads(result.stdout).items()
                if k not in ("parameters", "elapsed_s")}

    assert report(packed) == report(tree) and report(tree)["ok"]
    monkeypatch.setenv("DEDUCTIVE_MAX_INPUT", "1M")
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * 50_000_000))      # 50 KB that expand to 50 MB
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    for path, needle in [(bomb, "expands to more than the input limit of 1.0 MB"),
                         (deep, "nested deeper than any Hangman tree"),
                         ("/dev/zero", "not a regular file")]:
        result = run("hangman", "tree-check", path, "--words", words)
        assert result.exit_code == 2 and needle in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_workers_equal_one_process(words, tmp_path):
    pytest.importorskip("distributed")
    args = ("hangman", "sweep", "--words", words, "--strategy", "optimal", "--lives", "all",
            "--json")
    local = json.loads(run(*args).stdout)
    ckpt = tmp_path / "dask.jsonl"
    remote = run(*args, "--workers", "1", "--checkpoint", ckpt)
    assert remote.exit_code == 0, remote.stderr
    doc = json.loads(remote.stdout)
    for n in local["by_length"]:
        for lives, row in local["by_length"][n].items():
            assert doc["by_length"][n][lives]["wins"] == row["wins"]
    # the checkpoint a cluster wrote resumes in one process
    again = json.loads(run(*args[:-1], "--checkpoint", ckpt, "--json").stdout)
    assert again["by_length"] == doc["by_length"]
