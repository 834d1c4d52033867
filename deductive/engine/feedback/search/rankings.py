"""Openers ranked by their searched trees (:func:`search_openers`, :func:`rank_openers`)
and the chunks a sweep on several processes runs (one search per run and process)."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from .bounds import KeptBuckets
from .certificates import lists_about, search_tag
from .proofs import CEILING_BEAM, beam_search, bound_under, search_under
from .tree_search import TreeSearch


def search_openers(game, words, *, beam=None, max_guesses=None, checkpoint=None,
                   progress=None) -> list[dict]:
    """Searched totals of several openers (one :class:`TreeSearch` shares its memo among
    them), as ``SearchResult.to_json()`` rows in the order given. With ``checkpoint`` (a
    path), each finished opener is appended there and a rerun skips those already there."""
    from ....checkpoint import Checkpoint

    searcher = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    store = Checkpoint(checkpoint, search_tag(game, beam, max_guesses), about=lists_about(game))
    done = store.load(lambda key, row: row["word"] == key and key in game._words)
    rows = []
    for k, word in enumerate(words, start=1):
        if word not in done:
            done[word] = searcher.search_opener(word).to_json()
            store.append(word, done[word])
        rows.append(done[word])
        if progress is not None:
            progress(k)
    return rows


@dataclass(frozen=True)
class OpenerRows:
    """Searched openers, best first (:func:`rank_openers`): ``search --openers N`` shows
    them."""

    rows: list

    def to_json(self) -> list:
        """The rows without their times and node counts: the form ``--json`` prints."""
        return [{k: v for k, v in r.items() if k not in ("seconds", "nodes")}
                for r in self.rows]


def rank_openers(rows: list[dict], order: list) -> list[dict]:
    """Rows of :func:`search_openers`, best first: total, then worst case, then their
    place in ``order`` (the entropy ranking the openers were taken from)."""
    place = {word: k for k, word in enumerate(order)}
    return sorted(rows, key=lambda r: (r["total"], r["worst"], place[r["word"]]))


#: In a worker: run token -> the search of that run (:func:`search_opener_chunk`,
#: :func:`proof_search_chunk`, :func:`~.worst.sweep_piece`; ``token:beam``, its first
#: ceiling's beams until its first search) and its lock; one at a time, and the run's
#: driver drops it at the end (:func:`forget_search`). The openers a worker searches in
#: one run share one search (a :class:`TreeSearch`, or a
#: :class:`~.worst.WorstCaseSearch`), as in one process: its memo, and the hard-mode masks
#: its memo keys name by the search's own ids (a memo shared by two searches would mistake
#: one search's mask for the other's).
_RUN_SEARCHES: dict = {}
_RUN_LOCK = threading.Lock()


def run_search(token, game, kind=TreeSearch, **settings) -> tuple:
    """The run's search and lock in this process, made at the run's first task here:
    ``kind(game, **settings)``."""
    with _RUN_LOCK:
        entry = _RUN_SEARCHES.get(token)
        if entry is None:
            _RUN_SEARCHES.clear()
            entry = _RUN_SEARCHES[token] = (kind(game, **settings), threading.Lock())
    return entry


def search_opener_chunk(word, game, token, beam, max_guesses) -> dict:
    """One opener's row, for a sweep on several processes; one search at a time per run
    and process (a worker with several threads runs the others after it: a search's memo
    and caps are not for two threads at once)."""
    search, lock = run_search(token, game, beam=beam, max_guesses=max_guesses)
    with lock:
        return search.search_opener(word).to_json()


def proof_search_chunk(g, game, token, max_guesses, memo_bytes, limit, beam=False,
                       deep=False, buckets=False, kept=None, keep=None):
    """:func:`search_under` for a pool of searches on several processes (as
    :func:`search_opener_chunk`; with ``beam``, a first ceiling's beam, in a search of its
    own: :func:`beam_search`; with ``deep``, ``g`` a kin group of openers, the list of
    their :func:`bound_under` in turn, no search; with ``buckets``, as
    :func:`search_under` takes it, with ``kept`` and ``keep(g, position, size, ceiling,
    value, ok, seconds)``: see :class:`~.proofs.LocalSearches`)."""
    if deep:                            # hours of these: the beams' search is dropped
        with _RUN_LOCK:
            _RUN_SEARCHES.pop(f"{token}:beam", None)
            kept = _RUN_SEARCHES.get(f"{token}:deep")
            if kept is None or kept.game is not game:   # (a game sent again: a new one)
                kept = _RUN_SEARCHES[f"{token}:deep"] = KeptBuckets(game)
        return [bound_under(game, x, limit, kept) for x in g]
    if beam and max_guesses is not None:
        return search_under(beam_search(game, max_guesses), g, limit)
    # the beams' search is dropped when the run's first search is made here (a new key)
    search, lock = (run_search(f"{token}:beam", game, beam=CEILING_BEAM) if beam else
                    run_search(token, game, max_guesses=max_guesses, memo_bytes=memo_bytes))
    with lock:
        return search_under(search, g, limit, buckets, kept, keep)  # a beam takes no bound


def forget_search(token) -> None:
    """Drop a run's searches (and their memos) from this process."""
    with _RUN_LOCK:
        _RUN_SEARCHES.pop(token, None)
        _RUN_SEARCHES.pop(f"{token}:beam", None)
        _RUN_SEARCHES.pop(f"{token}:deep", None)
