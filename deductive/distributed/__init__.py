"""Sweeps on Dask (``pip install 'deductive[dask]'``): the same results, on more cores.

:mod:`.cluster` holds the client and cluster lifecycle, :mod:`.scheduler` reaches a
scheduler, :mod:`.workers` checks the workers, :mod:`.tasks` runs chunk functions with
retries and checkpoints; :mod:`.sweeps` splits each sweep into chunks of the engine's chunk
functions.
"""

from .cluster import DASK, Cluster, dask_client
from .scheduler import CONNECT_TIMEOUT, scheduler_address
from .sweeps import (hangman_sweep_all, mines_bench, wordle_least_worst, wordle_openers,
                     wordle_prove_openers, wordle_search_openers, wordle_second,
                     wordle_verify_proof)
from .tasks import chunk_ranges, guided_ranges, run_chunks
from .workers import WORKER_WAIT, check_workers, worker_threads

__all__ = ["DASK", "Cluster", "dask_client", "check_workers", "worker_threads", "run_chunks",
           "chunk_ranges", "guided_ranges", "scheduler_address", "CONNECT_TIMEOUT", "WORKER_WAIT",
           "mines_bench", "wordle_openers", "wordle_second", "wordle_search_openers",
           "wordle_prove_openers", "wordle_verify_proof", "wordle_least_worst",
           "hangman_sweep_all"]
