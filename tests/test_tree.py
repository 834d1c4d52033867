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
    result = game.benchmark("entropy", opener="laine", keep_tree=True)
    return game, result, tree_document(game, result.tree)


def test_exported_tree_passes_with_same_statistics(exported):
    game, result, doc = exported
    report = check_tree(game, json.loads(json.dumps(doc))).as_dict()
    assert report["total"] == result.total and report["worst"] == result.worst
    assert report["hard"] == game.hard and report["answers"] == 297


def first_branch(node):
    key = next(iter(node["then"]))
    return node["then"], key


def test_missing_answer_is_rejected(exported):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    branches, key = first_branch(broken["tree"])
    del branches[key]
    with pytest.raises(TreeError, match="misses answer"):
        check_tree(game, broken)


def test_word_outside_guess_list_is_rejected(exported):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    branches, key = first_branch(broken["tree"])
    branches[key]["guess"] = "zzzzz"
    with pytest.raises(TreeError, match="'zzzzz'.*not in the guess list"):
        check_tree(game, broken)


def test_bad_pattern_key_is_rejected(exported):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    branches, key = first_branch(broken["tree"])
    branches["GGQ.."] = branches.pop(key)
    with pytest.raises(TreeError, match="bad pattern 'GGQ..'"):
        check_tree(game, broken)


def test_hard_mode_violation_is_rejected():
    game = Wordle(FR, FR)
    # after 'laine' shows a green, a hard-mode tree must keep it; 'ombre' keeps nothing
    doc = tree_document(game, game.benchmark("entropy", opener="laine", keep_tree=True).tree)
    node = doc["tree"]["then"]["....G"]
    node["guess"] = "bidon"
    with pytest.raises(TreeError):
        check_tree(game, doc)            # bidon no longer solves that branch's answers
    normal = tree_document(game, game.benchmark("entropy", opener="laine", keep_tree=True).tree)
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


def test_a_branch_no_answer_reaches_is_rejected_whatever_lies_beneath(exported):
    """A dead branch is checked like any other: 'zzzzz' and garbage under a feedback
    that no remaining answer gives must not pass."""
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    root = broken["tree"]
    reached = {game.parse(k) for k in root["then"]} | {game.win_code}
    dead = next(c for c in range(243) if c not in reached)
    root["then"][game.format(dead)] = {"guess": "zzzzz", "then": {"garbage": 1}}
    with pytest.raises(TreeError, match="reached by no answer"):
        check_tree(game, broken)


def test_a_branch_under_the_winning_feedback_is_rejected(exported):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    broken["tree"]["then"]["GGGGG"] = {"guess": "laine"}
    with pytest.raises(TreeError, match="winning feedback"):
        check_tree(game, broken)


def test_the_same_feedback_twice_is_rejected(exported):
    game, _, doc = exported
    broken = copy.deepcopy(doc)
    branches, key = first_branch(broken["tree"])
    other = wordle.format_pattern(wordle.parse_pattern(key), 5, "digits")
    branches[other] = branches[key]
    with pytest.raises(TreeError, match="twice"):
        check_tree(game, broken)
