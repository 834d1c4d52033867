"""The HDF5 cache: build once, load after; corrupt, stale and half-written files are rebuilt."""

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import h5py
import numpy as np
import pytest

from deductive import wordle
from deductive.cache import PatternStore
from deductive.cache import store as store_module
from deductive.errors import CacheError, CacheRebuildWarning, CacheWriteWarning

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def lists():
    words = wordle.load_words("fr-seed")
    return words, words.subset(words[:120], name="fr-seed-120")


def build(lists, cache_dir, **kw):
    info = {}
    matrix = wordle.cached_pattern_matrix(*lists, cache_dir, info=info, **kw)
    return matrix, info


def test_build_then_load(lists, tmp_path):
    first, info1 = build(lists, tmp_path)
    second, info2 = build(lists, tmp_path)
    assert info1["source"] == "built" and info2["source"] == "cache"
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(second, wordle.pattern_matrix(*lists))
    assert not second.flags.writeable
    with h5py.File(info2["path"]) as fh:
        assert fh.attrs["format_version"] == 2 and fh.attrs["kernel_version"] == 1
        # opened with plain h5py, the file says how its codes are encoded
        assert fh.attrs["code_encoding"] == ("code = sum fb[i]*3^i, position 0 least "
                                             "significant; 0 grey 1 yellow 2 green")
        assert fh.attrs["key"] == wordle.matrix_key(*lists)
        assert fh.attrs["package_version"]
        assert len(fh["guesses"]) == 297 and len(fh["answers"]) == 120


def test_key_depends_on_order_and_lists(lists):
    g, a = lists
    assert wordle.matrix_key(g, a) != wordle.matrix_key(a, g)
    reordered = wordle.WordList(list(reversed(a)))
    assert wordle.matrix_key(g, a) != wordle.matrix_key(g, reordered)


def flip(path, offset, count=16):
    data = bytearray(path.read_bytes())
    for k in range(offset, min(offset + count, len(data))):
        data[k] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("where", ["data", "superblock", "tail"])
def test_flipped_bytes_are_detected_and_rebuilt(lists, tmp_path, where):
    truth, info = build(lists, tmp_path)
    path = Path(info["path"])
    size = path.stat().st_size
    offset = {"data": size // 2, "superblock": 0, "tail": size - 64}[where]
    flip(path, offset)
    with pytest.warns(CacheRebuildWarning, match="invalid"):
        again, info2 = build(lists, tmp_path)
    assert info2["source"] == "built"
    np.testing.assert_array_equal(again, truth)
    third, info3 = build(lists, tmp_path)  # the rebuilt file is valid
    assert info3["source"] == "cache"


def test_every_region_flip_never_gives_a_wrong_matrix(lists, tmp_path):
    truth, info = build(lists, tmp_path)
    path = Path(info["path"])
    pristine = path.read_bytes()
    for offset in range(0, len(pristine), max(1, len(pristine) // 40)):
        path.write_bytes(pristine)
        flip(path, offset, 8)
        with warnings.catch_warnings():  # a flip in padding may go unnoticed, harmlessly
            warnings.simplefilter("ignore", CacheRebuildWarning)
            got, _ = build(lists, tmp_path)
        np.testing.assert_array_equal(got, truth)


def test_truncated_file_is_rebuilt(lists, tmp_path):
    truth, info = build(lists, tmp_path)
    path = Path(info["path"])
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.warns(CacheRebuildWarning):
        again, info2 = build(lists, tmp_path)
    assert info2["source"] == "built"
    np.testing.assert_array_equal(again, truth)


@pytest.mark.parametrize("attr,value", [("kernel_version", 999), ("format_version", 0),
                                        ("key", "0" * 64)])
def test_stale_metadata_is_rebuilt(lists, tmp_path, attr, value):
    _, info = build(lists, tmp_path)
    with h5py.File(info["path"], "r+") as fh:
        fh.attrs[attr] = value
    with pytest.warns(CacheRebuildWarning, match=attr):
        _, info2 = build(lists, tmp_path)
    assert info2["source"] == "built"


def test_lists_not_matching_the_key_are_rebuilt(lists, tmp_path):
    _, info = build(lists, tmp_path)
    with h5py.File(info["path"], "r+") as fh:
        stored = fh["answers"][()]
        stored[0], stored[1] = stored[1], stored[0]
        fh["answers"][...] = stored
    with pytest.warns(CacheRebuildWarning, match="answers list does not match"):
        _, info2 = build(lists, tmp_path)
    assert info2["source"] == "built"


def test_unwritable_directory_computes_in_memory_with_a_warning(lists, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.warns(CacheWriteWarning, match="DEDUCTIVE_CACHE_DIR.*computed in memory"):
        matrix, info = build(lists, blocker / "sub")
    assert info["source"] == "built" and info["path"] is None
    np.testing.assert_array_equal(matrix, wordle.pattern_matrix(*lists))
    # the store itself says why, as one error
    store = PatternStore(blocker / "sub")
    with pytest.raises(CacheError, match="cannot be created"):
        store.save("0" * 64, list(lists[0]), list(lists[1]), 1, matrix)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_read_only_directory_computes_in_memory(lists, tmp_path):
    build(lists, tmp_path)                      # one file there already
    tmp_path.chmod(0o555)
    try:
        other = (lists[1], lists[0])
        with pytest.warns(CacheWriteWarning, match="not writable"):
            matrix, info = build(other, tmp_path)
        assert info["path"] is None
        _, info = build(lists, tmp_path)        # reading still works
        assert info["source"] == "cache"
    finally:
        tmp_path.chmod(0o755)


def test_not_enough_free_space_is_a_warning_not_a_crash(lists, tmp_path, monkeypatch):
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(store_module.shutil, "disk_usage",
                        lambda path: usage(10 ** 6, 10 ** 6 - 1000, 1000))
    with pytest.warns(CacheWriteWarning, match="MB free and the matrix's file needs"):
        matrix, info = build(lists, tmp_path)
    assert info["path"] is None and not list(tmp_path.iterdir())


FILL_THE_DISK = textwrap.dedent("""
    import resource, signal, sys, warnings
    from deductive import wordle
    words = wordle.load_words("fr-seed")
    wordle.pattern_matrix(words, words)             # compile before the limit
    # files may not grow past 40 kB: the write fails half way, as on a full disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, resource.RLIM_INFINITY))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        info = {}
        m = wordle.cached_pattern_matrix(words, words, sys.argv[1], info=info)
    assert m.shape == (297, 297) and info["path"] is None, info
    print(caught[0].category.__name__, caught[0].message)
""")


def test_disk_full_during_the_write_leaves_nothing_and_no_crash(tmp_path):
    """HDF5 must never see the write error: it crashed the interpreter (segfault) when
    the file was closed after one."""
    out = subprocess.run([sys.executable, "-c", FILL_THE_DISK, str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.startswith("CacheWriteWarning") and "cannot write" in out.stdout
    assert list(tmp_path.iterdir()) == []           # the temporary file is gone too


def test_no_cache_neither_reads_nor_writes(lists, tmp_path, monkeypatch):
    info = {}
    wordle.cached_pattern_matrix(*lists, False, info=info)
    assert info == {"path": None, "source": "built", "seconds": info["seconds"]}
    monkeypatch.setenv("DEDUCTIVE_NO_CACHE", "1")
    wordle.cached_pattern_matrix(*lists, tmp_path, info=info)
    assert info["path"] is None and not list(tmp_path.iterdir())


def test_clear_keeps_the_temporary_file_of_a_live_writer(lists, tmp_path):
    build(lists, tmp_path)
    path = next(tmp_path.glob("patterns-*.h5"))
    host = socket.gethostname().replace(".", "-")
    writer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        live = tmp_path / f".{path.name}.{host}.{writer.pid}.0123abcd.tmp"
        dead = tmp_path / f".{path.name}.{host}.{_dead_pid()}.4567cdef.tmp"
        old_style = tmp_path / f".{path.name}.{_dead_pid()}.89abcdef.tmp"
        foreign = tmp_path / f".{path.name}.elsewhere.1.aaaabbbb.tmp"
        for p in (live, dead, old_style, foreign):
            p.write_bytes(b"partial")
        store = PatternStore(tmp_path)
        assert store.live_temporary_files() == sorted([live, foreign])
        removed = store.clear()
        assert sorted(removed) == sorted([path, dead, old_style])
        assert live.exists() and foreign.exists()       # a writer elsewhere: kept a day
        old = time.time() - store_module.FOREIGN_TMP_SECONDS - 60
        os.utime(foreign, (old, old))
        assert store.clear() == [foreign]
    finally:
        writer.kill()
        writer.wait()
    assert store.clear() == [live]


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_cache_clear_on_a_read_only_directory_is_one_error(lists, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from deductive.cli import cli

    build(lists, tmp_path)

    def refuse(self, missing_ok=False):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    result = CliRunner().invoke(cli, ["cache", "clear", "--cache-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot remove ") and "not writable" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_clear_removes_only_its_own_files(lists, tmp_path):
    build(lists, tmp_path)
    mine = tmp_path / "notes.txt"
    mine.write_text("keep me")
    removed = PatternStore(tmp_path).clear()
    assert len(removed) == 1 and mine.read_text() == "keep me"


KILL_MID_WRITE = textwrap.dedent("""
    import os, signal, sys
    from deductive.cache import store
    original = store.PatternStore._write

    def write_then_die(*args, **kwargs):
        tmp = args[0]
        original(*args, **kwargs)          # the temporary file is complete but not renamed
        with open(tmp, "r+b") as fh:       # and, for good measure, half of it is lost
            fh.truncate(os.path.getsize(tmp) // 2)
        os.kill(os.getpid(), signal.SIGKILL)

    store.PatternStore._write = staticmethod(write_then_die)
    from deductive.cli import main
    main(sys.argv[1:])
""")


def test_killed_mid_write_leaves_a_valid_cache(tmp_path):
    env = dict(os.environ, DEDUCTIVE_CACHE_DIR=str(tmp_path))
    args = ["cache", "build", "--guesses", "fr-seed", "--answers", "fr-seed"]
    killed = subprocess.run([sys.executable, "-c", KILL_MID_WRITE, *args], env=env,
                            capture_output=True, text=True, cwd=ROOT)
    assert killed.returncode == -signal.SIGKILL
    assert not list(tmp_path.glob("patterns-*.h5"))       # nothing half-written in place
    assert len(list(tmp_path.glob(".patterns-*.tmp"))) == 1
    again = subprocess.run([sys.executable, "-m", "deductive", *args], env=env,
                           capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    assert "built" in again.stdout
    assert not list(tmp_path.glob(".patterns-*.tmp"))     # the orphan was removed
    words = wordle.load_words("fr-seed")
    info = {}
    got = wordle.cached_pattern_matrix(words, words, tmp_path, info=info)
    assert info["source"] == "cache"
    np.testing.assert_array_equal(got, wordle.pattern_matrix(words, words))


def test_concurrent_builders(tmp_path):
    env = dict(os.environ, DEDUCTIVE_CACHE_DIR=str(tmp_path))
    args = [sys.executable, "-m", "deductive", "cache", "build", "--guesses", "fr-seed",
            "--answers", "fr-seed", "--rebuild"]
    procs = [subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(3)]
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    words = wordle.load_words("fr-seed")
    info = {}
    got = wordle.cached_pattern_matrix(words, words, tmp_path, info=info)
    assert info["source"] == "cache"
    np.testing.assert_array_equal(got, wordle.pattern_matrix(words, words))
    assert len(list(tmp_path.glob("patterns-*.h5"))) == 1
    assert not list(tmp_path.glob(".patterns-*.tmp"))
