"""The Dask side of the sweeps: a client to a cluster (or a local one for the run), the
checks of its workers, and running chunk functions with retries and checkpoints.

* ``scheduler="tcp://host:8786"`` uses an existing cluster; ``workers=K`` starts a local
  cluster of K single-threaded worker processes for the run and always shuts it down,
  Ctrl-C included.
* Tasks are submitted with ``retries``: a task whose worker dies is rerun elsewhere.
* Each task runs the kernels with one compute thread (the worker's task threads are its
  share of the CPUs), unless ``DEDUCTIVE_THREADS`` is set in the worker's environment;
  :func:`worker_threads` checks the workers and warns about a host whose workers run
  more compute threads than it has CPUs.
* ``checkpoint=FILE`` appends each finished chunk to FILE (JSON lines); a rerun with the
  same FILE and the same arguments skips the chunks already there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import uuid
import warnings

import numpy as np

from ..checkpoint import Checkpoint
from ..errors import DeductiveError
from ..engine.params import Param

__all__ = ["dask_client", "check_workers", "worker_threads", "run_chunks", "submit",
           "completions", "chunk_ranges", "watched", "bounded", "Watch",
           "guided_ranges", "n_workers", "scheduler_address", "probe_scheduler",
           "CONNECT_TIMEOUT"]

RETRIES = 3


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise DeductiveError("Dask is not installed: pip install 'deductive[dask]'") from None
    return distributed


#: Dask settings of the local clusters started for a run (workers and nannies inherit them).
#: By default each worker samples a statistical profile every 10 ms, and every process of a
#: cluster wakes every 20 ms (event-loop tick monitor) and 10 times a second (memory
#: monitor): an idle cluster would take a sizeable share of a small machine's CPU from
#: the sweep (README, "Dask").
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


#: Seconds a scheduler at an address has to answer (``--timeout``).
CONNECT_TIMEOUT = 10.0


def scheduler_address(address: str) -> tuple[str, str, int]:
    """Check a scheduler address; return it as ``tcp://HOST:PORT``, with host and port.

    Dask's schedulers listen on ``tcp://HOST:PORT`` (``HOST:PORT`` means the same). Other
    protocols get one line that says why: ``tls://`` needs certificates the command line
    does not configure, ``http://`` is the dashboard's web address, not the scheduler's.
    """
    from urllib.parse import urlsplit

    example = "give tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
    text = str(address).strip()
    scheme, _, rest = text.rpartition("://")
    scheme = scheme.lower() or "tcp"
    if scheme in ("http", "https", "ws", "wss"):
        raise DeductiveError(f"--scheduler {text}: that is a web address (the dashboard's?); "
                             f"the scheduler itself listens on tcp://HOST:8786 by default; "
                             f"{example}")
    if scheme == "tls":
        raise DeductiveError(f"--scheduler {text}: tls:// needs TLS certificates (a Dask "
                             "Security object), which the command line does not set up; "
                             "reach the scheduler over tcp://, or use deductive.distributed "
                             "from Python with your own distributed.Client")
    if scheme != "tcp":
        raise DeductiveError(f"--scheduler {text}: unknown protocol {scheme}://; {example}")
    try:
        parts = urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port or parts.path or parts.query:
        raise DeductiveError(f"--scheduler {text}: not a host and port; {example}")
    shown = f"[{host}]" if ":" in host else host
    return f"tcp://{shown}:{port}", host, port


def probe_scheduler(address: str, host: str, port: int, timeout: float) -> None:
    """Fail within ``timeout`` seconds unless a Dask server answers at ``host:port``.

    ``distributed.Client`` retries a refused connection until its timeout, and waits
    without bound for a server that accepts the connection but never speaks Dask's
    protocol (an HTTP server did not answer for 200 s). A Dask server sends its handshake
    (a msgpack map that names its compression, Python and pickle protocol) as soon as it
    accepts: this reads it on a plain socket, in a thread that name resolution cannot
    hold up either, and then closes (the scheduler logs a connection closed before its
    handshake).
    """
    import queue
    import socket
    import threading

    answers: queue.Queue = queue.Queue()
    connected = threading.Event()

    def probe():
        try:
            with socket.create_connection((host, port), timeout=timeout) as sock:
                connected.set()
                sock.settimeout(2 * timeout)    # the caller's deadline comes first
                data = b""
                while not _handshake(data) and len(data) < HANDSHAKE_MAX:
                    chunk = sock.recv(HANDSHAKE_MAX)
                    if not chunk:
                        break
                    data += chunk
            answers.put(("ok", data) if _handshake(data) else ("other", data))
        except Exception as exc:        # noqa: BLE001 (any failure is an answer to report)
            answers.put(("error", exc))

    threading.Thread(target=probe, name="deductive-probe-scheduler", daemon=True).start()
    try:
        kind, detail = answers.get(timeout=timeout)
    except queue.Empty:
        kind, detail = ("silent", None) if connected.is_set() else ("error", TimeoutError())
    if kind == "ok":
        return
    start = "start one with 'dask scheduler', or check the address"
    if kind == "error" and isinstance(detail, ConnectionRefusedError):
        why = "nothing listens there (connection refused)"
    elif kind == "error" and isinstance(detail, socket.gaierror):
        why = f"the host name does not resolve ({detail.strerror})"
    elif kind == "error" and isinstance(detail, TimeoutError):
        why = f"no answer within {timeout:g} s"
    elif kind == "error":
        why = f"cannot connect ({getattr(detail, 'strerror', None) or detail})"
    else:
        why = (f"the server there does not speak Dask's protocol (no handshake within "
               f"{timeout:g} s)" if kind == "silent" else
               "the server there does not speak Dask's protocol")
        start = "check the address and port (the scheduler's, tcp://HOST:8786 by default)"
    raise DeductiveError(f"cannot reach a Dask scheduler at {address}: {why}; {start}; "
                         "--timeout gives a slow scheduler more time")


#: Most bytes the probe reads of a server's first answer (a Dask handshake is about 100).
HANDSHAKE_MAX = 4096


def _handshake(data: bytes) -> bool:
    """Whether ``data`` begins with a whole Dask handshake as its TCP comm frames it: an
    8-byte length, then that many bytes (at most :data:`HANDSHAKE_MAX`) naming the
    pickle protocol. Bytes that merely look like one still pass here; the client's own
    connection then fails, and :func:`dask_client` turns that into one line."""
    if len(data) < 8:
        return False
    size = int.from_bytes(data[:8], "little")
    return 16 <= size <= HANDSHAKE_MAX and len(data) >= 8 + size and \
        b"pickle-protocol" in data[8:8 + size]


#: The parameters of :func:`dask_client`: a local cluster, or the address of one.
DASK = (
    Param("workers", None, "Run on a local Dask cluster of this many worker processes.", int,
          low=1),
    Param("scheduler", None, "Run on an existing Dask cluster (tcp://HOST:8786).",
          metavar="ADDRESS"),
    Param("timeout", CONNECT_TIMEOUT, "Seconds the scheduler at `scheduler` has to answer.", float,
          low=0.1))


class Cluster:
    """Where a sweep runs (the values of :data:`DASK`): on Dask, a local cluster of
    ``workers`` or the one at ``scheduler``, else in this process. A scheduler is checked
    at once: a well-formed address that answers as Dask does within ``timeout`` seconds."""

    def __init__(self, workers=None, scheduler=None, timeout=CONNECT_TIMEOUT):
        if scheduler is not None:
            scheduler, host, port = scheduler_address(scheduler)
            probe_scheduler(scheduler, host, port, timeout)
        self.workers, self.scheduler, self.timeout = workers, scheduler, timeout

    def __bool__(self):
        return bool(self.workers or self.scheduler)

    def run(self, on_dask, here):
        """``on_dask(client)`` on the cluster asked for, else ``here()``."""
        if not self:
            return here()
        with dask_client(self.scheduler, self.workers, self.timeout) as client:
            return on_dask(client)


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None,
                timeout: float = CONNECT_TIMEOUT):
    """A ``distributed.Client``: to ``scheduler``, or to a local cluster of ``workers``.

    A scheduler that is malformed, refuses, or does not answer as Dask does within
    ``timeout`` seconds is one :class:`DeductiveError`.
    """
    if scheduler and workers:
        raise DeductiveError("give --scheduler or --workers, not both")
    if scheduler:
        address, host, port = scheduler_address(scheduler)
        probe_scheduler(address, host, port, timeout)
        distributed = _import_distributed()
        try:
            client = bounded(lambda: distributed.Client(address, timeout=f"{timeout}s"),
                             2 * timeout + 5, f"the Dask scheduler at {address}")
        except DeductiveError:
            raise
        except Exception as exc:        # noqa: BLE001 (whatever bytes the server sent)
            raise DeductiveError(f"cannot connect a Dask client to {address} "
                                 f"({type(exc).__name__}: {exc}); check that a Dask "
                                 "scheduler of a compatible version listens there, or raise "
                                 "--timeout") from None
        PATIENCE[id(client)] = timeout
        try:
            bounded(lambda: check_workers(client), 2 * timeout + 70,
                    f"the Dask scheduler at {address}")
            bounded(lambda: worker_threads(client), 2 * timeout + 5,
                    f"the Dask scheduler at {address}")
            yield client
        except KeyboardInterrupt:
            _quiet()                    # its workers are not ours: they go on
            raise
        finally:
            PATIENCE.pop(id(client), None)
            _close_quietly(client)
        return
    if not workers or workers < 1:
        raise DeductiveError("--workers must be at least 1")
    distributed = _import_distributed()
    import dask

    # the scheduler always serves HTTP (health checks); ":0" takes a free port, so that a
    # dashboard already on 8787 (a notebook's cluster) brings no "port in use" warning.
    # Workers start as Dask starts them (its own multiprocessing method): this process's
    # environment and Dask's internals are left as they are
    # the workers ignore SIGINT (a plugin sets it in each worker, those that start later
    # included): Ctrl-C is this process's to handle, with one line, and the cluster's
    # shutdown is ours; a worker that took it would print its traceback
    interrupted: list = []
    with dask.config.set(LOCAL_CLUSTER_CONFIG), _sigint_deferred(interrupted):
        cluster = distributed.LocalCluster(n_workers=int(workers), threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
    try:
        if interrupted:                 # Ctrl-C while the cluster started: stop now
            raise KeyboardInterrupt
        client = distributed.Client(cluster)
        PATIENCE[id(client)] = max(timeout, LOCAL_PATIENCE)
        try:
            client.register_plugin(_sigint_plugin(), name="deductive-ignore-sigint")
            worker_threads(client)
            yield client
        except KeyboardInterrupt:
            _quiet()
            with contextlib.suppress(Exception):
                bounded(lambda: client.run(_quiet), 5, "the local Dask cluster")
            raise
        finally:
            PATIENCE.pop(id(client), None)
            _close_quietly(client)
    finally:
        _close_quietly(cluster)


#: Seconds a local cluster may be without a worker (its nannies restart a lost one in a
#: few seconds) before a run stops (:func:`watched`).
LOCAL_PATIENCE = 60.0
#: id(client) -> seconds a run waits for a cluster with no worker, or one that does not
#: answer (the ``timeout`` of :func:`dask_client`).
PATIENCE: dict = {}


@contextlib.contextmanager
def _sigint_deferred(interrupted: list):
    """Hold a Ctrl-C back while a local cluster starts (noted in ``interrupted``; the
    caller stops once the cluster can be closed): a cluster cut mid-start leaves
    processes behind."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, lambda *_: interrupted.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _ignore_sigint(dask_worker=None) -> None:
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:                  # not the worker's main thread: nothing to do
        pass


def _sigint_plugin():
    """A worker plugin that makes each worker of a local cluster, those started later
    included, ignore SIGINT."""
    class IgnoreSigint(_import_distributed().WorkerPlugin):
        idempotent = True

        def setup(self, worker) -> None:
            _ignore_sigint()

    return IgnoreSigint()


def _quiet(dask_worker=None) -> None:
    """Silence Dask's logs in this process for good: a run cut short (Ctrl-C) cancels its
    tasks and cuts its connections, which Dask reports at length; the user has asked for
    the stop, and the command says it in one line."""
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _close_quietly(thing) -> None:
    """Close a client or cluster; what Dask logs or raises while a run ends (an
    interruption: connections cut mid-message) is not the user's to read."""
    import logging

    loggers = [logging.getLogger(name) for name in ("distributed", "tornado", "asyncio")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        thing.close()
    except Exception:                   # noqa: BLE001 (the run's own outcome is reported)
        pass
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def bounded(call, seconds: float, what: str):
    """``call()``, or one :class:`DeductiveError` if it has not returned within
    ``seconds`` (a scheduler that stopped answering); the call is left in a daemon
    thread. Its own exception is raised here."""
    import queue
    import threading

    out: queue.Queue = queue.Queue()

    def run():
        try:
            out.put((True, call()))
        except BaseException as exc:    # noqa: BLE001 (handed to the caller)
            out.put((False, exc))

    threading.Thread(target=run, name="deductive-bounded", daemon=True).start()
    try:
        ok, value = out.get(timeout=seconds)
    except queue.Empty:
        raise DeductiveError(f"{what} did not answer within {seconds:g} s; check that it "
                             "runs (not stopped or suspended), or raise --timeout") from None
    if not ok:
        raise value
    return value


#: Seconds between two looks at the cluster while a run waits for its tasks.
WATCH_EVERY = 1.0


class Watch:
    """Waits for a task of a run while watching its cluster: a scheduler that does not
    answer within the run's patience (:data:`PATIENCE`), or a cluster left without a
    worker that long (its last one lost), ends the run with one :class:`DeductiveError`;
    the finished tasks stay in the checkpoint."""

    def __init__(self, client):
        self.client = client
        self.patience = PATIENCE.get(id(client), CONNECT_TIMEOUT)
        self.address = getattr(getattr(client, "scheduler", None), "address", None) or \
            "the scheduler"
        self.alone_since = None

    def next(self, running):
        """The next ``next(running)`` of an ``as_completed`` that holds a task."""
        import time

        next_look = time.monotonic() + WATCH_EVERY
        pause = 0.001
        while not running.has_ready():
            now = time.monotonic()
            if now >= next_look:
                self.look(now)
                next_look = time.monotonic() + WATCH_EVERY
            time.sleep(pause)
            pause = min(0.05, pause * 2)
        return next(running)

    def look(self, now: float) -> None:
        info = bounded(lambda: self.client.scheduler_info(n_workers=-1), self.patience,
                       f"the Dask scheduler at {self.address}")
        if info.get("workers"):
            self.alone_since = None
            return
        self.alone_since = self.alone_since or now
        if now - self.alone_since >= self.patience:
            raise DeductiveError(
                f"the Dask cluster at {self.address} has had no worker for "
                f"{self.patience:g} s (its workers were lost); start workers ('dask worker "
                f"{self.address} --nthreads 1') and run the command again (a command given "
                "--checkpoint resumes where it stopped)")


def watched(client, running):
    """Yield what ``running`` (an ``as_completed``) yields, under a :class:`Watch`."""
    watch = Watch(client)
    while not running.is_empty():
        yield watch.next(running)


#: How long a run on an existing cluster waits for its first worker.
WORKER_WAIT = "60s"


def _worker_version():
    from .. import __version__

    return __version__


def check_workers(client, version: str | None = None, wait: str | None = None) -> dict:
    """Fail clearly unless the cluster has a worker and every worker runs this deductive.

    A worker without deductive would fail every task with a traceback; one with another
    version could give other results. Returns ``{worker address: version}``.
    """
    from .. import __version__

    expected = version or __version__
    wait = wait or WORKER_WAIT
    try:
        client.wait_for_workers(1, timeout=wait)
    except (TimeoutError, asyncio.TimeoutError, OSError):   # one class from Python 3.11
        address = getattr(client.scheduler, "address", None) or "tcp://HOST:8786"
        raise DeductiveError(f"no Dask worker joined the scheduler within {wait}; start some "
                             f"with 'dask worker {address} --nthreads 1'") from None
    try:
        versions = client.run(_worker_version)
    except Exception as exc:                 # whatever a worker raised, e.g. ImportError
        raise DeductiveError(f"the Dask workers cannot run deductive ({type(exc).__name__}: "
                             f"{exc}); install it on every worker: pip install "
                             "'deductive[dask]'") from None
    other = sorted((address, v) for address, v in versions.items() if v != expected)
    if other:
        address, v = other[0]
        raise DeductiveError(f"{len(other)} of {len(versions)} Dask workers run deductive {v} "
                             f"(e.g. {address}) and this client {expected}; install the same "
                             "version everywhere, so that results match")
    return versions


def _one_thread_per_task() -> None:
    """In a worker: the kernels of each task use one compute thread, unless the worker's
    environment sets ``DEDUCTIVE_THREADS`` (the user's choice for that worker)."""
    from ..engine._parallel import ENV, set_threads

    if not os.environ.get(ENV, "").strip():
        set_threads(1)


def _worker_report(dask_worker=None) -> dict:
    import socket

    from ..engine._parallel import get_threads

    _one_thread_per_task()
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except AttributeError:
        cpus = list(range(os.cpu_count() or 1))
    state = getattr(dask_worker, "state", dask_worker)       # older Dask: on the worker
    return {"host": socket.gethostname(), "cpus": cpus,
            "nthreads": int(getattr(state, "nthreads", 1) or 1), "threads": get_threads()}


def worker_threads(client) -> dict:
    """Set one compute thread per task on every worker (see :func:`_one_thread_per_task`;
    each task does it again, for workers that join or restart later) and warn about a host
    whose workers run more compute threads (task threads x compute threads per task) than
    the CPUs they may use. Returns ``{worker address: report}``.
    """
    reports = client.run(_worker_report)
    hosts: dict = {}
    for report in reports.values():
        host = hosts.setdefault(report["host"], {"cpus": set(), "threads": 0, "workers": 0,
                                                 "per_task": 1})
        host["cpus"].update(report["cpus"])
        host["threads"] += report["nthreads"] * report["threads"]
        host["workers"] += 1
        host["per_task"] = max(host["per_task"], report["threads"])
    for name, host in sorted(hosts.items()):
        cpus = len(host["cpus"])
        if host["threads"] > cpus:
            fix = ("unset DEDUCTIVE_THREADS on the workers (one compute thread per task)"
                   if host["per_task"] > 1 else
                   f"give the workers of {name} at most {cpus} threads in all (fewer workers, "
                   "or 'dask worker ADDRESS --nthreads 1')")
            warnings.warn(f"the {host['workers']} Dask worker(s) on {name} run "
                          f"{host['threads']} compute threads on {cpus} CPUs, so they slow "
                          f"each other down; {fix}", RuntimeWarning, stacklevel=2)
    return reports


def _task(func, *args):
    _one_thread_per_task()
    return func(*args)


def submit(client, func, *args):
    """A task ``func(*args)`` on the cluster, run as every chunk is: one compute thread,
    rerun elsewhere if its worker dies, never taken for another task with equal args."""
    name = getattr(func, "__name__", "chunk")
    return client.submit(_task, func, *args, retries=RETRIES, pure=False,
                         key=f"{name}-{uuid.uuid4().hex}")


def completions():
    """An empty ``distributed.as_completed`` yielding ``(future, result)`` as the tasks
    added to it finish (see :func:`was_lost`)."""
    return _import_distributed().as_completed(with_results=True)


def was_lost(future, result) -> bool:
    """Whether a task that ``as_completed(with_results=True)`` yielded was cancelled
    rather than run: the cluster lost its input, scattered data that every worker held
    (all of them were restarted: killed, or suspended past the scheduler's patience).
    A task that failed raises its error there instead."""
    return future.status == "cancelled" or isinstance(result, BaseException)


#: What a sweep says when its cluster lost the data its tasks needed (:func:`was_lost`).
LOST = ("the Dask cluster lost the data sent to its workers (every worker was restarted: "
        "killed, or stopped answering, e.g. a suspended machine); run the command again "
        "(a command given --checkpoint resumes where it stopped)")


def chunk_ranges(n: int, chunks: int) -> list[tuple[int, int]]:
    """Split range(n) into at most ``chunks`` contiguous, nearly equal pieces."""
    chunks = max(1, min(int(chunks), int(n))) if n else 1
    bounds = np.linspace(0, n, chunks + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def guided_ranges(lo: int, hi: int, workers: int, largest: int,
                  smallest: int = 8) -> list[tuple[int, int]]:
    """Split range(lo, hi) into contiguous pieces that shrink towards the end.

    Each piece is 1/(2 * workers) of what is left, at most ``largest`` and at least
    ``smallest`` (guided self-scheduling). Run in order, the pieces keep every worker busy
    to the end: the last ones are small, so no worker waits long for another, and there
    are fewer tasks than with equal pieces that small.
    """
    pieces = []
    while lo < hi:
        size = min(hi - lo, largest, max(smallest, -(-(hi - lo) // (2 * workers))))
        pieces.append((lo, lo + size))
        lo += size
    return pieces


def n_workers(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def chunk_key(chunk) -> str:
    """A chunk's name in a checkpoint: the chunk itself, as JSON."""
    return json.dumps(chunk)


def run_chunks(client, func, chunks, *args, checkpoint: str | None = None, tag="",
               key=chunk_key, stored: dict | None = None, progress=None, about=None,
               valid=None):
    """Run ``func(chunk, *args)`` for every chunk; results in chunk order.

    ``args`` that are Dask futures (scattered data) are passed by reference. With
    ``checkpoint``, each result is stored under ``key(chunk)`` and ``tag``; a chunk whose
    key is stored already is not run again (``stored``: the checkpoint's entries, when the
    caller has read them already). ``progress`` is called with the index of each chunk as
    it finishes (those from the checkpoint first). ``about`` (provenance) and ``valid``
    (a row's check) are :class:`~deductive.checkpoint.Checkpoint`'s.
    """
    distributed = _import_distributed()
    store = Checkpoint(checkpoint, tag, about=about)
    if stored is None:
        stored = store.load(valid)
    keys = [key(chunk) for chunk in chunks]
    done = {k: stored[name] for k, name in enumerate(keys) if name in stored}
    futures = {}
    for k, chunk in enumerate(chunks):
        if k not in done:
            futures[submit(client, func, chunk, *args)] = k
    if progress is not None:
        for k in sorted(done):
            progress(k)
    # results come with the completions: one round trip less per task than .result()
    for future, result in watched(client, distributed.as_completed(list(futures),
                                                                    with_results=True)):
        if was_lost(future, result):
            raise DeductiveError(LOST)
        k = futures[future]
        done[k] = result
        store.append(keys[k], result)
        if progress is not None:
            progress(k)
    return [done[k] for k in range(len(chunks))]
