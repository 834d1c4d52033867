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
#: Outer-loop chunks per thread: enough to balance uneven rows, few enough to amortise buffers.
CHUNKS_PER_THREAD = 8
