"""Dask sweeps: equal to the single-process runs, resilient to a lost worker, resumable."""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

distributed = pytest.importorskip("distributed")

from deductive import wordle  # noqa: E402
from deductive.errors import DeductiveError  # noqa: E402
from deductive.distributed import (  # noqa: E402
    chunk_ranges,
    dask_client,
    guided_ranges,
    wordle_prove_openers,
    wordle_search_openers,
    hangman_sweep_all,
    mines_bench,
    wordle_openers,
    wordle_second,
)
from deductive.engine.wordle.game import Wordle  # noqa: E402
from deductive.engine.hangman import Hangman, load_hangman_words  # noqa: E402
from deductive.engine.minesweeper.bench import run_bench  # noqa: E402
from deductive.engine.minesweeper.players import make_player  # noqa: E402
from deductive.engine.feedback.precompute import second_guesses  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def records(result):
    return [(r.won, r.decisions, r.guesses) for r in result.records]


def test_chunk_ranges():
    assert chunk_ranges(10, 3) == [(0, 3), (3, 7), (7, 10)]
    assert chunk_ranges(2, 8) == [(0, 1), (1, 2)]
    assert chunk_ranges(0, 4) == []


def test_mines_bench_equals_single_process(client):
    local = run_bench("beginner8", make_player("least-risk"), 60, first_click="zero",
                      first_move="centre")
    remote = mines_bench(client, "beginner8", "least-risk", 60, first_click="zero",
                         first_move="centre")
    assert records(remote) == records(local)
    assert remote.as_dict()["wins"] == local.as_dict()["wins"]


@pytest.mark.parametrize("metric", ["entropy", "minimax", "expected", "buckets"])
def test_wordle_openers_equal(client, metric):
    words = wordle.load_words("fr-seed")
    matrix = wordle.pattern_matrix(words, words)
    local = wordle.rank_guesses(matrix, words, metric=metric)
    remote = wordle_openers(client, matrix, words, metric=metric)
    assert remote == local


def test_wordle_second_equal(client):
    game = Wordle("fr-seed", "fr-seed")
    local = second_guesses(game, game.solver("entropy"), "laine")
    remote = wordle_second(client, game, "entropy", {"pool": "all"}, "laine")
    assert remote == local


def test_hangman_all_lengths_equal(client, tmp_path):
    path = tmp_path / "w.txt"
    rng = np.random.default_rng(0)
    words = {"".join(rng.choice(list("abcdefgh"), n)) for n in (3, 4, 5, 6) for _ in range(80)}
    path.write_text("\n".join(sorted(words)))
    lists = load_hangman_words(path)
    remote = hangman_sweep_all(client, lists, "best-lives", lives=4)
    local = [(n, Hangman(lists[n]).sweep("best-lives", lives=4)) for n in sorted(lists)]
    assert [n for n, _ in remote] == [n for n, _ in local]
    assert [r.results for _, r in remote] == [r.results for _, r in local]


def test_guided_ranges():
    assert guided_ranges(0, 0, 2, 10) == []
    assert guided_ranges(0, 100, 2, 10, smallest=4) == [
        (0, 10), (10, 20), (20, 30), (30, 40), (40, 50), (50, 60), (60, 70), (70, 78),
        (78, 84), (84, 88), (88, 92), (92, 96), (96, 100)]
    pieces = guided_ranges(0, 20000, 2, 312)
    assert len(pieces) == 77 and pieces[0] == (0, 312) and pieces[-1][1] - pieces[-1][0] <= 8


@given(lo=st.integers(0, 50), n=st.integers(0, 3000), workers=st.integers(1, 64),
       largest=st.integers(1, 500), smallest=st.integers(1, 40))
def test_guided_ranges_cover_in_order(lo, n, workers, largest, smallest):
    pieces = guided_ranges(lo, lo + n, workers, largest, smallest)
    starts = [lo] + [b for _, b in pieces]
    assert [a for a, _ in pieces] == starts[:-1] and starts[-1] == lo + n   # contiguous
    sizes = [b - a for a, b in pieces]
    assert all(0 < size <= max(1, largest) for size in sizes)
    assert sizes == sorted(sizes, reverse=True)                # they only shrink


def _entries(path):
    """The checkpoint's rows, without a line cut by an interruption (or a header)."""
    entries = []
    for line in path.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return [e for e in entries if "key" in e]


def test_checkpoint_resume(client, tmp_path):
    checkpoint = tmp_path / "ck.jsonl"
    first = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    lines = checkpoint.read_text().splitlines()
    ranges = sorted(tuple(json.loads(e["key"])) for e in _entries(checkpoint))
    assert [a for a, _ in ranges] == [0] + [b for _, b in ranges[:-1]] and ranges[-1][1] == 100
    # an interrupted run: keep the header, two chunks and half a line
    checkpoint.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    resumed = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    assert records(resumed) == records(first)
    kept = [tuple(json.loads(json.loads(line)["key"])) for line in lines[1:3]]
    again = [tuple(json.loads(e["key"])) for e in _entries(checkpoint)[2:]]
    played = sorted(g for a, b in again for g in range(a, b))
    assert played == sorted(set(range(100)) - {g for a, b in kept for g in range(a, b)})


def test_checkpoint_resumes_with_other_chunks(client, tmp_path):
    """Chunks follow the number of workers: a checkpoint written by a run on one worker
    resumes on two, with the games it holds kept and only the others played."""
    checkpoint = tmp_path / "ck.jsonl"
    local = run_bench("beginner8", make_player("least-risk"), 300)
    with dask_client(workers=1) as one:
        mines_bench(one, "beginner8", "least-risk", 300, checkpoint=str(checkpoint))
    entries = _entries(checkpoint)
    ranges = [tuple(json.loads(e["key"])) for e in entries]
    keep = [e for e, (a, b) in zip(entries, ranges) if a % 2 == 0]     # some of them
    checkpoint.write_text("".join(json.dumps(e) + "\n" for e in keep))
    resumed = mines_bench(client, "beginner8", "least-risk", 300, checkpoint=str(checkpoint))
    assert records(resumed) == records(local)
    new = [tuple(json.loads(e["key"])) for e in _entries(checkpoint)[len(keep):]]
    assert new and set(new).isdisjoint(ranges)                  # other chunks than before
    kept = {g for e in keep for g in range(*json.loads(e["key"]))}
    assert sorted(g for a, b in new for g in range(a, b)) == sorted(set(range(300)) - kept)


def test_lost_worker_is_retried():
    # the sweeps' own local cluster (workers forked from the fork server); the nanny
    # replaces the killed worker
    with dask_client(workers=2) as client:
        killed = []
        pids = client.run(os.getpid)          # worker address -> process id

        def kill_one(_):
            if not killed:                    # after the first chunk, a worker dies
                victim = sorted(pids)[0]
                killed.append(victim)
                os.kill(pids[victim], signal.SIGKILL)

        remote = mines_bench(client, "beginner", "least-risk", 200, progress=kill_one)
    assert killed
    local = run_bench("beginner", make_player("least-risk"), 200)
    assert records(remote) == records(local)


def test_a_local_cluster_leaves_the_environment_alone():
    """Starting a local cluster leaves this process's environment as it was (and writes
    no private attribute of Dask: tests/test_architecture.py reads the source for that)."""
    before = dict(os.environ)
    with dask_client(workers=1) as client:
        assert list(client.run(os.getpid).values()) != [os.getpid()]
    assert dict(os.environ) == before


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill"])
def test_stopped_client_leaves_no_local_cluster(tmp_path, stop):
    """Ctrl-C, or a client killed outright: workers, fork server and all exit with it."""
    marker = f"deductive-test-{uuid.uuid4().hex}"
    env = dict(os.environ, DEDUCTIVE_TEST_MARKER=marker)
    # Ctrl-C as a terminal sends it: to a client that has not inherited an ignored SIGINT
    # (a run started in the background by a shell ignores it)
    proc = subprocess.Popen([sys.executable, "-m", "deductive", "mines", "bench", "--preset",
                             "expert", "--player", "least-risk", "--games", "200000",
                             "--workers", "2"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and len(_marked(marker)) < 3:
        time.sleep(0.5)
    assert len(_marked(marker)) >= 3, "the local cluster did not start"
    time.sleep(2)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0
    deadline = time.time() + 30
    while time.time() < deadline and _marked(marker):
        time.sleep(0.5)
    assert _marked(marker) == [], "worker processes outlived the client"


def _marked(marker):
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                if marker.encode() in fh.read():
                    found.append(int(pid))
        except OSError:
            continue
    return found


def test_wordle_search_openers_equal(client):
    from deductive.engine.feedback.search import TreeSearch

    game = Wordle("fr-seed", "fr-seed")
    words = ["laine", "paire", "clair"]
    local = [TreeSearch(game, beam=2).search_opener(w).as_dict() for w in words]
    remote = wordle_search_openers(client, game, words, beam=2)
    assert [_searched(r) for r in remote] == [_searched(r) for r in local]


def test_wordle_search_openers_equal_in_hard_mode(client):
    """Hard mode, exact, within 4 guesses: the rows of one process."""
    game = hard_subset()
    openers = [w for w in game.guesses[:60] if _within(game, w) is not None][:30]
    rows = wordle_search_openers(client, game, openers, max_guesses=4)
    assert [_searched(r) for r in rows] == [_within(game, w) for w in openers]


def test_a_workers_searches_share_one_search():
    """Every opener of a list, one after the other in one process as a worker runs them:
    the totals of fresh searches. Searches that shared a memo but not its hard-mode masks
    gave chino 440 here instead of 437."""
    from deductive.engine.feedback.search import forget_search, search_opener_chunk

    game = hard_subset()
    try:
        for word in game.guesses:
            try:
                row = _searched(search_opener_chunk(word, game, "run", None, 4))
            except DeductiveError:          # no tree within 4 guesses
                row = None
            assert row == _within(game, word), word
    finally:
        forget_search("run")


def _within(game, word):
    """A fresh search's row of ``word`` within 4 guesses (None: no tree)."""
    from deductive.engine.feedback.search import TreeSearch

    try:
        return _searched(TreeSearch(game, max_guesses=4).search_opener(word).as_dict())
    except DeductiveError:
        return None


def hard_subset():
    """Hard mode on 150 seeded words of the built-in English answers."""
    import deductive

    path = Path(deductive.__file__).parent / "data" / "en-answers.txt"
    words = [w.strip() for w in path.read_text().splitlines() if len(w.strip()) == 5]
    sub = sorted(np.random.default_rng(4).choice(words, size=150, replace=False).tolist())
    return Wordle(sub, sub, hard=True)


@pytest.mark.parametrize("hard", [False, True])
def test_wordle_prove_openers_equal(client, tmp_path, hard):
    """The certificate with its searches on two workers: the rows of one process (but
    their seconds), the same file, and the workers' searches dropped at the end."""
    from deductive.engine.feedback.search import prove_openers

    def searches_kept():                # runs on a worker (pickled by value)
        from deductive.engine.feedback.search import _RUN_SEARCHES
        return len(_RUN_SEARCHES)

    game = Wordle("fr-seed", "fr-seed", hard=hard)
    local = prove_openers(game, 5, within=20, checkpoint=str(tmp_path / "one.jsonl"))
    remote = wordle_prove_openers(client, game, 5, within=20, memo_bytes=10 ** 8,
                                  checkpoint=str(tmp_path / "two.jsonl"))
    stable = [[{k: v for k, v in r.items() if k != "seconds"} for r in proof.rows]
              for proof in (local, remote)]
    assert stable[0] == stable[1] and remote.best() == local.best() != []
    assert sum(r["by"] == "search" for r in remote.rows) > 3
    files = [[{**{k: v for k, v in e.items() if k not in ("seconds", "digest")},
               "result": {**e["result"], "seconds": 0}} for e in _entries(tmp_path / f)]
             for f in ("one.jsonl", "two.jsonl")]
    assert files[0] == files[1]
    assert client.run(searches_kept) == {w: 0 for w in client.run(os.getpid)}


@pytest.mark.parametrize("hard", [False, True])
def test_wordle_least_worst_equal(client, tmp_path, monkeypatch, hard):
    """The least worst case over every opener with its sweep (from the first depth, in
    pieces of 40) and its certificate on two workers: the result and the checkpoint
    entries of one process, and the workers' searches dropped at the end."""
    from deductive.distributed import wordle_least_worst
    from deductive.engine.feedback import worst

    def searches_kept():                # runs on a worker (pickled by value)
        from deductive.engine.feedback.search import _RUN_SEARCHES
        return len(_RUN_SEARCHES)

    monkeypatch.setattr(worst, "SWEEP_FROM", 1)
    monkeypatch.setattr(worst, "SWEEP_PIECE", 40)
    game = Wordle("fr-seed", "fr-seed", hard=hard)
    local = worst.least_worst(game, checkpoint=str(tmp_path / "one.jsonl"))
    remote = wordle_least_worst(client, game, memo_bytes=10 ** 8,
                                checkpoint=str(tmp_path / "two.jsonl"))
    assert (remote.opener, remote.total, remote.worst) == \
        (local.opener, local.total, local.worst) == ("clair", 851, 4)
    def stable(e):
        e = {k: v for k, v in e.items() if k not in ("seconds", "digest")}
        return {**e, "result": {**e["result"], "seconds": 0}} \
            if isinstance(e["result"], dict) else e

    files = [sorted(json.dumps(stable(e), sort_keys=True) for e in _entries(tmp_path / f))
             for f in ("one.jsonl", "two.jsonl")]
    assert files[0] == files[1]
    assert sum("least_worst" in e for e in files[0]) == 9        # 8 pieces within 3, 1 in 4
    assert client.run(searches_kept) == {w: 0 for w in client.run(os.getpid)}


def test_a_cut_proof_cancels_its_searches(client):
    """A certificate cut short (an error while its searches wait for a free worker) cancels
    the searches still out: with the cancel removed, they stay pending."""
    from deductive.distributed.sweeps import _DaskSearches
    from deductive.engine.feedback.search import prove_openers

    class Cut(Exception):
        pass

    def hold(name):                     # occupies a worker's one thread until set
        distributed.Event(name).wait(120)

    name = f"hold-{uuid.uuid4().hex}"
    gate = distributed.Event(name, client=client)
    holds = [client.submit(hold, name, workers=[w], pure=False)
             for w in client.scheduler_info()["workers"]]
    try:
        game = Wordle("fr-seed", "fr-seed", hard=True)
        pool = _DaskSearches(client, game, None, 10 ** 8)
        sent, submit = [], pool.submit

        def submit_and_keep(*args, **kwargs):      # the first ceiling's beams, here
            submit(*args, **kwargs)
            sent.append(list(pool.futures.values())[-1][0])     # (future, place)

        def cut():
            raise Cut

        pool.submit, pool.next = submit_and_keep, cut
        with pytest.raises(Cut):
            try:
                prove_openers(game, 3, pool=pool)
            finally:
                pool.close()
        assert len(sent) == 2 and not pool.futures
        assert [f.status for f in sent] == ["cancelled", "cancelled"]
    finally:
        gate.set()
        distributed.wait(holds, timeout=60)


def _searched(row):
    """A searched opener's row without its timing (seconds, nodes)."""
    return {k: v for k, v in row.items() if k not in ("seconds", "nodes")}


def test_search_checkpoint_is_by_opener(client, tmp_path):
    """A checkpoint of the single-process search resumes on Dask, for another list of
    openers: the stored openers are not searched again, the others are."""
    from deductive.checkpoint import Checkpoint
    from deductive.engine.feedback.search import search_tag
    from deductive.engine.feedback.search import TreeSearch

    game = Wordle("fr-seed", "fr-seed")
    searcher = TreeSearch(game, beam=2)
    path = tmp_path / "search.jsonl"
    Checkpoint(str(path), search_tag(game, 2, None)).append(
        "laine", searcher.search_opener("laine").as_dict())
    rows = wordle_search_openers(client, game, ["paire", "laine"], beam=2,
                                 checkpoint=str(path))
    assert [r["word"] for r in rows] == ["paire", "laine"]
    assert _searched(rows[0]) == _searched(searcher.search_opener("paire").as_dict())
    assert [e["key"] for e in _entries(path)] == ["laine", "paire"]


def test_busy_dashboard_port_brings_no_warning():
    """A dashboard already on 8787 (a notebook's cluster) leaves stderr clean."""
    import socket

    sock = socket.socket()
    try:
        sock.bind(("", 8787))
    except OSError:
        sock.close()
        pytest.skip("port 8787 is taken by something else here")
    sock.listen()
    try:
        out = subprocess.run([sys.executable, "-m", "deductive", "mines", "bench", "--preset",
                              "beginner", "--player", "least-risk", "--games", "30",
                              "--workers", "1", "--json"], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    finally:
        sock.close()
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert json.loads(out.stdout)["games"] == 30


def test_check_workers(client):
    from deductive import DeductiveError, __version__
    from deductive.distributed import check_workers

    versions = check_workers(client)
    assert len(versions) == 2 and set(versions.values()) == {__version__}
    with pytest.raises(DeductiveError, match="2 of 2 Dask workers run deductive .* install the"):
        check_workers(client, version="0.0.0-other")


def test_scheduler_without_workers_fails_clearly(monkeypatch):
    import deductive.distributed as dd
    from deductive import DeductiveError

    monkeypatch.setattr(dd.cluster, "WORKER_WAIT", "1s")
    cluster = distributed.LocalCluster(n_workers=0, processes=True, dashboard_address=":0")
    try:
        with pytest.raises(DeductiveError, match="no Dask worker joined the scheduler within 1s"):
            with dd.dask_client(scheduler=cluster.scheduler_address):
                pass
    finally:
        cluster.close()


def test_missing_dask_is_one_line():
    """Without Dask installed, --workers says how to install it (no fork server, no
    traceback)."""
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from deductive.cli import main\n"
            "main(['mines', 'bench', '--preset', 'beginner', '--player', 'least-risk', "
            "'--games', '5', '--workers', '2'], prog_name='deductive')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "error: Dask is not installed: pip install 'deductive[dask]'"]


def test_tasks_run_one_compute_thread(client):
    """Every task sets one compute thread in its worker: the worker's task threads are its
    share of the CPUs (numba would otherwise use every CPU in every worker)."""
    import deductive

    words = wordle.load_words("fr-seed")
    wordle_openers(client, wordle.pattern_matrix(words, words), words)
    assert set(client.run(deductive.get_threads).values()) == {1}


def test_worker_threads_keep_the_workers_own_setting():
    """DEDUCTIVE_THREADS set in a worker's environment is the user's choice: kept."""
    import numba

    from deductive.distributed import worker_threads

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one CPU")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", env={"DEDUCTIVE_THREADS": "2"})
    try:
        with distributed.Client(cluster) as c:
            (report,) = worker_threads(c).values()
    finally:
        cluster.close()
    assert report["threads"] == 2 and report["nthreads"] == 1 and len(report["cpus"]) >= 2


def test_worker_threads_warn_about_an_oversubscribed_host():
    import warnings

    from deductive.distributed import worker_threads

    class Reports:
        def __init__(self, reports):
            self.reports = reports

        def run(self, func):
            return self.reports

    fine = {"tcp://a:1": {"host": "a", "cpus": [0, 1], "nthreads": 1, "threads": 1},
            "tcp://a:2": {"host": "a", "cpus": [0, 1], "nthreads": 1, "threads": 1},
            "tcp://b:1": {"host": "b", "cpus": [0, 1, 2, 3], "nthreads": 4, "threads": 1}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert worker_threads(Reports(fine)) == fine
    three = dict(fine, **{"tcp://a:3": {"host": "a", "cpus": [1], "nthreads": 1, "threads": 1}})
    with pytest.warns(RuntimeWarning, match=r"the 3 Dask worker\(s\) on a run 3 compute threads "
                                            r"on 2 CPUs.*at most 2 threads in all"):
        worker_threads(Reports(three))
    env = dict(fine, **{"tcp://b:1": {"host": "b", "cpus": [0, 1, 2, 3], "nthreads": 4,
                                      "threads": 2}})
    with pytest.warns(RuntimeWarning, match="on b run 8 compute threads on 4 CPUs.*unset "
                                            "DEDUCTIVE_THREADS"):
        worker_threads(Reports(env))


def test_a_proof_survives_its_cluster_losing_the_game():
    """Every worker restarted mid-run, as the scheduler does when a suspended machine
    wakes (the workers missed their heartbeats): the game scattered to them is lost and
    the searches waiting on it are cancelled. They are sent again with the game, and the
    rows are those of one process."""
    from deductive.distributed.sweeps import _DaskSearches
    from deductive.engine.feedback.search import prove_openers

    game = Wordle("fr-seed", "fr-seed", hard=True)
    local = prove_openers(game, 3, within=10)
    with dask_client(workers=2) as client:
        pool = _DaskSearches(client, game, None, 10 ** 8)
        sends, submit = [], pool.submit

        def submit_then_restart(place, g, limit, beam=False, sent=1):
            submit(place, g, limit, beam, sent)
            if beam:                    # the first ceiling's: resent by the same path
                return
            sends.append(sent)
            if len(sends) == 2:
                client.restart_workers(list(client.scheduler_info()["workers"]))

        pool.submit = submit_then_restart
        try:
            remote = prove_openers(game, 3, within=10, pool=pool)
        finally:
            pool.close()
    assert max(sends) == 2              # a search was sent again
    stable = [[{k: v for k, v in r.items() if k != "seconds"} for r in proof.rows]
              for proof in (local, remote)]
    assert stable[0] == stable[1]


def test_a_sweep_that_loses_its_data_says_so_in_one_line(client):
    """A task cancelled under :func:`run_chunks` (its scattered input lost) is one clear
    error naming the way on, not a TypeError from deep in the loop."""
    import threading

    from deductive.distributed.cluster import LOST, run_chunks

    data = client.scatter(list(range(10)), broadcast=True, hash=False)

    def slow_sum(chunk, xs):
        time.sleep(5)
        return sum(xs[chunk[0]:chunk[1]])

    timer = threading.Timer(1.0, lambda: client.cancel([data], force=True))
    timer.start()
    try:
        with pytest.raises(DeductiveError) as err:
            run_chunks(client, slow_sum, [(0, 5), (5, 10)], data)
    finally:
        timer.cancel()
    assert str(err.value) == LOST


def test_an_edited_bench_row_is_played_again(client, tmp_path):
    """The audit's case: one checkpoint row edited to all wins made a resumed bench report
    more wins than it played. The row fails its digest and its games are played again."""
    checkpoint = tmp_path / "ck.jsonl"
    first = mines_bench(client, "beginner8", "csp-random", 100, checkpoint=str(checkpoint))
    entries = [json.loads(line) for line in checkpoint.read_text().splitlines()]
    lost = next(e for e in entries if "key" in e and not all(r[0] for r in e["result"]))
    for row in lost["result"]:
        row[0] = True                   # every game of the chunk "won"
    checkpoint.write_text("".join(json.dumps(e) + "\n" for e in entries))
    with pytest.warns(UserWarning, match="1 row"):
        resumed = mines_bench(client, "beginner8", "csp-random", 100,
                              checkpoint=str(checkpoint))
    assert records(resumed) == records(first)
    assert sum(r.won for r in resumed.records) < 100


def _fake_server(payload):
    """A loopback server that answers every connection with ``payload`` and then stays
    silent; returns its port and a function that stops it."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.2)
    stop = threading.Event()

    def serve():
        conns = []
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conns.append(conn)
            try:
                conn.sendall(payload)
            except OSError:
                pass
        for conn in conns:
            conn.close()
        server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server.getsockname()[1], lambda: (stop.set(), thread.join(5))


@pytest.mark.parametrize("payload", [
    b"\x08\x00\x00\x00\x00\x00\x00\x00pickle-protocol" + bytes(range(256)) * 4,
    b"\x20" + b"\x00" * 7 + b"pickle-protocol" * 3 + bytes(range(256)),   # framed, not Dask
    b"HTTP/1.1 200 OK\r\n\r\nhello", b"", bytes(range(256)) * 64, b"\xff" * 8],
    ids=["dask-like", "framed", "http", "silent", "noise", "huge-length"])
def test_the_probe_survives_any_bytes(payload):
    """The audit's case: a server whose bytes looked like Dask's crashed the client with a
    traceback. Any answer is one line, exit 2, within the timeout and a margin."""
    from click.testing import CliRunner

    from deductive.cli import cli

    from .test_cli_errors import assert_one_error

    port, stop = _fake_server(payload)
    try:
        start = time.monotonic()
        out = CliRunner().invoke(cli, ["mines", "bench", "--games", "5", "--scheduler",
                                       f"tcp://127.0.0.1:{port}", "--timeout", "1"])
        assert_one_error(out, f"127.0.0.1:{port}")
        assert time.monotonic() - start < 15
    finally:
        stop()


def test_ctrl_c_under_two_workers_is_one_line_and_keeps_the_checkpoint(tmp_path):
    """The audit's case: Ctrl-C (SIGINT to the process group, as a terminal sends it)
    under --workers 2 printed 65-77 lines of tracebacks. Now: one line, exit 130, every
    checkpoint row whole, and a rerun resumes from them without a warning."""
    ck = tmp_path / "ck.jsonl"
    args = [sys.executable, "-m", "deductive", "--threads", "1", "mines", "bench", "--preset",
            "beginner", "--player", "csp-random", "--games", "50000", "--workers", "2",
            "--checkpoint", str(ck)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if ck.exists() and ck.read_text().count("\n") >= 3:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    # click ends the terminal's "^C" line with a newline, then the one message
    assert [line for line in err.decode().splitlines() if line] == ["error: aborted"], err
    rows = _entries(ck)
    assert len(rows) >= 2 and len(ck.read_text().splitlines()) == len(rows) + 1
    from deductive.checkpoint import Checkpoint

    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tag = rows[0]["tag"]
        assert len(Checkpoint(str(ck), tag).load()) == len(rows)     # every digest holds


def _dask_process(*args):
    return subprocess.Popen([sys.executable, "-m", "distributed.cli." + args[0], *args[1:]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["worker-killed", "scheduler-stopped"])
def test_a_lost_external_cluster_is_one_line_within_the_timeout(tmp_path, fault):
    """An external cluster whose only worker dies, or whose scheduler stops answering
    (SIGSTOP), mid-run: one line, exit 2, within --timeout and a margin; the rows already
    finished stay in the checkpoint (loopback only)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask_process("dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--dashboard-address", ":0", "--no-show")
    worker = _dask_process("dask_worker", address, "--nthreads", "1", "--no-nanny",
                           "--no-dashboard")
    ck = tmp_path / "ck.jsonl"
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "deductive", "mines", "bench", "--preset", "beginner",
             "--player", "csp-random", "--games", "50000", "--scheduler", address,
             "--timeout", "5", "--checkpoint", str(ck)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if ck.exists() and ck.read_text().count("\n") >= 2:
                break
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        rows = len(_entries(ck))
        if fault == "worker-killed":
            os.killpg(worker.pid, signal.SIGKILL)
            needle = "has had no worker for 5 s"
        else:
            os.killpg(scheduler.pid, signal.SIGSTOP)
            needle = "did not answer within 5 s"
        start = time.monotonic()
        _, err = proc.communicate(timeout=120)
        assert time.monotonic() - start < 5 + 20
        assert proc.returncode == 2, err
        lines = err.decode().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], err
        assert len(_entries(ck)) >= rows
    finally:
        for p in (worker, scheduler):
            with __import__("contextlib").suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGCONT)
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)
