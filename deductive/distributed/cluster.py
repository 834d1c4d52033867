"""The Dask side of the sweeps: a client to a cluster (or a local one for the run), and
its lifecycle.

* ``scheduler="tcp://host:8786"`` uses an existing cluster (checked by :mod:`.scheduler`);
  ``workers=K`` starts a local cluster of K single-threaded worker processes for the run
  and always shuts it down, Ctrl-C included.
* Each task runs the kernels with one compute thread (the worker's task threads are its
  share of the CPUs), unless ``DEDUCTIVE_THREADS`` is set in the worker's environment;
  :func:`worker_threads` (:mod:`.workers`) checks the workers and warns about a host whose
  workers run more compute threads than it has CPUs.
* Chunk functions run with retries and checkpoints (:mod:`.tasks`: :func:`run_chunks`).

The names of :mod:`.scheduler`, :mod:`.workers` and :mod:`.tasks` that this module held
before are importable from it still.
"""

from __future__ import annotations

import contextlib

from ..engine.params import Param
from ..errors import DeductiveError
from .scheduler import (CONNECT_TIMEOUT, _import_distributed, bounded, probe_scheduler,
                        scheduler_address)
from .tasks import (LOST, PATIENCE, Watch, chunk_ranges, completions, guided_ranges,
                    n_workers, run_chunks, submit, watched)
from .workers import WORKER_WAIT, check_workers, worker_threads

__all__ = ["dask_client", "check_workers", "worker_threads", "run_chunks", "submit",
           "completions", "chunk_ranges", "watched", "bounded", "Watch",
           "guided_ranges", "n_workers", "scheduler_address", "probe_scheduler",
           "CONNECT_TIMEOUT", "DASK", "Cluster", "LOST", "WORKER_WAIT"]


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
    with _environment_kept(dask):
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


@contextlib.contextmanager
def _environment_kept(dask):
    """Put back, on leaving, the variables a local cluster sets in this process's
    environment: Dask's nannies write their workers' pre-spawn variables
    (``distributed.nanny.pre-spawn-environ``, PYTHONHASHSEED) and ``__DASK_PARENT_PID``
    into ``os.environ`` before each spawn, and leave them there."""
    import os

    keys = set(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
    keys |= {"PYTHONHASHSEED", "__DASK_PARENT_PID"}
    before = {key: os.environ.get(key) for key in keys}
    try:
        yield
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


#: Seconds a local cluster may be without a worker (its nannies restart a lost one in a
#: few seconds) before a run stops (:func:`watched`).
LOCAL_PATIENCE = 60.0


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
