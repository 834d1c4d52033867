"""Decision-tree search: admissible bounds and exact results against brute force."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive import wordle
from deductive.cli import cli
from deductive.engine.wordle.game import Wordle
from deductive.engine.feedback.search import TreeSearch, guess_lower_bound, lower_bound
from deductive.engine.feedback.tree import check_tree, tree_document
from deductive.errors import DeductiveError

from tests import reference


@st.composite
def small_games(draw):
    length = draw(st.integers(2, 3))
    alphabet = "abcd"
    pool = st.text(alphabet, min_size=length, max_size=length)
    answers = draw(st.lists(pool, min_size=1, max_size=7, unique=True))
    extra = draw(st.lists(pool, min_size=0, max_size=4, unique=True))
    guesses = sorted(set(answers) | set(extra))
    return guesses, sorted(answers)


@settings(max_examples=80, deadline=None)
@given(small_games())
def test_lower_bound_is_admissible(game_lists):
    guesses, answers = game_lists
    rng = np.random.default_rng(len(answers))
    for size in range(1, len(answers) + 1):
        subset = sorted(rng.choice(answers, size=size, replace=False).tolist())
        total, _ = reference.wordle_optimal(guesses, subset)
        assert total >= lower_bound(size)


@settings(max_examples=60, deadline=None)
@given(small_games())
def test_guess_lower_bound_is_admissible(game_lists):
    """3n - [g in S] - buckets(g) never exceeds the best total of a tree opening with g."""
    guesses, answers = game_lists
    win = 3 ** len(answers[0]) - 1
    for guess in guesses:
        groups: dict = {}
        for answer in answers:
            groups.setdefault(reference.feedback_code(guess, answer), []).append(answer)
        if len(groups) == 1 and win not in groups:
            continue                   # a guess that tells nothing opens no tree
        best = len(answers) + sum(reference.wordle_optimal(guesses, grp)[0]
                                  for code, grp in groups.items() if code != win)
        bound = guess_lower_bound(len(answers), len(groups), guess in answers)
        assert best >= bound
        if all(len(grp) <= 2 for grp in groups.values()):
            assert best == bound       # tight when no bucket holds three answers


@settings(max_examples=80, deadline=None)
@given(small_games(), st.sampled_from([None, 2, 3]))
def test_a_set_no_answer_isolates_needs_2m(game_lists, max_guesses):
    """The floor of a search's child sets (kernels.search.unisolated): a tree over m >= 3
    answers totals 2m - 1 only when one of them, played first, gives every other its own
    feedback; otherwise at least 2m, within any number of guesses."""
    guesses, answers = game_lists
    m = len(answers)
    isolates = any(len({reference.feedback_code(x, y) for y in answers}) == m
                   for x in answers)
    total, _ = reference.wordle_optimal(guesses, answers, max_guesses)
    if isolates and max_guesses is None:
        assert total == 2 * m - 1
    elif m >= 3 and not isolates:
        assert total >= 2 * m


def test_search_memo_reuses_bounds_consistently():
    """A set searched first under a ceiling, then without one, gets the same exact value
    as a fresh search (a stored lower bound is never taken for a value)."""
    game = Wordle("fr-seed", "fr-seed")
    cands = np.arange(len(game.answers), dtype=np.int64)[::3]
    fresh = TreeSearch(game).solve(cands)
    searcher = TreeSearch(game)
    low, _, exact = searcher.solve(cands, beta=fresh[0] - 5)
    assert not exact and low >= fresh[0] - 5
    assert searcher.solve(cands) == fresh


@settings(max_examples=80, deadline=None)
@given(small_games(), st.sampled_from([None, 2, 3]))
def test_exact_search_equals_brute_force(game_lists, max_guesses):
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    expected = reference.wordle_optimal(guesses, answers, max_guesses)
    best = None
    for opener in guesses:
        searcher = TreeSearch(game, max_guesses=max_guesses)
        try:
            result = searcher.search_opener(opener, keep_tree=True)
        except DeductiveError:          # no tree within max_guesses with this opener
            continue
        got = (result.total, result.worst)
        best = got if best is None else min(best, got)
        report = check_tree(game, tree_document(game, result.tree)).to_json()
        assert (report["total"], report["worst"]) == got
        beam = TreeSearch(game, beam=1, max_guesses=max_guesses)
        try:
            assert beam.search_opener(opener).total >= result.total
        except DeductiveError:          # the beam may find no tree within max_guesses
            pass
    if best is None:
        assert expected[0] == float("inf")
    else:
        assert best == expected


def test_a_beam_falls_back_until_a_tree_fits(monkeypatch):
    """Hard mode on 120 French words, each opener at the fewest guesses it can do with
    and at one more: a beam of one often has no tree there (its guess leaves a set no
    allowed guess can finish in time), then tries the next guesses of the order. It finds
    a tree from every opener that has one (the cap, :data:`BEAM_FALLBACK`, exceeds the
    120 guesses), never better than the exact one, and the total and worst case reported
    are the exported tree's, checked node by node; without the fallback it finds fewer."""
    from deductive.engine.feedback.search import tree_search

    words = Wordle("fr-seed", "fr-seed").answers
    sub = sorted(np.random.default_rng(0).choice(words, 120, replace=False).tolist())
    game = Wordle(sub, sub, hard=True)
    assert tree_search.BEAM_FALLBACK > len(sub)
    without = 0
    for opener in sub[:8]:
        fewest, exact = _fewest_guesses(game, opener)
        with monkeypatch.context() as patch:
            patch.setattr(tree_search, "BEAM_FALLBACK", 0)
            without += _or_none(lambda: TreeSearch(game, beam=1, max_guesses=fewest)
                                .search_opener(opener)) is not None
        for depth in (fewest, fewest + 1):
            beam = TreeSearch(game, beam=1, max_guesses=depth).search_opener(
                opener, keep_tree=True)
            report = check_tree(game, tree_document(game, beam.tree)).to_json()
            assert (report["total"], report["worst"]) == (beam.total, beam.worst)
            assert beam.worst <= depth and beam.total >= exact.total
            # without the tree: the same total (a retry within fewer guesses that finds
            # a smaller one reports it)
            plain = TreeSearch(game, beam=1, max_guesses=depth).search_opener(opener)
            assert (plain.total, plain.worst) == (beam.total, beam.worst)
    assert without < 8


def test_a_beam_reports_the_tree_of_its_last_pass():
    """After its first tree, a search tries again within one guess fewer at the same total;
    with the fallback a beam can find a smaller total there (here 344 against 345), and
    the total reported, tree or no tree, is that pass's."""
    words = Wordle("fr-seed", "fr-seed").answers
    sub = sorted(np.random.default_rng(1).choice(words, 120, replace=False).tolist())
    game = Wordle(sub, sub, hard=True)
    plain = TreeSearch(game, beam=1, max_guesses=5).search_opener("atlas")
    kept = TreeSearch(game, beam=1, max_guesses=5).search_opener("atlas", keep_tree=True)
    report = check_tree(game, tree_document(game, kept.tree)).to_json()
    assert plain.total == kept.total == report["total"] == 344
    assert plain.worst == kept.worst == report["worst"]


def _fewest_guesses(game, opener):
    """The least ``max_guesses`` with an exact tree from ``opener``, and that tree."""
    for depth in range(2, 9):
        found = _or_none(lambda: TreeSearch(game, max_guesses=depth).search_opener(opener))
        if found is not None:
            return depth, found
    raise AssertionError(f"no tree from {opener} within 8 guesses")


def _or_none(search):
    try:
        return search()
    except DeductiveError:              # no tree within max_guesses
        return None


def _skewed_game(seed, n_guesses, n_answers, n_codes):
    """A random game whose guesses mostly get the first codes, half of them weakened (a
    code merged into another): many guesses tie, and a node tries several."""
    from deductive.engine.feedback.game import FeedbackGame
    from deductive.engine.feedback.matrix import PatternMatrix

    rng = np.random.default_rng(seed)
    p = 0.5 ** np.arange(n_codes - 1)
    codes = rng.choice(n_codes - 1, size=(n_guesses, n_answers), p=p / p.sum()).astype(np.uint8)
    for g in range(n_guesses):
        if rng.random() < 0.5:
            codes[g][codes[g] == 1] = 0
    codes[np.arange(n_answers), np.arange(n_answers)] = n_codes - 1
    return FeedbackGame(PatternMatrix(codes, [str(g) for g in range(n_guesses)],
                                      [str(a) for a in range(n_answers)], n_codes,
                                      n_codes - 1))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("depth", [None, 4])
def test_a_node_head_changes_nothing(monkeypatch, seed, depth):
    """Nodes that first get only the head of their guesses (down to one) and score the
    rest when it is not enough give the same values and memo as nodes given all of them."""
    from deductive.engine.feedback.search import tree_search as search

    game = _skewed_game(seed, 100, 30, 4)
    cands = np.arange(30, dtype=np.int64)
    heads = []
    kernel = search.split_bounds

    def split_bounds(*args):
        heads.append(args[-1])
        return kernel(*args)

    monkeypatch.setattr(search, "split_bounds", split_bounds)

    def memo(head):
        monkeypatch.setattr(search, "SCAN_HEAD", head)
        searcher = TreeSearch(game)
        value = searcher.solve(cands, None, depth)
        low = searcher.solve(cands, None, depth, value[0] - 1) if value[2] else None
        return value, low, searcher.nodes, {k: {d: (e.value, e.exact, e.worst, e.choice)
                                                for d, e in v.items()}
                                            for k, v in searcher.memo.items()}

    assert memo(1) == memo(2) == memo(10 ** 9)
    assert heads.count(0) > 0                   # some nodes needed more than their head


def test_french_seed_beam_tree_checks():
    game = Wordle("fr-seed", "fr-seed")
    result = TreeSearch(game, beam=5).search_opener("laine", keep_tree=True)
    report = check_tree(game, tree_document(game, result.tree)).to_json()
    assert report["total"] == result.total and result.total <= game.bench(
        game.solver("entropy"), opener="laine").total


def test_hard_mode_search_tree_is_valid():
    game = Wordle("fr-seed", "fr-seed", hard=True)
    result = TreeSearch(game, beam=3, max_guesses=6).search_opener("laine", keep_tree=True)
    report = check_tree(game, tree_document(game, result.tree)).to_json()
    assert report["hard"] and report["total"] == result.total and report["worst"] <= 6


@settings(max_examples=60, deadline=None)
@given(small_games(), st.integers(0, 2 ** 32 - 1))
def test_hard_mode_turns_with_one_rule_key_allow_the_same_guesses(game_lists, seed):
    """A search remembers hard-mode masks by (mask before, rule key): every two turns with
    the same key must leave the same guesses, from any mask before."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers, hard=True)
    rng = np.random.default_rng(seed)
    before = rng.random(len(guesses)) < 0.7
    by_key: dict = {}
    for g in range(len(guesses)):
        for code in set(game.matrix[g].tolist()):
            mask = game.allowed_after(before, g, code)
            want = by_key.setdefault(game.rule_key(g, code), mask)
            assert (mask == want).all()
            assert (mask == game.allowed_after(np.ones(len(guesses), bool), g, code)
                    & before).all()


def test_hard_mode_search_remembers_masks_without_changing_the_tree():
    game = Wordle("fr-seed", "fr-seed", hard=True)
    plain = TreeSearch(game, max_guesses=6)
    plain.cache_rules = False
    cached = TreeSearch(game, max_guesses=6)
    a = plain.search_opener("laine", keep_tree=True)
    b = cached.search_opener("laine", keep_tree=True)
    assert (a.total, a.worst, a.tree) == (b.total, b.worst, b.tree)
    assert 0 < len(cached._masks) < len(cached._after)


def test_cli_search_and_openers(tmp_path):
    runner = CliRunner()
    tree = tmp_path / "t.json"
    out = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed", "--opener", "laine",
                              "--beam", "3", "--tree", str(tree), "--json"])
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["word"] == "laine" and doc["exact"] is False
    check = runner.invoke(cli, ["wordle", "tree-check", str(tree), "--guesses", "fr-seed",
                                "--json"])
    assert json.loads(check.stdout)["total"] == doc["total"]
    ck = tmp_path / "ck.jsonl"
    args = ["wordle", "search", "--guesses", "fr-seed", "--openers", "3", "--beam", "2",
            "--json", "--checkpoint", str(ck)]
    first = json.loads(runner.invoke(cli, args).stdout)["results"]
    assert len(first) == 3 and len(ck.read_text().splitlines()) == 3 + 1   # a header
    again = json.loads(runner.invoke(cli, args).stdout)["results"]
    assert again == first and len(ck.read_text().splitlines()) == 3 + 1   # all from the checkpoint
    bad = runner.invoke(cli, ["wordle", "search", "--guesses", "fr-seed"])
    assert bad.exit_code == 2 and "--opener WORD or --openers N" in bad.stderr


def test_original_lists_beam(wordle_lists):
    guesses = wordle.load_words(wordle_lists[0])
    answers = wordle.load_words(wordle_lists[1])
    game = Wordle(guesses, answers)
    result = TreeSearch(game, beam=10).search_opener("salet")
    assert result.total <= 7930


def test_original_lists_exact_salet(wordle_lists):
    """The published optimum: 7,920 guesses from salet, proven by the search (no beam)."""
    game = Wordle(wordle.load_words(wordle_lists[0]), wordle.load_words(wordle_lists[1]))
    result = TreeSearch(game).search_opener("salet", keep_tree=True)
    assert (result.total, result.worst, result.exact) == (7920, 5, True)
    report = check_tree(game, tree_document(game, result.tree)).to_json()
    assert (report["total"], report["worst"], report["fails"]) == (7920, 5, 0)


def test_original_lists_exact_salet_hard_mode(wordle_lists):
    """Hard mode within six guesses: 8,122, proven (about 20 s)."""
    game = Wordle(wordle.load_words(wordle_lists[0]), wordle.load_words(wordle_lists[1]),
                  hard=True)
    result = TreeSearch(game, max_guesses=6).search_opener("salet")
    assert (result.total, result.worst, result.exact) == (8122, 6, True)


@pytest.mark.parametrize("hard", [False, True])
def test_lookahead_solver_plays_the_searched_tree(hard):
    game = Wordle("fr-seed", "fr-seed", hard=hard)
    solver = game.solver("lookahead", beam=3)
    bench = game.bench(solver, opener="laine")
    searched = TreeSearch(game, beam=3).search_opener("laine")
    assert bench.total == searched.total
    moves = game.play("crane", solver, opener="laine")
    assert moves[-1][0] == "crane"
