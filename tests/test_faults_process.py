"""The fault suite, one process per case: faults the command cannot catch in a test
runner's process (a full stdout, a full disk, inputs that would exhaust memory or block,
trees nested past the parser's stack).

Each case runs ``python -m deductive`` under an address-space limit (RLIMIT_AS) and a
generous timeout (guards against memory climbs and hangs, not bounds on normal work) and
asserts exit status 2 (or the right result), one ``error:`` line, no traceback, the peak
resident memory of the process, and that the file at the output path is intact.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ADDRESS_SPACE = 3 * 2 ** 30     # numba reserves address space; real use stays far below
RSS_MB = 1_000
GUARD_S = 300
PREVIOUS = b"what the user had\n"


# A child's peak RSS from wait4 starts at its parent's peak when it was forked (Linux keeps
# the old memory's high-water mark across fork and exec), so a child of a large pytest
# process would report pytest's size. A small launcher process starts the command and
# reports the command's own peak on a pipe.
LAUNCHER = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
os.write(int(sys.argv[1]), str(usage.ru_maxrss).encode())
code = os.waitstatus_to_exitcode(status)
if code < 0:
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


def deductive(*args, stdout=None, stdin=subprocess.DEVNULL, env=None, file_size=None):
    """(exit status, stdout, stderr, peak RSS in MB) of ``python -m deductive ARGS``."""
    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past it fails: EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_NUM_THREADS": "1",
                **(env or {})}
    out = stdout if stdout is not None else subprocess.PIPE
    peak_read, peak_write = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", LAUNCHER, str(peak_write),
             sys.executable, "-m", "deductive", *map(str, args)],
            cwd=ROOT, stdin=stdin, stdout=out, stderr=subprocess.PIPE, env=full_env,
            preexec_fn=limits, pass_fds=(peak_write,), start_new_session=True)
    finally:
        os.close(peak_write)
    # a hang kills the launcher's whole group, the command with it
    guard = threading.Timer(GUARD_S, os.killpg, (proc.pid, signal.SIGKILL))
    guard.start()
    try:
        out_bytes, err_bytes = proc.communicate()
    finally:
        hung = not guard.is_alive()
        guard.cancel()
        with os.fdopen(peak_read, "rb") as f:
            peak = f.read()
    if hung:
        raise AssertionError(f"no answer in {GUARD_S} s (a hang): {args}")
    assert peak, f"the launcher reported no peak memory: {args}"
    return (proc.returncode, (out_bytes or b"").decode(), (err_bytes or b"").decode(),
            int(peak) / 1024)


def assert_one_line(code, err, rss, *needles):
    assert code == 2, (code, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert rss < RSS_MB, f"{rss:.0f} MB"
    for needle in needles:
        assert needle in err, err


STDOUT_COMMANDS = [
    ["wordle", "pattern", "crane", "trace"],
    ["lists"],
    ["lists", "--json"],
    ["hangman", "solve", "_a_", "--json"],
    ["mastermind", "openers", "--pegs", "2", "--colours", "3"],
    ["wordle", "--help"],
]


@pytest.mark.parametrize("args", STDOUT_COMMANDS, ids=" ".join)
def test_stdout_on_a_full_device(args):
    with open("/dev/full", "wb") as full:
        code, _, err, rss = deductive(*args, stdout=full)
    assert_one_line(code, err, rss, "cannot write the output", "No space left on device")


def test_stdout_closed_early_is_not_an_error():
    proc = subprocess.Popen([sys.executable, "-m", "deductive", "lists", "--length", "6"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    proc.stdout.close()             # the reader went away (| head): click's status 1, quietly
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=GUARD_S) in (0, 1) and err == "", err


def test_stdout_closed_from_the_start():
    proc = subprocess.run([sys.executable, "-m", "deductive", "lists"], cwd=ROOT,
                          stdout=subprocess.DEVNULL, capture_output=False,
                          stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=GUARD_S, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr


WRITERS = {
    "wordle bench --tree": ["wordle", "bench", "--guesses", "fr-seed", "--answers-subset",
                            "30", "--no-cache", "--tree", "OUT"],
    "hangman evil --tree": ["hangman", "evil", "--length", "3", "--tree", "OUT"],
    "hangman sweep --tree": ["hangman", "sweep", "--length", "2", "--strategy", "optimal",
                             "--tree", "OUT"],
    "bulls search --tree": ["bulls", "search", "--digits", "2", "--tree", "OUT"],
}


@pytest.mark.slow
@pytest.mark.parametrize("writer", list(WRITERS))
def test_full_disk_keeps_the_previous_file(writer, tmp_path):
    """The disk fills during the write (a file size limit: EFBIG on the tree's bytes):
    one line, what was there intact, no temporary file left."""
    target = tmp_path / "out.json"
    target.write_bytes(PREVIOUS)
    args = [target if a == "OUT" else a for a in WRITERS[writer]]
    deductive(*args[:-1], tmp_path / "warm.json")      # kernels compiled and cached first
    os.unlink(tmp_path / "warm.json")
    code, _, err, rss = deductive(*args, file_size=200)
    assert_one_line(code, err, rss, "the previous file is intact")
    assert target.read_bytes() == PREVIOUS
    assert os.listdir(tmp_path) == ["out.json"]


def test_full_disk_on_a_new_file_leaves_nothing(tmp_path):
    target = tmp_path / "new.json"
    deductive(*WRITERS["bulls search --tree"][:-1], target)       # compiled and cached first
    os.unlink(target)
    code, _, err, rss = deductive(*WRITERS["bulls search --tree"][:-1], target, file_size=100)
    assert_one_line(code, err, rss, "nothing was written")
    assert os.listdir(tmp_path) == []


def test_sigterm_while_working_keeps_the_previous_file(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(PREVIOUS)
    proc = subprocess.Popen([sys.executable, "-m", "deductive", "wordle", "bench", "--guesses",
                             "fr-seed", "--tree", str(target)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=GUARD_S)
    data = target.read_bytes()      # what was there, or a whole tree: never half of one
    assert data == PREVIOUS or json.loads(data)["format"] == "deductive-wordle-tree"


READERS = {
    "word list": ["wordle", "openers", "--guesses", "FILE"],
    "hangman words": ["hangman", "solve", "_a_", "--words", "FILE"],
    "position": ["mines", "probs", "FILE", "--mines", "1"],
    "wordle tree": ["wordle", "tree-check", "FILE"],
    "hangman tree": ["hangman", "tree-check", "FILE", "--words", "en"],
}


@pytest.mark.parametrize("reader", list(READERS))
def test_dev_zero_and_a_fifo_neither_exhaust_nor_block(reader, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)             # no writer: opening it for reading would block for ever
    for path in ("/dev/zero", fifo):
        args = [path if a == "FILE" else a for a in READERS[reader]]
        code, _, err, rss = deductive(*args)
        assert_one_line(code, err, rss, "not a regular file")


def test_huge_position_is_refused_before_memory_climbs(tmp_path):
    """The audit's 10,000 x 10,000 position reached 5 GB: refused by the size cap, and
    with the cap raised, by the cell cap."""
    path = tmp_path / "huge.txt"
    row = b"x" * 10_000 + b"\n"
    with open(path, "wb") as fh:
        for _ in range(10_000):
            fh.write(row)
    code, _, err, rss = deductive("mines", "probs", path, "--mines", 10)
    assert_one_line(code, err, rss, "over the input limit")
    code, _, err, rss = deductive("mines", "probs", path, "--mines", 10,
                                  env={"DEDUCTIVE_MAX_INPUT": "200M"})
    assert_one_line(code, err, rss, "10000 x 10000 cells is over the limit")


@pytest.mark.parametrize("reader", ["wordle tree", "hangman tree"])
def test_gzip_bomb_tree(reader, tmp_path):
    """The audit's 2.1 MB gzip tree expanding to 4.2 GB, scaled down: 0.2 MB to 200 MB."""
    path = tmp_path / "bomb.json.gz"
    with gzip.open(path, "wb", compresslevel=9) as fh:
        fh.write(b'{"tree": {"guess": "')
        for _ in range(200):
            fh.write(b"a" * 10 ** 6)
        fh.write(b'"}}')
    args = [path if a == "FILE" else a for a in READERS[reader]]
    code, _, err, rss = deductive(*args)
    assert_one_line(code, err, rss, "expands to more than")


def _deep_tree(path, depth, leaf):
    with open(path, "w") as fh:
        fh.write('{"format": "deductive-wordle-tree", "length": 5, "tree": ')
        fh.write('{"guess": "crane", "then": {"Y....": ' * depth)
        fh.write(leaf + "}}" * depth + "}")


@pytest.mark.parametrize("command", [["wordle", "tree-check"], ["mastermind", "tree-check"],
                                     ["hangman", "tree-check", "--words", "en"]], ids=" ".join)
def test_tree_nested_200000_deep(command, tmp_path):
    """The audit: RecursionError in all three tree-checks."""
    path = tmp_path / "deep.json"
    _deep_tree(path, 200_000, '{"guess": "crane"}')
    code, _, err, rss = deductive(*command[:2], path, *command[2:])
    assert_one_line(code, err, rss, "nested too deeply")


def test_word_list_over_the_cap_and_raised(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("crane\nslate\ntrace\n" * 30)
    code, _, err, rss = deductive("wordle", "openers", "--guesses", path, "--answers", path,
                                  "--no-cache", env={"DEDUCTIVE_MAX_INPUT": "100"})
    assert_one_line(code, err, rss, "over the input limit", "DEDUCTIVE_MAX_INPUT")
    code, out, err, _ = deductive("wordle", "openers", "--guesses", path, "--answers", path,
                                  "--no-cache", env={"DEDUCTIVE_MAX_INPUT": "1M"})
    assert code == 0 and "crane" in out or "slate" in out, err


def test_stdin_dash_is_read_where_documented():
    proc = subprocess.run([sys.executable, "-m", "deductive", "mines", "probs", "-", "--mines",
                           "1"], input=b"xxx\nx1x\nxxx\n", cwd=ROOT, capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=GUARD_S)
    assert proc.returncode == 0 and b"0.125" in proc.stdout, proc.stderr
