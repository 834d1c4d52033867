"""Sweeps on Dask (``pip install 'deductive[dask]'``): the same results, on more cores.

Every sweep here splits its work into chunks, runs the chunk function that sits beside
its algorithm in the engine (stumpy keeps ``stumped`` beside ``stump``) on a cluster
(:mod:`.cluster`), and merges the chunk results in chunk order, so the output equals the
single-process run: same seeds, same tie-breaks, same order. Large inputs (the pattern
matrix, a game) are scattered to every worker once (``broadcast=True``); tasks receive a
reference, never a copy.
"""

from __future__ import annotations

import json
import queue
import uuid

import numpy as np

from ..checkpoint import Checkpoint
from ..errors import DeductiveError
from ..engine.feedback.precompute import second_guesses_chunk
from ..engine.feedback.scoring import merge_partition_chunks, partition_chunk, ranked_scores
from ..engine.feedback.search import buckets as bucket_searches
from ..engine.feedback.search import (MEMO_ENTRY_BYTES, VERIFY_MEMO_BYTES, forget_search,
                                      lists_about, proof_search_chunk, prove_openers,
                                      search_opener_chunk, search_tag, verify_proof)
from ..engine.feedback.worst import MEMO_BYTES, least_worst, piece_valid, sweep_piece
from ..engine.minesweeper.bench import BenchResult, GameRecord, bench_chunk
from ..engine.minesweeper.board import parse_preset
from ..engine.minesweeper.players import make_player
from .scheduler import bounded
from .tasks import (LOST, Watch, chunk_ranges, completions, guided_ranges, n_workers, run_chunks,
                    submit, was_lost)

__all__ = ["mines_bench", "wordle_openers", "wordle_second", "wordle_search_openers",
           "wordle_prove_openers", "wordle_verify_proof", "wordle_least_worst",
           "hangman_sweep_all"]


# -- Minesweeper ------------------------------------------------------------------------------
def mines_bench(client, spec, player_name, games, *, first_click="safe", first_move="corner",
                seed=1000, checkpoint=None, progress=None):
    """:func:`deductive.engine.minesweeper.bench.run_bench` on a cluster, in chunks of
    :func:`~deductive.engine.minesweeper.bench.bench_chunk`."""
    make_player(player_name)            # fail early on a bad name
    tag = f"mines:{spec}:{player_name}:{first_click}:{first_move}:{seed}:{games}"
    # pieces that shrink to 8 games at the end, so that no worker waits long for another's
    # last one; the games a checkpoint holds already keep their ranges
    workers = n_workers(client)
    largest = max(25, games // (32 * workers))
    about = {"preset": spec, "player": player_name, "first_click": first_click,
             "first_move": first_move, "seed": seed, "games": games}
    stored = Checkpoint(checkpoint, tag, about=about).load(
        lambda name, rows: bool(_stored_ranges({name: rows}, games)))
    chunks, lo = [], 0
    for a, b in _stored_ranges(stored, games) + [(games, games)]:
        chunks += guided_ranges(lo, a, workers, largest) + ([(a, b)] if b > a else [])
        lo = b
    played = [0]

    def chunk_done(k):
        played[0] += chunks[k][1] - chunks[k][0]
        if progress is not None:
            progress(played[0])

    parts = run_chunks(client, bench_chunk, chunks, spec, player_name, first_click, first_move,
                       seed, checkpoint=checkpoint, tag=tag, stored=stored,
                       progress=chunk_done, about=about)
    records = [GameRecord.from_row(row) for part in parts for row in part]
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
                and isinstance(result, list) and len(result) == hi - lo
                and all(_game_row(row) for row in result)):
            ranges.append((lo, hi))
    kept: list[tuple[int, int]] = []
    for lo, hi in sorted(ranges, key=lambda r: (r[0], -r[1])):
        if not kept or lo >= kept[-1][1]:
            kept.append((lo, hi))
    return kept


def _game_row(row) -> bool:
    """Whether a checkpoint's game row reads back as a :class:`GameRecord`."""
    try:
        GameRecord.from_row(row)
    except (TypeError, ValueError, KeyError, IndexError):
        return False
    return True


# -- Wordle -------------------------------------------------------------------------------------
def wordle_openers(client, matrix, guesses, metric="entropy", top=None, progress=None):
    """:func:`deductive.engine.feedback.scoring.rank_guesses` with the guess rows spread out."""
    n_guesses, n_answers = matrix.shape
    shared = client.scatter(np.asarray(matrix), broadcast=True, hash=False)
    chunks = chunk_ranges(n_guesses, 4 * n_workers(client))
    parts = run_chunks(client, partition_chunk, chunks, shared, progress=progress)
    return ranked_scores(merge_partition_chunks(parts, n_answers), guesses, metric, top)


def wordle_second(client, game, solver_name, solver_options, opener, progress=None):
    """:func:`deductive.engine.feedback.precompute.second_guesses` with the feedbacks spread out."""
    game.matrix                           # build or load before shipping the game
    n_feedbacks = len(game.children(game.start(), game.guess_index(opener)))
    shared = client.scatter(game, broadcast=True, hash=False)
    chunks = chunk_ranges(n_feedbacks, 4 * n_workers(client))
    parts = run_chunks(client, second_guesses_chunk, chunks, shared,
                       (solver_name, solver_options), opener, progress=progress)
    return [row for part in parts for row in part]


def wordle_search_openers(client, game, words, beam=None, max_guesses=None, checkpoint=None):
    """Searched totals of several openers, one task per opener, in the order given (each
    worker keeps one search, and its memo, for the run)."""
    game.matrix                         # built (or loaded) here, once, before scattering
    shared = client.scatter(game, broadcast=True, hash=False)
    token = uuid.uuid4().hex
    try:
        # one row per opener, stored under its word and the tag of the single-process
        # search: a checkpoint written by either resumes in the other, whatever the openers
        return run_chunks(client, search_opener_chunk, list(words), shared, token, beam,
                          max_guesses, checkpoint=checkpoint,
                          tag=search_tag(game, beam, max_guesses), key=str,
                          about=lists_about(game),
                          valid=lambda key, row: row["word"] == key and key in game._words)
    finally:
        _forget(client, token)


#: Times a certificate's search is sent again after its cluster lost the game.
RESENDS = 3


class _DaskSearches:
    """The tasks of :func:`~deductive.engine.feedback.search.prove_openers` (the first
    ceiling's beams; each opener's refined bound and search, or depth-three bound) on Dask
    (the pool interface of :class:`~deductive.engine.feedback.search.LocalSearches`): as
    many at once as the cluster has workers, each worker keeping one search, and its memo,
    for the run.

    The bucket searches a worker ends (:meth:`keep_buckets`) come back as Dask events
    (:class:`BucketEvents`) on a topic of the run's own, and are given to ``keep`` in
    this thread as the run waits, so that a run killed in an opener's buckets resumes
    from those the checkpoint took.

    A search cancelled because the cluster lost the game (every worker restarted: a
    suspended laptop, workers killed) is sent again with the game scattered anew, up to
    :data:`RESENDS` times; then the run stops with one error line (:data:`LOST`)."""

    def __init__(self, client, game, max_guesses, memo_bytes, buckets=False):
        self.client = client
        self.game = game
        self.buckets = buckets          # searches first bounded by their buckets' searches
        self.slots = n_workers(client)
        game.matrix                     # built (or loaded) here, once, before scattering
        self.shared = client.scatter(game, broadcast=True, hash=False)
        self.settings = (uuid.uuid4().hex, max_guesses, memo_bytes)
        self.running = completions()
        self.watch = Watch(client)
        # future key -> (future, place, opener, limit, (beam, deep, kept), sends, the game
        # it was sent with)
        self.futures: dict = {}
        self.topic = f"deductive-buckets-{self.settings[0]}"
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.keep = None

    def keep_buckets(self, keep) -> None:
        if self.keep is None:           # (the handler holds the queue alone: Dask keeps
            events = self.events        # it after unsubscribe_topic)
            self.client.subscribe_topic(self.topic, lambda event: events.put(event[1]))
        self.keep = keep

    def _take_buckets(self) -> None:
        while self.keep is not None:
            try:
                row = self.events.get_nowait()
            except queue.Empty:
                return
            self.keep(*row)

    def submit(self, place: int, g, limit: int, beam: bool = False,
               deep: bool = False, kept: dict | None = None, sends: int = 1) -> None:
        events = (None if self.keep is None else
                  BucketEvents(self.topic, bucket_searches.KEEP_SECONDS))
        future = submit(self.client, proof_search_chunk, g, self.shared, *self.settings,
                        limit, beam, deep, self.buckets, kept, events)
        self.futures[future.key] = (future, place, g, limit, (beam, deep, kept), sends,
                                    self.shared)
        self.running.add(future)

    def next(self) -> tuple[int, tuple | list]:
        while True:
            future, result = self.watch.next(self.running, self._take_buckets)
            self._take_buckets()
            _, place, g, limit, (beam, deep, kept), sends, shared = \
                self.futures.pop(future.key)
            if not was_lost(future, result):
                return place, (list(map(tuple, result)) if deep else tuple(result))
            if sends > RESENDS:
                raise DeductiveError(LOST)
            if shared is self.shared:   # the game is gone: send it again (once per loss)
                try:
                    self.shared = bounded(lambda: self.client.scatter(
                        self.game, broadcast=True, hash=False), self.watch.patience,
                        "the Dask cluster (sending the game again)")
                except Exception as exc:    # noqa: BLE001 (no worker came back in time)
                    raise DeductiveError(LOST) from exc
            self.submit(place, g, limit, beam, deep, kept, sends + 1)

    def close(self) -> None:
        """Cancel the searches still out (a run cut short: an interruption, an error), then
        drop the run's searches from the workers."""
        if self.futures:
            try:
                self.client.cancel([entry[0] for entry in self.futures.values()])
            except Exception:           # noqa: BLE001 (cleanup of a run that may have failed)
                pass
            self.running.clear()
            self.futures.clear()
        try:
            if self.keep is not None:
                try:
                    self.client.unsubscribe_topic(self.topic)
                except Exception:       # noqa: BLE001 (cleanup of a run that may have failed)
                    pass
                self._take_buckets()    # those that came in before the run ended
        finally:
            _forget(self.client, self.settings[0])


class BucketEvents:
    """``keep`` of a worker's bucket searches (:func:`proof_search_chunk`): each row of
    ``least`` CPU seconds or more (those the checkpoint keeps:
    :data:`~deductive.engine.feedback.search.buckets.KEEP_SECONDS`) sent to the client as
    a Dask event on ``topic`` (:meth:`_DaskSearches.keep_buckets`)."""

    def __init__(self, topic: str, least: float):
        self.topic, self.least = topic, least

    def __call__(self, g, position, size, ceiling, value, ok, seconds) -> None:
        from distributed import get_worker

        if seconds >= self.least:
            get_worker().log_event(self.topic,
                                   [g, position, size, ceiling, value, ok, seconds])


def _forget(client, token) -> None:
    """Drop a run's searches from the workers (best effort: a cluster that has gone takes
    them with it, and the run's own error, if any, is the one to see)."""
    try:
        client.run(forget_search, token)
    except Exception:                   # noqa: BLE001 (cleanup of a run that may have failed)
        pass


def wordle_prove_openers(client, game, keep=1, *, within=None, max_guesses=None,
                         checkpoint=None, memo_bytes=None, progress=None, steps=None,
                         depth_three=False, known=None):
    """:func:`~deductive.engine.feedback.search.prove_openers` with its beams, refined
    and depth-three bounds and searches on the cluster (the plain bounds in this process):
    the same rows, ``seconds`` aside. Each worker's memo is capped at ``memo_bytes`` over
    the number of workers."""
    workers = n_workers(client)
    pool = _DaskSearches(client, game, max_guesses,
                         None if memo_bytes is None else
                         max(MEMO_ENTRY_BYTES, memo_bytes // workers), buckets=depth_three)
    try:
        return prove_openers(game, keep, within=within, max_guesses=max_guesses,
                             checkpoint=checkpoint, progress=progress, pool=pool,
                             steps=steps, depth_three=depth_three, known=known)
    finally:
        pool.close()


def wordle_verify_proof(client, game, path, *, memo_bytes=VERIFY_MEMO_BYTES, **settings):
    """:func:`~deductive.engine.feedback.search.verify_proof` with its depth-three bounds
    and searches (step 2: the check's hours) on the cluster, the proof's own tasks on the
    same pool as :func:`wordle_prove_openers`: the same report. Each worker's memo is
    capped at ``memo_bytes`` over the number of workers; ``settings`` go to
    ``verify_proof`` (``sample``, ``seed``, ``checkpoint``, ``progress``)."""
    workers = n_workers(client)
    memo = None if memo_bytes is None else max(MEMO_ENTRY_BYTES, memo_bytes // workers)
    return verify_proof(game, path, memo_bytes=memo_bytes, pools=lambda max_guesses:
                        _DaskSearches(client, game, max_guesses, memo,
                                      buckets=not game.hard), **settings)


def wordle_least_worst(client, game, keep_tree=False, progress=None, memo_bytes=MEMO_BYTES,
                       checkpoint=None):
    """:func:`~deductive.engine.feedback.worst.least_worst` over every opener, its sweep's
    pieces and its certificate's searches on the cluster: the same result, ``seconds``
    aside, and the same checkpoint entries. Each worker's memo is capped at
    ``memo_bytes`` over the number of workers."""
    game.matrix                         # built (or loaded) here, once, before scattering
    shared = client.scatter(game, broadcast=True, hash=False)
    token = uuid.uuid4().hex
    share = None if memo_bytes is None else \
        max(MEMO_ENTRY_BYTES, memo_bytes // n_workers(client))

    def sweep(depth, pieces, tag):
        decided = [pieces[0][0]]

        def tell(k):
            decided[0] += pieces[k][1] - pieces[k][0]
            if progress is not None:
                progress(decided[0])

        return run_chunks(client, sweep_piece, pieces, shared, token, depth, share,
                          checkpoint=checkpoint, tag=tag, key=json.dumps,
                          progress=tell, about=lists_about(game), valid=piece_valid)

    def prove(depth):
        return wordle_prove_openers(client, game, 1, max_guesses=depth, checkpoint=checkpoint,
                                    memo_bytes=memo_bytes, progress=progress)

    try:
        return least_worst(game, None, keep_tree, progress, memo_bytes, checkpoint,
                           sweep=sweep, prove=prove)
    finally:
        _forget(client, token)


# -- Hangman ------------------------------------------------------------------------------------
def _hangman_chunk(length, lists, strategy, lives_list, prior, lang, exact_limit, memory):
    from ..engine.hangman.sweep import sweep_chunk

    return sweep_chunk(lists[length], strategy, lives_list, prior, lang, exact_limit, memory)


def hangman_sweep_all(client, lists, strategy, lives=6, prior="uniform", lang="en",
                      exact_limit=16, progress=None, checkpoint=None, memory=None):
    """Sweeps of every length of ``lists`` (length -> HangmanWords), one task per length;
    returns [(length, SweepResult)] in ascending length, or [(length, [SweepResult, ...])]
    when ``lives`` is a sequence (one per number of lives, one task per length). With
    ``checkpoint``, each length is stored as it finishes (the format of
    ``deductive hangman sweep --checkpoint`` in one process)."""
    from ..engine.hangman import SweepResult, sweep_tag
    from ..engine.hangman.sweep import sweep_about, sweep_valid

    lives_list = [lives] if isinstance(lives, int) else list(lives)
    lengths = sorted(lists)
    shared = client.scatter(lists, broadcast=True, hash=False)
    parts = run_chunks(client, _hangman_chunk, lengths, shared, strategy, lives_list, prior,
                       lang, exact_limit, memory, progress=progress, checkpoint=checkpoint,
                       tag=sweep_tag(lists, strategy, lives_list, prior, lang, exact_limit),
                       key=str, about=sweep_about(lists), valid=sweep_valid(lives_list))
    out = []
    for length, part in zip(lengths, parts):
        results = [SweepResult.from_dict(part[str(k)]) for k in lives_list]
        out.append((length, results[0] if isinstance(lives, int) else results))
    return out
