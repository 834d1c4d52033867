"""Compute threads: one setting (set_threads, $DEDUCTIVE_THREADS, --threads), the choice
between a parallel kernel and its serial twin, and numba's threading layer."""

import os
import subprocess
import sys
import threading

import numba
import numpy as np
import pytest
from click.testing import CliRunner

import deductive
from deductive import wordle
from deductive.cli import cli
from deductive.engine import _parallel
from deductive.errors import DeductiveError

POOL = numba.config.NUMBA_NUM_THREADS


@pytest.fixture(autouse=True)
def _default_threads(monkeypatch):
    monkeypatch.delenv("DEDUCTIVE_THREADS", raising=False)
    deductive.set_threads(None)
    yield
    deductive.set_threads(None)


def test_default_is_the_cpus_this_process_may_use():
    assert deductive.get_threads() == min(len(os.sched_getaffinity(0)), POOL)
    assert _parallel.available_cpus() == len(os.sched_getaffinity(0))


def test_set_threads_and_environment(monkeypatch):
    monkeypatch.setenv("DEDUCTIVE_THREADS", "1")
    assert deductive.get_threads() == 1
    deductive.set_threads(POOL)                   # the call wins over the variable
    assert deductive.get_threads() == POOL
    deductive.set_threads(None)
    assert deductive.get_threads() == 1
    monkeypatch.setenv("DEDUCTIVE_THREADS", " ")
    assert deductive.get_threads() == min(_parallel.available_cpus(), POOL)


@pytest.mark.parametrize("value,message", [
    (0, "threads must be at least 1, not 0"),
    (-3, "threads must be at least 1"),
    (POOL + 1, f"holds {POOL} threads"),
    ("two", "threads must be a whole number, not 'two'"),
    (1.5, "whole number"),
])
def test_bad_thread_counts(value, message):
    with pytest.raises(DeductiveError, match=message):
        deductive.set_threads(value)


def test_bad_environment_value(monkeypatch):
    monkeypatch.setenv("DEDUCTIVE_THREADS", "lots")
    with pytest.raises(DeductiveError, match=r"\$DEDUCTIVE_THREADS must be a whole number"):
        deductive.get_threads()


def test_cli_threads_option(monkeypatch):
    runner = CliRunner()
    result = runner.invoke(cli, ["--threads", "1", "wordle", "pattern", "crane", "trace"],
                           standalone_mode=False)
    assert result.exit_code == 0 and "YGG.G" in result.output
    assert deductive.get_threads() == 1


@pytest.mark.parametrize("args,env,message", [
    (["--threads", "0"], {}, "error: --threads must be at least 1, not 0"),
    (["--threads", str(POOL + 1)], {}, f"error: --threads is {POOL + 1}"),
    ([], {"DEDUCTIVE_THREADS": "x"}, "error: $DEDUCTIVE_THREADS must be a whole number"),
])
def test_cli_bad_threads_fail_early(args, env, message):
    out = subprocess.run([sys.executable, "-m", "deductive", *args, "wordle", "pattern",
                          "crane", "trace"], capture_output=True, text=True,
                         env={**os.environ, **env})
    assert out.returncode == 2
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_parallel_only_above_the_threshold():
    deductive.set_threads(1)
    assert _parallel.parallel_chunks(10_000, 10**9, 1000) == 0      # one thread: serial
    if POOL < 2:
        pytest.skip("one CPU: nothing runs in parallel")
    deductive.set_threads(2)
    assert _parallel.parallel_chunks(10_000, 999, 1000) == 0        # small: serial
    assert _parallel.parallel_chunks(1, 10**9, 1000) == 0           # one row: serial
    chunks = _parallel.parallel_chunks(10_000, 1000, 1000)
    assert 2 <= chunks <= 10_000
    assert numba.get_num_threads() == 2


def test_run_rows_picks_the_twin_below_the_threshold_and_when_the_pool_is_taken():
    calls = []
    kernel = lambda *args: calls.append(("parallel", args))      # noqa: E731
    twin = lambda *args: calls.append(("serial", args))          # noqa: E731
    deductive.set_threads(POOL)
    _parallel.run_rows(kernel, twin, 100, 10, 1000, "x")
    assert calls[-1] == ("serial", ("x", 0, 100))
    _parallel.run_rows(kernel, twin, 100, 10**6, 1000, "x")
    assert calls[-1][0] == ("parallel" if POOL > 1 else "serial")
    # another thread holds the pool: the serial twin runs instead of waiting
    with _parallel._pool:
        done = threading.Event()
        worker = threading.Thread(target=lambda: (
            _parallel.run_rows(kernel, twin, 100, 10**6, 1000, "y"), done.set()))
        worker.start()
        worker.join(10)
        assert done.is_set() and calls[-1] == ("serial", ("y", 0, 100))


def test_same_results_with_one_thread_and_many(wordle_lists):
    guesses = wordle.load_words(wordle_lists[0])
    answers = wordle.load_words(wordle_lists[1])
    deductive.set_threads(1)
    serial = wordle.pattern_matrix(guesses, answers)
    one = wordle.partition_stats(serial)
    deductive.set_threads(POOL)
    parallel = wordle.pattern_matrix(guesses, answers)
    np.testing.assert_array_equal(serial, parallel)
    many = wordle.partition_stats(parallel)
    for a, b in zip((one.xlogx_sum, one.buckets, one.largest, one.sumsq),
                    (many.xlogx_sum, many.buckets, many.largest, many.sumsq)):
        np.testing.assert_array_equal(a, b)


LAYER = ("import numba, numpy as np\n"
         "from deductive import wordle\n"
         "wordle.partition_stats(np.zeros((3000, 3000), np.uint8))\n"
         "print(numba.config.THREADING_LAYER, numba.threading_layer())\n")


@pytest.mark.skipif(POOL < 2, reason="one CPU: numba starts no pool")
@pytest.mark.parametrize("env,expected", [
    ({}, "workqueue workqueue"),
    ({"NUMBA_THREADING_LAYER": "omp"}, "omp omp"),         # the user's choice wins
])
def test_threading_layer(env, expected):
    base = {k: v for k, v in os.environ.items()
            if k not in ("NUMBA_THREADING_LAYER", "DEDUCTIVE_THREADS")}
    out = subprocess.run([sys.executable, "-c", LAYER], capture_output=True, text=True,
                         env={**base, **env})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == expected.split()


@pytest.mark.skipif(POOL < 2, reason="one CPU: numba starts no pool")
def test_threading_layer_set_in_numba_config_wins():
    code = ("import numba\nnumba.config.THREADING_LAYER = 'omp'\n" + LAYER)
    base = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=base)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "omp"
