"""Mastermind and Bulls and Cows: the peg kernel against its twin, the game, Knuth's
solver, symmetry-pruned exact searches against brute force, and the published results."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.feedback import TreeSearch, check_tree, tree_document
from deductive.engine.mastermind import BullsAndCows, Mastermind, all_codes, peg_matrix
from deductive.engine.mastermind.search import (SymmetricSearch, WorstCaseSearch, optimal,
                                                orbit_minima)
from deductive.errors import ArgumentError, PatternError
from deductive.kernels.mastermind import canonical_symmetry, fill_peg_rows

from tests import reference


@st.composite
def peg_codes(draw):
    pegs = draw(st.integers(1, 6))
    colours = draw(st.integers(1, 10))
    code = st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs)
    guesses = draw(st.lists(code, min_size=1, max_size=6))
    answers = draw(st.lists(code, min_size=1, max_size=6))
    return pegs, colours, guesses, answers


@settings(max_examples=200, deadline=None)
@given(peg_codes())
def test_kernel_matches_reference(case):
    pegs, colours, guesses, answers = case
    got = peg_matrix(np.array(guesses, np.uint8), np.array(answers, np.uint8), colours)
    want = [[b * (pegs + 1) + w for b, w in (reference.mastermind_pegs(g, a) for a in answers)]
            for g in guesses]
    assert got.tolist() == want


def test_serial_and_parallel_fills_agree():
    codes = all_codes(4, 6)
    whole = peg_matrix(codes, codes, 6)          # 1.7M pairs: the parallel kernel
    assert whole.tolist() == reference.mastermind_matrix(codes.tolist()).tolist()
    part = np.zeros((3, len(codes)), np.uint8)
    counts = np.stack([(codes == c).sum(1) for c in range(6)], 1).astype(np.uint8)
    fill_peg_rows(codes[5:8], counts[5:8], np.ascontiguousarray(codes.T),
                  np.ascontiguousarray(counts.T), part, 0, 3)
    assert (part == whole[5:8]).all()


def test_codes_and_spelling():
    game = Mastermind(4, 6)
    assert len(game.guesses) == 1296 and game.guesses[0] == "1111"
    assert game.guesses[-1] == "6666" and game.patterns.win_code == 20
    k = int(game.matrix[game.guess_index("1122"), game.answer_index("1213")])
    assert game.format(k) == "1B2W"
    for text in ("1B2W", "1b 2w", "1 2", "1,2", "BWW"):
        assert game.parse(text) == k
    with pytest.raises(PatternError, match="impossible"):
        game.parse("3B1W")
    with pytest.raises(PatternError, match="not black and white"):
        game.parse("green")
    bulls = BullsAndCows()
    assert len(bulls.guesses) == 5040 and bulls.guesses[0] == "0123"
    assert bulls.format(int(bulls.matrix[0, bulls.answer_index("0321")])) == "2B2C"
    assert all(len(set(w)) == 4 for w in bulls.guesses)
    assert Mastermind(3, 4, repeat=False).guesses[:3] == ["123", "124", "132"]


@pytest.mark.parametrize("args, match", [((0, 6), "pegs"), ((4, 1), "colours"),
                                         ((5, 4, False), "distinct"), ((8, 10), "limited")])
def test_bad_sizes(args, match):
    with pytest.raises(ArgumentError, match=match):
        Mastermind(*args)


def test_bulls_and_cows_sizes_name_the_digits():
    """Five digits (30,240 numbers) fit the matrix's limit, six do not: the error names
    ``digits``, the option a player gave, and the most that fit."""
    assert len(BullsAndCows(5).answers) == 30_240
    for digits in (0, 6, 11):
        with pytest.raises(ArgumentError, match=r"`digits` \d+: give 1 to 5 digits"):
            BullsAndCows(digits)


def test_knuth_reproduces_his_worst_case():
    """Knuth (1977): at most 5 guesses, 5,801 in all (average 4.476), opening 1122."""
    r = Mastermind(4, 6).bench("knuth", keep_tree=True)
    assert (r.total, r.worst, r.tree["guess"]) == (5801, 5, "1122")
    assert r.distribution == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}


def _group_images(code, history, colours):
    """Every image of ``code`` under the symmetries fixing each code of ``history``."""
    pegs = len(code)
    for sigma in itertools.permutations(range(pegs)):
        for pi in itertools.permutations(range(colours)):
            act = lambda x: tuple(pi[x[sigma[i]]] for i in range(pegs))  # noqa: E731
            if all(act(h) == tuple(h) for h in history):
                yield act(code)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(2, 4), st.booleans(), st.data())
def test_orbit_minima_brute_force(pegs, colours, repeat, data):
    if not repeat and colours < pegs:
        repeat = True
    codes = all_codes(pegs, colours, repeat)
    history = data.draw(st.lists(st.integers(0, len(codes) - 1), max_size=2, unique=True))
    mask, trivial = orbit_minima(codes, colours, history)
    rows = [tuple(c) for c in codes.tolist()]
    for k, code in enumerate(rows):
        assert mask[k] == (code == min(_group_images(code, [rows[h] for h in history],
                                                     colours)))
    assert trivial <= bool(mask.all())


@pytest.mark.parametrize("pegs, colours, repeat", [(2, 3, True), (2, 4, True), (3, 3, True),
                                                   (2, 5, False), (3, 4, False)])
def test_exact_searches_match_brute_force(pegs, colours, repeat):
    game = Mastermind(pegs, colours, repeat)
    matrix, win = np.asarray(game.matrix), game.win_code
    want = reference.optimal_total(matrix, win)
    best, rows = optimal(game, keep_tree=True)
    assert (best.total, best.worst) == want
    assert all(r.total >= best.total for r in rows)
    full = min((TreeSearch(game).search_opener(w) for w in game.guesses),
               key=lambda r: (r.total, r.worst))
    assert (full.total, full.worst) == want
    report = check_tree(game, tree_document(game, best.tree))
    assert report.depths.sum() == best.total
    worst = WorstCaseSearch(game).search(keep_tree=True)
    assert worst.worst == reference.minimax_depth(matrix, win)
    assert check_tree(game, tree_document(game, worst.tree)).depths.max() == worst.worst


def test_symmetric_search_gives_the_full_search_tree():
    game = Mastermind(3, 4)
    for opener in ("112", "123"):
        a = TreeSearch(game).search_opener(opener, keep_tree=True)
        b = SymmetricSearch(game).search_opener(opener, keep_tree=True)
        assert (a.total, a.worst, a.tree) == (b.total, b.worst, b.tree)


def test_optimal_worst_case_four_pegs_six_colours():
    """Knuth (1977): five guesses suffice and four do not."""
    game = Mastermind(4, 6)
    r = WorstCaseSearch(game).search(keep_tree=True)
    assert r.worst == 5
    assert check_tree(game, tree_document(game, r.tree)).depths.max() == 5


@pytest.mark.slow
def test_optimal_expected_four_pegs_six_colours():
    """Koyama and Lai (1993): 5,625 guesses over the 1,296 codes, opening 1123."""
    game = Mastermind(4, 6)
    best, rows = optimal(game, keep_tree=True)
    assert (best.opener, best.total) == ("1123", 5625)
    assert check_tree(game, tree_document(game, best.tree)).depths.sum() == 5625


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_counting_bound_is_admissible(data):
    from deductive.engine.feedback.search import counting_bounds

    game = Mastermind(2, 4)
    matrix, win = np.asarray(game.matrix), game.win_code
    k = len(np.unique(matrix)) - 1
    subset = data.draw(st.lists(st.integers(0, 15), min_size=1, max_size=16, unique=True))
    total, _ = reference.optimal_total(matrix, win, tuple(sorted(subset)))
    assert total >= counting_bounds(16, k)[len(subset)]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 4, True), (3, 3, True), (2, 5, False)]), st.data())
def test_guess_bound_is_admissible(shape, data):
    """A node's guess bound, n + the floors of its non-green buckets (the counting bound
    per bucket), never exceeds the best total of a tree opening with that guess."""
    game = Mastermind(*shape)
    matrix, win = np.asarray(game.matrix), game.win_code
    n_codes = matrix.shape[1]
    subset = sorted(data.draw(st.lists(st.integers(0, n_codes - 1), min_size=3,
                                       max_size=min(n_codes, 14), unique=True)))
    cands = np.array(subset, np.int64)
    search = TreeSearch(game)
    rows, bounds, _ = search._order(cands, None, None, 1 << 60)
    memo = {}
    for guess, bound in zip(rows.tolist(), bounds.tolist()):
        total = len(cands) + sum(reference.optimal_total(matrix, win, tuple(grp.tolist()),
                                                         memo)[0]
                                 for code, grp in game.split(guess, cands) if code != win)
        assert bound <= total


@pytest.mark.parametrize("opener", ["112", "123"])
def test_probing_changes_no_tree(opener):
    """Probing the children's bounds saves work only: the same totals and trees."""
    game = Mastermind(3, 4)
    plain = TreeSearch(game)
    plain.probe = False
    a = plain.search_opener(opener, keep_tree=True)
    b = TreeSearch(game).search_opener(opener, keep_tree=True)
    assert (a.total, a.worst, a.tree) == (b.total, b.worst, b.tree)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(3, 4, True), (3, 5, False), (4, 5, False)]), st.data())
def test_canonical_keys_are_invariant(shape, data):
    """Equivalent histories give one key; a key is the image of its set under a symmetry."""
    from deductive.engine.mastermind.search import _Reps

    pegs, colours, repeat = shape
    game = Mastermind(pegs, colours, repeat)
    codes = [tuple(c) for c in game.pegs_array.tolist()]
    index = {c: k for k, c in enumerate(codes)}
    matrix = np.asarray(game.matrix)
    history = data.draw(st.lists(st.integers(0, len(codes) - 1), min_size=1, max_size=3,
                                 unique=True))
    answer = data.draw(st.integers(0, len(codes) - 1))
    sigma = data.draw(st.permutations(range(pegs)))
    pi = data.draw(st.permutations(range(colours)))

    def act(k):
        return index[tuple(pi[codes[k][sigma[i]]] for i in range(pegs))]

    def node(hist, secret):
        cands = np.array([a for a in range(len(codes))
                          if all(matrix[h, a] == matrix[h, secret] for h in hist)], np.int64)
        allowed = np.ones(len(codes), bool).view(_Reps)
        allowed.history = tuple(sorted(hist))
        return cands, allowed

    search = SymmetricSearch(game)
    key = search._key(*node(history, answer))
    moved = [act(h) for h in history]
    assert search._key(*node(moved, act(answer))) == key
    image = sorted(np.frombuffer(key, np.int16).tolist())
    cands = node(history, answer)[0].tolist()
    assert any(sorted(index[tuple(p[codes[k][s[i]]] for i in range(pegs))] for k in cands)
               == image for s in itertools.permutations(range(pegs))
               for p in itertools.permutations(range(colours)))


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5), st.integers(2, 5), st.integers(1, 3), st.data())
def test_canonical_symmetry_matches_brute_force(pegs, colours, h, data):
    """The branch and bound finds the least reading of the history, and the symmetry it
    returns gives that reading."""
    from deductive.engine.mastermind.search import _orders

    code = st.lists(st.integers(0, colours - 1), min_size=pegs, max_size=pegs)
    history = data.draw(st.lists(code, min_size=h, max_size=h))
    feedbacks = data.draw(st.lists(st.integers(0, 3), min_size=h, max_size=h))
    pi, sigma = np.empty(colours, np.int64), np.empty(pegs, np.int64)
    seq = np.empty(h * (pegs + 1), np.int64)
    canonical_symmetry(np.array(history, np.uint8), np.array(feedbacks, np.int64), colours,
                       _orders(h), pi, sigma, seq)
    want = reference.canonical_sequence(history, feedbacks)
    assert tuple(seq.tolist()) == want
    assert sorted(pi.tolist()) == list(range(colours))
    assert sorted(sigma.tolist()) == list(range(pegs))
    best = min(tuple(feedbacks[j] for j in o) for o in itertools.permutations(range(h)))
    orders = [o for o in itertools.permutations(range(h))
              if tuple(feedbacks[j] for j in o) == best]
    assert any(tuple(pi[history[j][sigma[i]]] for i in range(pegs) for j in o)
               == want[h:] for o in orders)


def test_capped_memo_gives_the_same_tree():
    """Evicting memo entries costs time only: the same total, worst case and tree."""
    from deductive.engine.feedback.search import MEMO_ENTRY_BYTES

    game = Mastermind(3, 4)
    free, _ = optimal(game, keep_tree=True, memo_bytes=None)
    capped, _ = optimal(game, keep_tree=True, memo_bytes=20 * MEMO_ENTRY_BYTES)
    assert (capped.total, capped.worst, capped.tree) == (free.total, free.worst, free.tree)


@pytest.mark.slow
def test_optimal_expected_bulls_and_cows():
    """Tanaka (1996): 26,274 guesses over the 5,040 codes; the tree needs seven."""
    game = BullsAndCows()
    best, _ = optimal(game, keep_tree=True)
    assert (best.opener, best.total, best.worst) == ("0123", 26274, 7)
    depths = check_tree(game, tree_document(game, best.tree)).depths
    assert (depths.sum(), depths.max()) == (26274, 7)
