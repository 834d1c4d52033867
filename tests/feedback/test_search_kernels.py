"""The search kernels against their twins in tests/reference/."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from deductive.engine.feedback.search import counting_bounds
from deductive.kernels.partition import group_by_code
from deductive.kernels.opener_bounds import opener_bounds, opener_bounds_rows
from deductive.kernels.search import split_bounds, unisolated

from tests import reference


@st.composite
def nodes(draw):
    """A small pattern matrix, a candidate set, the allowed rows and the answer map."""
    n_guesses = draw(st.integers(1, 12))
    n_answers = draw(st.integers(1, 30))
    high = draw(st.sampled_from([2, 3, 9, 243]))
    matrix = draw(arrays(np.uint8, (n_guesses, n_answers), elements=st.integers(0, high - 1)))
    cands = np.flatnonzero(draw(arrays(np.bool_, (n_answers,))))
    if len(cands) == 0:
        cands = np.array([0])
    rows = np.flatnonzero(draw(arrays(np.bool_, (n_guesses,))))
    # each answer is at most one guess, as in a game
    g2a = np.full(n_guesses, -1, np.int64)
    picks = draw(st.lists(st.integers(0, n_guesses - 1), max_size=n_answers, unique=True))
    for a, g in enumerate(picks):
        g2a[g] = a
    return matrix, rows.astype(np.int64), cands.astype(np.int64), g2a, high


@settings(max_examples=300, deadline=None)
@given(nodes(), st.integers(0, 100), st.booleans(), st.sampled_from([0, 0, 1, 3]),
       st.booleans(), st.sampled_from([None, 1, 2, 3]))
def test_split_bounds_matches_reference(node, limit, solve_all, beam, use_columns, spread):
    matrix, rows, cands, g2a, high = node
    columns = np.ascontiguousarray(matrix.T) if use_columns else np.empty((0, 0), np.uint8)
    n = matrix.shape[1]
    floor = (2 * np.arange(n + 1) - 1).clip(0) if spread is None else \
        counting_bounds(n, spread)
    order, bounds, cut, buckets = split_bounds(matrix, columns, use_columns, rows, cands,
                                               g2a, high, floor, limit, solve_all, beam,
                                               np.empty(0, np.int64), limit)
    want = reference.search_split_bounds(matrix, rows, cands, g2a, limit, solve_all, beam,
                                         floor.tolist())
    assert (order.tolist(), bounds.tolist(), int(cut)) == want
    assert buckets[rows].tolist() == [len(reference.bucket_sizes(matrix[g], cands))
                                      for g in rows]


@settings(max_examples=300, deadline=None)
@given(nodes(), st.integers(0, 100), st.booleans(), st.booleans(), st.integers(0, 2 ** 32 - 1),
       st.integers(0, 5), st.sampled_from([None, 1, 2, 3]))
def test_split_bounds_with_a_cap_returns_the_same_guesses(node, limit, solve_all,
                                                          use_columns, seed, margin, spread):
    """Capped by the buckets of a superset (the parent's set in a search), the guesses,
    their order and bounds are the reference's; the bound of those left out may be lower,
    never below the limit."""
    matrix, rows, cands, g2a, high = node
    rng = np.random.default_rng(seed)
    subset = np.sort(rng.choice(cands, size=rng.integers(1, len(cands) + 1), replace=False))
    columns = np.ascontiguousarray(matrix.T) if use_columns else np.empty((0, 0), np.uint8)
    n = matrix.shape[1]
    floor = (2 * np.arange(n + 1) - 1).clip(0) if spread is None else counting_bounds(n, spread)
    cap = np.array([len(reference.bucket_sizes(matrix[g], cands))
                    for g in range(len(matrix))], np.int64)
    order, bounds, cut, buckets = split_bounds(matrix, columns, use_columns, rows,
                                               subset.astype(np.int64), g2a, high, floor,
                                               limit, solve_all, 0, cap, limit + margin)
    want = reference.search_split_bounds(matrix, rows, subset, g2a, limit, solve_all, 0,
                                         floor.tolist())
    assert (order.tolist(), bounds.tolist()) == tuple(want[:2])
    assert limit <= cut <= want[2] or cut == want[2] == 2 ** 62
    sizes = [len(reference.bucket_sizes(matrix[g], subset)) for g in range(len(matrix))]
    assert all(s <= b <= c for s, b, c in zip(sizes, buckets.tolist(), cap.tolist()))


@settings(max_examples=100, deadline=None)
@given(st.integers(36, 80), st.integers(1, 30), st.sampled_from([3, 9, 243]),
       st.integers(0, 2 ** 32 - 1), st.integers(0, 300), st.booleans())
def test_split_bounds_large_sets_match_reference(n_answers, n_guesses, high, seed, limit,
                                                 solve_all):
    """Sets of 36 answers or more (counted by histogram), from both matrices."""
    rng = np.random.default_rng(seed)
    matrix = rng.integers(0, high, (n_guesses, n_answers)).astype(np.uint8)
    cands = np.sort(rng.choice(n_answers, rng.integers(36, n_answers + 1), replace=False))
    rows = np.flatnonzero(rng.random(n_guesses) < 0.8).astype(np.int64)
    g2a = np.full(n_guesses, -1, np.int64)
    g2a[:min(n_guesses, n_answers)] = rng.permutation(n_answers)[:min(n_guesses, n_answers)]
    floor = (2 * np.arange(n_answers + 1) - 1).clip(0)
    want = reference.search_split_bounds(matrix, rows, cands, g2a, limit, solve_all, 0,
                                         floor.tolist())
    for use_columns in (True, False):
        columns = np.ascontiguousarray(matrix.T) if use_columns else np.empty((0, 0), np.uint8)
        order, bounds, cut, _ = split_bounds(matrix, columns, use_columns, rows,
                                             cands.astype(np.int64), g2a, high, floor, limit,
                                             solve_all, 0, np.empty(0, np.int64), limit)
        assert (order.tolist(), bounds.tolist(), int(cut)) == want


@settings(max_examples=300, deadline=None)
@given(nodes(), st.integers(0, 100), st.booleans(), st.integers(1, 6),
       st.sampled_from([None, 1, 2, 3]))
def test_split_bounds_head_is_the_lists_first_guesses(node, limit, solve_all, head, spread):
    """With a head, the first ``head`` guesses of the reference's order (ties by row), and a
    cut that is the least bound of the others (those worth trying and those left out)."""
    matrix, rows, cands, g2a, high = node
    n = matrix.shape[1]
    floor = (2 * np.arange(n + 1) - 1).clip(0) if spread is None else counting_bounds(n, spread)
    order, bounds, cut, _ = split_bounds(matrix, np.empty((0, 0), np.uint8), False, rows, cands,
                                         g2a, high, floor, limit, solve_all, 0,
                                         np.empty(0, np.int64), limit, head)
    want_order, want_bounds, want_cut = reference.search_split_bounds(
        matrix, rows, cands, g2a, limit, solve_all, 0, floor.tolist())
    assert order.tolist() == want_order[:head] and bounds.tolist() == want_bounds[:head]
    assert cut == min([want_cut] + want_bounds[head:])


@pytest.mark.parametrize("use_columns", [False, True])
def test_split_bounds_head_cuts_through_ties_by_row(use_columns):
    """Four identical guesses (one key) after a better one: a head of 3 keeps the better
    and the two lowest rows of the tie; the next bound is the tie's."""
    best = [0, 1, 2, 3, 4, 5]
    tied = [0, 0, 1, 1, 2, 2]
    matrix = np.array([tied, tied, best, tied, tied], np.uint8)
    columns = np.ascontiguousarray(matrix.T) if use_columns else np.empty((0, 0), np.uint8)
    floor = (2 * np.arange(7) - 1).clip(0)
    order, bounds, cut, _ = split_bounds(matrix, columns, use_columns, np.arange(5), np.arange(6),
                                         np.full(5, -1, np.int64), 6, floor, 100, False, 0,
                                         np.empty(0, np.int64), 100, 3)
    assert order.tolist() == [2, 0, 1] and bounds.tolist() == [12, 15, 15] and cut == 15


@settings(max_examples=200, deadline=None)
@given(nodes())
def test_distinct_codes_counts_buckets(node):
    from deductive.kernels.search import distinct_codes

    matrix, rows, cands, _, high = node
    wide = matrix.astype(np.uint16) * 257 % 59049 if high == 243 else matrix
    for m, n_codes in ((matrix, high), (wide, 59049)):
        out = np.full(len(rows), -1, np.int64)
        distinct_codes(m, rows, cands, n_codes, out)
        assert out.tolist() == [len(reference.bucket_sizes(m[g], cands)) for g in rows]


def test_split_bounds_no_rows():
    matrix = np.zeros((3, 4), np.uint8)
    order, bounds, cut, buckets = split_bounds(
        matrix, np.empty((0, 0), np.uint8), False, np.array([], np.int64), np.array([0, 1]),
        np.full(3, -1, np.int64), 3, np.arange(5), 10, False, 0, np.empty(0, np.int64), 10)
    assert len(order) == len(bounds) == 0 and buckets.tolist() == [2, 2, 2]
    assert cut == 2 ** 62


@st.composite
def openings(draw):
    """A small matrix whose last code wins, every answer a guess (answer a is guess a)."""
    n_answers = draw(st.integers(1, 25))
    n_guesses = draw(st.integers(n_answers, n_answers + 6))
    high = draw(st.sampled_from([3, 9, 243]))
    matrix = draw(arrays(np.uint8, (n_guesses, n_answers), elements=st.integers(0, high - 2)))
    matrix[np.arange(n_answers), np.arange(n_answers)] = high - 1
    g2a = np.full(n_guesses, -1, np.int64)
    g2a[:n_answers] = np.arange(n_answers)
    return matrix, g2a, high


@settings(max_examples=300, deadline=None)
@given(openings(), st.sampled_from([0, 3, 255]), st.integers(0, 80), st.booleans(),
       st.sampled_from([None, 0, 2]), st.integers(0, 2 ** 32 - 1),
       st.sampled_from([(0, 0), (2, 255), (3, 6), (0, 4)]))
def test_opener_bounds_match_reference(case, columns_max, target, refine, slack, seed, joint):
    """Every guess scored, or (``slack`` not None) the guesses by caps descending, each
    cap its buckets over all the answers plus up to ``slack``: any cap at least that
    gives the same bounds; and the same with the plain bound's mid-sized buckets (sizes in
    ``joint``) scored together."""
    matrix, g2a, high = case
    a2g = np.arange(matrix.shape[1], dtype=np.int64)
    columns = np.ascontiguousarray(matrix.T)
    openers = np.arange(matrix.shape[0], dtype=np.int64)
    rows = np.arange(matrix.shape[0], dtype=np.int64)
    caps, by_cap = np.empty(0, np.int64), rows
    if slack is not None:
        caps = np.array([len(np.unique(r)) for r in matrix], np.int64)
        caps += np.random.default_rng(seed).integers(0, slack + 1, len(caps))
        by_cap = np.argsort(-caps, kind="stable").astype(np.int64)
    full = np.zeros(len(openers), np.int64)
    every = (rows, by_cap, np.zeros(high, np.int64), np.full(high, len(rows), np.int64), caps)
    opener_bounds_rows(matrix, columns, columns_max, *joint, openers, *every, g2a, a2g, high,
                       high - 1, refine, 2 ** 60, full, 0, len(openers))
    want = [reference.opener_depth2_bound(matrix, g, rows, g2a, high - 1,
                                          answer_to_guess=a2g if refine else None)
            for g in openers]
    assert full.tolist() == want
    # with a target: the same below it, else a bound between the target and the full one
    cut = np.zeros(len(openers), np.int64)
    opener_bounds(matrix, columns, columns_max, *joint, openers, *every, g2a, a2g, high,
                  high - 1, refine, target, cut, 2)
    for c, w in zip(cut.tolist(), want):
        assert c == w if w < target else target <= c <= w


@settings(max_examples=300, deadline=None)
@given(openings(), st.data())
def test_joint_splits_match_reference(case, data):
    """The best split of several buckets at once, in one pass over the rows: each as
    alone (no rows, one row, an odd number of rows; buckets of one answer and more)."""
    from deductive.kernels.opener_bounds import joint_splits

    matrix, g2a, high = case
    n = matrix.shape[1]
    rows = np.flatnonzero(data.draw(arrays(np.bool_, (matrix.shape[0],)))).astype(np.int64)
    slot = data.draw(arrays(np.int64, (n,), elements=st.integers(-1, 3)))
    buckets = [np.flatnonzero(slot == k) for k in range(4)]
    buckets = [b for b in buckets if len(b)]
    answers = np.concatenate(buckets + [np.zeros(0, np.int64)]).astype(np.int64)
    starts = np.cumsum([0] + [len(b) for b in buckets]).astype(np.int64)
    slot_of = np.full(n, -1, np.int64)
    for k, b in enumerate(buckets):
        slot_of[b] = k
    best = np.full(len(buckets), 99, np.int64)
    joint_splits(matrix, rows, answers, starts[:-1], starts[1:], g2a, slot_of, high, best)
    want = [reference.best_split(matrix, rows, b.tolist(), g2a) for b in buckets]
    assert best.tolist() == want


@settings(max_examples=300, deadline=None)
@given(openings(), st.data())
def test_unisolated_matches_reference(case, data):
    """The groups of a guess over a set that no member splits into singletons (the
    refinement of the search's child bounds): sets of 0 to all answers, any guess."""
    matrix, g2a, high = case
    n = matrix.shape[1]
    guess = data.draw(st.integers(0, matrix.shape[0] - 1))
    cands = np.flatnonzero(data.draw(arrays(np.bool_, (n,)))).astype(np.int64)
    a2g = np.arange(n, dtype=np.int64)
    ordered, codes, starts = group_by_code(matrix[guess], cands)
    out = np.full(len(codes), 7, np.int64)
    count = unisolated(ordered, starts, matrix, a2g, np.zeros(high + 1, np.int64), out)
    want = reference.unisolated_groups(matrix, guess, cands.tolist(), a2g)
    assert list(zip(codes.tolist(), out.astype(bool).tolist())) == want
    assert count == sum(flag for _, flag in want)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 300), st.integers(1, 40), st.integers(1, 3000), st.integers(0, 2 ** 32))
def test_spread_counts_the_codes_present_but_the_win(n_codes, guesses, answers, seed):
    """Every code present, the win left out (at least 1), counted a block of rows at a
    time: long and wide matrices, a code alphabet of one, codes of two bytes."""
    from deductive.engine.feedback.matrix import PatternMatrix, code_dtype

    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_codes, (guesses, answers)).astype(code_dtype(n_codes))
    if rng.random() < 0.5:
        codes[:] = codes.min()          # one code only: the win (alphabet's last) or another
    patterns = PatternMatrix.of(codes, n_codes)
    present = set(np.unique(codes).tolist()) - {patterns.win_code}
    assert patterns.spread == max(1, len(present))
