import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow sweep: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _session_cache_dir(tmp_path_factory):
    """Never touch the user's cache: every test shares one temporary cache directory."""
    path = tmp_path_factory.mktemp("deductive-cache")
    old = os.environ.get("DEDUCTIVE_CACHE_DIR")
    os.environ["DEDUCTIVE_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("DEDUCTIVE_CACHE_DIR", None)
    else:
        os.environ["DEDUCTIVE_CACHE_DIR"] = old


def shared_data_dir() -> Path | None:
    """``$DEDUCTIVE_SHARED_DATA``, else ``../shared/data`` beside the repository."""
    env = os.environ.get("DEDUCTIVE_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared" / "data")
    for path in candidates:
        if (path / "wordle" / "guesses.txt").is_file():
            return path
    return None


@pytest.fixture(scope="session")
def wordle_lists():
    """Paths of the original Wordle lists (12,972 guesses, 2,315 answers): the files the
    package ships (the built-in list ``wordle``)."""
    from importlib import resources

    data = resources.files("deductive.data")
    return Path(str(data / "wordle-guesses.txt")), Path(str(data / "wordle-answers.txt"))


@pytest.fixture(scope="module")
def client():
    """A client to a local Dask cluster of two single-threaded worker processes, one per
    test module (``tests/test_distributed_*.py``); skipped without Dask."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()
