"""Paired comparison of Minesweeper players: the sign test against its definition, the
paired interval's coverage, and the comparison of two players on the same games."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.compare import (Comparison, compare_players,
                                                  paired_difference_interval, sign_test)
from deductive.engine.minesweeper.players import make_player

from tests import reference


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400))
def test_sign_test_matches_definition(only_a, only_b):
    assert sign_test(only_a, only_b) == pytest.approx(float(reference.sign_test_p(only_a, only_b)),
                                                      rel=1e-12, abs=0)


def test_sign_test_edges_and_large_counts():
    assert sign_test(0, 0) == 1.0 and sign_test(7, 7) == 1.0
    assert sign_test(10, 0) == sign_test(0, 10) == 2 / 1024
    assert sign_test(0, 5000) == 0.0                 # underflows cleanly, no overflow
    assert 0 < sign_test(30_000, 29_000) < 1e-4       # 59,000 discordant games, exact integers


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 300), st.integers(0, 60), st.integers(0, 60), st.integers(0, 300))
def test_paired_interval_contains_the_difference_and_is_antisymmetric(both, a, b, neither):
    n = both + a + b + neither
    lo, hi = paired_difference_interval(both, a, b, neither)
    delta = (a - b) / n if n else 0.0
    assert -1.0 <= lo <= delta + 1e-12 and delta - 1e-12 <= hi <= 1.0
    lo2, hi2 = paired_difference_interval(both, b, a, neither)
    assert lo2 == pytest.approx(-hi, abs=1e-12) and hi2 == pytest.approx(-lo, abs=1e-12)


@pytest.mark.parametrize("p_both,p_a,p_b,n", [(0.38, 0.03, 0.02, 2000), (0.40, 0.01, 0.01, 500),
                                               (0.85, 0.05, 0.02, 300)])
def test_paired_interval_covers_the_true_difference(p_both, p_a, p_b, n):
    """Simulated games with a known difference p_a - p_b: the interval covers it about 95%
    of the time (Newcombe's method 10 is close to nominal; 2,000 runs give +-1 point)."""
    rng = np.random.default_rng(7)
    tables = rng.multinomial(n, [p_both, p_a, p_b, 1 - p_both - p_a - p_b], size=2000)
    truth = p_a - p_b
    covered = [lo <= truth <= hi for lo, hi in
               (paired_difference_interval(*map(int, t)) for t in tables)]
    assert 0.925 <= np.mean(covered) <= 0.975


def test_compare_plays_the_same_games_as_bench():
    a, b = make_player("best"), make_player("least-risk")
    result = compare_players("beginner", a, b, 30, first_click="zero", first_move="4,4", seed=5)
    bench_a = run_bench("beginner", make_player("best"), 30, first_click="zero",
                        first_move="4,4", seed=5)
    assert [r.won for r in result.a.records] == [r.won for r in bench_a.records]
    report = result.to_json()
    assert report["both_won"] + report["only_a_won"] + report["only_b_won"] + \
        report["neither_won"] == 30
    assert report["difference"] == pytest.approx(report["a"]["win_rate"] -
                                                 report["b"]["win_rate"], abs=1e-6)
    lo, hi = report["ci95"]
    assert lo <= report["difference"] <= hi
    assert report["a"]["player"] == "best" and report["b"]["first_move"] == "4,4"


def test_same_player_has_no_discordant_games():
    result = compare_players("beginner8", make_player("best"), make_player("best"), 20)
    report = result.to_json()
    assert report["only_a_won"] == report["only_b_won"] == 0 and report["sign_test_p"] == 1.0


def test_comparison_refuses_different_games():
    a = run_bench("beginner8", make_player("least-risk"), 5, seed=1)
    b = run_bench("beginner8", make_player("least-risk"), 5, seed=2)
    with pytest.raises(ValueError, match="same games"):
        Comparison(a, b)
