"""Dask clusters: a local one's lifecycle (Ctrl-C, kill), a scheduler's checks and probe,
the workers' versions and threads, and a cluster lost mid-run: one line each."""

import json
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest

distributed = pytest.importorskip("distributed")

from deductive import wordle  # noqa: E402
from deductive.distributed import dask_client, wordle_openers  # noqa: E402
from tests.signals import sigint_default  # noqa: E402

from tests.distributed.dask_support import ROOT, checkpoint_rows, wait_for_rows  # noqa: E402


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
                            preexec_fn=sigint_default)
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

    monkeypatch.setattr(dd.workers, "WORKER_WAIT", "1s")
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

    from tests.cli.test_cli_errors import assert_one_error

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
                            start_new_session=True, preexec_fn=sigint_default)
    try:
        wait_for_rows(proc, ck, 3)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    # click ends the terminal's "^C" line with a newline, then the one message
    assert [line for line in err.decode().splitlines() if line] == ["error: aborted"], err
    rows = checkpoint_rows(ck)
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
        wait_for_rows(proc, ck, 2)
        rows = len(checkpoint_rows(ck))
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
        assert len(checkpoint_rows(ck)) >= rows
    finally:
        for p in (worker, scheduler):
            with __import__("contextlib").suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGCONT)
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(10)
