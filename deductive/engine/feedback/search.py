"""Decision-tree search: the tree that minimises the total number of guesses.

``TreeSearch`` is a depth-first branch and bound over candidate sets with memoisation. The
total of a tree over a set S of n answers is n (every answer uses the first guess) plus the
totals of the subtrees of the non-green buckets.

Lower bounds (admissible, checked against brute force in the tests):

* :func:`lower_bound`: 1 for one answer, 3 for two, 2n - 1 for n >= 3 (at most one answer
  is found by the first guess; every other needs at least two).
* :func:`counting_bounds`: a guess leaves at most K non-winning feedbacks (K: the codes the
  matrix holds, less the win), so a tree finds at most one answer with its first guess, K
  with its second, K**2 with its third...: filling the levels in turn gives the least
  total over n answers. It is 2n - 1 up to n = K + 1 and more beyond. A set's floor
  ``floor[n]`` is the larger of the two.
* the guess bound: a guess g that splits S into buckets costs at least ``n + sum
  floor[|B|]`` over its non-green buckets B. With ``floor[m] = 2m - 1`` that is
  :func:`guess_lower_bound`, ``3n - [g in S] - b`` (b buckets, the green one included),
  tight when g splits S into buckets of at most two answers. Every guess is tried in the
  order of this bound, so the search stops at the first guess whose bound reaches the
  best total found.
* a child set of m >= 3 answers none of which, as a guess, gives each of the others its
  own feedback needs at least 2m (a total of 2m - 1 finds one answer with the first guess
  and every other with the second): checked for each child of a guess tried
  (:func:`deductive.kernels.search.unisolated`) before its children are searched.

The search at a set S with a ceiling ``beta`` (only a total below it is of use to the
caller):

1. every allowed guess is scored, bounded, filtered and ordered in one compiled call
   (:func:`deductive.kernels.search.split_bounds`: the guess bound, sum of squared
   bucket sizes); only the guesses whose bound is below ``beta`` come back, the first
   :data:`SCAN_HEAD` of them at first (the rest scored again only if those are tried in
   vain), with the least bound left out (a lower bound of the set if none succeeds);
2. guesses are tried in the order of their lower bound, then the smaller sum of squared
   bucket sizes (expected size), then the lower guess index; the loop stops at the first
   guess whose bound reaches the best total found (or ``beta``), so no later guess can be
   better;
3. each bucket of three or more answers is first probed: searched only to its share of
   the guess's slack (the ceiling less the bound), in proportion to its size, so that a
   guess is mostly refuted by partial proofs rather than by exact solves of its largest
   buckets (:meth:`TreeSearch._probe`);
4. each bucket is searched, largest first (smallest first when there is no ceiling:
   nothing can be cut, and the larger meet the smaller ones' memo entries), with the
   ceiling left over once the others' lower bounds are counted; a subtree that cannot
   come in under its ceiling returns a lower bound instead of a value, and the guess is
   dropped.

Memoised results are exact values (with the chosen guess) or proven lower bounds, keyed by
the set's members (and, in hard mode, the guesses still allowed) and the depth left. A
lower bound is reused as a child's bound and as a cut-off when the set is met again.

Openers. :func:`opener_bounds` bounds a tree's total from its opener g: n, plus for each
bucket B of g the cheapest next guess by its bucket count, ``min over h of 3|B| - [h in B]
- buckets(h)`` over the guesses allowed after g's feedback (the depth-two bound; in hard
mode only the guesses hard mode allows). :func:`prove_openers` ranks the N best openers
among all guesses with it: a ceiling U from beam searches of the best by entropy,
every opener whose bound exceeds U ruled out, the rest, best bound first, refined (a
stronger bound) then searched exactly under the ceiling (the N-th least exact total found
so far, or U), in one search whose memo is shared across openers and capped
(``memo_bytes``). Ties in the ranking: total, then worst case, then guess index.

With ``beam=K`` only the K first guesses of that order are tried at each node: a fast
heuristic. Its values are those of the best tree among the guesses tried, so the search
stays consistent (a memoised beam value is the same whichever path reaches the set).
Under ``max_guesses`` a node whose K guesses are all shown to have no tree within the
guesses left tries the next guesses of the order, up to :data:`BEAM_FALLBACK`, until K
of them have improved on the best tree found: the guesses a beam leaves out are often
those that test a cluster of similar words at once (-ills, -ater), which the guesses left
need most. Whether a node falls back then depends on the ceiling it is searched under (a
guess cut at the ceiling is not shown to have no tree), so a beam value under
``max_guesses`` may depend on the path that first reached its set; every value is still
a real tree's total, and an exported tree is counted again from its nodes.

Ties. Among guesses of equal total the first in the order above is kept. The search
result then minimises the worst case among trees of that total: once the least total T is
known, the search is repeated with ``max_guesses`` one below the worst case found and
ceiling T + 1, until no tree of total T fits (the depth-unlimited results serve as lower
bounds, so these passes are short).
"""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ...errors import ArgumentError, DeductiveError
from ...kernels.search import opener_bounds as _opener_bounds_parallel
from ...kernels.search import opener_bounds_rows, split_bounds, unisolated
from .._parallel import get_threads, run_rows
from .matrix import answer_major
from .scoring import COLUMNS_MAX
from .tree import check_tree, tree_document

__all__ = ["TreeSearch", "SearchResult", "lower_bound", "guess_lower_bound", "INFEASIBLE",
           "counting_bounds",
           "search_openers", "rank_openers", "search_tag", "search_opener_chunk",
           "opener_bounds", "prove_openers", "OpenerProof", "proof_tag", "read_proof",
           "verify_proof", "LocalSearches", "search_under", "beam_search",
           "proof_search_chunk", "forget_search", "run_search"]

#: Total reported for a set no tree solves within the guesses left (larger than any real
#: total; a lower bound of at least this much means the same).
INFEASIBLE = 1 << 60

#: Estimated bytes of one memo entry beside its key (the set's dict slot, its per-depth
#: dict and the entry), for ``memo_bytes``: measured as the process's resident memory
#: growth per entry over the exact salet search (``benchmarks/search_memo.py``).
MEMO_ENTRY_BYTES = 600
#: The proof a certificate's tag names: the plain depth-two bound, refined for the openers
#: still in play under the falling ceiling (:func:`prove_openers`). Files of the earlier
#: proofs ("depth-2": plain only; "depth-2-refined": refined for every opener the plain
#: bound left at the first ceiling or below) are still read and checked, never resumed.
PROOF = "depth-2-lazy"
PROOFS = ("depth-2", "depth-2-refined", PROOF)

#: A node leaves unscored the guesses whose bound from its parent's bucket counts (a
#: guess makes no more buckets of a subset) passes its ceiling by this percentage of the
#: set's size (see :func:`~deductive.kernels.search.split_bounds`). Skipping closer to
#: the ceiling saves more scoring but gives the memo weaker bounds for refuted sets: 25
#: was the fastest of 10-40 on the exact salet search (3.8 s -> 1.85 s).
CAP_MARGIN = 25

#: Guesses a node's first scoring returns, the first of its search order: most nodes are
#: settled by their first guess, and sorting all the others cost more than scoring them
#: (:func:`~deductive.kernels.search.split_bounds`). The rest are scored again only when
#: the head is tried and the next bound is still below the ceiling.
SCAN_HEAD = 32

#: Guesses past the beam a beam search tries at a node where no guess of the beam has a
#: tree within the guesses left (``max_guesses``), until as many as the beam have one.
BEAM_FALLBACK = 1000

#: Bytes of hard-mode masks a search keeps (see :meth:`TreeSearch._allowed_after`); past
#: it they all go, and the next masks met are computed again.
RULES_CACHE_BYTES = 256 << 20


class _Allowed(np.ndarray):
    """A mask of allowed guesses as a search keeps it: one object per distinct mask, with
    ``key`` (a short id naming the mask in memo keys) and ``rows`` (its guesses)."""


def lower_bound(n: int) -> int:
    """Fewest total guesses any tree needs for n candidates (n >= 1): 1, 3, then 2n - 1."""
    return 2 * n - 1


def counting_bounds(n: int, k: int) -> np.ndarray:
    """``floor[m]``, m = 0..n: the fewest total guesses of any tree over m answers when a
    guess leaves at most ``k`` non-winning feedbacks (level d holds at most k**(d-1)
    answers), and never below :func:`lower_bound` (``floor[0] = 0``)."""
    bound = np.zeros(n + 1, np.int64)
    level, width, filled = 1, 1, 0
    for m in range(1, n + 1):
        if filled == width:
            level, width, filled = level + 1, width * max(k, 1), 0
        bound[m] = bound[m - 1] + level
        filled += 1
    return np.maximum(bound, 2 * np.arange(n + 1, dtype=np.int64) - 1).clip(0)


def _impossible(n: int, depth: int | None) -> bool:
    """Whether no tree solves n candidates within ``depth`` guesses (None: no limit)."""
    return depth is not None and (depth < 1 or (n >= 2 and depth < 2))


def guess_lower_bound(n: int, buckets, in_set):
    """Fewest total guesses of a tree over n candidates that starts with a guess leaving
    ``buckets`` non-empty buckets (green included) and ``in_set`` (whether the guess is a
    candidate): ``3n - in_set - buckets``. Works elementwise on arrays."""
    return 3 * n - np.asarray(in_set, dtype=np.int64) - np.asarray(buckets, dtype=np.int64)


@dataclass
class SearchResult:
    """A searched tree for one opener."""

    opener: str
    total: int
    worst: int
    answers: int
    exact: bool
    beam: int | None
    seconds: float
    nodes: int
    tree: dict | None = None
    lower: int | None = None            # a proven lower bound of the opener's least total
    polish: dict | None = None          # :meth:`.polish.Polish.as_dict`, if polished
    max_guesses: int | None = None      # the limit the tree was searched within

    @property
    def average(self) -> float:
        return self.total / self.answers

    def as_dict(self) -> dict:
        row = {"word": self.opener, "total": self.total, "average": round(self.average, 6),
               "worst": self.worst, "exact": self.exact, "beam": self.beam,
               "seconds": round(self.seconds, 3), "nodes": self.nodes}
        if self.lower is not None:
            row["lower"] = self.lower
        if self.polish is not None:
            row["polish"] = self.polish
        return row


@dataclass(slots=True)
class _Entry:
    value: int          # exact total, or a proven lower bound
    exact: bool
    worst: int = 0      # worst case of the tree found (exact entries)
    choice: int = -1    # its first guess (exact entries)


def costliest_entries(memo: dict, keep: int, cost) -> tuple[dict, int]:
    """The entries of ``memo`` whose keys cost the most (``cost(key)``, in bytes; ties: the
    older first), up to about ``keep`` bytes in all, as a new dict, and the bytes they take:
    what a capped memo keeps (a set's entry costs more to search again when it is larger)."""
    kept, used = {}, 0
    for key in sorted(memo, key=cost, reverse=True):
        size = cost(key)
        if used + size > keep:
            break
        kept[key] = memo[key]
        used += size
    return kept, used


class TreeSearch:
    """Search decision trees of a feedback game (:class:`~.game.FeedbackGame`).

    Parameters
    ----------
    game : FeedbackGame
        Normal or hard mode (hard mode restricts each node's guesses to those allowed).
    beam : int, optional
        Try only the ``beam`` first guesses of the search order per node (a heuristic;
        with ``max_guesses``, a node where none of them has a tree within the guesses left
        tries the next ones, up to :data:`BEAM_FALLBACK`). None: exact.
    max_guesses : int, optional
        Only trees that never need more guesses than this.
    memo_bytes : int, optional
        Cap on the memo's estimated size (None: no cap). Past it, the entries of the
        smallest sets (the cheapest to search again) go until half the cap is left.
    """

    #: Remember the game's allowed_after (off where a subclass's rules keep their own).
    cache_rules = True

    def __init__(self, game, beam: int | None = None, max_guesses: int | None = None,
                 memo_bytes: int | None = None):
        if beam is not None and beam < 1:
            raise ArgumentError(f"`beam` must be at least 1, not {beam}")
        if max_guesses is not None and max_guesses < 1:
            raise ArgumentError(f"`max_guesses` must be at least 1, not {max_guesses}")
        if memo_bytes is not None and memo_bytes < MEMO_ENTRY_BYTES:
            raise ArgumentError(f"`memo_bytes` must be at least {MEMO_ENTRY_BYTES}, not "
                                f"{memo_bytes}")
        self.memo_bytes = memo_bytes
        self._memo_used = 0
        self.evictions = 0
        self.game = game
        self.beam = beam
        self.max_guesses = max_guesses
        self.patterns = game.patterns
        self.matrix = game.matrix
        self.win = game.win_code
        # set key -> {depth left (None: unlimited): _Entry}
        self.memo: dict = {}
        self.nodes = 0
        self._all_rows = np.arange(self.matrix.shape[0], dtype=np.int64)
        self.floor = counting_bounds(self.matrix.shape[1], self.patterns.spread)
        self.probe = True
        self._no_columns = np.empty((0, 0), self.matrix.dtype)
        self._no_cap = np.empty(0, np.int64)
        self._flags = np.empty(self.matrix.shape[1], np.int64)    # scratch of unisolated
        self._stamps = np.zeros(self.patterns.n_codes + 1, np.int64)
        self._root_cap = None           # every guess's buckets over all the answers
        self._caps: list = []           # bucket counts of the sets being searched, outermost first
        # hard mode: distinct masks by their bits; (mask key, guess, code) and (mask key,
        # rule key) -> mask; (guess, code) -> rule key
        self._masks: dict = {}
        self._after: dict = {}
        self._rules: dict = {}
        self._masks_used = 0
        self._mask_ids = 0

    def _columns(self, n):
        """The answer-major matrix for a set of n candidates, when it is small enough to
        gain by it (built at the first such node)."""
        return answer_major(self.matrix) if n <= COLUMNS_MAX else None

    # -- keys and splits -------------------------------------------------------------------
    def _key(self, cands, allowed):
        key = cands.tobytes()
        if allowed is not None:
            key += self._mask(allowed).key
        return key

    def _mask(self, allowed) -> _Allowed:
        """The search's own object for the mask ``allowed`` (made at its first sight)."""
        if isinstance(allowed, _Allowed) and getattr(allowed, "key", None) is not None:
            return allowed
        bits = np.packbits(allowed).tobytes()
        mask = self._masks.get(bits)
        if mask is None:
            if self._masks_used > RULES_CACHE_BYTES:
                self._masks.clear()
                self._after.clear()
                self._rules.clear()
                self._masks_used = 0
            mask = np.array(allowed, dtype=bool).view(_Allowed)
            mask.rows = np.flatnonzero(mask).astype(np.int64)
            mask.key = b"#" + self._mask_ids.to_bytes(8, "little")
            self._mask_ids += 1
            self._masks[bits] = mask
            self._masks_used += mask.nbytes + mask.rows.nbytes + 2 * len(bits) + 256
        return mask

    def _allowed_after(self, allowed, guess: int, code: int):
        """The game's :meth:`allowed_after`, remembered by the mask before and the turn's
        :meth:`rule_key`: the exact hard-mode salet search asks 61,362 times for 2,618
        distinct masks. Each mask is one object whose key and rows are made once; memo
        keys name masks by that key, so identical masks reached by different histories
        share entries, as before."""
        if allowed is None or not self.cache_rules:
            return self.game.allowed_after(allowed, guess, code)
        parent = self._mask(allowed)
        turn = (parent.key, guess, code)
        mask = self._after.get(turn)
        if mask is None:
            rule = self._rules.get((guess, code))
            if rule is None:
                rule = self._rules[(guess, code)] = self.game.rule_key(guess, code)
            step = (parent.key, rule)
            mask = self._after.get(step)
            if mask is None:
                mask = self._mask(self.game.allowed_after(parent, guess, code))
                self._after[step] = mask
            self._after[turn] = mask
            self._masks_used += 384
        return mask

    # -- memo ---------------------------------------------------------------------------------
    def _lookup(self, key, depth):
        """(best lower bound, exact entry or None) known for the set at ``depth`` left.

        A tree within d guesses is also one within more, so an entry searched with d >= depth
        left (or unlimited) bounds the set from below, and settles it when its tree fits."""
        bound = 0
        for d, entry in self.memo.get(key, {}).items():
            if d is None or (depth is not None and d >= depth):
                if entry.exact and (depth is None or entry.worst <= depth):
                    return entry.value, entry
                bound = max(bound, entry.value)
        return bound, None

    def _children(self, guess, cands, allowed, depth):
        """``[(set, allowed)]`` of the non-winning feedbacks of ``guess``, and a lower bound
        of each set's total at ``depth``: the memo's or the floor's, or 2m for a set of m
        answers none of which isolates the others (INFEASIBLE if no tree fits). Hard mode:
        only a set of three or more is searched, so only it needs its guesses."""
        children, lows = [], []
        if depth is not None and depth < 2:          # one guess left (or none)
            for code, grp in self.game.split(guess, cands):
                if code != self.win:
                    children.append((grp, None))
                    lows.append(INFEASIBLE if _impossible(len(grp), depth)
                                else lower_bound(len(grp)))
            return children, lows
        memo, floor, win = self.memo, self.floor, self.win
        ordered, codes, starts = self.game.groups(guess, cands)
        flags = self._flags[:len(codes)]
        unisolated(ordered, starts, self.matrix, self.game.answer_to_guess, self._stamps,
                   flags)
        starts = starts.tolist()
        for k, code in enumerate(codes.tolist()):
            if code == win:
                continue
            grp = ordered[starts[k]:starts[k + 1]]
            m = len(grp)
            if m <= 2:
                children.append((grp, None))
                lows.append(lower_bound(m))
                continue
            a = None if allowed is None else self._allowed_after(allowed, guess, code)
            children.append((grp, a))
            key = self._key(grp, a)
            # a set no answer of which isolates the others needs 2m (unisolated)
            low = max(int(floor[m]), 2 * m) if flags[k] else int(floor[m])
            if key in memo:
                low = max(low, self._lookup(key, depth)[0])
            lows.append(low)
        return children, lows

    # -- search -----------------------------------------------------------------------------
    def solve(self, cands: np.ndarray, allowed=None, depth: int | None = None,
              beta: int = INFEASIBLE) -> tuple[int, int, bool]:
        """(total, worst, exact) of the best tree for the sorted answer indices ``cands``
        with at most ``depth`` guesses; when no tree costs less than ``beta``, a lower bound
        ``>= beta`` with exact False instead. No tree within ``depth``: a total of at least
        :data:`INFEASIBLE`."""
        n = len(cands)
        if _impossible(n, depth):
            return INFEASIBLE, INFEASIBLE, False
        if n <= 2:
            return lower_bound(n), n, True
        key = self._key(cands, allowed)
        bound, hit = self._lookup(key, depth)
        if hit is not None:
            return hit.value, hit.worst, True
        if bound >= beta:
            return bound, 0, False
        self.nodes += 1
        entry = self._search(cands, allowed, depth, beta, bound)
        self._store(key, depth, entry)
        return entry.value, entry.worst, entry.exact

    def _store(self, key, depth, entry):
        slot = self.memo.get(key)
        if slot is None:
            slot = self.memo[key] = {}
            self._memo_used += len(key) + MEMO_ENTRY_BYTES
        slot[depth] = entry
        if self.memo_bytes is not None and self._memo_used > self.memo_bytes:
            self._evict(self.memo_bytes // 2)
            if key not in self.memo:    # the set just searched stays: its caller may read
                self.memo[key] = {depth: entry}             # its guess next (best_guess)
                self._memo_used += len(key) + MEMO_ENTRY_BYTES

    def _evict(self, keep):
        """Drop the entries of the smallest sets (ties: the older) until about ``keep``
        bytes are left (:func:`costliest_entries`). A dropped set is searched again if it
        is met again: values stay exact, only time is lost."""
        kept, self._memo_used = costliest_entries(self.memo, keep,
                                                  lambda key: len(key) + MEMO_ENTRY_BYTES)
        self.memo.clear()
        self.memo.update(kept)
        self.evictions += 1

    def _order(self, cands, allowed, depth, limit):
        """(guess rows, their lower bounds, least bound left out) in search order: the
        guesses worth trying whose bound is below ``limit`` (all of them with a beam)."""
        return self._split(cands, allowed, depth, limit, self._no_cap)[:3]

    def _split(self, cands, allowed, depth, limit, cap, head=0, beam=None):
        """:meth:`_order`, and each allowed row's number of buckets (or its ``cap``: see
        :func:`~deductive.kernels.search.split_bounds`, and its ``head``); ``beam`` 0
        lifts the search's beam."""
        n = len(cands)
        rows = self._all_rows if allowed is None else getattr(allowed, "rows", None)
        if rows is None:
            rows = np.flatnonzero(allowed).astype(np.int64)
        columns = self._columns(n)
        return split_bounds(self.matrix, self._no_columns if columns is None else columns,
                            columns is not None, rows, cands, self.game.guess_to_answer,
                            self.patterns.n_codes, self.floor, limit,
                            depth is not None and depth == 2,
                            (self.beam or 0) if beam is None else beam, cap,
                            limit + CAP_MARGIN * n // 100, head)

    def _search(self, cands, allowed, depth, beta, known):
        # the parent's bucket counts cap this set's (a subset of its set)
        caps = self._caps
        cap = caps[-1] if caps else self._no_cap
        rows, bounds, cut, buckets = self._split(cands, allowed, depth, beta, cap, SCAN_HEAD)
        caps.append(buckets)
        beyond = None
        if self.beam and depth is not None:
            beyond = lambda: self._split(cands, allowed, depth, beta, self._no_cap,  # noqa: E731
                                         beam=0)[:3]
        try:
            entry = self._scan(cands, allowed, depth, rows.tolist(), bounds.tolist(), cut,
                               beta, known,
                               lambda: self._split(cands, allowed, depth, beta, cap)[:3],
                               beyond)
        finally:
            caps.pop()
        return entry

    def _scan(self, cands, allowed, depth, rows, bounds, cut, beta, known, rest=None,
              beyond=None):
        """The best guess of ``rows`` (in search order, with their ``bounds``; ``cut`` the
        least bound of those left out) if its total is below ``beta``, else a bound.
        ``rows`` may be the head of the list (:data:`SCAN_HEAD`); once it is tried and
        ``cut`` is still below the ceiling, ``rest()`` gives the whole list.

        A beam whose every guess has no tree within the guesses left (``beyond()`` given:
        the whole order below the ceiling, its bounds and the least bound left out) tries
        the next guesses of that order, up to :data:`BEAM_FALLBACK` of them, until as
        many as the beam have improved on the best tree found (the best is kept)."""
        best, best_worst, choice = INFEASIBLE, 0, -1
        failed = INFEASIBLE            # least lower bound over the guesses that missed the ceiling
        start = 0
        while True:
            for guess, bound in zip(rows[start:], bounds[start:]):
                limit = min(best, beta)
                if bound >= limit:
                    failed = min(failed, bound)
                    break
                total, worst, complete = self._guess_total(guess, cands, allowed, depth, limit)
                if complete:
                    best, best_worst, choice = total, worst, guess
                else:
                    failed = min(failed, total)
            else:                      # every guess below the ceiling tried: the next bound
                if rest is not None and cut < min(best, beta):
                    start = len(rows)  # the head was not enough: the whole list, past it
                    every, their_bounds, cut = rest()
                    rows, bounds, rest = every.tolist(), their_bounds.tolist(), None
                    continue
                failed = min(failed, cut)
            break
        if beyond is not None and best >= INFEASIBLE and failed >= INFEASIBLE:
            # every guess of the beam below INFEASIBLE was tried (a bound that stopped the
            # loop sooner would have made `failed` finite); the rest of the order is new
            tried = set(rows)
            every, their_bounds, cut = beyond()
            rows = [(g, b) for g, b in zip(every.tolist(), their_bounds.tolist())
                    if g not in tried]
            fits = 0
            for guess, bound in rows[:BEAM_FALLBACK]:
                limit = min(best, beta)
                if bound >= limit:
                    failed = min(failed, bound)
                    break
                total, worst, complete = self._guess_total(guess, cands, allowed, depth, limit)
                if complete:
                    best, best_worst, choice = total, worst, guess
                    fits += 1
                    if fits == self.beam:
                        break
                else:
                    failed = min(failed, total)
            else:   # those left out at the ceiling cost at least the least of their bounds
                failed = min(failed, cut)   # (past the cap: not the beam's, as in the beam)
        if best < beta:
            return _Entry(best, True, best_worst, choice)
        return _Entry(max(known, beta, min(failed, INFEASIBLE)), False)

    def _guess_total(self, guess, cands, allowed, depth, limit, progress=None):
        """(total, worst, True) of the best trees over ``cands`` that open with ``guess``
        when that total is below ``limit``; else (a lower bound >= limit, 0, False).
        ``progress`` is called with the number of candidates whose subtree is done."""
        child_depth = None if depth is None else depth - 1
        children, lows = self._children(guess, cands, allowed, child_depth)
        running = len(cands) + sum(lows)
        if running >= limit:
            return running, 0, False
        # largest first: the likeliest to pass the ceiling. With no ceiling nothing is cut,
        # and smallest first lets the larger sets meet the smaller ones' memo entries
        # (measured on the exact Bulls and Cows search: README).
        sign = 1 if limit >= INFEASIBLE else -1
        by_size = sorted(range(len(children)), key=lambda i: sign * len(children[i][0]))
        if self.probe:
            running = self._probe(children, lows, by_size, child_depth, limit - running)
            running += len(cands)
            if running >= limit:
                return running, 0, False
        worst, done = 1, len(cands) - sum(len(grp) for grp, _ in children)
        for k in by_size:
            grp, a = children[k]
            running -= lows[k]
            value, sub_worst, exact = self.solve(grp, a, child_depth, limit - running)
            running += value
            if not exact or running >= limit:
                return running, 0, False
            worst = max(worst, 1 + sub_worst)
            if progress is not None:
                done += len(grp)
                progress(done)
        return running, worst, True

    def _probe(self, children, lows, by_size, depth, slack):
        """Raise the children's bounds ``lows`` (in place) towards refuting their guess:
        each child of three or more answers is searched only to its share of ``slack`` (the
        total the guess's bound may still rise before it reaches its ceiling), in
        proportion to its size, largest first; stops once the shares are spent. Returns
        the sum of the new bounds.

        A guess is refuted when its children's bounds add up to its ceiling; a child
        searched with all the slack as its ceiling is mostly solved exactly, whereas
        proving a fraction of the slack for each child costs far less. Bounds are exact
        values or proven ones, so the totals found do not change, only the work."""
        weight = sum(len(children[k][0]) for k in by_size if len(children[k][0]) > 2)
        left = slack
        for k in by_size:
            grp, a = children[k]
            if len(grp) <= 2 or left <= 0:
                continue
            share = -(-slack * len(grp) // weight)
            value, _, _ = self.solve(grp, a, depth, lows[k] + share)
            left -= value - lows[k]
            lows[k] = value
        return sum(lows)

    def best_guess(self, cands: np.ndarray, allowed=None, depth: int | None = None) -> int:
        """First guess of the best tree (of the beam) over ``cands``; -1 if none fits."""
        if len(cands) <= 2:
            return int(self.game.answer_to_guess[cands[0]])
        value, _, exact = self.solve(cands, allowed, depth)
        if not exact:
            return -1
        return self._lookup(self._key(cands, allowed), depth)[1].choice

    # -- results ------------------------------------------------------------------------------
    def opener_total(self, first: int, limit: int = INFEASIBLE, progress=None):
        """(total, worst, depth, True) of the best trees opening with guess index ``first``
        when that total is below ``limit`` (worst: the least worst case among them, found
        within ``depth`` guesses); else (a lower bound >= limit, 0, None, False)."""
        game = self.game
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        depth = self.max_guesses
        if self.beam is None:           # cap the first buckets' buckets (the same root
            if self._root_cap is None:  # for every opener: counted once)
                self._root_cap = self._split(cands, allowed, None, 0, self._no_cap)[3]
            self._caps.append(self._root_cap)
        try:
            total, worst, ok = self._guess_total(first, cands, allowed, depth, limit,
                                                 progress)
            if not ok:
                return total, 0, None, False
            # the same total within fewer guesses? (a beam may even find a smaller one
            # there: its fallback tries other guesses; the total is then that tree's)
            while worst > 1:
                t, w, ok = self._guess_total(first, cands, allowed, worst - 1, total + 1)
                if not ok:
                    break
                depth, worst, total = worst - 1, w, t
            return total, worst, depth, True
        finally:
            del self._caps[:]

    def search_opener(self, opener, keep_tree: bool = False, progress=None) -> SearchResult:
        """Search the best tree that starts with ``opener`` (ties: the smaller worst case).

        ``progress``, if given, is called with the number of answers whose subtree is
        searched (of all the answers), as the opener's buckets are done."""
        game = self.game
        start = time.perf_counter()
        first = game.guess_index(opener)
        total, worst, depth, ok = self.opener_total(first, progress=progress)
        if not ok:
            where = (f"the {self.beam} best guesses per node (`beam` {self.beam}, and up to "
                     f"{BEAM_FALLBACK} more where none fits) give no "
                     if self.beam is not None else "no ")
            fix = "; widen `beam` or raise `max_guesses`" if self.beam is not None else ""
            raise DeductiveError(f"{where}tree opening with {game.word(first)!r} that "
                                 f"solves every answer within {self.max_guesses} guesses{fix}")
        cands = np.arange(len(game.answers), dtype=np.int64)
        allowed = np.ones(len(game.guesses), dtype=bool) if game.hard else None
        tree = self.tree(cands, allowed, depth, first) if keep_tree else None
        if tree is not None and self.beam is not None:
            # a beam's memo may have lost entries to its cap and met them again under
            # other ceilings: count the tree exported
            depths = check_tree(game, tree_document(game, tree)).depths
            total, worst = int(depths.sum()), int(depths.max())
        # a beam's tree is a ceiling; the opener's depth-two bound (it holds under
        # max_guesses and in hard mode) is its floor
        lower = int(total) if self.beam is None else int(opener_bounds(game, [first])[0])
        return SearchResult(game.word(first), int(total), int(worst), len(cands),
                            self.beam is None, self.beam, time.perf_counter() - start,
                            self.nodes, tree, lower, max_guesses=self.max_guesses)

    def tree(self, cands: np.ndarray, allowed=None, depth: int | None = None,
             guess: int | None = None) -> dict:
        """The best tree (of the beam) over ``cands`` within ``depth`` guesses as a root
        node ``{"guess": WORD, "then": {FEEDBACK: NODE}}`` (:mod:`.tree`); ``guess``: its
        first guess, else the best one (:meth:`best_guess`)."""
        game = self.game
        if guess is None:
            guess = self.best_guess(cands, allowed, depth)
        node = {"guess": game.word(guess), "then": {}}
        for code, grp in self.game.split(guess, cands):
            if code == self.win:
                continue
            node["then"][game.format(code)] = self.tree(
                grp, self._allowed_after(allowed, guess, code),
                None if depth is None else depth - 1)
        return node


def opener_bounds(game, openers, target: int = INFEASIBLE, refine: bool = True) -> np.ndarray:
    """Depth-two lower bounds of the totals of trees opening with each guess index of
    ``openers``: n for the opener, then for each bucket B its best achievable split
    (``min over h of 3|B| - [h in B] - buckets(h)``; 1 and 3 for one and two answers),
    over the guesses h allowed after the opener's feedback: every guess, or in hard mode
    those the game allows (:meth:`allowed_after`; one opener per call of the serial
    kernel, on :func:`~deductive.engine._parallel.get_threads` threads: fewer guesses per
    bucket, so a bound at least normal mode's at a lower cost).

    ``refine`` (the default) adds, for each h, one guess per group of three or more
    answers that h leaves in B and that no answer of the group splits into singletons:
    a tree over k answers totals 2k - 1 only when its first guess is one of them and
    isolates all the others, so such a group needs at least 2k
    (:func:`~deductive.kernels.search.imperfect_groups`). Without it: the plain bound.

    The bound holds under ``max_guesses`` too. Once an opener's bound reaches ``target`` it
    is not refined further (it is then at least ``target``): enough to rule the opener
    out, and much cheaper for the many poor openers.
    """
    matrix = game.matrix
    openers = np.asarray(openers, dtype=np.int64)
    n_codes = game.patterns.n_codes
    out = np.zeros(len(openers), dtype=np.int64)
    common = (matrix, answer_major(matrix), OPENER_COLUMNS_MAX, OPENER_JOINT_MIN,
              OPENER_JOINT_MAX, openers)
    after = (game.guess_to_answer, game.answer_to_guess, n_codes, game.win_code,
             bool(refine), min(int(target), INFEASIBLE), out)
    # the guesses by their buckets over all the answers, most first: a bucket's scoring
    # stops at the first that cannot split it better than the best found
    caps = np.asarray(game.patterns.buckets)
    by_cap = np.argsort(-caps, kind="stable")
    if not game.hard:
        rows = np.arange(matrix.shape[0], dtype=np.int64)
        every = (rows, by_cap, np.zeros(n_codes, np.int64), np.full(n_codes, len(rows), np.int64))
        run_rows(_opener_bounds_parallel, opener_bounds_rows, len(openers),
                 len(openers) * matrix.size, OPENER_BOUNDS_WORK, *common, *every, caps,
                 *after)
        return out
    everything = np.ones(matrix.shape[0], dtype=bool)

    def bound(i, g):
        row_lo, row_hi = np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64)
        parts, ordered, size = [], [], 0
        codes, counts = np.unique(matrix[g], return_counts=True)
        for code in codes[counts > 2].tolist():    # buckets of one or two need no guesses
            mask = game.allowed_after(everything, g, code)
            parts.append(np.flatnonzero(mask))
            ordered.append(by_cap[mask[by_cap]])
            row_lo[code], row_hi[code] = size, size + len(parts[-1])
            size += len(parts[-1])
        rows, rows_by_cap = ((np.concatenate(x).astype(np.int64) if x else np.zeros(0, np.int64))
                             for x in (parts, ordered))
        opener_bounds_rows(*common, rows, rows_by_cap, row_lo, row_hi, caps, *after, i, i + 1)

    # the kernel releases the GIL (about 85% of an opener's time): one opener per thread
    with ThreadPoolExecutor(max(1, min(get_threads(), len(openers)))) as pool:
        list(pool.map(bound, range(len(openers)), openers.tolist()))
    return out


#: Largest bucket :func:`opener_bounds` scores from the answer-major matrix (pairwise:
#: quadratic in the bucket). Past it a bitmask of codes per guess row is faster, and the
#: guesses go by cap (measured over every guess, one thread: 80 answers 4.6 ms pairwise,
#: 4.4 ms by bitmask; 120: 9.9 and 5.9 ms; 200: 25.2 and 8.4 ms).
OPENER_COLUMNS_MAX = 80

#: The plain bound of normal mode scores an opener's buckets of more than
#: ``OPENER_JOINT_MIN`` and at most ``OPENER_JOINT_MAX`` answers together, in one pass
#: over the guess rows (:func:`~deductive.kernels.search.joint_splits`). Smaller buckets
#: mostly have a guess that splits them perfectly, found early; larger ones stop early by
#: their caps. Measured on 40 openers of the original lists, one thread: their buckets of
#: 11-320 answers 2.12 s one by one, 0.95 s together.
OPENER_JOINT_MIN = 10
OPENER_JOINT_MAX = 320

#: Openers x matrix codes from which :func:`opener_bounds` runs in parallel: one opener
#: costs tens of milliseconds (a whole-matrix pass), so two already pay for the threads.
OPENER_BOUNDS_WORK = 2 * 12_972 * 2_315

#: Beam width of the searches that give :func:`prove_openers` its first ceiling, and how
#: many totals beyond the N asked for it takes (the best by entropy is not the best
#: opener: on the original lists soare is, 7,997, and salet eighth, 7,920).
CEILING_BEAM = 10
CEILING_EXTRA = 10
#: Most openers beam-searched for those totals, as a multiple of the totals wanted: a beam
#: may find no tree within ``max_guesses`` (hard mode within 6 on the original lists: 8
#: of the 15 best by entropy find one, 2 before the beam's fallback), and then openers
#: further down are tried.
CEILING_TRIES = 10

#: Openers bounded per kernel call (and per checkpoint flush) by :func:`prove_openers`.
BOUND_BATCH = 256


@dataclass
class OpenerProof:
    """What :func:`prove_openers` proved: a row per opener and the ranking they give.

    Attributes
    ----------
    rows : list of dict
        One per opener: ``word``, ``lower`` (a proven lower bound of its total), ``total``
        and ``worst`` (exact, or None), ``exact``, ``by`` (``"bound"``: ruled out by the
        depth-two bound alone; ``"search"``: searched under the ceiling) and ``seconds``.
    keep : int
        How many best openers were ranked exactly.
    ceiling : int
        Every opener not ranked has a lower bound above it.
    within : int, optional
        Every opener within this many guesses of the best was ranked exactly too.
    """

    rows: list
    keep: int
    ceiling: int
    within: int | None = None

    def _exact(self) -> list[dict]:
        return sorted((r for r in self.rows if r["exact"]),
                      key=lambda r: (r["total"], r["worst"], r["index"]))

    def ranking(self) -> list[dict]:
        """The ``keep`` best rows (ties: worst case, then guess order), all exact, and every
        further row within ``within`` of the best total."""
        exact = self._exact()
        if self.within is None or not exact:
            return exact[:self.keep]
        near = exact[0]["total"] + self.within
        return [r for k, r in enumerate(exact) if k < self.keep or r["total"] <= near]

    def best(self) -> list[str]:
        """Every opener that attains the least total (the proven optimum), in the order
        of :meth:`ranking`."""
        exact = self._exact()
        return [r["word"] for r in exact if r["total"] == exact[0]["total"]]

    def as_dict(self) -> dict:
        """The proof as ``search --openers N --prove-best --json`` prints it."""
        return {"best": self.best(), "ceiling": self.ceiling, **self.counts(),
                "ranking": self.ranking()}

    def counts(self) -> dict:
        """How the openers were decided: ``bound`` (ruled out by the bound alone),
        ``search`` (searched: exact or ruled out under the ceiling), ``exact``."""
        return {"openers": len(self.rows),
                "bound": sum(r["by"] == "bound" for r in self.rows),
                "search": sum(r["by"] == "search" for r in self.rows),
                "exact": sum(bool(r["exact"]) for r in self.rows)}


def proof_tag(game, keep, max_guesses, within=None) -> dict:
    """The checkpoint tag of :func:`prove_openers` (rows keyed by the word)."""
    tag = dict(search_tag(game, None, max_guesses), proof=PROOF, keep=keep)
    if within is not None:
        tag["within"] = within
    return tag


def _cutoff(exact, keep, within) -> int:
    """The least total that no longer needs ranking, given the exact totals found so far
    (sorted): past the ``keep``-th, and past the best + ``within``."""
    by_keep = exact[keep - 1] if len(exact) >= keep else INFEASIBLE
    if within is None:
        return by_keep
    return max(by_keep, exact[0] + within if exact else INFEASIBLE)


def prove_openers(game, keep: int = 1, *, within: int | None = None, max_guesses=None,
                  checkpoint=None, memo_bytes=None, progress=None, pool=None) -> OpenerProof:
    """Rank the ``keep`` best openers among all guesses exactly, and prove every other
    opener worse; with ``within`` D, also every opener whose total is at most the best + D.

    1. A ceiling U: the ``keep``-th least total among beam searches
       (:data:`CEILING_BEAM`) of the best openers by entropy, down the list until
       ``keep + CEILING_EXTRA`` of them found a tree (at most :data:`CEILING_TRIES`
       times as many tried; with ``within``: at least the least of them + D). A beam
       total is a real tree's, so the ``keep``-th least exact total, and the best + D,
       are at most U.
    2. The plain depth-two bound (:func:`opener_bounds`) of every opener: one of U + 1
       or more is out (row ``by="bound"``, ``lower`` that bound).
    3. The others, by that bound (ties: guess order), are decided under the ceiling
       L = ``min(U, T) + 1``, T being the ``keep``-th least exact total found so far
       (with ``within``: at least the least found so far + D): out if their plain bound,
       or then their refined bound, reaches L (``by="bound"``, ``lower`` L: refining
       costs about a tenth of a search, and it is spent only on the openers still in
       play once the ceiling has fallen), else searched exactly under L: an exact row
       when the total is below L, else a row whose ``lower`` is L.

    The beams and searches run in ``pool`` (default :class:`LocalSearches`: one
    :class:`TreeSearch`, its memo capped at ``memo_bytes``, serves every opener). A pool
    of several slots works on the next openers under the ceiling known when each starts,
    which is at least as high as the one its row is decided under; the row is then what
    the latter gives (:func:`_proof_row`), so the file is the same with any pool. With
    ``checkpoint`` each row is appended as it is decided and a rerun resumes; every row
    but ``seconds`` is the same as in an uncut run (the ceilings depend only on the rows
    before). ``progress`` is called with the number of openers decided.
    """
    from ...checkpoint import Checkpoint

    if keep < 1:
        raise ArgumentError(f"`keep` must be at least 1, not {keep}")
    if within is not None and within < 0:
        raise ArgumentError(f"`within` must be at least 0, not {within}")
    n_guesses = len(game.guesses)
    keep = min(keep, n_guesses)
    store = Checkpoint(checkpoint, proof_tag(game, keep, max_guesses, within),
                       about=lists_about(game))
    done = store.load(proof_row_valid(game))
    rows = list(done.values())
    if progress is not None:
        progress(len(rows))

    def decide(row):
        rows.append(row)
        store.append(row["word"], row)
        if progress is not None:
            progress(len(rows))

    if pool is None:
        pool = LocalSearches(game, max_guesses, memo_bytes)
    # 1. the ceiling
    ceiling = min(_cutoff(_beam_totals(game, keep + CEILING_EXTRA, pool), keep, within),
                  INFEASIBLE - 1)
    # 2. bounds of every opener not yet decided (a resumed run: also of those searched)
    todo = np.array([g for g in range(n_guesses) if game.word(g) not in done], np.int64)
    found = np.zeros(len(todo), dtype=np.int64)
    def bound_rows(openers, lows, each):
        for g, low in zip(openers.tolist(), lows.tolist()):
            if low > ceiling:
                decide({"word": game.word(g), "index": g, "lower": low, "total": None,
                        "worst": None, "exact": False, "by": "bound",
                        "seconds": round(each, 4)})

    for lo in range(0, len(todo), BOUND_BATCH):
        start = time.perf_counter()
        batch = todo[lo:lo + BOUND_BATCH]
        found[lo:lo + len(batch)] = opener_bounds(game, batch, ceiling + 1, refine=False)
        bound_rows(batch, found[lo:lo + len(batch)],
                   (time.perf_counter() - start) / max(1, len(batch)))
    # 3. searches under the ceiling, the most promising first (each refines its opener's
    # bound first, under the ceiling of the moment)
    queue = [(int(todo[k]), int(found[k])) for k in np.lexsort((todo, found)).tolist()
             if found[k] <= ceiling]
    exact = sorted(r["total"] for r in rows if r["exact"])
    ready: dict = {}                    # place in the queue -> search result, or None
    sent = decided = in_flight = 0

    def limit():                        # the ceiling given the rows decided so far
        return min(ceiling, _cutoff(exact, keep, within)) + 1

    while decided < len(queue):
        while sent < len(queue) and in_flight < pool.slots:
            g, low = queue[sent]
            now = limit()
            if low >= now:              # out by its bound whatever is decided before it
                ready[sent] = None
            else:
                pool.submit(sent, g, now)
                in_flight += 1
            sent += 1
        while decided not in ready:
            place, result = pool.next()
            ready[place] = result
            in_flight -= 1
        while decided in ready:
            g, low = queue[decided]
            row = _proof_row(game, g, low, limit(), ready.pop(decided))
            if row["exact"]:
                exact = sorted(exact + [row["total"]])
            decide(row)
            decided += 1
    return OpenerProof(rows, keep, min(ceiling, _cutoff(exact, keep, within)), within)


def _beam_totals(game, wanted: int, pool) -> list[int]:
    """The totals of the beam searches (:data:`CEILING_BEAM`) of the best openers by
    entropy that find a tree, down the list until ``wanted`` have one (at most
    :data:`CEILING_TRIES` times as many tried), sorted: the same on any ``pool`` (its
    searches run ahead of the list's order by at most the totals still wanted)."""
    from .scoring import rank_guesses

    openers = [game.guess_index(s.word)
               for s in rank_guesses(game.patterns, top=CEILING_TRIES * wanted)]
    totals: list = []
    ready: dict = {}
    sent = used = 0
    while len(totals) < wanted and used < len(openers):
        while (sent < len(openers) and sent - used - len(ready) < pool.slots
               and sent - used < wanted - len(totals)):
            pool.submit(sent, openers[sent], INFEASIBLE, beam=True)
            sent += 1
        place, result = pool.next()
        ready[place] = result
        while used in ready and len(totals) < wanted:
            total, _, ok, _, _ = ready.pop(used)
            if ok:                      # else no tree within max_guesses in the beam
                totals.append(int(total))
            used += 1
    for _ in range(sent - used - len(ready)):
        pool.next()                     # none left running when the searches start
    return sorted(totals)


def _proof_row(game, g, low, limit, result) -> dict:
    """The row of opener ``g`` (plain bound ``low``) decided under ``limit``, from its
    pool result ``(total, worst, ok, seconds, refined)`` under any limit at least
    ``limit`` (None: not sent): the row a search under ``limit`` itself gives.

    Out by its bound (``by="bound"``) when ``low`` or the refined bound reaches ``limit``;
    its ``lower`` is then ``low``, or ``limit`` (the refined bound, cut short at the
    limit it was sent with, is no more than a proof of that). Else an exact total below
    ``limit`` is the same under both limits; any other outcome proves the total at least
    ``limit``."""
    if result is None or low >= limit:
        total, worst, ok, seconds = low, 0, False, 0.0
        by = "bound"
    else:
        total, worst, ok, seconds, refined = result
        by = "bound" if refined >= limit else "search"
        ok = ok and total < limit and by == "search"
    return {"word": game.word(g), "index": g,
            "lower": int(total) if ok else max(low, limit),
            "total": int(total) if ok else None, "worst": int(worst) if ok else None,
            "exact": bool(ok), "by": by, "seconds": round(seconds, 4)}


class LocalSearches:
    """The searches of :func:`prove_openers` in this process, one at a time, sharing one
    :class:`TreeSearch` (its memo capped at ``memo_bytes``).

    A pool of searches has ``slots`` (how many may run at once), ``submit(place, g,
    limit, beam=False)`` and ``next()``, which returns ``(place, (total, worst, ok,
    seconds, refined))`` of a finished task: opener ``g``'s refined bound under ``limit``
    (:func:`opener_bounds` with that target), then, when it is below ``limit``, its search
    (``ok``: ``total`` is exact and below ``limit``; else it is a lower bound of at least
    ``limit``); with ``beam``, its beam search (:data:`CEILING_BEAM`) alone, refined 0.
    :func:`deductive.distributed.wordle_prove_openers` runs them on Dask.
    """

    slots = 1

    def __init__(self, game, max_guesses=None, memo_bytes=None):
        self.search = TreeSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
        self._beam = None
        self._waiting: list = []

    def submit(self, place: int, g: int, limit: int, beam: bool = False) -> None:
        self._waiting.append((place, g, limit, beam))

    def next(self) -> tuple[int, tuple]:
        place, g, limit, beam = self._waiting.pop(0)
        return place, self.run(g, limit, beam)

    def run(self, g: int, limit: int, beam: bool = False) -> tuple:
        """One task's result (the beams share a search of their own, dropped at the first
        search; under ``max_guesses`` each has its own: see :func:`beam_search`)."""
        if not beam:
            self._beam = None
            return search_under(self.search, g, limit)
        if self.search.max_guesses is not None:
            return search_under(beam_search(self.search.game, self.search.max_guesses), g,
                                limit)
        if self._beam is None:
            self._beam = beam_search(self.search.game, None)
        return search_under(self._beam, g, limit)


def beam_search(game, max_guesses) -> TreeSearch:
    """A search for the first ceiling's beams. Their values are the same whichever path
    reaches a set, so the beams of a run share one (its memo saves a third of their time
    on the original lists) except under ``max_guesses``: a beam value may then depend on
    the path that first reached its set (see the module's notes), so each beam gets a new
    search, whichever worker runs it and whatever it ran before."""
    return TreeSearch(game, beam=CEILING_BEAM, max_guesses=max_guesses)


def search_under(search, g: int, limit: int) -> tuple:
    """``(total, worst, ok, seconds, refined)`` of opener ``g`` under ``limit`` (see
    :class:`LocalSearches`); a beam search is not refined."""
    start = time.perf_counter()
    refined = 0
    if search.beam is None:
        refined = int(opener_bounds(search.game, [g], limit)[0])
        if refined >= limit:
            return refined, 0, False, time.perf_counter() - start, refined
    total, worst, _, ok = search.opener_total(g, limit)
    return int(total), int(worst), bool(ok), time.perf_counter() - start, refined


def lists_about(game) -> dict:
    """The provenance a saved file of ``game`` records: its lists' names and SHA-256 and
    its rules (for a game without named lists, their sizes)."""
    identity = game.identity()
    about = {"hard": game.hard}
    for side in ("guesses", "answers"):
        about[side] = {"name": identity.get(side), "size": len(getattr(game, side)),
                       "sha256": identity.get(f"{side}_sha256")}
    return about


def proof_row_valid(game):
    """``valid(key, row)`` for :meth:`Checkpoint.load`: a row of :func:`prove_openers`
    that names a guess of ``game`` (its own word and index) and holds numbers where the
    proof reads them."""
    n = len(game.guesses)

    def valid(key, row):
        g = row["index"]
        if not (isinstance(g, int) and 0 <= g < n and row["word"] == key == game.word(g)):
            return False
        if row["by"] not in ("bound", "search") or not isinstance(row["lower"], int):
            return False
        if row["exact"] is True:
            return isinstance(row["total"], int) and isinstance(row["worst"], int)
        return row["exact"] is False
    return valid


def read_proof(game, path) -> tuple[dict, list[dict], list[str]]:
    """The tag, rows and problems of a :func:`prove_openers` file for ``game`` (read only;
    plain or gzip, bounded as :func:`~deductive.checkpoint.read_entries` says).

    Refused (:class:`ArgumentError`): a file of other lists, one of a format this version
    does not read (formats 1, without digests, and 2 are read: a certificate is checked by
    recomputation, whichever version wrote it), one holding several proofs of this game
    and mode, one with no row of them. The rows are the last row of each word whose digest
    holds; the problems name every row that is not a row of this game's proof (a word not
    in the list, a wrong index, a digest that does not hold, two rows of one word that
    differ)."""
    import warnings

    from ...checkpoint import FORMAT, inputs_digest, read_entries, row_digest, version_family
    from ...errors import DeductiveWarning

    identity = game.identity()
    ours = (identity.get("guesses_sha256"), identity.get("answers_sha256"))
    version = version_family(_package_version())
    tags: dict = {}
    problems: list = []
    found: dict = {}                    # word -> (line, row)
    damaged: dict = {}                  # word -> its first row whose digest fails
    legacy = 0                          # rows of format 1 (written without a digest)
    other_mode = False
    valid = proof_row_valid(game)
    for number, entry in read_entries(path, "certificate"):
        tag = entry.get("tag")
        if not isinstance(tag, dict) or tag.get("proof") not in PROOFS or "key" not in entry:
            continue
        if (tag.get("guesses"), tag.get("answers")) != ours:
            raise ArgumentError(
                f"{path}: a certificate of other lists (line {number}: guesses SHA-256 "
                f"{str(tag.get('guesses'))[:12]}..., these lists {str(ours[0])[:12]}...); "
                "give the --guesses and --answers it was made with")
        if tag.get("hard") != game.hard:
            other_mode = True
            continue
        made, form = entry.get("deductive"), entry.get("format", 1)
        if form not in (1, FORMAT) or (form == FORMAT) != (made is not None):
            raise ArgumentError(
                f"{path}: line {number} is of certificate format {form} (written by "
                f"deductive {made}); this deductive ({version}.x) reads formats 1 and "
                f"{FORMAT}: upgrade deductive")
        canonical = json.dumps(tag, sort_keys=True)
        tags.setdefault(canonical, True)
        key, row = entry["key"], entry["result"]
        name = f"row {str(key)[:40]!r} (line {number})"
        if form == 1:                   # no digest: checked by recomputation as the rest
            legacy += 1
        elif entry.get("digest") != row_digest(inputs_digest(tag, made), key, row):
            damaged.setdefault(str(key), name)
            continue
        try:
            ok = isinstance(row, dict) and valid(key, row)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            ok = False
        if not ok:
            problems.append(f"{name}: not an opener row of {identity.get('guesses')} "
                            f"({'not a guess' if str(key) not in game._words else 'malformed'})")
            continue
        if key in found and found[key][1] != row:
            problems.append(f"{name}: a second row of {key} that differs from line "
                            f"{found[key][0]}")
        found[key] = (number, row)
    if len(tags) > 1:
        raise ArgumentError(f"{path}: holds {len(tags)} proofs of these lists (other "
                            "--openers, --within or --max-guesses); give a file of one")
    if not tags:
        hint = ("it holds rows of the other mode; give the same --hard as the proof"
                if other_mode else
                "it holds no opener rows; give the --checkpoint file of search --prove-best")
        raise ArgumentError(f"{path}: no opener rows of these lists: {hint}")
    tag = json.loads(next(iter(tags)))
    # a row whose digest fails is no gap when a valid row of its word follows (a resumed
    # run computes it again)
    problems += [f"{name}: its digest does not hold (edited or damaged)"
                 for word, name in damaged.items() if word not in found]
    if legacy:
        warnings.warn(f"{path}: {legacy} row(s) of certificate format 1 carry no digest; "
                      "each is checked by recomputation as the others are",
                      DeductiveWarning, stacklevel=2)
    return tag, [row for _, row in found.values()], problems


def _package_version() -> str:
    from ...checkpoint import package_version

    return package_version()


def verify_proof(game, path, *, sample: int = 3, seed: int = 0, progress=None) -> dict:
    """Check a :func:`prove_openers` file as a proof, for ``game``'s lists and mode.

    1. Coverage: one row for every opener of the guesses, none for anything else, each
       row's digest holding (:func:`read_proof`).
    2. Every row's bound recomputed (the plain depth-two bound of :func:`opener_bounds`,
       in one call): at most an exact row's total; for a row that is not exact, its claim
       must exceed the proof's threshold (the best total, or the ``keep``-th, or the best
       + ``within``) and hold: a row ruled out by the bound (``by="bound"``) has a plain or
       refined bound of at least its claim, one ruled out by a search is searched again
       under the threshold and must find no tree within it.
    3. The best row (least total; ties: worst case, then guess order) and ``sample`` more
       exact rows drawn with ``seed`` are searched again from scratch (a fresh memo): their
       total and worst case must be the claimed ones, and their trees pass
       :func:`~.tree.check_tree`.

    Returns ``{"rows", "openers", "best", "threshold", "sample", "seed", "checked",
    "problems", "ok"}``; ``checked`` holds one entry per row re-derived (``word, kind,
    claimed, found, ok``), ``problems`` one line per gap or disagreement, naming the row.
    ``progress(k)``: k exact rows re-derived.
    """
    tag, rows, problems = read_proof(game, path)
    max_guesses = tag.get("max_guesses")
    keep, within = int(tag.get("keep", 1)), tag.get("within")
    have = {r["word"] for r in rows}
    missing = [game.word(g) for g in range(len(game.guesses)) if game.word(g) not in have]
    if missing:
        problems.append(f"{len(missing)} of the {len(game.guesses)} openers of "
                        f"{game.identity().get('guesses')} have no row: "
                        f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''}")
    exact = sorted((r for r in rows if r["exact"]),
                   key=lambda r: (r["total"], r["worst"], r["index"]))
    threshold = _cutoff([r["total"] for r in exact], keep, within)
    if not exact:
        problems.append("no exact row: the file ranks no opener")
    checked = []
    plain = opener_bounds(game, [r["index"] for r in rows], refine=False) if rows else []
    for row, low in zip(rows, np.asarray(plain).tolist()):
        word, claim = row["word"], row["lower"]
        if row["exact"]:
            if low > row["total"]:
                problems.append(f"row {word}: total {row['total']} is below its bound {low}")
            continue
        if exact and claim <= threshold:
            problems.append(f"row {word}: claims at least {claim}, which does not rule it "
                            f"out (the threshold is {threshold})")
            checked.append({"word": word, "kind": row["by"], "claimed": claim,
                            "found": low, "ok": False})
            continue
        if row["by"] == "bound":
            found = low if low >= claim else int(opener_bounds(game, [row["index"]], claim)[0])
            ok = found >= claim
            if not ok:
                problems.append(f"row {word}: claims a bound of at least {claim}; "
                                f"recomputed it is {found}")
        else:
            total, _, _, fits = TreeSearch(game, max_guesses=max_guesses).opener_total(
                row["index"], threshold + 1 if exact else claim)
            found, ok = int(total), not fits
            if fits:
                problems.append(f"row {word}: claims at least {claim}, but a tree of total "
                                f"{found} exists")
        checked.append({"word": word, "kind": row["by"], "claimed": claim, "found": found,
                        "ok": ok})
    picked = exact[:1]
    if len(exact) > 1 and sample > 0:
        rng = np.random.default_rng(seed)
        more = rng.choice(len(exact) - 1, size=min(sample, len(exact) - 1), replace=False)
        picked += [exact[1 + k] for k in sorted(more.tolist())]
    for k, row in enumerate(picked):
        result = TreeSearch(game, max_guesses=max_guesses).search_opener(row["word"],
                                                                        keep_tree=True)
        claimed = {"total": row["total"], "worst": row["worst"]}
        try:
            report = check_tree(game, tree_document(game, result.tree))
            found = {"total": int(report.depths.sum()), "worst": int(report.depths.max())}
        except DeductiveError as exc:
            found = {"tree": str(exc)}
        ok = found == claimed and result.total == row["total"]
        if not ok:
            problems.append(f"row {row['word']}: claims {claimed}; searched again: {found}")
        checked.append({"word": row["word"], "kind": "best" if k == 0 else "exact",
                        "claimed": claimed, "found": found, "ok": ok})
        if progress is not None:
            progress(k + 1)
    return {"rows": len(rows), "openers": len(game.guesses),
            "best": [r["word"] for r in exact if r["total"] == exact[0]["total"]],
            "threshold": None if threshold >= INFEASIBLE else threshold,
            "sample": len(picked) - 1 if picked else 0, "seed": seed, "checked": checked,
            "problems": problems, "ok": not problems}


def search_tag(game, beam, max_guesses) -> dict:
    """The checkpoint tag of an openers search (one entry per opener, keyed by the word),
    in one process or on Dask: the search's settings and the game's identity."""
    identity = game.identity()
    return {"beam": beam, "hard": game.hard, "max_guesses": max_guesses,
            "guesses": identity.get("guesses_sha256"), "answers": identity.get("answers_sha256")}


def search_openers(game, words, *, beam=None, max_guesses=None, checkpoint=None,
                   progress=None) -> list[dict]:
    """Searched totals of several openers (one :class:`TreeSearch` shares its memo among
    them), as ``SearchResult.as_dict()`` rows in the order given. With ``checkpoint`` (a
    path), each finished opener is appended there and a rerun skips those already there."""
    from ...checkpoint import Checkpoint

    searcher = TreeSearch(game, beam=beam, max_guesses=max_guesses)
    store = Checkpoint(checkpoint, search_tag(game, beam, max_guesses), about=lists_about(game))
    done = store.load(lambda key, row: row["word"] == key and key in game._words)
    rows = []
    for k, word in enumerate(words, start=1):
        if word not in done:
            done[word] = searcher.search_opener(word).as_dict()
            store.append(word, done[word])
        rows.append(done[word])
        if progress is not None:
            progress(k)
    return rows


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
        return search.search_opener(word).as_dict()


def proof_search_chunk(g, game, token, max_guesses, memo_bytes, limit, beam=False) -> tuple:
    """:func:`search_under` for a pool of searches on several processes (as
    :func:`search_opener_chunk`; with ``beam``, a first ceiling's beam, in a search of its
    own: :func:`beam_search`)."""
    if beam and max_guesses is not None:
        return search_under(beam_search(game, max_guesses), g, limit)
    # the beams' search is dropped when the run's first search is made here (a new key)
    search, lock = (run_search(f"{token}:beam", game, beam=CEILING_BEAM) if beam else
                    run_search(token, game, max_guesses=max_guesses, memo_bytes=memo_bytes))
    with lock:
        return search_under(search, g, limit)


def forget_search(token) -> None:
    """Drop a run's searches (and their memos) from this process."""
    with _RUN_LOCK:
        _RUN_SEARCHES.pop(token, None)
        _RUN_SEARCHES.pop(f"{token}:beam", None)
