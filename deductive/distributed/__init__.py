"""Sweeps on Dask (``pip install 'deductive[dask]'``): the same results, on more cores.

:mod:`.cluster` holds the client and cluster lifecycle and runs chunk functions;
:mod:`.sweeps` splits each sweep into chunks of the engine's chunk functions.
"""

from .cluster import (CONNECT_TIMEOUT, DASK, WORKER_WAIT, Cluster, check_workers, chunk_ranges,
                      dask_client, guided_ranges, run_chunks, scheduler_address, worker_threads)
from .sweeps import (hangman_sweep_all, mines_bench, wordle_least_worst, wordle_openers,
                     wordle_prove_openers, wordle_search_openers, wordle_second)

__all__ = ["DASK", "Cluster", "dask_client", "check_workers", "worker_threads", "run_chunks",
           "chunk_ranges", "guided_ranges", "scheduler_address", "CONNECT_TIMEOUT", "WORKER_WAIT",
           "mines_bench", "wordle_openers", "wordle_second", "wordle_search_openers",
           "wordle_prove_openers", "wordle_least_worst", "hangman_sweep_all"]
