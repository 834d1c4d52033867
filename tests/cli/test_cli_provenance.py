"""Every --json document records what made it: the package version, the command, the word
lists read (name, SHA-256, size), the parameters as given and the elapsed seconds."""

import hashlib
import json

import pytest
from click.testing import CliRunner

import deductive
from deductive.cli import cli
from tests.provenance import KEYS

FR = ["--guesses", "fr-seed", "--answers", "fr-seed"]
POSITION = "xxx\nx1x\nxxx\n"
# every command with --json, run small; TREE, CK: files made by the fixture
COMMANDS = {
    "wordle matrix": FR,
    "wordle second": FR + ["--opener", "laine"],
    "wordle openers": FR + ["--top", "2"],
    "wordle bench": FR + ["--answers-subset", "5"],
    "wordle search": FR + ["--openers", "2", "--beam", "1"],
    "wordle tree-check": FR + ["WTREE"],
    "wordle verify-ranking": FR + ["CK", "--sample", "0"],
    "wordle multi": FR + ["--games", "2", "--boards", "2"],
    "wordle absurdle search": FR,
    "cache info": [],
    "hangman sweep": ["--length", "2"],
    "hangman solve": ["_a_"],
    "hangman tree-check": ["HTREE"],
    "hangman evil": ["--length", "2"],
    "mines probs": ["-", "--mines", "1"],
    "mines deduce": ["-", "--mines", "1"],
    "mines bench": ["--preset", "beginner", "--games", "2"],
    "mines compare": ["best", "least-risk", "--preset", "beginner", "--games", "2"],
    "mines seed-protocol": ["--games", "1"],
    "mines generate": ["--preset", "beginner", "--count", "1", "--seed", "1"],
    "mastermind openers": ["--pegs", "2", "--colours", "3"],
    "mastermind bench": ["--pegs", "2", "--colours", "3"],
    "mastermind search": ["--pegs", "2", "--colours", "3"],
    "mastermind tree-check": ["MTREE", "--pegs", "2", "--colours", "3"],
    "bulls openers": ["--digits", "2"],
    "bulls bench": ["--digits", "2"],
    "bulls search": ["--digits", "2"],
    "bulls tree-check": ["BTREE", "--digits", "2"],
    "lists": [],
}


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


def json_commands():
    found = []

    def walk(command, path):
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, path + [name])
        if any(p.name == "json" for p in command.params):
            found.append(" ".join(path))
    walk(cli, [])
    return found


def test_every_json_command_is_listed():
    assert sorted(json_commands()) == sorted(COMMANDS)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("provenance")
    made = {"WTREE": tmp / "w.json", "HTREE": tmp / "h.json", "MTREE": tmp / "m.json",
            "BTREE": tmp / "b.json", "CK": tmp / "ck.jsonl"}
    for args in (["wordle", "bench", *FR, "--tree", made["WTREE"]],
                 ["hangman", "sweep", "--length", "2", "--strategy", "optimal", "--tree",
                  made["HTREE"]],
                 ["mastermind", "search", "--pegs", "2", "--colours", "3", "--tree",
                  made["MTREE"]],
                 ["bulls", "search", "--digits", "2", "--tree", made["BTREE"]],
                 ["wordle", "search", *FR, "--openers", "2", "--prove-best", "--checkpoint",
                  made["CK"]]):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)
    return made


@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_carries_provenance(command, files):
    args = [files.get(a, a) for a in COMMANDS[command]]
    result = run(*command.split(), *args, "--json", input=POSITION)
    assert result.exit_code in (0, 1), result.output       # tree-check: 1 is a verdict
    doc = json.loads(result.stdout)
    assert all(k in doc for k in KEYS), sorted(doc)
    assert doc["deductive"] == deductive.__version__
    assert doc["command"] == f"cli {command}" or doc["command"].endswith(command)
    assert doc["parameters"]["json"] is True
    assert isinstance(doc["elapsed_s"], float) and doc["elapsed_s"] >= 0
    for row in doc["lists"]:
        assert set(row) == {"name", "sha256", "size"} and len(row["sha256"]) == 64
    if command.startswith(("wordle", "hangman")):
        assert doc["lists"], doc


def test_list_digest_is_that_of_the_words():
    from deductive.engine.words import builtin_words

    doc = json.loads(run("wordle", "openers", "--top", "1", "--json").stdout)
    guesses = builtin_words("wordle")
    row = next(r for r in doc["lists"] if r["name"] == guesses.name)
    assert row["size"] == len(guesses) == 12_972
    assert row["sha256"] == guesses.sha256 == hashlib.sha256(
        "\n".join(guesses).encode()).hexdigest()
