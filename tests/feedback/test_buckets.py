"""An opener's bound from exact searches of its buckets (``bucket_bound``) against the
brute-force optimum of every tree that opens with it, and on the original lists against
salet's proven 7,920."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from deductive.engine.feedback.search import (BucketBound, TreeSearch, bucket_bound,
                                              deep_opener_bound)
from deductive.engine.feedback.search.bounds import opener_buckets
from deductive.engine.feedback.search.buckets import kept_holds
from deductive.engine.wordle.game import Wordle
from deductive.errors import ArgumentError

from tests.feedback.test_search import small_games
from tests.feedback.test_search_openers import _opener_optimum


@settings(max_examples=80, deadline=None)
@given(small_games(), st.data())
def test_bucket_bound_bounds_every_tree_and_is_exact_past_it(game_lists, data):
    """Never above the best tree from the opener (brute force); at least the depth-three
    bound; at least the target when the best tree reaches it, else that tree's total,
    exact. With the searches capped (``exact_max``) it still lies between the two."""
    guesses, answers = game_lists
    game = Wordle(guesses, answers)
    g = data.draw(st.integers(0, len(guesses) - 1))
    total, _ = _opener_optimum(guesses, answers, guesses[g], None)
    target = data.draw(st.integers(1, total + 3))
    found = bucket_bound(TreeSearch(game), g, target)
    assert found.deep == deep_opener_bound(game, g)
    assert found.deep <= found.bound <= total
    if target > total:
        assert (found.bound, found.exact) == (total, True)
    else:
        assert found.bound >= target and not found.exact
    cap = data.draw(st.integers(0, len(answers)))
    capped = bucket_bound(TreeSearch(game), g, target, exact_max=cap)
    assert found.deep <= capped.bound <= total
    if cap < 3:                         # nothing searched: the depth-three bound
        assert (capped.bound, capped.searched) == (found.deep, 0)


@st.composite
def bucket_games(draw):
    """Games of 10 to 20 three-letter words over "abc", every word an answer: nearly all
    have openers that leave a bucket of three or more to search."""
    words = draw(st.lists(st.text("abc", min_size=3, max_size=3), min_size=10, max_size=20,
                          unique=True))
    return sorted(words)


@settings(max_examples=60, deadline=None)
@given(bucket_games(), st.data())
def test_a_killed_bound_resumes_from_its_kept_buckets(words, data):
    """The buckets a first run kept (``keep``) and a second run takes (``kept``) give the
    same bound (up to the target: past it a search's value may depend on its memo),
    searching only the others. Kept under another ceiling (another target, a search run
    ahead), an exact value holds under any ceiling, a bound only under a ceiling up to
    its own (``kept_holds``): with every ceiling one lower, the bounds are searched
    again; one higher, only a bound at its ceiling is (the kept row would be below its
    own)."""
    game = Wordle(words, words)
    openers = [g for g in range(len(words)) if any(len(b) >= 3 for b in opener_buckets(game, g))]
    assume(openers)
    g = data.draw(st.sampled_from(openers))
    target = deep_opener_bound(game, g) + data.draw(st.integers(1, 12))
    rows: dict = {}
    full = bucket_bound(TreeSearch(game), g, target,
                        keep=lambda i, *row: rows.__setitem__(i, row))
    assert len(rows) == full.searched > 0 and full.resumed == 0
    assert all(row[-1] >= 0 for row in rows.values())           # its CPU seconds
    killed = data.draw(st.integers(0, len(rows)))
    kept = dict(list(rows.items())[:killed])
    again_rows: list = []
    again = bucket_bound(TreeSearch(game), g, target, kept=kept,
                         keep=lambda *row: again_rows.append(row))
    assert (min(again.bound, target), again.searched, again.largest, again.exact) == \
        (min(full.bound, target), full.searched, full.largest, full.exact)
    assert (again.resumed, len(again_rows)) == (killed, full.searched - killed)
    exact = sum(bool(row[3]) for row in rows.values())
    past = sum(not row[3] and row[2] > row[1] for row in rows.values())    # a bound above
    for shift, taken in ((-1, exact), (1, exact + past)):
        moved = {i: (size, ceiling + shift, *rest) for i, (size, ceiling, *rest) in rows.items()}
        if shift < 0:                   # a bound was at least its ceiling: still so
            assert all(kept_holds(row, row[0], row[1] + 1) == row[3] for row in rows.values())
        moved_rows: list = []
        found = bucket_bound(TreeSearch(game), g, target, kept=moved,
                             keep=lambda *row: moved_rows.append(row))
        assert min(found.bound, target) == min(full.bound, target)
        assert (found.resumed, len(moved_rows)) == (taken, full.searched - taken)


@settings(max_examples=60, deadline=None)
@given(bucket_games(), st.data())
def test_buckets_kept_under_another_target_never_overstate(words, data):
    """Buckets kept by a run under one target (with a memo warmed or not: a memo hit is
    exact even past the ceiling) and taken by a run under another: the bound is never above
    the best tree from the opener (brute force), and it rules the opener out exactly when
    a fresh run does, with the same bound below the target."""
    game = Wordle(words, words)
    openers = [g for g in range(len(words)) if any(len(b) >= 3 for b in opener_buckets(game, g))]
    assume(openers)
    g = data.draw(st.sampled_from(openers))
    total, _ = _opener_optimum(words, words, words[g], None)
    deep = deep_opener_bound(game, g)
    first, second = (deep + data.draw(st.integers(1, total - deep + 3)) for _ in range(2))
    search = TreeSearch(game)
    if data.draw(st.booleans()):        # a warmed memo: exact values past the ceiling
        search.solve(np.arange(len(words), dtype=np.int64))
    rows: dict = {}
    bucket_bound(search, g, first, keep=lambda i, *row: rows.__setitem__(i, row))
    killed = data.draw(st.integers(0, len(rows)))
    kept = dict(list(rows.items())[:killed])
    taken = bucket_bound(TreeSearch(game), g, second, kept=kept)
    fresh = bucket_bound(TreeSearch(game), g, second)
    assert taken.bound <= total
    assert (taken.bound >= second) == (fresh.bound >= second) == (total >= second)
    if fresh.bound < second:
        assert (taken.bound, taken.exact) == (fresh.bound, fresh.exact) == (total, True)


def test_buckets_come_smallest_first_and_leave_the_win_out():
    game = Wordle("wordle", "wordle")
    g = game.guess_index("salet")
    parts = opener_buckets(game, g)
    sizes = [len(b) for b in parts]
    assert sizes == sorted(sizes)
    assert sum(sizes) == len(game.answers)              # salet is not an answer
    assert all((game.matrix[g, b] == game.matrix[g, b[0]]).all() for b in parts)
    assert len({int(game.matrix[g, b[0]]) for b in parts}) == len(parts)
    crane = opener_buckets(game, game.guess_index("crane"))
    assert sum(len(b) for b in crane) == len(game.answers) - 1      # less crane itself


def test_salet_on_the_original_lists():
    """Past its total: salet's proven 7,920, exact; at it: at least 7,920, not exact
    (every other opener needs at least 7,921, so a target of 7,921 is what rules them
    out)."""
    game = Wordle("wordle", "wordle")
    search = TreeSearch(game)
    g = game.guess_index("salet")
    rows: dict = {}
    found = bucket_bound(search, g, 7921, keep=lambda i, *row: rows.__setitem__(i, row))
    assert isinstance(found, BucketBound)
    assert (found.bound, found.exact) == (7920, True)
    assert found.searched > 0 and found.largest >= 100
    half = dict(list(rows.items())[:len(rows) // 2])      # killed half-way: resumed
    again = bucket_bound(TreeSearch(game), g, 7921, kept=half)
    assert (again.bound, again.exact, again.resumed) == (7920, True, len(half))
    at = bucket_bound(search, g, 7920)
    assert at.bound >= 7920 and not at.exact
    trace = bucket_bound(search, game.guess_index("trace"), 7921)
    assert trace.bound >= 7921


def test_hard_mode_is_refused():
    game = Wordle(["abc", "abd", "bcd"], ["abc", "abd", "bcd"], hard=True)
    with pytest.raises(ArgumentError, match="normal mode"):
        bucket_bound(TreeSearch(game), 0, 10)
