"""CPU-bound neighbour processes for the benchmarks that measure contention.

A neighbour is a separate Python process spinning in a pure-Python loop: one busy core's
worth of load, as another user's job on a shared machine would be.
"""

import contextlib
import subprocess
import sys
import time

LOOP = "while True:\n    pass\n"


@contextlib.contextmanager
def cpu_neighbours(k: int):
    """Run ``k`` CPU-bound processes for the duration of the block; always stop them."""
    procs = [subprocess.Popen([sys.executable, "-c", LOOP]) for _ in range(int(k))]
    try:
        time.sleep(0.3 if k else 0)          # let them start spinning
        for p in procs:
            if p.poll() is not None:
                raise RuntimeError(f"neighbour process exited with {p.returncode}")
        yield procs
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
