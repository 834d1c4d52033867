"""Minesweeper benchmarks: the probability engine against the exact Python reference on
the same positions, and least-risk games per second on expert."""

import pytest

from deductive.engine.minesweeper import analyze
from deductive.engine.minesweeper.bench import run_bench
from deductive.engine.minesweeper.players import make_player
from tests import reference

from .mines_engine_latency import positions


@pytest.fixture(scope="module")
def expert_positions():
    found = positions(20)
    analyze(found[0])
    return found


def test_engine_expert_positions(benchmark, expert_positions):
    def run():
        for position in expert_positions[:100]:
            analyze(position)

    benchmark.pedantic(run, rounds=7, warmup_rounds=1)


def test_engine_expert_positions_python_reference(benchmark, expert_positions):
    def run():
        for p in expert_positions[:100]:
            reference.mines_exact_dp(p.rows, p.cols, p.mines, p.cells.tolist())

    benchmark.pedantic(run, rounds=1)


def test_least_risk_100_expert_games(benchmark):
    player = make_player("least-risk")
    run_bench("expert", player, 3)
    result = benchmark.pedantic(run_bench, ("expert", player, 100), rounds=3)
    assert result.games == 100
