"""numba's compiled kernels are cached in the user's cache directory, never in the package.

The failure this guards against: the first run of a regular install wrote numba's cache
files into ``site-packages/deductive/``; ``pip install -e .`` then uninstalled the regular
install but left that folder behind (pip removes only the files it installed), and it
shadowed the editable install as a namespace package: every later ``deductive`` failed
with "cannot import name '__version__' from 'deductive' (unknown location)".
"""

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_RUN_KERNEL = textwrap.dedent("""
    import os, numba
    before = numba.config.CACHE_DIR
    from deductive import wordle
    assert wordle.feedback("crane", "trace") == 187
    # the caller's numba settings and environment are as they were
    assert numba.config.CACHE_DIR == before, (numba.config.CACHE_DIR, before)
    assert os.environ.get("NUMBA_CACHE_DIR") == (before or None)
    print(wordle.__file__)
""")


def _run(package_parent, env_extra, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(package_parent), HOME=str(tmp_path / "home"), **env_extra)
    out = subprocess.run([sys.executable, "-c", _RUN_KERNEL], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return Path(out.stdout.strip())


def _installed_copy(tmp_path) -> Path:
    """A copy of the package as a regular install would lay it out (no caches in it)."""
    site = tmp_path / "site-packages"
    shutil.copytree(ROOT / "deductive", site / "deductive",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return site


def _numba_files(path: Path):
    return sorted(p for p in path.rglob("*") if p.suffix in (".nbi", ".nbc"))


def test_kernels_cache_in_the_user_cache_dir_not_the_package(tmp_path):
    site = _installed_copy(tmp_path)
    xdg = tmp_path / "xdg"
    module = _run(site, {"XDG_CACHE_HOME": str(xdg)}, tmp_path)
    assert module.is_relative_to(site)              # ran the copy, not the source tree
    assert _numba_files(site / "deductive") == []
    assert _numba_files(xdg / "deductive" / "numba")
    # uninstalling (removing the package's files) leaves no folder that could shadow
    # a later install as a namespace package
    shutil.rmtree(site / "deductive")
    assert not (site / "deductive").exists()


def test_numba_cache_dir_set_by_the_user_wins(tmp_path):
    site = _installed_copy(tmp_path)
    mine = tmp_path / "my-numba-cache"
    _run(site, {"NUMBA_CACHE_DIR": str(mine), "XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path)
    assert _numba_files(mine)
    assert not (tmp_path / "xdg" / "deductive").exists()
    assert _numba_files(site / "deductive") == []


def test_unusable_cache_home_falls_back_to_a_temporary_dir(tmp_path, monkeypatch):
    from deductive.kernels import _config

    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")                      # makedirs under a file fails, even for root
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = _config.kernel_cache_dir()
    assert path is not None and not path.startswith(str(blocker))
    assert os.access(path, os.W_OK)


def test_callers_numba_functions_keep_their_own_cache_location(tmp_path):
    script = tmp_path / "user_module.py"
    script.write_text(textwrap.dedent("""
        import numba
        from deductive.kernels import patterns   # our kernels decorated first
        @numba.njit(cache=True)
        def twice(x):
            return 2 * x
        assert twice(21) == 42
        assert numba.config.CACHE_DIR == ""
    """))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    # numba's default for a script: the __pycache__ beside it, as without deductive
    assert _numba_files(tmp_path / "__pycache__")


@pytest.mark.slow
def test_quick_start_in_one_venv_keeps_the_command_working(tmp_path):
    """The README's Quick start, for real: a regular install that runs, then an editable
    install over it; ``deductive --version`` must still work from another directory."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip, exe = venv / "bin" / "pip", venv / "bin" / "deductive"
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    env["DEDUCTIVE_CACHE_DIR"] = str(tmp_path / "cache")

    def run(*args, cwd=ROOT):
        out = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                             text=True, timeout=1800)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
        return out.stdout

    run(pip, "install", "-q", ".")
    assert "best entropy first" in run(exe, "wordle", "openers", "--top", "10")
    run(pip, "install", "-q", "-e", ".")
    assert "deductive" in run(exe, "--version", cwd="/")


_PARALLEL_KERNELS = textwrap.dedent("""
    import json
    import numpy as np
    from deductive.kernels import partition, patterns

    guesses = np.arange(40, dtype=np.uint8).reshape(8, 5) % 26
    columns = np.ascontiguousarray(guesses.T)
    out = np.empty((8, 8), dtype=np.uint8)
    patterns.fill_pattern_matrix(guesses, columns, out, 2)
    rows, cands = np.arange(8, dtype=np.int64), np.arange(8, dtype=np.int64)
    stats = [np.zeros(8, dtype=np.int64) for _ in range(4)]
    partition.bucket_stats(out, rows, cands, 243, np.zeros(9, dtype=np.int64), *stats, 2)
    weights, entropy = np.ones(8), np.zeros(8)
    partition.weighted_entropy(out, rows, cands, weights, 243, entropy, 2)
    kernels = [patterns.fill_pattern_matrix, partition.bucket_stats, partition.weighted_entropy]
    print(json.dumps([[len(k.stats.cache_hits), len(k.stats.cache_misses)] for k in kernels]))
""")


def test_parallel_kernels_are_cached_and_loaded_from_the_cache(tmp_path):
    """The parallel kernels use numba's cache like the serial ones: the first process
    compiles and stores them, the next one loads them instead of compiling."""
    import json

    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(ROOT), HOME=str(tmp_path / "home"))

    def run():
        out = subprocess.run([sys.executable, "-c", _PARALLEL_KERNELS], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])

    first, second = run(), run()
    assert all(hits == 0 and misses >= 1 for hits, misses in first), first
    assert all(hits >= 1 and misses == 0 for hits, misses in second), second
