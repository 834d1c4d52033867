"""Running chunk functions on a cluster: tasks submitted with retries, waited for under a
watch on the cluster, results kept in a checkpoint, and the chunks' ranges.

* Tasks are submitted with ``retries``: a task whose worker dies is rerun elsewhere.
* ``checkpoint=FILE`` appends each finished chunk to FILE (JSON lines); a rerun with the
  same FILE and the same arguments skips the chunks already there.
"""

from __future__ import annotations

import json
import uuid

import numpy as np

from ..checkpoint import Checkpoint
from ..errors import DeductiveError
from .scheduler import CONNECT_TIMEOUT, _import_distributed, bounded
from .workers import _one_thread_per_task


RETRIES = 3


#: id(client) -> seconds a run waits for a cluster with no worker, or one that does not
#: answer (the ``timeout`` of :func:`dask_client`).
PATIENCE: dict = {}


#: Seconds between two looks at the cluster while a run waits for its tasks.
WATCH_EVERY = 1.0


class Watch:
    """Waits for a task of a run while watching its cluster: a scheduler that does not
    answer within the run's patience (:data:`PATIENCE`), or a cluster left without a
    worker that long (its last one lost), ends the run with one :class:`DeductiveError`;
    the finished tasks stay in the checkpoint."""

    def __init__(self, client):
        self.client = client
        self.patience = PATIENCE.get(id(client), CONNECT_TIMEOUT)
        self.address = getattr(getattr(client, "scheduler", None), "address", None) or \
            "the scheduler"
        self.alone_since = None

    def next(self, running, between=None):
        """The next ``next(running)`` of an ``as_completed`` that holds a task;
        ``between()``, if given, is called at each pause while it waits (50 ms or less)."""
        import time

        next_look = time.monotonic() + WATCH_EVERY
        pause = 0.001
        while not running.has_ready():
            if between is not None:
                between()
            now = time.monotonic()
            if now >= next_look:
                self.look(now)
                next_look = time.monotonic() + WATCH_EVERY
            time.sleep(pause)
            pause = min(0.05, pause * 2)
        return next(running)

    def look(self, now: float) -> None:
        info = bounded(lambda: self.client.scheduler_info(n_workers=-1), self.patience,
                       f"the Dask scheduler at {self.address}")
        if info.get("workers"):
            self.alone_since = None
            return
        self.alone_since = self.alone_since or now
        if now - self.alone_since >= self.patience:
            raise DeductiveError(
                f"the Dask cluster at {self.address} has had no worker for "
                f"{self.patience:g} s (its workers were lost); start workers ('dask worker "
                f"{self.address} --nthreads 1') and run the command again (a command given "
                "--checkpoint resumes where it stopped)")


def watched(client, running):
    """Yield what ``running`` (an ``as_completed``) yields, under a :class:`Watch`."""
    watch = Watch(client)
    while not running.is_empty():
        yield watch.next(running)


def _task(func, *args):
    _one_thread_per_task()
    return func(*args)


def submit(client, func, *args):
    """A task ``func(*args)`` on the cluster, run as every chunk is: one compute thread,
    rerun elsewhere if its worker dies, never taken for another task with equal args."""
    name = getattr(func, "__name__", "chunk")
    return client.submit(_task, func, *args, retries=RETRIES, pure=False,
                         key=f"{name}-{uuid.uuid4().hex}")


def completions():
    """An empty ``distributed.as_completed`` yielding ``(future, result)`` as the tasks
    added to it finish (see :func:`was_lost`)."""
    return _import_distributed().as_completed(with_results=True)


def was_lost(future, result) -> bool:
    """Whether a task that ``as_completed(with_results=True)`` yielded was cancelled
    rather than run: the cluster lost its input, scattered data that every worker held
    (all of them were restarted: killed, or suspended past the scheduler's patience).
    A task that failed raises its error there instead."""
    return future.status == "cancelled" or isinstance(result, BaseException)


#: What a sweep says when its cluster lost the data its tasks needed (:func:`was_lost`).
LOST = ("the Dask cluster lost the data sent to its workers (every worker was restarted: "
        "killed, or stopped answering, e.g. a suspended machine); run the command again "
        "(a command given --checkpoint resumes where it stopped)")


def chunk_ranges(n: int, chunks: int) -> list[tuple[int, int]]:
    """Split range(n) into at most ``chunks`` contiguous, nearly equal pieces."""
    chunks = max(1, min(int(chunks), int(n))) if n else 1
    bounds = np.linspace(0, n, chunks + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]


def guided_ranges(lo: int, hi: int, workers: int, largest: int,
                  smallest: int = 8) -> list[tuple[int, int]]:
    """Split range(lo, hi) into contiguous pieces that shrink towards the end.

    Each piece is 1/(2 * workers) of what is left, at most ``largest`` and at least
    ``smallest`` (guided self-scheduling). Run in order, the pieces keep every worker busy
    to the end: the last ones are small, so no worker waits long for another, and there
    are fewer tasks than with equal pieces that small.
    """
    pieces = []
    while lo < hi:
        size = min(hi - lo, largest, max(smallest, -(-(hi - lo) // (2 * workers))))
        pieces.append((lo, lo + size))
        lo += size
    return pieces


def n_workers(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def chunk_key(chunk) -> str:
    """A chunk's name in a checkpoint: the chunk itself, as JSON."""
    return json.dumps(chunk)


def run_chunks(client, func, chunks, *args, checkpoint: str | None = None, tag="",
               key=chunk_key, stored: dict | None = None, progress=None, about=None,
               valid=None):
    """Run ``func(chunk, *args)`` for every chunk; results in chunk order.

    ``args`` that are Dask futures (scattered data) are passed by reference. With
    ``checkpoint``, each result is stored under ``key(chunk)`` and ``tag``; a chunk whose
    key is stored already is not run again (``stored``: the checkpoint's entries, when the
    caller has read them already). ``progress`` is called with the index of each chunk as
    it finishes (those from the checkpoint first). ``about`` (provenance) and ``valid``
    (a row's check) are :class:`~deductive.checkpoint.Checkpoint`'s.
    """
    distributed = _import_distributed()
    store = Checkpoint(checkpoint, tag, about=about)
    if stored is None:
        stored = store.load(valid)
    keys = [key(chunk) for chunk in chunks]
    done = {k: stored[name] for k, name in enumerate(keys) if name in stored}
    futures = {}
    for k, chunk in enumerate(chunks):
        if k not in done:
            futures[submit(client, func, chunk, *args)] = k
    if progress is not None:
        for k in sorted(done):
            progress(k)
    # results come with the completions: one round trip less per task than .result()
    for future, result in watched(client, distributed.as_completed(list(futures),
                                                                    with_results=True)):
        if was_lost(future, result):
            raise DeductiveError(LOST)
        k = futures[future]
        done[k] = result
        store.append(keys[k], result)
        if progress is not None:
            progress(k)
    return [done[k] for k in range(len(chunks))]
