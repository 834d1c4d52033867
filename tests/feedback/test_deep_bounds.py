"""The depth-three bound (deductive.kernels.deep_bounds) against its slow twin and the
exact optimum on small lists, and on Mastermind against the known optima."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import deductive
from deductive.engine.feedback.search import (INFEASIBLE, counting_bounds, deep_bound,
                                              deep_opener_bound, opener_bounds)
from deductive.engine.feedback.search import bounds
from deductive.engine.feedback.search.bounds import (KeptBuckets, _deep, _deep_setup,
                                                     letter_tables,
                                                     _deep_state, kin_groups,
                                                     largest_bucket,
                                                     opener_buckets)
from deductive.engine.mastermind import BullsAndCows, Mastermind
from deductive.engine.mastermind.search import game_lower_bound
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError
from deductive.kernels.deep_bounds import local_columns, local_splits, set_bound

from tests import reference
from tests.feedback.test_search import small_games
from tests.feedback.test_search_openers import _opener_optimum


@pytest.fixture(autouse=True, scope="module")
def _small_sets_pass_guesses_over():
    """Sets of the small games here have a few answers: let them pass guesses over, so
    that the twins check it (the default starts at :data:`~bounds.PASSED_FROM`)."""
    least, bounds.PASSED_FROM = bounds.PASSED_FROM, 1
    yield
    bounds.PASSED_FROM = least


def test_sets_below_the_least_size_pass_no_guess_over():
    """Below :data:`~bounds.PASSED_FROM`, a set is bounded over every guess: the twin
    without passing over."""
    guesses = ["ab", "ac", "bc", "cd", "db", "dd"]
    answers = ["ab", "bc", "cd", "db"]
    game = Wordle(guesses, answers)
    want = reference.depth_three_set_bound(game.matrix, [0, 1, 2, 3], range(len(guesses)),
                                           game.answer_to_guess, game.win_code, _floor(game))
    least, bounds.PASSED_FROM = bounds.PASSED_FROM, 5
    try:
        assert deep_bound(game, [0, 1, 2, 3]) == want
    finally:
        bounds.PASSED_FROM = least


def test_the_guesses_passed_over_are_the_scan_s_own():
    """A game where passing over the wrong guesses shows: the letters' tables read by
    guess index instead of in the order the scan takes the guesses (by their buckets)
    skip the set's best next guess and give 18 (a reviewer's mutation)."""
    guesses = ["aaa", "aab", "aba", "abb", "bae", "ccb", "ddb", "ddc", "deb", "eda", "edc"]
    answers = ["aab", "aba", "abb", "ccb", "ddb", "ddc", "deb", "edc"]
    game = Wordle(guesses, answers)
    grp = list(range(len(answers)))
    want = reference.depth_three_set_bound(game.matrix, grp, range(len(guesses)),
                                           game.answer_to_guess, game.win_code, _floor(game),
                                           (guesses, answers))
    assert deep_bound(game, grp) == want == 17


def _floor(game):
    return counting_bounds(game.matrix.shape[1], game.patterns.spread)


@settings(max_examples=60, deadline=None)
@given(small_games(), st.data())
def test_deep_bound_matches_its_twin_and_bounds_the_optimum(game_lists, data):
    """Equal to the bound spelled out; between the depth-two bound and the best tree."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    picked = data.draw(st.lists(st.sampled_from(answers), min_size=1, unique=True))
    grp = sorted(answers.index(w) for w in picked)
    rows = range(len(guesses))
    floor = _floor(game)
    want = reference.depth_three_set_bound(game.matrix, grp, rows, game.answer_to_guess,
                                           game.win_code, floor, (guesses, answers))
    assert deep_bound(game, grp) == want
    two = reference.depth_two_set_bound(game.matrix, grp, rows, game.answer_to_guess,
                                        game.win_code, floor)
    total, _ = reference.wordle_optimal(guesses, sorted(picked))
    assert two <= want <= total
    ceiling = data.draw(st.integers(1, want + 2))
    cut = deep_bound(game, grp, ceiling)
    assert cut == min(want, ceiling)


@settings(max_examples=60, deadline=None)
@given(small_games(), st.integers(0, 2 ** 32 - 1), st.sampled_from(["none", "loose", "worst"]),
       st.sampled_from([1, 2, 3, 7, 512]))
def test_set_bound_with_caps_is_exact_below_need(game_lists, seed, capped, block):
    """Whatever caps (at least each guess's buckets), need, block and superset the codes
    are copied from: the twin's value when it is below need, else a value of at least
    need that is no more than the twin's. The caps may put the guesses of fewest buckets
    first ("worst"), so the scan's end passes over guesses better than those it scored."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    rng = np.random.default_rng(seed)
    grp = np.sort(rng.choice(len(answers), rng.integers(1, len(answers) + 1), replace=False))
    floor = _floor(game)
    want = reference.depth_two_set_bound(game.matrix, grp.tolist(), range(len(guesses)),
                                         game.answer_to_guess, game.win_code, floor,
                                         (guesses, answers))
    n_codes = game.patterns.n_codes
    buckets = np.array([len(np.unique(game.matrix[h, grp])) for h in range(len(guesses))])
    if capped == "loose":
        caps = buckets + rng.integers(0, 3, len(guesses))
    elif capped == "worst":
        caps = buckets + 2 * (buckets.max() - buckets) + rng.integers(0, 2, len(guesses))
    else:
        caps = np.full(len(guesses), len(answers))
    rows = np.argsort(-caps, kind="stable").astype(np.int64)
    superset = np.union1d(grp, rng.choice(len(answers), rng.integers(0, len(answers) + 1)))
    local = local_columns(game.matrix, rows, superset.astype(np.int64))
    at = np.full(len(answers), -1, np.int64)
    at[superset] = np.arange(len(superset))
    member = np.zeros(len(answers), bool)
    member[grp] = True
    need = int(rng.integers(1, want + 3))
    bits, answer_letters, table, _ = letter_tables(game)
    letters = (bits[rows], answer_letters, table[rows], 1)     # in the order of rows
    got = set_bound(game.matrix, local, at, rows, caps[rows].astype(np.int64),
                    grp.astype(np.int64), floor, member, game.guess_to_answer,
                    game.answer_to_guess, game.win_code, letters, need, block,
                    np.zeros(n_codes, np.int64), np.zeros(n_codes + 1, np.int64),
                    np.zeros((block, n_codes), np.uint8),
                    np.empty(len(rows), np.int64))
    assert got == want if want < need else need <= got <= want


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 9))
def test_local_splits_count_each_guess_s_buckets(seed, n_codes):
    """Any codes, set, superset, guess order, range, guesses picked in it and threshold:
    each picked guess's distinct codes over the set, plus one when it is in the set,
    where that exceeds the threshold, else a value between it and the threshold; the
    others untouched and the flags left all zero."""
    rng = np.random.default_rng(seed)
    n_guesses, n_answers = int(rng.integers(1, 40)), int(rng.integers(1, 30))
    matrix = rng.integers(0, n_codes, (n_guesses, n_answers)).astype(np.uint8)
    guess_to_answer = np.where(rng.random(n_guesses) < 0.5,
                               rng.integers(0, n_answers, n_guesses), -1).astype(np.int64)
    part = np.sort(rng.choice(n_answers, rng.integers(1, n_answers + 1), replace=False))
    superset = np.union1d(part, rng.choice(n_answers, rng.integers(0, n_answers + 1)))
    rows = rng.permutation(n_guesses).astype(np.int64)
    local = local_columns(matrix, rows, superset.astype(np.int64))
    assert np.array_equal(local, matrix[rows][:, superset].T)
    at = np.full(n_answers, -1, np.int64)
    at[superset] = np.arange(len(superset))
    member = np.isin(np.arange(n_answers), part)
    lo = int(rng.integers(0, n_guesses))
    hi = int(rng.integers(lo + 1, n_guesses + 1))
    picked = np.flatnonzero(rng.random(hi - lo) < 0.7).astype(np.int64)
    flags = np.zeros((hi - lo, n_codes), np.uint8)
    split = np.full(n_guesses, -7, np.int64)
    threshold = int(rng.integers(-2, len(part) + 2))
    local_splits(local, at, part.astype(np.int64), member, rows, guess_to_answer, lo, picked,
                 threshold, np.empty(len(picked), np.int64), flags, split)
    for r in range(n_guesses):
        g = rows[r]
        want = len(set(matrix[g, part].tolist())) + int(guess_to_answer[g] in part.tolist())
        if r - lo in picked.tolist():
            assert split[r] == want if want > threshold else want <= split[r] <= threshold
        else:
            assert split[r] == -7
    assert not flags.any()


@settings(max_examples=40, deadline=None)
@given(small_games(), st.integers(0, 60))
def test_deep_opener_bound_lies_between_the_depth_two_bound_and_the_optimum(game_lists,
                                                                           target):
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    plains = opener_bounds(game, np.arange(len(guesses)), refine=False).tolist()
    for g, word in enumerate(guesses):
        deep = deep_opener_bound(game, g)
        total, _ = _opener_optimum(guesses, answers, word, None)
        assert plains[g] <= deep <= total
        assert deep_opener_bound(game, g, target) == min(deep, target)


@settings(max_examples=60, deadline=None)
@given(small_games(), st.data())
def test_deep_bound_resumed_under_rising_ceilings_is_the_fresh_bound(game_lists, data):
    """One kernel state carried through ceilings rising in any steps: each call returns
    what a fresh call under that ceiling does (the twin's bound, cut at the ceiling)."""
    guesses, answers = game_lists
    assume(len(answers) >= 3)
    game = Wordle(guesses, answers)
    picked = data.draw(st.lists(st.sampled_from(answers), min_size=3, unique=True))
    grp = np.array(sorted(answers.index(w) for w in picked), dtype=np.int64)
    want = reference.depth_three_set_bound(game.matrix, grp.tolist(), range(len(guesses)),
                                           game.answer_to_guess, game.win_code, _floor(game),
                                           (guesses, answers))
    setup = _deep_setup(game, grp, INFEASIBLE, None)
    state = _deep_state(setup)
    steps = data.draw(st.lists(st.integers(1, 6), min_size=1, max_size=6))
    ceiling = int(setup[2][0])
    for step in steps:
        ceiling += step
        assert _deep(game, grp, ceiling, setup, state) == min(want, ceiling)
    assert _deep(game, grp, INFEASIBLE, setup, state) == want


@pytest.mark.parametrize("pegs, colours", [(3, 5), (4, 4)])
def test_deep_bound_resumed_where_buckets_are_cut_at_their_need(pegs, colours):
    """Mastermind's whole code set, where many second-level sets exceed the counting
    bound's first level (so :func:`set_bound` stops at its need, and such a set must be
    bounded again under a higher ceiling): resumed, every ceiling from the depth-two bound
    to past the whole bound gives what a fresh call does."""
    game = Mastermind(pegs, colours)
    grp = np.arange(len(game.answers), dtype=np.int64)
    setup = _deep_setup(game, grp, INFEASIBLE, None)
    want, state = _deep(game, grp, INFEASIBLE, setup), _deep_state(setup)
    for ceiling in range(int(setup[2][0]) + 1, want + 2):
        assert _deep(game, grp, ceiling, setup, state) == _deep(game, grp, ceiling, setup)


def test_mastermind_4_6_bound_reaches_the_optimum():
    """Koyama and Lai's optimum, 5,625 over 1,296 codes, is also the depth-three bound
    (the depth-two bound: 5,429); MM(3,3) checked against brute force."""
    done = []
    bound, per = game_lower_bound(Mastermind(4, 6), depth_three=True,
                                  progress=lambda code, low: done.append((code, low)))
    assert bound == 5625 and per["1123"] == 5625
    assert done[0] == ("1123", 5625) and all(low >= 5625 for _, low in done)
    assert {code for code, _ in done} == {"1123", "1234", "1122", "1112"}   # 1111: 6,018
    assert game_lower_bound(Mastermind(4, 6))[0] == 5429
    game = Mastermind(3, 3)
    total, _ = reference.optimal_total(game.matrix, game.win_code)
    assert game_lower_bound(game)[0] <= game_lower_bound(game, depth_three=True)[0] <= total


def test_bulls_and_cows_bound_stays_below_the_optimum():
    """Tanaka's 26,274 over 5,040 numbers; depth two gives 24,575, depth three 25,710."""
    assert game_lower_bound(BullsAndCows(4), depth_three=True)[0] == 25710


@pytest.mark.parametrize("threads", [1, 2])
def test_deep_opener_bound_meets_any_target_on_any_threads(threads):
    """The shares (smallest bucket first, each taken as it starts) reach every target
    between an opener's depth-two bound and past its whole bound with the whole bound's
    answer, min(whole, target), on one thread as on two (where the shares differ)."""
    game = Wordle("wordle:answers", "wordle:answers")
    deductive.set_threads(threads)
    try:
        for g in (0, 700, 1500):                # aback, false, purse
            plain = int(opener_bounds(game, [g], refine=False)[0])
            whole = deep_opener_bound(game, g)
            assert whole > plain + 100              # buckets with room to share
            for target in sorted({plain + 1, (plain + whole) // 2, whole - 1, whole,
                                  whole + 1, whole + 50}):
                assert deep_opener_bound(game, g, target) == min(whole, target)
    finally:
        deductive.set_threads(None)


def test_hard_mode_is_refused():
    game = Wordle(["abc", "abd", "bcd"], ["abc", "abd", "bcd"], hard=True)
    with pytest.raises(ArgumentError, match="normal mode"):
        deep_bound(game, [0, 1, 2])
    with pytest.raises(ArgumentError, match="normal mode"):
        deep_opener_bound(game, 0, INFEASIBLE)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(60, 240),
       st.lists(st.tuples(st.integers(0, 10**6), st.floats(0, 1.2)), min_size=2,
                max_size=8))
def test_kept_buckets_change_no_bound(seed, size, calls):
    """Openers bounded one after the other with one :class:`KeptBuckets` (each taking
    the work of the last on a bucket they share, under any targets, rising or falling)
    give what a fresh call gives: min(whole bound, target)."""
    words = Wordle("wordle:answers", "wordle:answers").answers
    rng = np.random.default_rng(seed)
    picked = sorted(rng.choice(words, size, replace=False).tolist())
    game = Wordle(picked, picked)
    kept = KeptBuckets(game, least=3)
    plains = opener_bounds(game, np.arange(size), refine=False)
    for k, (pick, share) in enumerate(calls):
        # every other call an anagram or the opener before it, so buckets are shared
        g = calls[k - 1][0] % size if k % 2 and pick % 3 else pick % size
        whole = deep_opener_bound(game, g)
        target = int(plains[g] + share * (whole - plains[g] + 10))
        assert deep_opener_bound(game, g, target, kept=kept) == min(whole, target)
    assert len(kept) <= kept.most


def test_kept_buckets_carry_the_work_to_the_opener_that_shares_them():
    """Anagrams share the bucket of the answers with none of their letters: the second
    takes it from the first (then gives it back), and the bound is the same."""
    game = Wordle("wordle:answers", "wordle:answers")
    first, second = game.guess_index("stale"), game.guess_index("least")
    kept = KeptBuckets(game, least=50)
    whole = deep_opener_bound(game, second)
    assert deep_opener_bound(game, first, whole - 40, kept=kept) == whole - 40
    shared = {b.tobytes() for b in opener_buckets(game, first)} & {
        b.tobytes() for b in opener_buckets(game, second)}
    held = [b for b in opener_buckets(game, second) if b.tobytes() in shared
            and len(b) >= 50]
    assert held, "stale and least share no large bucket"
    taken = kept.take(held[0])
    assert taken is not None and kept.take(held[0]) is None
    assert taken.low > taken.setup[2][0]    # the first call bounded it past depth two
    kept.give(taken)
    for target in (whole - 30, whole, whole + 5):
        assert deep_opener_bound(game, second, target, kept=kept) == min(whole, target)


def test_kept_buckets_of_another_game_are_refused():
    game = Wordle("wordle:answers", "wordle:answers")
    other = Wordle("wordle:answers", "wordle:answers")
    with pytest.raises(ArgumentError, match="another game"):
        deep_opener_bound(game, 0, kept=KeptBuckets(other))


def test_kin_groups_bring_openers_with_the_same_largest_bucket_together():
    game = Wordle("wordle:answers", "wordle:answers")
    kin = [game.guess_index(w) for w in ("stale", "least", "slate", "steal")]
    openers = [g for g in np.random.default_rng(7).permutation(len(game.guesses))[:600]
               .tolist() if g not in kin] + kin
    ordered = [g for members in kin_groups(game, openers) for g in members]
    assert sorted(ordered) == sorted(openers)

    largest = {g: max(opener_buckets(game, g), key=len).tobytes() for g in openers}
    assert all(largest_bucket(game, g).tobytes() == largest[g] for g in openers)
    keys = [largest[g] for g in ordered]
    starts = [k for k in range(len(keys)) if k == 0 or keys[k] != keys[k - 1]]
    assert len(starts) == len(set(keys))            # each group in one run
    firsts = [ordered[k] for k in starts]           # groups where their first stood
    seen: set = set()
    assert firsts == [g for g in openers if not (largest[g] in seen or seen.add(largest[g]))]
    at = [ordered.index(g) for g in kin]
    assert max(at) - min(at) == 3                   # anagrams: the same gray bucket
