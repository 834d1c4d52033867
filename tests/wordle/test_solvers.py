"""Wordle game, hard mode, solvers and whole-dictionary benchmarks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive import wordle
from deductive.engine.feedback.bench import play_game
from deductive.engine.wordle.game import Wordle
from deductive.engine.wordle.solvers import csp_candidates
from deductive.errors import DeductiveError, UnknownNameError, WordListError

from tests import reference

FR = wordle.load_words("fr-seed")


@pytest.fixture(scope="module")
def fr_game():
    return Wordle(FR, FR)


@pytest.fixture(scope="module")
def fr_hard():
    return Wordle(FR, FR, hard=True)


histories = st.lists(st.tuples(st.integers(0, 296), st.integers(0, 296)), min_size=0,
                     max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 296), histories)
def test_csp_equals_plain_filtering(fr_game, secret, moves):
    history = [(g, int(fr_game.matrix[g, secret])) for g, _ in moves]
    state = fr_game.start()
    for g, code in history:
        state = fr_game.advance(state, g, code)
    np.testing.assert_array_equal(csp_candidates(fr_game, history), state.candidates)
    words = [(FR[g], wordle.pattern_digits(c, 5)) for g, c in history]
    assert [FR[k] for k in state.candidates] == [w for w in FR if reference.consistent(w, words)]


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 296), histories)
def test_hard_mode_mask_matches_reference(fr_hard, secret, moves):
    state = fr_hard.start()
    words = []
    for g, _ in moves:
        if not state.allowed[g]:
            continue
        code = int(fr_hard.matrix[g, secret])
        state = fr_hard.advance(state, g, code)
        words.append((FR[g], wordle.pattern_digits(code, 5)))
    expected = np.array([reference.hard_mode_ok(w, words) for w in FR])
    np.testing.assert_array_equal(state.allowed, expected)
    # every candidate is always allowed in hard mode
    assert state.allowed[fr_hard.answer_to_guess[state.candidates]].all()


def test_empty_candidate_history(fr_game):
    assert fr_game.candidates([("laine", "GGGGG"), ("paire", "GGGGG")]) == []
    with pytest.raises(DeductiveError, match="no answer fits"):
        fr_game.best_guesses([("laine", "GGGGG"), ("paire", "GGGGG")])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 296), min_size=1, max_size=60, unique=True),
       st.sampled_from(["entropy", "minimax", "expected"]), st.booleans(), st.booleans())
def test_tree_benchmark_equals_game_by_game(fr_game, fr_hard, targets, name, hard, cands):
    game = fr_hard if hard else fr_game
    solver = game.solver(name, pool="candidates" if cands else "all")
    result = game.bench(solver, answers=targets)
    one_by_one = [len(play_game(game, solver, t)) for t in sorted(targets)]
    assert result.guesses.tolist() == one_by_one


def test_weighted_entropy_kernel_matches_reference():
    game = Wordle(FR, FR, prior="frequency")
    state = game.replay([("laine", "..Y.G")])
    rows = np.arange(len(FR))
    from deductive.engine.feedback.solvers import _metric_key

    _, _, entropy = _metric_key(game, state, rows, "entropy")
    weights = game.weights[state.candidates]
    for r in (0, 17, 150, 296):
        ref = reference.weighted_entropy(game.matrix[r], state.candidates, weights)
        assert entropy[r] == pytest.approx(ref, abs=1e-12)
    assert len(set(np.round(game.weights, 6))) > 10   # the prior is not flat


def test_tie_rules_prefer_candidates_then_lower_index():
    words = ["aaaab", "aaaac", "aaaad", "bcdxy", "aaaae"]
    game = Wordle(words, ["aaaab", "aaaac", "aaaad", "aaaae"])
    # bcdxy splits b/c/d/e apart (entropy 2 bits); a candidate cannot beat that
    assert game.solver("entropy").choose(game.start()) == 3
    state = game.replay([("bcdxy", "Y....")])   # aaaab only
    assert game.candidates([("bcdxy", "Y....")]) == ["aaaab"]
    assert game.solver("minimax").choose(state) == 0
    top = game.best_guesses([], k=5, metric="minimax")
    assert [s.word for s in top][:2] == ["bcdxy", "aaaab"]


def test_french_seed_benchmark(fr_game):
    solver = fr_game.solver("entropy", pool="candidates")
    result = fr_game.bench(solver, opener="laine", answers=50)
    assert len(result.answers) == 50 and result.answers[0] == "abord"
    assert round(result.average, 2) == 2.60 and result.fails == 0


def test_random_solvers_are_seeded(fr_game):
    a = fr_game.bench("random", answers=40, seed=7)
    b = fr_game.bench("random", answers=40, seed=7)
    c = fr_game.bench("csp", answers=40, seed=7)
    assert a.guesses.tolist() == b.guesses.tolist() == c.guesses.tolist()
    assert fr_game.bench("random", answers=40, seed=8).guesses.tolist() != a.guesses.tolist()


def test_unknown_names(fr_game):
    with pytest.raises(UnknownNameError, match="random.*csp.*entropy.*minimax.*expected"):
        fr_game.solver("oracle")
    with pytest.raises(UnknownNameError, match="'all' or 'candidates'"):
        fr_game.solver("entropy", pool="some")
    with pytest.raises(UnknownNameError, match="uniform, frequency"):
        Wordle(FR, FR, prior="zipf")


def test_answers_must_be_guessable():
    with pytest.raises(WordListError, match="not in the guess list"):
        Wordle(["crane", "slate"], ["crane", "trace"])


def test_api_play_and_candidates(fr_game):
    moves = fr_game.play("crane", "entropy", opener="laine")
    assert moves[0] == ("laine", wordle.parse_pattern("_Y_GG", 5))
    assert moves[-1] == ("crane", 242)
    assert fr_game.candidates([("laine", "_Y_GG")]) == ["arene", "crane"]


@pytest.fixture(scope="module")
def original(wordle_lists):
    return wordle.load_words(wordle_lists[0]), wordle.load_words(wordle_lists[1])


def test_entropy_salet_original(original):
    result = Wordle(*original).bench("entropy", opener="salet")
    assert result.total <= 7950 and result.fails == 0
    assert result.total == 7946


def test_minimax_raise_original(original):
    result = Wordle(*original).bench("minimax", opener="raise")
    assert result.worst <= 5


def test_entropy_hard_salet_original(original):
    result = Wordle(*original, hard=True).bench("entropy", opener="salet")
    assert result.total <= 8200
    assert result.fails == 5
