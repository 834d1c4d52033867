"""Compute threads, and the choice between a parallel kernel and its serial twin.

One setting decides how many threads the parallel kernels use: :func:`set_threads`, else
``$DEDUCTIVE_THREADS``, else the CPUs this process may use (``os.sched_getaffinity``: a
batch job or a container limited to 4 of 64 cores gets 4, not 64).

A parallel kernel pays for waking its threads and waiting for the slowest one. On a
large input that is noise; on the small inputs of a tree search (one call per node,
thousands of them) it dominates, and when another process holds a core the wait becomes
a scheduler time slice, 10-100 times the work itself. So every driver runs the serial
twin below a work size measured for its kernel (the threshold sits next to the driver,
with how it was measured), and the parallel kernel above it.
"""

from __future__ import annotations

import os
import threading

from ..errors import DeductiveError
from .params import Param

__all__ = ["available_cpus", "get_threads", "set_threads", "parallel_chunks", "run_rows"]

ENV = "DEDUCTIVE_THREADS"
#: :func:`set_threads`'s count, as a user gives it.
THREADS = Param("threads", None, "Compute threads of the parallel kernels (default: "
                "$DEDUCTIVE_THREADS, else the CPUs this process may use). Dask workers use one "
                "each.", int, metavar="N", show_default=False)

_threads: int | None = None        # set by set_threads(); None: the environment decides
_from_env: tuple[str, int] | None = None
#: Held around every parallel kernel: one parallel call at a time per process (the
#: workqueue layer is not thread-safe, and two at once would oversubscribe the CPUs anyway).
_pool = threading.Lock()


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:          # no affinity masks (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def _pool_size() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def _checked(value, what: str) -> int:
    """``value`` as a thread count of 1 to numba's pool size, else a clear error."""
    try:
        n = int(value)
        if isinstance(value, float) or str(n) != str(value).strip():
            raise ValueError
    except (TypeError, ValueError):
        raise DeductiveError(f"{what} must be a whole number, not {value!r}; give 1 to "
                             f"{_pool_size()}") from None
    if n < 1:
        raise DeductiveError(f"{what} must be at least 1, not {n}")
    pool = _pool_size()
    if n > pool:
        raise DeductiveError(
            f"{what} is {n}, but numba's thread pool holds {pool} threads (the CPUs this "
            f"process may use); give 1 to {pool}, or start Python with NUMBA_NUM_THREADS={n} "
            "to allow more")
    return n


def set_threads(n: int | None) -> None:
    """Set the number of compute threads of the parallel kernels for this process.

    Parameters
    ----------
    n : int or None
        1 runs every kernel serially; None returns to the default (``$DEDUCTIVE_THREADS``,
        else the CPUs this process may use).

    Examples
    --------
    >>> import deductive
    >>> deductive.set_threads(1)
    >>> deductive.get_threads()
    1
    >>> deductive.set_threads(None)
    """
    global _threads
    _threads = None if n is None else _checked(n, "threads")


def get_threads() -> int:
    """The number of compute threads the parallel kernels use in this process."""
    global _from_env
    if _threads is not None:
        return _threads
    value = os.environ.get(ENV, "").strip()
    if not value:
        return min(available_cpus(), _pool_size())
    if _from_env is None or _from_env[0] != value:
        _from_env = (value, _checked(value, f"${ENV}"))
    return _from_env[1]


def parallel_chunks(n_rows: int, work: int, threshold: int) -> int:
    """0 to run a kernel's serial twin, else how many chunks to split ``n_rows`` outer
    iterations into for its parallel kernel (a few per thread).

    Parallel only with two threads or more and ``work`` (the driver's measure, e.g. rows x
    candidates) of at least ``threshold``. Sets numba's thread count for the calling thread
    (numba keeps it per thread, so a Dask task thread gets the setting too).
    """
    threads = get_threads()
    if threads < 2 or work < threshold or n_rows < 2:
        return 0
    import numba

    from ..kernels._config import CHUNKS_PER_THREAD, choose_threading_layer

    choose_threading_layer()
    numba.set_num_threads(threads)
    return max(1, min(int(n_rows), threads * CHUNKS_PER_THREAD))


def run_rows(kernel, twin, n_rows: int, work: int, threshold: int, *args) -> None:
    """``kernel(*args, n_chunks)`` when :func:`parallel_chunks` says so and no other thread
    of this process runs a parallel kernel, else ``twin(*args, 0, n_rows)``."""
    chunks = parallel_chunks(n_rows, work, threshold)
    if chunks and _pool.acquire(blocking=False):
        try:
            kernel(*args, chunks)
        finally:
            _pool.release()
    else:
        twin(*args, 0, n_rows)
