"""Solver benchmarks on the original lists: whole-dictionary games, hard mode, second guesses.

The reference is the same solver played game by game (``play_game``: one scoring per game
and turn), timed on the same answers in the same run.
"""

import pytest

from deductive.engine.feedback.bench import play_game
from deductive.engine.wordle.game import Wordle
from deductive.engine.feedback.precompute import second_guesses


@pytest.fixture(scope="module")
def games(original_lists):
    normal = Wordle(*original_lists)
    hard = Wordle(*original_lists, hard=True, matrix=normal.matrix)
    normal.bench("entropy", opener="salet", answers=20)   # warm the kernels
    hard.bench("entropy", opener="salet", answers=20)
    return normal, hard


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_entropy_all_answers(benchmark, games, mode):
    game = games[mode == "hard"]
    solver = game.solver("entropy")
    result = benchmark.pedantic(game.benchmark, (solver,), {"opener": "salet"}, rounds=5)
    assert len(result.answers) == 2315


@pytest.mark.parametrize("how", ["tree", "game-by-game"])
def test_entropy_first_100_answers(benchmark, games, how):
    game = games[0]
    solver = game.solver("entropy")
    if how == "tree":
        run = lambda: game.bench(solver, opener="salet", answers=100).guesses.tolist()  # noqa: E731
    else:
        run = lambda: [len(play_game(game, solver, t, opener="salet")) for t in range(100)]  # noqa: E731
    benchmark.pedantic(run, rounds=3)


def test_second_guesses_salet(benchmark, games):
    game = games[0]
    rows = benchmark.pedantic(second_guesses, (game, game.solver("entropy"), "salet"), rounds=5)
    assert sum(r["candidates"] for r in rows) == 2315


@pytest.mark.parametrize("beam", [None, 10])
def test_search_salet(benchmark, games, beam):
    """The tree search from salet: exact (proves 7,920) and beam 10, fresh memo each round."""
    from deductive.engine.feedback.search import TreeSearch

    game = games[0]
    run = lambda: TreeSearch(game, beam=beam).search_opener("salet")  # noqa: E731
    result = benchmark.pedantic(run, rounds=3 if beam is None else 5)
    assert result.total == 7920


def test_search_salet_hard_six(benchmark, games):
    """Hard mode within six guesses from salet, exact (proves 8,122), fresh memo each round."""
    from deductive.engine.feedback.search import TreeSearch

    game = games[1]
    run = lambda: TreeSearch(game, max_guesses=6).search_opener("salet")  # noqa: E731
    result = benchmark.pedantic(run, rounds=3)
    assert result.total == 8122


def test_opener_bounds_256(benchmark, games):
    """Plain depth-two bounds of 256 seeded openers with the certificate's target (7,921):
    the pass the certificate makes over every opener."""
    import numpy as np

    from deductive.engine.feedback.search import opener_bounds

    game = games[0]
    openers = np.sort(np.random.default_rng(0).choice(len(game.guesses), 256, replace=False))
    opener_bounds(game, openers[:2], 7921, refine=False)     # warm the kernel
    bounds = benchmark.pedantic(opener_bounds, (game, openers, 7921, False), rounds=3)
    assert bounds.min() >= 2315


def test_opener_bounds_refined_64(benchmark, games):
    """Refined depth-two bounds of the 64 best openers by entropy with the certificate's
    target: the pass the certificate makes over the openers the plain bound leaves."""
    import numpy as np

    from deductive.engine.feedback.scoring import rank_guesses
    from deductive.engine.feedback.search import opener_bounds

    game = games[0]
    openers = np.array([s.index for s in rank_guesses(game.patterns, top=64)], np.int64)
    opener_bounds(game, openers[:2], 7921)                   # warm the kernel
    bounds = benchmark.pedantic(opener_bounds, (game, openers, 7921), rounds=3)
    assert (bounds >= opener_bounds(game, openers, 7921, False)).all()
