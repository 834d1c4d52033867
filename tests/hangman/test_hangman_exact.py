"""Exact Hangman search, the adversary's value and strategy trees against brute force."""

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.hangman import (ExactHangman, Hangman, check_tree, load_hangman_words,
                                      tree_document)
from deductive.errors import DeductiveError
from deductive.kernels import hangman_exact as kx
from deductive.kernels.hangman import _sort_segment, position_masks, split_segment

from tests import reference

WEB2 = "/usr/share/dict/web2"


def word_sets(alphabet="abcde", min_len=2, max_len=4, max_size=14):
    return st.integers(min_len, max_len).flatmap(
        lambda n: st.lists(st.text(alphabet, min_size=n, max_size=n), min_size=1,
                           max_size=max_size, unique=True))


def codes_of(words):
    return np.array([[ord(ch) - 97 for ch in w] for w in words], dtype=np.uint8)


@settings(max_examples=120, deadline=None)
@given(word_sets(), st.integers(1, 5))
def test_optimum_equals_brute_force(words, lives):
    exact = ExactHangman(Hangman(words))
    assert exact.value(lives) == reference.hangman_best_wins(words, lives)


@settings(max_examples=60, deadline=None)
@given(word_sets("abcdef", 2, 4, 12), st.integers(1, 4), st.data())
def test_weighted_optimum_equals_brute_force(words, lives, data):
    weights = data.draw(st.lists(st.integers(0, 50), min_size=len(words), max_size=len(words)))
    exact = ExactHangman(Hangman(words), weights=weights)
    assert exact.value(lives) == reference.hangman_best_weight(
        words, dict(zip(words, weights)), lives)


@settings(max_examples=60, deadline=None)
@given(word_sets("abcdefg", 3, 5, 20), st.integers(1, 4))
def test_tree_wins_what_the_search_finds(words, lives):
    game = Hangman(words)
    play = ExactHangman(game).play(lives)
    tree = tree_document(play, game.words.words)
    check = check_tree(tree, game.words.words)
    assert check.ok and check.wins == play.value == tree["wins"]
    for k, word in enumerate(game.words.words):      # per-word results match the tree
        misses, leaf = reference.hangman_play_tree(tree, word)
        assert leaf == word and misses == play.wrong[k]
    # never below min-miss or best-lives
    assert play.value >= game.sweep("best-lives", lives=lives).wins


@settings(max_examples=120, deadline=None)
@given(word_sets("abcdef", 1, 4, 14))
def test_evil_equals_brute_force(words):
    game = Hangman(words)
    exact = ExactHangman(game)
    value = exact.evil_misses()
    assert value == reference.hangman_evil_misses(words)
    tree = tree_document(exact.evil_play(), game.words.words)
    check = check_tree(tree, game.words.words)
    assert check.ok and check.wins == len(words) and check.max_misses == value


@settings(max_examples=150, deadline=None)
@given(word_sets("abcdef", 2, 4, 12), st.integers(1, 4))
def test_bounds_are_upper_bounds(words, lives):
    codes = codes_of(words)
    masks, presence = position_masks(codes)
    idx = np.arange(len(words), dtype=np.int64)
    ones = np.ones(len(words), np.int64)
    wtab = kx.count_table(32, 26)
    best = reference.hangman_best_wins(words, lives)
    assert kx.state_bound(masks, presence, ones, True, idx, 0, len(words), lives, wtab) >= best
    assert kx.clique_bound(masks, presence, idx, 0, len(words)) <= \
        reference.hangman_evil_misses(words)


@settings(max_examples=150, deadline=None)
@given(word_sets("abc", 1, 8, 40), st.integers(0, 25))
def test_counting_split_equals_sort(words, c):
    masks, _ = position_masks(codes_of(words))
    n = len(words)
    a, b = np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)
    sa, sb = np.empty(n + 2, np.int64), np.empty(n + 2, np.int64)
    ka, kb = np.empty(n + 1, np.uint32), np.empty(n + 1, np.uint32)
    ga = split_segment(masks, a, 0, n, c, sa, ka)
    gb = _sort_segment(masks, b, 0, n, c, sb, kb)
    assert ga == gb and (a == b).all() and (sa[:ga + 1] == sb[:gb + 1]).all() \
        and (ka[:ga] == kb[:gb]).all()


def test_split_with_many_masks_sorts():
    # 12 letters, so one letter falls on more than 64 distinct sets of positions
    import itertools

    words = ["".join(p) for p in itertools.product("ab", repeat=12)][:300]
    masks, _ = position_masks(codes_of(words))
    n = len(words)
    a, b = np.arange(n, dtype=np.int64), np.arange(n, dtype=np.int64)
    s, k = np.empty(n + 2, np.int64), np.empty(n + 1, np.uint32)
    groups = split_segment(masks, a, 0, n, 0, s, k)
    assert groups == _sort_segment(masks, b, 0, n, 0, s.copy(), k.copy()) == 300
    assert (a == b).all()


def test_clique_and_degenerate_cases():
    clique = "bill dill fill gill hill kill mill pill".split()
    exact = ExactHangman(Hangman(clique))
    assert [exact.value(lives) for lives in (1, 3, 8, 9)] == [1, 3, 8, 8]
    assert exact.evil_misses() == 7
    one = ExactHangman(Hangman(["word"]))
    assert one.value(1) == 1 and one.evil_misses() == 0
    assert one.play(1).wrong.tolist() == [0]
    # "lill": its l also stands in the shared "ill", so a hit tells it apart for free
    assert ExactHangman(Hangman(clique + ["lill"])).evil_misses() == 7


def test_memory_budget_evicts_but_stays_exact():
    words = load_hangman_words(os.path.join(os.path.dirname(__file__), "..", "..", "deductive",
                                            "data", "en-5.txt"), 5)[5].words[:400]
    roomy = ExactHangman(Hangman(words)).value(4)
    tight = ExactHangman(Hangman(words), memory=2 ** 20)
    assert tight.value(4) == roomy
    assert tight.stats["table_bytes"] <= 2 ** 20 and tight.stats["evicted"] > 0


def test_errors():
    game = Hangman("abc abd".split())
    with pytest.raises(DeductiveError, match="lives"):
        ExactHangman(game).value(0)
    with pytest.raises(DeductiveError, match="weights"):
        ExactHangman(game, weights=[1.5, 2])
    with pytest.raises(DeductiveError, match="memory"):
        ExactHangman(game, memory=10)


def test_tree_check_finds_broken_trees():
    game = Hangman("deed even eyes heel mere peep star".split())
    play = ExactHangman(game).play(3)
    tree = tree_document(play, game.words.words)
    assert check_tree(tree, game.words.words).ok
    broken = json.loads(json.dumps(tree))
    node = broken["tree"]
    while "word" not in node:                 # rename the first leaf
        node = next(iter(node["hits"].values())) if node["hits"] else node["miss"]
    node["word"] = "zzzz"
    check = check_tree(broken, game.words.words)
    assert not check.ok and "leaf of 'zzzz'" in check.errors[0]
    lying = dict(tree, wins=tree["wins"] + 1)
    assert not check_tree(lying, game.words.words).ok
    with pytest.raises(DeductiveError, match="not a deductive Hangman tree"):
        check_tree({"tree": {}}, game.words.words)


@pytest.fixture(scope="module")
def web2():
    if not os.path.exists(WEB2):
        pytest.skip("/usr/share/dict/web2 is absent (Debian package miscfiles)")
    return load_hangman_words(WEB2)


def test_web2_three_letters(web2):
    game = Hangman(web2[3])
    exact = ExactHangman(game)
    assert [exact.value(lives) for lives in (1, 2, 3, 4, 5, 6)] == [11, 39, 87, 154, 239, 340]
    assert exact.evil_misses() == 17


@pytest.mark.slow
def test_web2_six_letters_six_lives(web2):
    game = Hangman(web2[6])
    play = ExactHangman(game).play(6)
    assert play.value == 13199
    assert check_tree(tree_document(play, game.words.words), game.words.words).wins == 13199
