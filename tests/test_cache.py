"""The HDF5 cache: build once, load after; corrupt, stale and half-written files are rebuilt."""

import os
import signal
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import h5py
import numpy as np
import pytest

from deductive import wordle
from deductive.cache import PatternStore
from deductive.errors import CacheError, CacheRebuildWarning

ROOT = Path(__file__).resolve().parent.parent


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
        assert fh.attrs["format_version"] == 1 and fh.attrs["kernel_version"] == 1
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


def test_unwritable_directory_is_a_clear_error(lists, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(CacheError, match="DEDUCTIVE_CACHE_DIR"):
        build(lists, blocker / "sub")


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
