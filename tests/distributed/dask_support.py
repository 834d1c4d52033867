"""What the Dask tests share (``tests/test_distributed_*.py``); their ``client`` fixture, a
local cluster of two workers, is in ``conftest.py``."""

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def records(result):
    """A Minesweeper bench's games, as the single-process run compares them."""
    return [(r.won, r.decisions, r.guesses) for r in result.records]


def checkpoint_rows(path):
    """The checkpoint's rows, without a line cut by an interruption (or a header)."""
    entries = []
    for line in path.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return [e for e in entries if "key" in e]


def wait_for_rows(proc, path, lines):
    """Wait, 240 s at most, until the running ``proc`` has written ``lines`` lines to its
    checkpoint ``path``; fail (with its output) if it ended first."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= lines:
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
