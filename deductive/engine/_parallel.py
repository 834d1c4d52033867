"""How many chunks a parallel kernel's outer loop is split into."""

from ..kernels._config import CHUNKS_PER_THREAD


def n_chunks(n_rows: int) -> int:
    """Chunks for ``n_rows`` outer iterations: a few per numba thread, at least one."""
    import numba

    return max(1, min(int(n_rows), numba.get_num_threads() * CHUNKS_PER_THREAD))
