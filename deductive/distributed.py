"""Sweeps on Dask (``pip install 'deductive[dask]'``): the same results, on more cores.

Every sweep here splits its work into chunks that are pure functions of their inputs
(game numbers, guess rows, word lengths...), submits them to a ``dask.distributed``
cluster, and merges the chunk results in chunk order, so the output equals the
single-process run: same seeds, same tie-breaks, same order.

* ``scheduler="tcp://host:8786"`` uses an existing cluster; ``workers=K`` starts a local
  cluster of K single-threaded worker processes for the run and always shuts it down,
  Ctrl-C included.
* Large inputs (the pattern matrix, a game) are scattered to every worker once
  (``broadcast=True``); tasks receive a reference, never a copy.
* Tasks are submitted with ``retries``: a task whose worker dies is rerun elsewhere.
* Each task runs the kernels with one compute thread (the worker's task threads are its
  share of the CPUs), unless ``DEDUCTIVE_THREADS`` is set in the worker's environment;
  :func:`worker_threads` checks the workers and warns about a host whose workers run
  more compute threads than it has CPUs.
* ``checkpoint=FILE`` appends each finished chunk to FILE (JSON lines); a rerun with the
  same FILE and the same arguments skips the chunks already there.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import multiprocessing
import os
import uuid
import warnings
import weakref

import numpy as np

from .errors import DeductiveError

__all__ = ["dask_client", "check_workers", "worker_threads", "run_chunks", "chunk_ranges",
           "guided_ranges",
           "mines_bench", "wordle_openers", "wordle_second", "wordle_search_openers",
           "hangman_sweep_all"]

RETRIES = 3


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise DeductiveError("Dask is not installed: pip install 'deductive[dask]'") from None
    return distributed


#: Dask settings of the local clusters started for a run (workers and nannies inherit them).
#: By default each worker samples a statistical profile every 10 ms, and every process of a
#: cluster wakes every 20 ms (event-loop tick monitor) and 10 times a second (memory
#: monitor). Measured on this 2-core machine: an idle 2-worker cluster with the profiler off
#: still burns 10% of a core, taken from the sweep; with these settings 3.5%.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


#: What the worker processes of local clusters import before they are forked (see
#: :func:`_start_fork_server`): Dask and the modules the chunk functions below use.
WORKER_PRELOAD = ("distributed", "deductive.distributed", "deductive.engine.minesweeper.bench",
                  "deductive.engine.minesweeper.players", "deductive.engine.scoring",
                  "deductive.engine.precompute", "deductive.engine.search",
                  "deductive.engine.hangman")


def _start_fork_server() -> str:
    """Start multiprocessing's fork server with :data:`WORKER_PRELOAD` imported; the start
    method for the workers of a local cluster.

    Dask spawns each worker as a fresh interpreter that imports Dask and deductive, then
    runs a full interpreter shutdown when it closes. Forked from a server that has imported
    them once (a single-threaded process, so forking it is safe, unlike forking this
    one), workers skip both. The server is started before this process imports Dask, so
    both imports run at the same time; it lives until this process exits, and later
    clusters reuse it. Measured (3,000 games on 2 workers, three alternations): start,
    tail and close took 1.10-1.35 s instead of 1.47-1.85 s, closing 0.04 s instead of 0.33 s.

    The server gets the environment Dask's nannies set before they spawn a worker
    (``distributed.nanny.pre-spawn-environ``; they set it in this process too). Where
    there is no fork server (Windows), workers are spawned as usual.
    """
    if ("forkserver" not in multiprocessing.get_all_start_methods()
            or importlib.util.find_spec("distributed") is None):
        return "spawn"
    import dask

    from multiprocessing import forkserver

    environ = dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {}
    os.environ.update({k: os.environ.get(k, str(v)) for k, v in environ.items()
                       if v is not None})
    if os.environ.get("PYTHONHASHSEED") in (None, "0"):
        os.environ["PYTHONHASHSEED"] = "6640"       # the nannies' choice: the same hashes
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(WORKER_PRELOAD))
    try:
        forkserver.ensure_running()
    except OSError:                 # e.g. no Unix sockets in a sandbox: spawn them instead
        return "spawn"
    return "forkserver"


#: Seconds a scheduler at an address has to answer (``--timeout``).
CONNECT_TIMEOUT = 10.0


def scheduler_address(address: str) -> tuple[str, str, int]:
    """Check a scheduler address; return it as ``tcp://HOST:PORT``, with host and port.

    Dask's schedulers listen on ``tcp://HOST:PORT`` (``HOST:PORT`` means the same). Other
    protocols get one line that says why: ``tls://`` needs certificates the command line
    does not configure, ``http://`` is the dashboard's web address, not the scheduler's.
    """
    from urllib.parse import urlsplit

    example = "give tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
    text = str(address).strip()
    scheme, _, rest = text.rpartition("://")
    scheme = scheme.lower() or "tcp"
    if scheme in ("http", "https", "ws", "wss"):
        raise DeductiveError(f"--scheduler {text}: that is a web address (the dashboard's?); "
                             f"the scheduler itself listens on tcp://HOST:8786 by default; "
                             f"{example}")
    if scheme == "tls":
        raise DeductiveError(f"--scheduler {text}: tls:// needs TLS certificates (a Dask "
                             "Security object), which the command line does not set up; "
                             "reach the scheduler over tcp://, or use deductive.distributed "
                             "from Python with your own distributed.Client")
    if scheme != "tcp":
        raise DeductiveError(f"--scheduler {text}: unknown protocol {scheme}://; {example}")
    try:
        parts = urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port or parts.path or parts.query:
        raise DeductiveError(f"--scheduler {text}: not a host and port; {example}")
    shown = f"[{host}]" if ":" in host else host
    return f"tcp://{shown}:{port}", host, port


def _probe_scheduler(address: str, host: str, port: int, timeout: float) -> None:
    """Fail within ``timeout`` seconds unless a Dask server answers at ``host:port``.

    ``distributed.Client`` retries a refused connection until its timeout, and waits
    without bound for a server that accepts the connection but never speaks Dask's
    protocol (an HTTP server did not answer for 200 s). A Dask server sends its handshake
    (a msgpack map that names its compression, Python and pickle protocol) as soon as it
    accepts: this reads it on a plain socket, in a thread that name resolution cannot
    hold up either, and then closes (the scheduler logs a connection closed before its
    handshake).
    """
    import queue
    import socket
    import threading

    answers: queue.Queue = queue.Queue()
    connected = threading.Event()

    def probe():
        try:
            with socket.create_connection((host, port), timeout=timeout) as sock:
                connected.set()
                sock.settimeout(2 * timeout)    # the caller's deadline comes first
                data = b""
                while b"pickle-protocol" not in data and len(data) < 4096:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            answers.put(("ok", data) if b"pickle-protocol" in data else ("other", data))
        except OSError as exc:
            answers.put(("error", exc))

    threading.Thread(target=probe, name="deductive-probe-scheduler", daemon=True).start()
    try:
        kind, detail = answers.get(timeout=timeout)
    except queue.Empty:
        kind, detail = ("silent", None) if connected.is_set() else ("error", TimeoutError())
    if kind == "ok":
        return
    start = "start one with 'dask scheduler', or check the address"
    if kind == "error" and isinstance(detail, ConnectionRefusedError):
        why = "nothing listens there (connection refused)"
    elif kind == "error" and isinstance(detail, socket.gaierror):
        why = f"the host name does not resolve ({detail.strerror})"
    elif kind == "error" and isinstance(detail, TimeoutError):
        why = f"no answer within {timeout:g} s"
    elif kind == "error":
        why = f"cannot connect ({detail.strerror or detail})"
    else:
        why = (f"the server there does not speak Dask's protocol (no handshake within "
               f"{timeout:g} s)" if kind == "silent" else
               "the server there does not speak Dask's protocol")
        start = "check the address and port (the scheduler's, tcp://HOST:8786 by default)"
    raise DeductiveError(f"cannot reach a Dask scheduler at {address}: {why}; {start}; "
                         "--timeout gives a slow scheduler more time")


@contextlib.contextmanager
def dask_client(scheduler: str | None = None, workers: int | None = None,
                timeout: float = CONNECT_TIMEOUT):
    """A ``distributed.Client``: to ``scheduler``, or to a local cluster of ``workers``.

    A scheduler that is malformed, refuses, or does not answer as Dask does within
    ``timeout`` seconds is one :class:`DeductiveError`.
    """
    if scheduler and workers:
        raise DeductiveError("give --scheduler or --workers, not both")
    if scheduler:
        address, host, port = scheduler_address(scheduler)
        _probe_scheduler(address, host, port, timeout)
        distributed = _import_distributed()
        try:
            client = distributed.Client(address, timeout=f"{timeout}s")
        except OSError as exc:
            raise DeductiveError(f"cannot reach the Dask scheduler {address} ({exc}); "
                                 "check the address (tcp://HOST:8786), or raise --timeout") \
                from None
        try:
            check_workers(client)
            worker_threads(client)
            yield client
        finally:
            client.close()
        return
    if not workers or workers < 1:
        raise DeductiveError("--workers must be at least 1")
    start_method = _start_fork_server()        # first: it imports Dask meanwhile
    distributed = _import_distributed()
    import dask
    from distributed import utils as dask_utils

    # Dask's own fork-server set-up would import pandas and more into this process and
    # preload them in the server; ours is running already
    dask_utils._forkserver_preload_set = True
    # the scheduler always serves HTTP (health checks); ":0" takes a free port, so that a
    # dashboard already on 8787 (a notebook's cluster) brings no "port in use" warning
    with dask.config.set({**LOCAL_CLUSTER_CONFIG,
                          "distributed.worker.multiprocessing-method": start_method}):
        cluster = distributed.LocalCluster(n_workers=int(workers), threads_per_worker=1,
                                           processes=True, dashboard_address=":0")
    try:
        client = distributed.Client(cluster)
        try:
            worker_threads(client)
            yield client
        finally:
            client.close()
    finally:
        cluster.close()


#: How long a run on an existing cluster waits for its first worker.
WORKER_WAIT = "60s"


def _worker_version():
    from . import __version__

    return __version__


def check_workers(client, version: str | None = None, wait: str | None = None) -> dict:
    """Fail clearly unless the cluster has a worker and every worker runs this deductive.

    A worker without deductive would fail every task with a traceback; one with another
    version could give other results. Returns ``{worker address: version}``.
    """
    from . import __version__

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
    from .engine._parallel import ENV, set_threads

    if not os.environ.get(ENV, "").strip():
        set_threads(1)


def _worker_report(dask_worker=None) -> dict:
    import socket

    from .engine._parallel import get_threads

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


def _task(func, *args):
    _one_thread_per_task()
    return func(*args)


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


def _n_workers(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def chunk_key(chunk) -> str:
    """A chunk's name in a checkpoint: the chunk itself, as JSON."""
    return json.dumps(chunk)


def run_chunks(client, func, chunks, *args, checkpoint: str | None = None, tag="",
               key=chunk_key, stored: dict | None = None, progress=None):
    """Run ``func(chunk, *args)`` for every chunk; results in chunk order.

    ``args`` that are Dask futures (scattered data) are passed by reference. With
    ``checkpoint``, each result is stored under ``key(chunk)`` and ``tag``; a chunk whose
    key is stored already is not run again (``stored``: the checkpoint's entries, when the
    caller has read them already). ``progress`` is called with the index of each chunk as
    it finishes (those from the checkpoint first).
    """
    from .checkpoint import Checkpoint

    distributed = _import_distributed()
    store = Checkpoint(checkpoint, tag)
    if stored is None:
        stored = store.load()
    keys = [key(chunk) for chunk in chunks]
    done = {k: stored[name] for k, name in enumerate(keys) if name in stored}
    futures = {}
    name = getattr(func, "__name__", "chunk")
    for k, chunk in enumerate(chunks):
        if k not in done:
            futures[client.submit(_task, func, chunk, *args, retries=RETRIES, pure=False,
                                  key=f"{name}-{uuid.uuid4().hex}")] = k
    if progress is not None:
        for k in sorted(done):
            progress(k)
    # results come with the completions (one round trip less per task than .result():
    # 128 small tasks took 0.6 s of client CPU this way, 0.7-0.8 s the other)
    for future, result in distributed.as_completed(list(futures), with_results=True):
        k = futures[future]
        done[k] = result
        store.append(keys[k], result)
        if progress is not None:
            progress(k)
    return [done[k] for k in range(len(chunks))]


# -- Minesweeper ------------------------------------------------------------------------------
def _mines_chunk(chunk, spec, player_name, first_click, first_move, seed):
    from .engine.minesweeper.bench import run_bench
    from .engine.minesweeper.players import make_player

    lo, hi = chunk
    result = run_bench(spec, make_player(player_name), 0, first_click=first_click,
                       first_move=first_move, seed=seed, indices=range(lo, hi))
    return [[r.won, r.decisions, r.guesses, r.seconds] for r in result.records]


def mines_bench(client, spec, player_name, games, *, first_click="safe", first_move="corner",
                seed=1000, checkpoint=None, progress=None):
    """:func:`deductive.engine.minesweeper.bench.run_bench` on a cluster."""
    from .checkpoint import Checkpoint
    from .engine.minesweeper.bench import BenchResult, GameRecord
    from .engine.minesweeper.board import parse_preset
    from .engine.minesweeper.players import make_player

    make_player(player_name)            # fail early on a bad name
    tag = f"mines:{spec}:{player_name}:{first_click}:{first_move}:{seed}:{games}"
    # pieces that shrink to 8 games at the end (20,000 games on 2 workers: 77 chunks of
    # 312 games down to 8), so that neither worker waits long for the other's last one;
    # the games a checkpoint holds already keep their ranges
    workers = _n_workers(client)
    largest = max(25, games // (32 * workers))
    stored = Checkpoint(checkpoint, tag).load()
    chunks, lo = [], 0
    for a, b in _stored_ranges(stored, games) + [(games, games)]:
        chunks += guided_ranges(lo, a, workers, largest) + ([(a, b)] if b > a else [])
        lo = b
    played = [0]

    def chunk_done(k):
        played[0] += chunks[k][1] - chunks[k][0]
        if progress is not None:
            progress(played[0])

    parts = run_chunks(client, _mines_chunk, chunks, spec, player_name, first_click, first_move,
                       seed, checkpoint=checkpoint, tag=tag, stored=stored,
                       progress=chunk_done)
    records = [GameRecord(bool(w), dict(d), int(g), float(s)) for part in parts
               for w, d, g, s in part]
    return BenchResult(player_name, parse_preset(spec), first_click, first_move, seed, records)


def _stored_ranges(stored, games) -> list[tuple[int, int]]:
    """The game ranges (lo, hi) of a checkpoint's entries for this sweep, sorted, without
    overlaps (it may come from a run with another number of workers, hence other ranges)."""
    ranges = []
    for name, result in stored.items():
        try:
            lo, hi = json.loads(name)
        except (TypeError, ValueError):
            continue                    # not a range of games
        if (isinstance(lo, int) and isinstance(hi, int) and 0 <= lo < hi <= games
                and isinstance(result, list) and len(result) == hi - lo):
            ranges.append((lo, hi))
    kept = []
    for lo, hi in sorted(ranges, key=lambda r: (r[0], -r[1])):
        if not kept or lo >= kept[-1][1]:
            kept.append((lo, hi))
    return kept


# -- Wordle -------------------------------------------------------------------------------------
def _openers_chunk(chunk, matrix):
    from .engine.scoring import partition_stats

    stats = partition_stats(matrix, rows=np.arange(chunk[0], chunk[1]))
    return [stats.xlogx_sum.tolist(), stats.buckets.tolist(), stats.largest.tolist(),
            stats.sumsq.tolist()]


def wordle_openers(client, matrix, guesses, metric="entropy", top=None, progress=None):
    """:func:`deductive.engine.scoring.rank_guesses` with the guess rows spread out."""
    from .engine.scoring import GuessScore, PartitionStats, _xlogx_table

    n_guesses, n_answers = matrix.shape
    shared = client.scatter(matrix, broadcast=True, hash=False)
    chunks = chunk_ranges(n_guesses, 4 * _n_workers(client))
    parts = run_chunks(client, _openers_chunk, chunks, shared, progress=progress)
    columns = [np.concatenate([np.asarray(p[k], dtype=np.int64) for p in parts])
               for k in range(4)]
    _, shift = _xlogx_table(n_answers)
    stats = PartitionStats(np.arange(n_guesses, dtype=np.int64), n_answers, *columns, shift)
    order = stats.order(metric)
    if top:
        order = order[:top]
    entropy, expected = stats.entropy, stats.expected
    return [GuessScore(guesses[int(k)], int(k), float(entropy[k]), int(stats.buckets[k]),
                       int(stats.largest[k]), float(expected[k])) for k in order]


def wordle_second(client, game, solver_name, solver_options, opener, progress=None):
    """:func:`deductive.engine.precompute.second_guesses` with the feedbacks spread out."""
    from .engine.bench import _split

    game.matrix                           # build or load before shipping the game
    n_feedbacks = sum(1 for _ in _split(game, game.start(), game.guess_index(opener)))
    shared = client.scatter(game, broadcast=True, hash=False)
    chunks = chunk_ranges(n_feedbacks, 4 * _n_workers(client))
    parts = run_chunks(client, _second_chunk, chunks, shared,
                       (solver_name, solver_options), opener, progress=progress)
    return [row for part in parts for row in part]


def _second_chunk(chunk, game, solver_spec, opener):
    from .engine.precompute import second_guesses

    solver = game.solver(solver_spec[0], **solver_spec[1])
    return second_guesses(game, solver, opener, select=chunk)


#: In a worker: game -> {(beam, max_guesses): memo of the searches of that game}. The
#: openers a worker searches share one memo, as they do in one process (10 openers with
#: --beam 10: 9.4 s with a shared memo, 11.9 s with one each); the scattered game is the
#: same object for every task, and its memos go when it does (a memo holds no reference
#: to its game).
_MEMOS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _search_opener(word, game, beam, max_guesses):
    from .engine.search import TreeSearch

    search = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    search.memo = _MEMOS.setdefault(game, {}).setdefault((beam, max_guesses), search.memo)
    return search.search_opener(word).as_dict()


def wordle_search_openers(client, game, words, beam=None, max_guesses=None, checkpoint=None):
    """Searched totals of several openers, one task per opener, in the order given."""
    from .checkpoint import search_tag

    game.matrix
    shared = client.scatter(game, broadcast=True, hash=False)
    # one row per opener, stored under its word and the tag of the single-process search:
    # a checkpoint written by either resumes in the other, whatever the list of openers
    return run_chunks(client, _search_opener, list(words), shared, beam, max_guesses,
                      checkpoint=checkpoint, tag=search_tag(game, beam, max_guesses), key=str)


# -- Hangman ------------------------------------------------------------------------------------
def _hangman_chunk(length, lists, strategy, lives_list, prior, lang, exact_limit, memory):
    from .engine.hangman.sweep import sweep_chunk

    return sweep_chunk(lists[length], strategy, lives_list, prior, lang, exact_limit, memory)


def hangman_sweep_all(client, lists, strategy, lives=6, prior="uniform", lang="en",
                      exact_limit=16, progress=None, checkpoint=None, memory=None):
    """Sweeps of every length of ``lists`` (length -> HangmanWords), one task per length;
    returns [(length, SweepResult)] in ascending length, or [(length, [SweepResult, ...])]
    when ``lives`` is a sequence (one per number of lives, one task per length). With
    ``checkpoint``, each length is stored as it finishes (the format of
    ``deductive hangman sweep --checkpoint`` in one process)."""
    from .engine.hangman import SweepResult, sweep_tag

    lives_list = [lives] if isinstance(lives, int) else list(lives)
    lengths = sorted(lists)
    shared = client.scatter(lists, broadcast=True, hash=False)
    parts = run_chunks(client, _hangman_chunk, lengths, shared, strategy, lives_list, prior,
                       lang, exact_limit, memory, progress=progress, checkpoint=checkpoint,
                       tag=sweep_tag(lists, strategy, lives_list, prior, lang, exact_limit),
                       key=str)
    out = []
    for length, part in zip(lengths, parts):
        results = [SweepResult.from_dict(part[str(k)]) for k in lives_list]
        out.append((length, results[0] if isinstance(lives, int) else results))
    return out
