"""The workers of a cluster: each runs this deductive (:func:`check_workers`), and each
task runs the kernels with one compute thread unless the worker's environment says
otherwise (:func:`worker_threads` warns about a host that runs more than its CPUs)."""

from __future__ import annotations

import asyncio
import os
import warnings

from ..errors import DeductiveError


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
