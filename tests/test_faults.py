"""The fault suite, in process: hostile inputs on every command line (numbers, player
options, missing options, files that are not files, outputs that must not be clobbered).

Each case asserts exit status 2, one ``error:`` line on stderr naming the problem, no
traceback, that no computation ran first (its memory stays small: a guard, not a timing)
and that nothing at an output path was lost. A case that would hang fails by an alarm
(a generous guard against hangs, never a bound on normal work). The cases that need a
process of their own (memory limits, a full stdout, a full disk) are in
``test_faults_process.py``; docs/reliability.md lists them all.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import signal
import stat
import tracemalloc

import pytest
from click.testing import CliRunner

from deductive import _io
from deductive.cli import cli
from deductive.errors import InputError, OutputError

GUARD_S = 120                  # a hang, not a slow run
MEMORY_MB = 200                # Python and numpy allocations while failing


@contextlib.contextmanager
def guarded(measure=True):
    """Fail (instead of hanging for ever) after GUARD_S seconds; measure the peak memory."""
    def expire(*_):
        raise TimeoutError(f"no answer in {GUARD_S} s: a hang")
    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(GUARD_S)
    if measure:
        tracemalloc.start()
    peak = {"mb": 0}
    try:
        yield peak
    finally:
        if measure:
            peak["mb"] = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(*args, input=None, env=None, measure=True):
    """The command's result; ``measure``: its memory while failing is bounded (tracemalloc,
    off for runs that do real work: it slows compilation tenfold)."""
    with guarded(measure) as peak:
        result = CliRunner().invoke(cli, [str(a) for a in args], input=input, env=env)
    assert peak["mb"] < MEMORY_MB, f"{peak['mb']:.0f} MB while failing: {args}"
    return result


def assert_one_error(result, *needles):
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    err = result.stderr
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in result.output, result.output
    for needle in needles:
        assert needle in err, err


# -- numbers ------------------------------------------------------------------------------

BAD_INTS = ["nan", "inf", "-1", "1e400", "99999999999999999999", "x", "1.5"]
BAD_FLOATS = ["nan", "inf", "-inf", "-1", "1e400", "x"]
POSITION = "xxx\nx1x\nxxx\n"

# (command, option, takes floats): every number that must be bounded
NUMBER_OPTIONS = [
    (["wordle", "multi"], "--games", False),
    (["wordle", "multi"], "--boards", False),
    (["wordle", "openers"], "--workers", False),
    (["wordle", "openers", "--scheduler", "tcp://127.0.0.1:9"], "--timeout", True),
    (["mines", "bench"], "--games", False),
    (["mines", "compare", "best", "least-risk"], "--games", False),
    (["hangman", "sweep", "--length", "3"], "--memory", True),
    (["hangman", "evil", "--length", "3"], "--memory", True),
    (["wordle", "search", "--opener", "salet"], "--beam", False),
    (["wordle", "bench"], "--seed", False),
    (["mines", "probs", "-"], "--mines", False),
    (["wordle", "assist"], "--top", False),
    (["hangman", "solve", "_a_"], "--lives", False),
    (["mastermind", "openers"], "--pegs", False),
]
NUMBER_CASES = [pytest.param(cmd, opt, value, id=f"{' '.join(cmd[:2])} {opt}={value}")
                for cmd, opt, floats in NUMBER_OPTIONS
                for value in (BAD_FLOATS if floats else BAD_INTS)]


@pytest.mark.parametrize("command,option,value", NUMBER_CASES)
def test_number_out_of_range_is_refused_first(command, option, value):
    assert_one_error(run(*command, option, value, input=POSITION), option)


@pytest.mark.parametrize("command,option,value", [
    (["wordle", "multi"], "--games", "1000000000"),      # memory climbed without end
    (["mines", "bench"], "--games", "1000000000"),
    (["wordle", "openers"], "--workers", "1000"),        # at most 4x the cores
    (["wordle", "openers", "--scheduler", "tcp://127.0.0.1:9"], "--timeout", "nan"),  # hung
    (["wordle", "openers", "--scheduler", "tcp://127.0.0.1:9"], "--timeout", "inf"),
])
def test_audited_numbers(command, option, value):
    assert_one_error(run(*command, option, value), option)


def test_workers_ceiling_is_four_times_the_cores():
    cores = os.cpu_count() or 1
    assert_one_error(run("wordle", "openers", "--workers", 4 * cores + 1), "--workers",
                     f"<={4 * cores}")


PLAYER_SPECS = [
    "best:candidates=0", "best:candidates=-3", "best:candidates=2.5", "best:candidates=true",
    "best:candidates=100000", "best:endgame=-1", "best:endgame=0", "best:endgame=1e999",
    "best:endgame_cells=0", "best:endgame_cells=99999999", "best:margin=nan",
    "best:margin=inf", "best:margin=-0.1", "best:margin=2", "best:progress_weight=-1",
    "best:progress_weight=nan", "best:far_corner=3", "best:far_corner=0.5",
    "strongest:off_frontier=-1", "strongest:near_off=99999999", "strongest:corners=-1",
    "strongest:cutoff=nan", "strongest:cutoff=1.5", "strongest:mix=-1", "strongest:ltr=inf",
    "strongest:isolated=1", "strongest:defer=65", "strongest:dominance=2", "best:bogus=1",
    "best:candidates", "best:candidates=ten", "nobody",
]


@pytest.mark.parametrize("spec", PLAYER_SPECS)
def test_player_option_out_of_range(spec, monkeypatch):
    from deductive.engine.minesweeper import bench

    def computed(*args, **kwargs):
        raise AssertionError("a game ran before the error")
    monkeypatch.setattr(bench, "run_bench", computed)
    assert_one_error(run("mines", "bench", "--player", spec, "--games", 2,
                         "--preset", "beginner"))


def _required_options():
    found = []

    def walk(command, path):
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, path + [name])
        for p in command.params:
            if p.required and p.param_type_name == "option":
                found.append(pytest.param(path, p.opts[0], id=" ".join(path + [p.opts[0]])))
    walk(cli, [])
    return found


@pytest.mark.parametrize("command,option", _required_options())
def test_required_option_missing(command, option, tmp_path):
    """Every option the help marks required (the audit: `mines probs` without --mines,
    `hangman evil` without --length, `wordle second` without --opener) is one line."""
    args = {"probs": [tmp_path], "deduce": [tmp_path], "play": []}.get(command[-1], [])
    assert_one_error(run(*command, *args), "Missing option", option)


def test_every_audited_required_option_is_found():
    ids = {" ".join(p.values[0] + [p.values[1]]) for p in _required_options()}
    assert {"mines probs --mines", "hangman evil --length", "wordle second --opener"} <= ids


def test_max_input_env_must_be_a_size(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("crane\nslate\n")
    assert_one_error(run("wordle", "openers", "--guesses", words, "--answers", words,
                         env={"DEDUCTIVE_MAX_INPUT": "lots"}), "DEDUCTIVE_MAX_INPUT")


# -- inputs -------------------------------------------------------------------------------

READERS = {      # a command reading FILE where a file is needed
    "wordle --guesses": ["wordle", "openers", "--guesses", "FILE"],
    "wordle --answers": ["wordle", "openers", "--answers", "FILE"],
    "wordle matrix": ["wordle", "matrix", "--guesses", "FILE", "--answers", "FILE"],
    "hangman solve": ["hangman", "solve", "_a_", "--words", "FILE"],
    "hangman sweep": ["hangman", "sweep", "--words", "FILE", "--length", "3"],
    "mines probs": ["mines", "probs", "FILE", "--mines", "1"],
    "mines deduce": ["mines", "deduce", "FILE", "--mines", "1"],
    "wordle tree-check": ["wordle", "tree-check", "FILE"],
    "mastermind tree-check": ["mastermind", "tree-check", "FILE"],
    "hangman tree-check": ["hangman", "tree-check", "FILE", "--words", "en"],
}


def _fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def _big(tmp_path):          # over the cap the test sets (4,000 bytes)
    path = tmp_path / "big.txt"
    path.write_text("xxx\n" * 2000)
    return path


def _bomb(tmp_path):         # 33 kB of gzip expanding to 32 MB
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b'{"tree": {"a": "' + b"a" * (32 * 10 ** 6) + b'"}}'))
    return path


def _binary(tmp_path):
    path = tmp_path / "binary"
    path.write_bytes(bytes(range(256)) * 8)
    return path


def _link_to_zero(tmp_path):
    path = tmp_path / "zero-link"
    path.symlink_to("/dev/zero")
    return path


def _dangling(tmp_path):
    path = tmp_path / "dangling"
    path.symlink_to(tmp_path / "nowhere")
    return path


HOSTILE_FILES = {
    "missing": (lambda tmp: tmp / "missing.txt", "no such file"),
    "folder": (lambda tmp: tmp, "is a "),        # a folder, or (word lists) a directory
    "dev-zero": (lambda tmp: "/dev/zero", "is a device, not a regular file"),
    "dev-null": (lambda tmp: "/dev/null", "is a device, not a regular file"),
    "fifo": (_fifo, "is a FIFO, not a regular file"),
    "link-to-zero": (_link_to_zero, "is a device, not a regular file"),
    "dangling-link": (_dangling, "no such file"),
    "binary": (_binary, ""),
    "over-the-cap": (_big, "over the input limit"),
}


@pytest.mark.parametrize("kind", list(HOSTILE_FILES))
@pytest.mark.parametrize("reader", list(READERS))
def test_hostile_input_file(reader, kind, tmp_path):
    make, needle = HOSTILE_FILES[kind]
    path = make(tmp_path)
    args = [str(path) if a == "FILE" else a for a in READERS[reader]]
    result = run(*args, env={"DEDUCTIVE_MAX_INPUT": "4000"})
    assert_one_error(result, needle)


@pytest.mark.parametrize("reader", ["wordle tree-check", "mastermind tree-check",
                                    "hangman tree-check"])
def test_gzip_bomb_tree_is_refused(reader, tmp_path):
    args = [str(_bomb(tmp_path)) if a == "FILE" else a for a in READERS[reader]]
    assert_one_error(run(*args, env={"DEDUCTIVE_MAX_INPUT": "1M"}), "expands to more than")


@pytest.mark.parametrize("reader", ["wordle tree-check", "mastermind tree-check",
                                    "hangman tree-check"])
@pytest.mark.parametrize("content", [b"\x1f\x8b\x08\x00garbage", b"[1, 2", b"",
                                     b'{"tree": ' * 200_000])
def test_damaged_tree(reader, content, tmp_path):
    path = tmp_path / "tree.json"
    path.write_bytes(gzip.compress(content)[:-8] if content == b"[1, 2" else content)
    args = [str(path) if a == "FILE" else a for a in READERS[reader]]
    assert_one_error(run(*args))


def test_position_dimension_cap():
    big = ("x" * 1025 + "\n") * 1025            # 1,050,625 cells: over 2**20
    assert_one_error(run("mines", "probs", "-", "--mines", 1, input=big), "over the limit")


def test_positions_from_stdin_are_bounded():
    assert_one_error(run("mines", "probs", "-", "--mines", 1, input="x" * 5000,
                         env={"DEDUCTIVE_MAX_INPUT": "4000"}), "standard input")


# -- outputs ------------------------------------------------------------------------------

WRITERS = {     # a command writing OUT, cheap enough to run to the end
    "wordle bench --tree": ["wordle", "bench", "--guesses", "fr-seed", "--answers-subset",
                            "3", "--tree", "OUT"],
    "hangman evil --tree": ["hangman", "evil", "--length", "2", "--tree", "OUT"],
    "mines probs --plot": ["mines", "probs", "-", "--mines", "1", "--plot", "OUT"],
    "bulls search --tree": ["bulls", "search", "--digits", "2", "--tree", "OUT"],
}
PREVIOUS = b"what the user had\n"


def _target(kind, tmp_path, suffix):
    """(path to give, path whose content must survive or None)."""
    kept = tmp_path / f"kept{suffix}"
    if kind == "dev-full":
        return "/dev/full", None
    if kind == "dev-null":
        return "/dev/null", None
    if kind == "fifo":
        return _fifo(tmp_path), None
    if kind == "link-to-device":
        link = tmp_path / f"link{suffix}"
        link.symlink_to("/dev/full")
        return link, None
    if kind == "folder":
        return tmp_path, None
    if kind == "missing-folder":
        return tmp_path / "no" / f"t{suffix}", None
    if kind == "read-only":
        kept.write_bytes(PREVIOUS)
        kept.chmod(0o444)
        return kept, kept
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["dev-full", "dev-null", "fifo", "link-to-device", "folder",
                                  "missing-folder", "read-only"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_output_target_refused_before_work(writer, kind, tmp_path):
    if os.geteuid() == 0 and kind == "read-only":
        pytest.skip("root writes read-only files")
    suffix = ".png" if "plot" in writer else ".json"
    path, kept = _target(kind, tmp_path, suffix)
    args = [str(path) if a == "OUT" else a for a in WRITERS[writer]]
    assert_one_error(run(*args, input=POSITION))
    if kept is not None:
        assert kept.read_bytes() == PREVIOUS
    if kind == "dev-null":
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("writer", list(WRITERS))
def test_symlink_target_is_written_through(writer, tmp_path):
    suffix = ".png" if "plot" in writer else ".json"
    real = tmp_path / f"real{suffix}"
    real.write_bytes(PREVIOUS)
    link = tmp_path / f"link{suffix}"
    link.symlink_to(real)
    args = [str(link) if a == "OUT" else a for a in WRITERS[writer]]
    result = run(*args, input=POSITION, measure=False)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and real.read_bytes() != PREVIOUS
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("errno_name", ["ENOSPC", "EDQUOT", "EIO", "EFBIG"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_failed_write_keeps_the_previous_file(writer, errno_name, tmp_path, monkeypatch):
    """A disk that fills (or fails) during the write: one line, the previous file intact,
    no temporary file left."""
    import errno

    suffix = ".png" if "plot" in writer else ".json"
    target = tmp_path / f"out{suffix}"
    target.write_bytes(PREVIOUS)

    def full(fd):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))
    monkeypatch.setattr(_io.os, "fsync", full)
    args = [str(target) if a == "OUT" else a for a in WRITERS[writer]]
    assert_one_error(run(*args, input=POSITION, measure=False), "the previous file is intact")
    assert target.read_bytes() == PREVIOUS
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_interrupted_write_keeps_the_previous_file(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(PREVIOUS)

    def interrupted(fh):
        fh.write(b"{half")
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        _io.write_output(target, interrupted)
    assert target.read_bytes() == PREVIOUS and os.listdir(tmp_path) == ["out.json"]


def test_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(PREVIOUS)
    target.chmod(0o640)
    _io.write_json(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1}
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640


# -- the library's own checks -------------------------------------------------------------

@pytest.mark.parametrize("path", ["/dev/zero", "/dev/full", "/dev/stdin", "/"])
def test_read_bytes_refuses_non_files(path):
    with guarded():
        with pytest.raises(InputError):
            _io.read_bytes(path)


@pytest.mark.parametrize("path", ["/dev/full", "/dev/null", "/"])
def test_write_output_refuses_non_files(path):
    with pytest.raises(OutputError):
        _io.write_output(path, b"x")


def test_gzip_members_and_cut_streams(tmp_path):
    path = tmp_path / "two.gz"
    path.write_bytes(gzip.compress(b"ab") + gzip.compress(b"cd"))
    assert _io.read_bytes(path, gunzip=True) == b"abcd"
    path.write_bytes(gzip.compress(b"x" * 10_000)[:-30])
    with pytest.raises(InputError, match="damaged or cut"):
        _io.read_bytes(path, gunzip=True)
    path.write_bytes(gzip.compress(b"x" * 10_001))
    with pytest.raises(InputError, match="expands to more than"):
        _io.read_bytes(path, gunzip=True, limit=10_000)
    assert len(_io.read_bytes(path, gunzip=True, limit=10_001)) == 10_001
