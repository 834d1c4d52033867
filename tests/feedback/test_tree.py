"""Decision-tree export and tree-check: valid trees pass, broken ones are rejected."""

import copy
import json

import pytest

from deductive import wordle
from deductive.engine.wordle.game import Wordle
from deductive.engine.feedback.tree import TreeError, check_tree, load_tree, tree_document

FR = wordle.load_words("fr-seed")


@pytest.fixture(scope="module", params=[False, True], ids=["normal", "hard"])
def exported(request):
    game = Wordle(FR, FR, hard=request.param)
    result = game.bench("entropy", opener="laine", keep_tree=True)
    return game, result, tree_document(game, result.tree)


def test_exported_tree_passes_with_same_statistics(exported):
    game, result, doc = exported
    report = check_tree(game, json.loads(json.dumps(doc))).to_json()
    assert report["total"] == result.total and report["worst"] == result.worst
    assert report["hard"] == game.hard and report["answers"] == 297


def first_branch(node):
    key = next(iter(node["then"]))
    return node["then"], key


# -- broken trees: each mutation of a valid tree, and the error that names it ----------------
def drop_a_branch(game, tree):
    branches, key = first_branch(tree)
    del branches[key]


def play_a_word_outside_the_list(game, tree):
    branches, key = first_branch(tree)
    branches[key]["guess"] = "zzzzz"


def write_a_bad_feedback_key(game, tree):
    branches, key = first_branch(tree)
    branches["GGQ.."] = branches.pop(key)


def add_a_branch_no_answer_reaches(game, tree):
    """A dead branch is checked like any other: 'zzzzz' and garbage under a feedback
    that no remaining answer gives must not pass."""
    reached = {game.parse(k) for k in tree["then"]} | {game.win_code}
    dead = next(c for c in range(243) if c not in reached)
    tree["then"][game.format(dead)] = {"guess": "zzzzz", "then": {"garbage": 1}}


def add_a_branch_under_the_win(game, tree):
    tree["then"]["GGGGG"] = {"guess": "laine"}


def write_one_feedback_twice(game, tree):
    branches, key = first_branch(tree)
    branches[wordle.format_pattern(wordle.parse_pattern(key), 5, "digits")] = branches[key]


@pytest.mark.parametrize("mutate, error", [
    (drop_a_branch, "misses answer"),
    (play_a_word_outside_the_list, "'zzzzz'.*not in the guess list"),
    (write_a_bad_feedback_key, "bad pattern 'GGQ..'"),
    (add_a_branch_no_answer_reaches, "reached by no answer"),
    (add_a_branch_under_the_win, "winning feedback"),
    (write_one_feedback_twice, "twice"),
], ids=lambda v: v.__name__ if callable(v) else None)
def test_a_broken_tree_is_rejected(exported, mutate, error):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    mutate(game, broken["tree"])
    with pytest.raises(TreeError, match=error):
        check_tree(game, broken)


def test_hard_mode_violation_is_rejected():
    game = Wordle(FR, FR)
    # after 'laine' shows a green, a hard-mode tree must keep it; 'ombre' keeps nothing
    doc = tree_document(game, game.bench("entropy", opener="laine", keep_tree=True).tree)
    node = doc["tree"]["then"]["....G"]
    node["guess"] = "bidon"
    with pytest.raises(TreeError):
        check_tree(game, doc)            # bidon no longer solves that branch's answers
    normal = tree_document(game, game.bench("entropy", opener="laine", keep_tree=True).tree)
    with pytest.raises(TreeError, match="breaks hard mode"):
        check_tree(game, normal, hard=True)


def test_load_tree_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(TreeError, match="not a JSON tree"):
        load_tree(bad)
    bad.write_text("[1, 2]")
    with pytest.raises(TreeError, match="no 'tree' object"):
        load_tree(bad)
    with pytest.raises(TreeError, match="no such file"):
        load_tree(tmp_path / "missing.json")
