"""The least worst case: the fewest guesses that solve every answer, and a tree.

A set S is solved within d guesses when one answer is left (d >= 1), or some guess
leaves every non-winning bucket solved within d - 1. :class:`WorstCaseSearch` tries d
rising from the counting bound (a guess leaves at most K non-winning feedbacks, K the
codes the matrix shows less the win, so d guesses tell at most ``1 + K + ... +
K**(d-1)`` answers apart), depth first:

* guesses are tried by the size of their largest bucket, then a candidate before a
  non-candidate, then the lower index; a guess whose largest bucket is more than d - 1
  guesses can tell apart is skipped; buckets are tried largest first, and a guess is
  dropped at its first bucket that does not fit;
* proven answers (a guess, or none) are memoised per set, depth and (in hard mode) the
  guesses still allowed;
* the last two levels are compiled (:mod:`deductive.kernels.worst`): within two, some
  guess gives every candidate its own code; within three (normal mode), some guess
  leaves only buckets of at most two or with such a guess. Whether a set has a
  separating guess is remembered (up to :data:`SETS_KEPT` sets; then the store starts
  again).

A subset of S needs no more guesses than S (the same tree solves it), so one opener is
ruled out for d by one bucket that needs more than d - 1.

Ties: the first guess of the order above that fits, so the tree is deterministic. Its total
is that tree's, not the least among trees of that worst case: :func:`least_worst` finds
that one (:class:`~.search.TreeSearch` with ``max_guesses``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time

import numpy as np

from ...errors import ArgumentError, DeductiveError
from ...kernels.worst import new_memo, two_step
from .matrix import answer_major
from .scoring import partition_stats
from .search import (MEMO_ENTRY_BYTES, SearchResult, TreeSearch, costliest_entries,
                     lists_about, prove_openers, run_search, search_tag)

__all__ = ["WorstCaseSearch", "least_depth", "least_worst", "first_fit", "sweep_piece",
           "sweep_tag"]

#: Most sets whose separating guess (or its absence) the compiled last levels remember
#: (about :data:`SET_BYTES` each: some 500 MB); past it the store starts again empty (the
#: sets met again are mostly those met lately: within one opener's refutation on the
#: original lists, about as many as with every opener's sets kept).
SETS_KEPT = 2_000_000

#: Estimated bytes a remembered set takes in the compiled levels' store, members included:
#: a search capped at ``memo_bytes`` keeps at most ``memo_bytes // 2 // SET_BYTES`` sets.
SET_BYTES = 250

#: Estimated bytes the search's memo may take by default (its keys and entries, and the
#: compiled levels' sets); past it the memo keeps its largest sets (the costliest to search
#: again) and drops the rest.
MEMO_BYTES = 1 << 30


class WorstCaseSearch:
    """The least worst case of a feedback game, over every opener or from one.

    Parameters
    ----------
    game : FeedbackGame
    view : object, optional
        What the search asks ``allowed_after`` of (default: the game). Mastermind's
        symmetric view gives the orbit minima; a view's masks do not key the memo (they
        pick one guess per class of equal guesses: the set's answer is the same).
    memo_bytes : int or None, optional
        About how many bytes the memo and the compiled levels' sets may take (default
        :data:`MEMO_BYTES`; None: no cap). Half of it goes to the memo, which past its
        share keeps the entries of its largest sets (:meth:`_evict`); the other half to the
        sets, which past theirs start again empty (:data:`SETS_KEPT`).
    """

    def __init__(self, game, view=None, memo_bytes: int | None = MEMO_BYTES):
        if memo_bytes is not None and memo_bytes < 0:
            raise ArgumentError(f"`memo_bytes` must be at least 0, not {memo_bytes}")
        self.game = game
        self.memo_bytes = memo_bytes
        self.sets_kept = SETS_KEPT if memo_bytes is None else \
            min(SETS_KEPT, memo_bytes // 2 // SET_BYTES)
        self.evictions = 0
        self.set_restarts = 0           # times the compiled levels' store started again
        self.view = game if view is None else view
        self.matrix = game.matrix
        self.win = game.win_code
        self.n_codes = game.patterns.n_codes
        self.k = game.patterns.spread
        self.memo: dict = {}
        self._memo_used = 0
        self.nodes = 0
        self._key_masks = view is None and game.hard
        self._compiled = view is None and not game.hard
        self._rows = np.arange(self.matrix.shape[0], dtype=np.int64)
        self._sets = None               # the compiled levels' memo, made when first used
        self._root_orders: dict = {}

    def capacity(self, depth: int) -> int:
        """Most answers ``depth`` guesses can tell apart."""
        return self.capacity_of(self.game, depth)

    @staticmethod
    def capacity_of(game, depth: int) -> int:
        """:meth:`capacity` in ``game``."""
        return sum(game.patterns.spread ** j for j in range(max(depth, 0)))

    @staticmethod
    def counting_depth(game) -> int:
        """The fewest guesses that can tell all the answers of ``game`` apart (the
        counting bound: no tree has a smaller worst case)."""
        depth = 1
        while WorstCaseSearch.capacity_of(game, depth) < len(game.answers):
            depth += 1
        return depth

    def _root(self) -> tuple[np.ndarray, np.ndarray | None]:
        cands = np.arange(len(self.game.answers), dtype=np.int64)
        allowed = np.ones(len(self.game.guesses), dtype=bool) if self.game.hard else None
        return cands, allowed

    def _memo_sets(self):
        """The compiled levels' store: made when first used, and made again empty when
        full (its keys kept)."""
        if self._sets is None:
            keys = np.random.default_rng(0).integers(-(1 << 62), 1 << 62,
                                                     self.matrix.shape[1], dtype=np.int64)
            self._sets = (keys, *new_memo())
        elif 0 < self.sets_kept <= len(self._sets[2]):
            self._sets = (self._sets[0], *new_memo())
            self.set_restarts += 1
        return self._sets

    def root_order(self, depth: int) -> np.ndarray:
        """The openers worth trying within ``depth``, in search order (:meth:`_order` of
        every answer; kept per depth)."""
        if depth not in self._root_orders:
            self._root_orders[depth] = self._order(*self._root(), depth)
        return self._root_orders[depth]

    def forget(self) -> None:
        """Drop the memo and the compiled levels' store (answers stay exact)."""
        self.memo.clear()
        self._memo_used = 0
        self._sets = None

    def _order(self, cands, allowed, depth) -> np.ndarray:
        """The guesses worth trying for ``cands`` within ``depth``, in search order."""
        rows = self._rows if allowed is None else np.flatnonzero(allowed).astype(np.int64)
        stats = partition_stats(self.game.patterns, cands, rows)
        in_set = self.game.is_candidate(cands, rows)
        # a winning bucket holds one answer, found at once
        largest_rest = np.where(in_set & (stats.largest == 1), 0, stats.largest)
        ok = (largest_rest <= self.capacity(depth - 1)) & ((stats.buckets > 1) | in_set)
        order = np.lexsort((rows, ~in_set, stats.largest))
        return rows[order[ok[order]]]

    def _fits(self, cands, allowed, depth, progress=None) -> int:
        """First guess of a tree solving ``cands`` within ``depth`` guesses, else -1
        (``progress(tried)``, if given, is told of the guesses tried here)."""
        n = len(cands)
        if n == 1:
            return int(self.game.answer_to_guess[cands[0]])
        if n > self.capacity(depth):
            return -1
        key: tuple[bytes | int, ...] = (cands.tobytes(), depth)
        if self._key_masks:
            key += (np.packbits(allowed).tobytes(),)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        order = self._order(cands, allowed, depth)
        choice = -1
        if depth == 2 or (depth == 3 and self._compiled):
            if len(order) and depth == 2:   # every bucket holds at most one answer
                choice = int(order[0])
            elif len(order):
                keys, table, sets = self._memo_sets()
                j = two_step(self.matrix, answer_major(self.matrix), cands, order,
                             self._rows, self.n_codes, self.win, keys, table, sets,
                             self.sets_kept)
                choice = int(order[j]) if j >= 0 else -1
        else:
            for k, guess in enumerate(order.tolist()):
                if progress is not None:
                    progress(k)
                if self._buckets_fit(guess, cands, allowed, depth):
                    choice = guess
                    break
        self._memo_used += self._entry_bytes(key)
        self.memo[key] = choice
        if self.memo_bytes is not None and self._memo_used > self.memo_bytes // 2:
            self._evict(self.memo_bytes // 4)
        return choice

    @staticmethod
    def _entry_bytes(key) -> int:
        return sum(len(part) for part in key if isinstance(part, bytes)) + 200

    def _evict(self, keep):
        """Keep the entries of the largest sets (ties: the older) up to about ``keep``
        bytes and drop the rest (:func:`~.search.costliest_entries`): a dropped set is
        searched again if met again (answers stay exact, only time is lost)."""
        self.memo, self._memo_used = costliest_entries(self.memo, keep, self._entry_bytes)
        self.evictions += 1

    def guess_fits(self, guess: int, cands: np.ndarray, allowed: np.ndarray | None,
                   depth: int) -> bool:
        """Whether some tree over the sorted answer indices ``cands`` (in hard mode with
        the guesses ``allowed``) that opens with ``guess`` solves every one within
        ``depth`` guesses."""
        if depth < 1:
            return False
        if len(cands) == 1 and int(self.game.answer_to_guess[cands[0]]) == guess:
            return True
        return depth >= 2 and self._buckets_fit(guess, cands, allowed, depth)

    def _buckets_fit(self, guess, cands, allowed, depth) -> bool:
        """Whether every non-winning bucket of ``guess`` fits within ``depth - 1``."""
        groups = sorted(self.game.split(guess, cands), key=lambda x: -len(x[1]))
        return all(self._fits(grp, self.view.allowed_after(allowed, guess, code), depth - 1)
                   >= 0 for code, grp in groups if code != self.win)

    def least(self, opener=None, max_depth: int | None = None, progress=None):
        """``(depth, guess)``: the least worst case over every opener, or from ``opener``
        (a word), and the first guess of a tree within it. ``max_depth`` (default: one
        more than the answers; a tree within that many exists when the answers are
        guesses) bounds the depths tried. ``progress(tried)`` is told of the first
        guesses tried, from 0 again at each depth."""
        cands, allowed = self._root()
        first = None if opener is None else self.game.guess_index(opener)
        limit = len(cands) + 1 if max_depth is None else max_depth
        depth = self.counting_depth(self.game)
        if first is not None and not (len(cands) == 1 and
                                      self.game.answer_to_guess[cands[0]] == first):
            depth = max(depth, 2)           # the opener is not the only answer
        while depth <= limit:
            if first is None:
                guess = self._fits(cands, allowed, depth, progress)
            else:
                guess = first if self.guess_fits(first, cands, allowed, depth) else -1
            if guess >= 0:
                return depth, guess
            depth += 1
        where = "" if first is None else f" opening with {opener!r}"
        raise DeductiveError(f"no tree{where} solves every answer within {limit} guesses")

    def search(self, opener=None, max_depth: int | None = None, keep_tree: bool = False,
               progress=None) -> SearchResult:
        """:meth:`least`, with the tree found (kept in the result when asked)."""
        start = time.perf_counter()
        depth, guess = self.least(opener, max_depth, progress)
        cands, allowed = self._root()
        tree = self._tree(cands, allowed, depth, guess)
        depths = _depths(self.game, tree)
        return SearchResult(tree["guess"], int(depths.sum()), int(depths.max()), len(cands),
                            True, None, time.perf_counter() - start, self.nodes,
                            tree if keep_tree else None,
                            hard=bool(getattr(self.game, "hard", False)))

    def _tree(self, cands, allowed, depth, guess=None):
        if guess is None:
            guess = self._fits(cands, allowed, depth)
        node = {"guess": self.game.word(guess), "then": {}}
        for code, grp in self.game.split(guess, cands):
            if code != self.win:
                node["then"][self.game.format(code)] = self._tree(
                    grp, self.view.allowed_after(allowed, guess, code), depth - 1)
        return node


#: Openers per piece of the sweep over every opener (:func:`least_depth`): per task on
#: Dask, per checkpoint entry.
SWEEP_PIECE = 64

#: The least depth :func:`least_depth` sweeps piece by piece; below it a depth is one
#: search (:meth:`WorstCaseSearch._fits`: in normal mode compiled within three, a few
#: seconds on the original lists).
SWEEP_FROM = 4


def sweep_tag(game, depth: int, order) -> dict:
    """The checkpoint tag of :func:`least_depth`'s sweep at ``depth``: its pieces are keyed
    by their ``[lo, hi]`` in ``order`` (the openers in search order), so the tag names the
    game, the depth, the piece size and the order itself (a digest: a file written by
    code that orders the openers otherwise is not read)."""
    digest = hashlib.sha256(np.ascontiguousarray(order, dtype=np.int64).tobytes())
    return dict(search_tag(game, None, None), least_worst=depth, piece=SWEEP_PIECE,
                order=digest.hexdigest()[:16])


def piece_valid(key, fit) -> bool:
    """Whether a checkpoint row of the sweep (``[lo, hi]`` -> :func:`first_fit`) is one."""
    lo, hi = json.loads(key)
    return isinstance(fit, int) and 0 <= lo < hi and -1 <= fit < hi - lo


def first_fit(search: WorstCaseSearch, order, depth: int) -> int:
    """Position in ``order`` (guess indices) of the first opener after which every bucket is
    solved within ``depth`` - 1 more guesses (:meth:`WorstCaseSearch._buckets_fit`), -1 if
    none."""
    cands, allowed = search._root()
    for k, guess in enumerate(np.asarray(order).tolist()):
        if search._buckets_fit(guess, cands, allowed, depth):
            return k
    return -1


def sweep_piece(piece, game, token, depth: int, memo_bytes) -> int:
    """:func:`first_fit` of one piece ``[lo, hi]`` of the sweep at ``depth``, in the run's
    search of this process (:func:`~.search.run_search`: one per worker, its memo kept
    for the run)."""
    search, lock = run_search(token, game, WorstCaseSearch, memo_bytes=memo_bytes)
    with lock:
        return first_fit(search, search.root_order(depth)[piece[0]:piece[1]], depth)


def least_depth(game, *, memo_bytes: int | None = MEMO_BYTES, checkpoint=None, sweep=None,
                progress=None) -> int:
    """The least worst case over every opener: :meth:`WorstCaseSearch.least`'s depth,
    from :data:`SWEEP_FROM` guesses on swept piece by piece over the openers in the
    search's order (:data:`SWEEP_PIECE` at a time, each piece's :func:`first_fit`).

    With ``checkpoint``, each piece's answer is stored as it comes (:func:`sweep_tag`) and
    a rerun resumes (at a depth where a stored piece has a fit, at once: every lower depth
    was refuted before it was reached). ``sweep(depth, pieces, tag)``, if given, runs the
    pieces (``[lo, hi]`` pairs) elsewhere and returns their answers in order (Dask: it
    stores them itself, under ``tag``, and runs them all); the first piece of each depth
    runs here first, as at the least depth its first openers mostly fit, and this
    process's memos are then dropped. ``progress(openers)``: how many openers of the
    depth are decided."""
    from ...checkpoint import Checkpoint

    search = WorstCaseSearch(game, memo_bytes=memo_bytes)
    cands, allowed = search._root()
    depth = search.counting_depth(game)
    while depth <= len(cands) + 1:
        if depth < SWEEP_FROM:
            if search._fits(cands, allowed, depth) >= 0:
                return depth
            depth += 1
            continue
        order = search.root_order(depth)
        pieces = [[lo, min(lo + SWEEP_PIECE, len(order))]
                  for lo in range(0, len(order), SWEEP_PIECE)]
        tag = sweep_tag(game, depth, order)
        store = Checkpoint(checkpoint, tag, about=lists_about(game))
        done = store.load(piece_valid)
        if any(fit >= 0 for fit in done.values()):
            return depth
        for k, piece in enumerate(pieces):
            if k and sweep is not None:
                search.forget()
                if any(fit >= 0 for fit in sweep(depth, pieces[k:], tag)):
                    return depth
                break
            key = json.dumps(piece)
            fit = done[key] if key in done else first_fit(search, order[slice(*piece)], depth)
            if key not in done:
                store.append(key, fit)
            if progress is not None:
                progress(piece[1])
            if fit >= 0:
                return depth
        depth += 1
    raise DeductiveError(f"no tree solves every answer within {len(cands) + 1} guesses")


def least_worst(game, opener=None, keep_tree: bool = False, progress=None,
                memo_bytes: int | None = MEMO_BYTES, checkpoint=None,
                sweep=None, prove=None) -> SearchResult:
    """The least worst case, from ``opener`` or over every opener, and among the trees of
    that worst case the one with the fewest total guesses.

    With ``opener``, :class:`~.search.TreeSearch` with ``max_guesses`` d, for d rising from
    the counting bound until a tree fits: its bounds refute a d quickly (the hard-mode
    salet search proves in 1.4 s that no tree fits within 5); ``progress`` is its
    (answers searched). Over every opener, :func:`least_depth` finds the least d
    (``progress`` is its; ``sweep`` runs its pieces elsewhere), then
    :func:`~.search.prove_openers` with ``max_guesses`` d (or ``prove(d)``, elsewhere)
    the opener whose tree within d has the least total (ties: worst case, then guess
    order; ``progress``: the openers decided); both store what they decide in
    ``checkpoint``, under tags of their own, and a rerun resumes. The result's ``worst``
    is the least worst case and its ``total`` the least total within it. The searches'
    memos are capped at ``memo_bytes`` (None: no cap).
    """
    if memo_bytes is not None and memo_bytes < MEMO_ENTRY_BYTES:
        raise ArgumentError(f"`memo_bytes` must be at least {MEMO_ENTRY_BYTES}, not {memo_bytes}")
    start = time.perf_counter()
    n = len(game.answers)
    if opener is None:
        depth = least_depth(game, memo_bytes=memo_bytes, checkpoint=checkpoint, sweep=sweep,
                            progress=progress)
        proof = prove(depth) if prove is not None else prove_openers(
            game, 1, max_guesses=depth, memo_bytes=memo_bytes, checkpoint=checkpoint,
            progress=progress)
        opener = proof.best()[0]
        progress = None
    else:
        depth = WorstCaseSearch.counting_depth(game)
    first = game.guess_index(opener)    # an unknown word: its error before any search
    while depth <= n + 1:               # no tree within fewer: its worst case is depth
        search = TreeSearch(game, max_guesses=depth, memo_bytes=memo_bytes)
        if search.opener_total(first, progress=progress)[3]:
            r = search.search_opener(opener, keep_tree)   # its memo has most of it
            return dataclasses.replace(r, seconds=time.perf_counter() - start)
        depth += 1
    raise DeductiveError(f"no tree opening with {opener!r} solves every answer within "
                         f"{n + 1} guesses")


def _depths(game, tree) -> np.ndarray:
    from .tree import check_tree, tree_document

    return check_tree(game, tree_document(game, tree)).depths
