"""One place for numba's jit options, so that every kernel is compiled alike.

``cache=True`` keeps compiled kernels on disk (numba's cache beside the source, or the
user-wide cache when the package directory is read-only), so only the first run of a
kernel pays for compilation. ``fastmath`` stays off: float results feed argmax and
tie-breaks that tests compare exactly.
"""

from numba import njit, prange  # noqa: F401  (re-exported for the kernels)

CACHE = True
FASTMATH = False
#: Options of serial kernels.
SERIAL = dict(nogil=True, fastmath=FASTMATH, boundscheck=False)
#: Options of kernels parallel over their outer loop (``prange``).
PARALLEL = dict(SERIAL, parallel=True)
#: Outer-loop chunks per thread: a work-stealing layer (TBB) balances uneven rows with
#: them; workqueue and OpenMP split the chunks statically, so there they cost only buffers.
CHUNKS_PER_THREAD = 8

#: numba's threading layer for the parallel kernels, unless the user chose one (the
#: ``NUMBA_THREADING_LAYER`` variable, or ``numba.config.THREADING_LAYER`` set before the
#: first parallel call). Why workqueue: its threads wait on a condition variable, so
#: waiting costs no CPU, and a busy neighbour slows a kernel in proportion. GNU OpenMP,
#: the layer numba would pick, spins while it waits for its slowest thread: on this
#: 2-core machine, beside one CPU-bound process, parallel calls that take 0.2-2.5 ms
#: serially took 8-25 ms, and the entropy benchmark 3x its single-thread time.
#: ``OMP_WAIT_POLICY=PASSIVE`` cures that, but libgomp reads it only from the environment
#: when it loads (we would have to change the caller's environment, and it is too late if
#: another library loaded libgomp first); TBB waits passively and balances by work
#: stealing, but numba finds the pip wheel's libtbb only with LD_LIBRARY_PATH set. With
#: the drivers' thresholds the four measured alike (``benchmarks/contention.py --env
#: NUMBA_THREADING_LAYER=...``; README). Workqueue is fork-safe but not thread-safe: the
#: drivers hold one lock around the parallel kernels and run the serial twin in any other
#: thread meanwhile (``deductive.engine._parallel.run_rows``).
THREADING_LAYER = "workqueue"


def choose_threading_layer() -> None:
    """Select :data:`THREADING_LAYER` unless the user chose a layer; it takes effect if
    numba has not started its thread pool yet (the first parallel call starts it)."""
    import os

    import numba

    # the variable wins; numba re-reads NUMBA_* variables when they change, so a value set
    # here may be reset to "default": the drivers call this again before a parallel call
    if not os.environ.get("NUMBA_THREADING_LAYER") and numba.config.THREADING_LAYER == "default":
        numba.config.THREADING_LAYER = THREADING_LAYER


choose_threading_layer()
