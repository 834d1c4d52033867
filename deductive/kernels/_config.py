"""One place for numba's jit options, so that every kernel is compiled alike.

``cache=True`` keeps compiled kernels on disk, so only the first run of a kernel pays for
compilation. They are kept in the user's cache directory (``$NUMBA_CACHE_DIR`` when set,
else ``$XDG_CACHE_HOME/deductive/numba`` or ``~/.cache/deductive/numba``), never beside
the package's source: see :func:`njit`. ``fastmath`` stays off: float results feed argmax
and tie-breaks that tests compare exactly.
"""

import contextlib
import os
import tempfile

import numba
import platformdirs
from numba import prange  # noqa: F401  (re-exported for the kernels)

CACHE = True
FASTMATH = False
#: Options of serial kernels.
SERIAL = dict(nogil=True, fastmath=FASTMATH, boundscheck=False)
#: Options of kernels parallel over their outer loop (``prange``).
PARALLEL = dict(SERIAL, parallel=True)
#: Outer-loop chunks per thread: a work-stealing layer (TBB) balances uneven rows with
#: them; workqueue and OpenMP split the chunks statically, so there they cost only buffers.
CHUNKS_PER_THREAD = 8


def kernel_cache_dir() -> str | None:
    """Where numba keeps deductive's compiled kernels (None: nowhere writable, no caching).

    ``numba`` in the platform's user cache directory (platformdirs:
    ``$XDG_CACHE_HOME/deductive/numba`` or ``~/.cache/deductive/numba`` on Linux); if that
    cannot be created or written, a per-user directory under the system's temporary directory.
    """
    base = platformdirs.user_cache_dir("deductive", appauthor=False)
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    for path in (os.path.join(base, "numba"),
                 os.path.join(tempfile.gettempdir(), f"deductive-numba-{uid}")):
        try:
            os.makedirs(path, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK | os.X_OK):
            return path
    return None


@contextlib.contextmanager
def _kernel_cache_location():
    """Point numba's cache at :func:`kernel_cache_dir` while a kernel is being decorated.

    Numba picks a kernel's cache directory once, when ``njit(cache=True)`` wraps the
    function: ``numba.config.CACHE_DIR`` (its documented setting, read from
    ``$NUMBA_CACHE_DIR``, which users may also assign in ``numba.config``) if set, else the
    ``__pycache__`` beside the source file. Beside the source is wrong for an installed
    package: the first run of a regular install wrote numba's files into
    ``site-packages/deductive/``, a later ``pip uninstall`` left that folder behind, and it
    then shadowed an editable install as a namespace package. So while one of our kernels
    is decorated, ``numba.config.CACHE_DIR`` names our directory, and the previous value is
    put back at once: the caller's environment is untouched, their own ``cache=True``
    functions keep numba's usual locations, and a ``$NUMBA_CACHE_DIR`` they set wins.
    """
    previous = numba.config.CACHE_DIR
    if previous:
        yield True
        return
    directory = kernel_cache_dir()
    if directory is None:
        yield False
        return
    numba.config.CACHE_DIR = directory
    try:
        yield True
    finally:
        numba.config.CACHE_DIR = previous


def njit(*args, **options):
    """``numba.njit`` whose ``cache=True`` caches in :func:`kernel_cache_dir`.

    Used as ``@njit(cache=CACHE, **SERIAL)`` by every kernel (or as a bare ``@njit``).
    """
    if args and callable(args[0]) and not options:
        return njit()(args[0])

    def decorate(func):
        if not options.get("cache"):
            return numba.njit(*args, **options)(func)
        with _kernel_cache_location() as can_cache:
            return numba.njit(*args, **dict(options, cache=can_cache))(func)

    return decorate


#: numba's threading layer for the parallel kernels, unless the user chose one (the
#: ``NUMBA_THREADING_LAYER`` variable, or ``numba.config.THREADING_LAYER`` set before the
#: first parallel call). Why workqueue: its threads wait on a condition variable, so
#: waiting costs no CPU, and a busy neighbour slows a kernel in proportion. GNU OpenMP,
#: the layer numba would pick, spins while it waits for its slowest thread: on this
#: small machine, beside one CPU-bound process, short parallel calls take many times their
#: serial time (README, "Threading layer").
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
