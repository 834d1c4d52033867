"""Long jobs: a progress bar on a terminal (silence when piped), and the memory budget that
stops a matrix too large before anything is allocated."""

import io
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from deductive import wordle
from deductive.cli._common import progress
from deductive.engine.wordle import patterns
from deductive.errors import DeductiveError, MemoryBudgetError

ROOT = Path(__file__).resolve().parent.parent


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_bar_on_a_terminal_after_the_delay(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress(10, "working", delay=0.05) as update:
        update(1)                               # before the delay: nothing yet
        assert screen.getvalue() == ""
        time.sleep(0.06)
        for done in range(2, 11):
            update(done)
    assert "working" in screen.getvalue() and "100%" in screen.getvalue()


def test_quick_jobs_and_pipes_stay_silent(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    with progress(10, "quick") as update:
        for done in range(1, 11):
            update(done)                        # all within the 0.5 s delay
    assert screen.getvalue() == ""
    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with progress(10, "piped", delay=0) as update:
        for done in range(1, 11):
            update(done)
    assert piped.getvalue() == ""


def _run_on_a_terminal(args, timeout=600):
    """Run a command with stdout piped and stderr on a pseudo-terminal; return both."""
    main, child = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "deductive", *args], stdout=subprocess.PIPE,
                            stderr=child, stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    out, _ = proc.communicate(timeout=timeout)
    os.close(main)
    return proc.returncode, out.decode(), b"".join(chunks).decode(errors="replace")


def test_a_search_shows_its_bar_on_a_terminal_only():
    args = ["wordle", "search", "--opener", "slate"]       # exact: a few seconds
    code, out, err = _run_on_a_terminal(args)
    assert code == 0 and "slate: total" in out
    assert "search slate" in err and "%" in err
    piped = subprocess.run([sys.executable, "-m", "deductive", *args], capture_output=True,
                           text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert piped.returncode == 0 and piped.stderr == ""


def test_matrix_built_in_blocks_with_progress_is_the_same():
    words = wordle.load_words("fr-seed")
    seen = []
    saved = patterns._BLOCK_CELLS
    try:
        patterns._BLOCK_CELLS = 297 * 40                # 40 rows per block
        blocked = wordle.pattern_matrix(words, words, progress=seen.append)
    finally:
        patterns._BLOCK_CELLS = saved
    np.testing.assert_array_equal(blocked, wordle.pattern_matrix(words, words))
    assert seen == list(range(40, 297, 40)) + [297]


def test_a_matrix_beyond_the_available_memory_is_refused_before_allocation(monkeypatch):
    monkeypatch.setattr(patterns, "available_memory", lambda: 4 * 10 ** 9)
    # 150,000 words of 6 letters: 22.5 G entries of 2 bytes
    with pytest.raises(MemoryBudgetError) as err:
        patterns.check_matrix_memory(150_000, 150_000, 6)
    message = str(err.value)
    assert "150,000 x 150,000 pattern matrix needs 45.0 GB" in message
    assert "the memory available (4.0 GB)" in message and "shorter word lists" in message
    assert isinstance(err.value, DeductiveError)
    assert patterns.check_matrix_memory(2_315, 12_972, 5) == 2_315 * 12_972


def test_budget_checked_by_the_builders(monkeypatch):
    words = wordle.load_words("fr-seed")
    with pytest.raises(MemoryBudgetError, match="--max-memory budget"):
        wordle.pattern_matrix(words, words, max_bytes=1000)
    with pytest.raises(MemoryBudgetError):
        wordle.cached_pattern_matrix(words, words, False, max_bytes=1000)
    monkeypatch.setattr(patterns, "available_memory", lambda: 1000)
    with pytest.raises(MemoryBudgetError, match="memory available"):
        wordle.pattern_matrix(words, words)
    assert wordle.pattern_matrix(words, words, max_bytes=10 ** 6).shape == (297, 297)
