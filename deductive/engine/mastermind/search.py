"""Exact searches of Mastermind-like games, pruned by their symmetries.

Permuting the positions (sigma) and the colours (pi) of every code keeps every feedback.
So at a node reached by the guesses H, every symmetry that fixes each guess of H maps the
node's candidate set onto itself, and two guesses in one orbit of that group have equal
values: the search needs only one guess per orbit. It keeps the lowest code of each orbit,
which is the guess the full search would choose (guesses are tried in order of bound,
expected size, then index; the others of an orbit tie with it and come later), so the
trees are the very trees of the full search, found with a fraction of the work.

The group fixing H is: the position permutations sigma for which ``pi(h[sigma(i)]) =
h[i]`` for every h of H defines a consistent one-to-one pi on the colours H uses, each
with every permutation of the colours H does not use. A code's orbit minimum is the least,
over those sigma, of the code permuted and its free colours renamed to the lowest free
ones in order of first appearance.

The core's tree search (:class:`~deductive.engine.feedback.search.TreeSearch`) runs
unchanged: the guesses allowed at a node (its hard-mode hook,
:meth:`~deductive.engine.feedback.game.FeedbackGame.allowed_after`) are the orbit minima.
:class:`WorstCaseSearch` adds the other objective, the least worst case (the core's
search over the same orbit minima).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import time

import numpy as np

from ...errors import ArgumentError, DeductiveError
from ...kernels.mastermind import canonical_symmetry, orbit_minima_mask, symmetry_image
from ..feedback.scoring import partition_stats
from ..feedback.tree import TREE
from ..feedback.search import (INFEASIBLE, SearchResult, TreeSearch, deep_opener_bound,
                              opener_bounds)
from ..feedback.worst import MEMO_BYTES as _WORST_MEMO_BYTES
from ..feedback.worst import WorstCaseSearch as _WorstCaseSearch
from ..params import Param
from .results import TreeStats

__all__ = ["PEGS_SEARCH", "SymmetricSearch", "WorstCaseSearch", "orbit_minima", "optimal",
           "best_tree", "tree_stats", "check_tree_file", "game_lower_bound"]


class _Reps(np.ndarray):
    """A mask of the guesses to try (the orbit minima) that remembers the guesses played."""

    history: tuple = ()
    trivial: bool = False
    rows = None                         # the guesses of the mask, int64 (set once)

    def __array_finalize__(self, obj):
        self.history = getattr(obj, "history", ())
        self.trivial = getattr(obj, "trivial", False)
        self.rows = getattr(obj, "rows", None)


def orbit_minima(codes: np.ndarray, colours: int, history) -> tuple[np.ndarray, bool]:
    """Mask of the codes that are the least of their orbit under the symmetries fixing
    every code of ``history`` (rows of ``codes``, colours ``0 .. colours - 1``, listed
    lexicographically), and whether that group is trivial (every code its own orbit).
    The work is :func:`deductive.kernels.mastermind.orbit_minima_mask`'s."""
    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    n, pegs = codes.shape
    hist = codes[list(history)] if len(history) else np.empty((0, pegs), np.uint8)
    mask = np.empty(n, bool)
    trivial = orbit_minima_mask(codes, colours, np.ascontiguousarray(hist), _sigmas(pegs),
                                mask)
    return mask, bool(trivial)


@functools.lru_cache(maxsize=None)
def _sigmas(pegs: int) -> np.ndarray:
    """Every permutation of ``pegs`` positions, ``int64[pegs!, pegs]``."""
    return np.array(list(itertools.permutations(range(pegs))), np.int64).reshape(-1, pegs)


#: Histories whose masks are kept (then all are dropped): a search's children share
#: their parent's history and a depth-first search comes back to few of the others, so
#: the cache need only be large enough for the stack of a search.
HISTORY_CACHE = 4096


class _SymmetryView:
    """The game as the search sees it: every attribute the game's, plus a hard-mode hook
    whose allowed guesses are the orbit minima after the guesses played."""

    hard = True

    def __init__(self, game):
        self._game = game
        self._cache: dict = {}          # sorted history -> mask
        self._after: dict = {}          # (sorted history, guess) -> mask
        self._every = np.ones(len(game.guesses), bool)
        self._every_rows = np.arange(len(game.guesses), dtype=np.int64)

    def __getattr__(self, name):
        return getattr(self._game, name)

    def allowed_after(self, allowed, guess, code):
        if getattr(allowed, "trivial", False):
            return allowed
        played = getattr(allowed, "history", ())
        mask = self._after.get((played, guess))      # the same for every code
        if mask is None:
            if len(self._cache) >= HISTORY_CACHE:        # a mask and its rows: ~45 kB
                self._cache.clear()
                self._after.clear()
            history = tuple(sorted(set(played) | {int(guess)}))
            mask = self._cache.get(history)
            if mask is None:
                reps, trivial = orbit_minima(self._game.pegs_array, self._game.colours,
                                             history)
                if trivial:             # every guess: one array and its rows, shared
                    mask, mask.rows = self._every.view(_Reps), self._every_rows
                else:
                    mask = reps.view(_Reps)
                    mask.rows = np.flatnonzero(reps).astype(np.int64)
                mask.history, mask.trivial = history, trivial
                self._cache[history] = mask
            self._after[(played, guess)] = mask
        return mask


class SymmetricSearch(TreeSearch):
    """:class:`~deductive.engine.feedback.search.TreeSearch` over one guess per orbit of
    the symmetries that fix the guesses played (see the module): the same trees, faster.

    Its memo is keyed by candidate set alone (a set's value does not depend on which
    symmetries prune its guesses), and an exact search keys a set by its image under a
    symmetry chosen from the guesses played
    (:func:`~deductive.kernels.mastermind.canonical_symmetry`): sets reached by equivalent
    histories share one entry. An entry's value is then an equivalent set's; the first
    guess of a tree is found again from the values when the tree is written
    (:meth:`best_guess`), by the search's own rule: the first guess in search order that
    attains the value. A beam search keys sets as they are (its value depends on which
    guesses the beam keeps, which is not symmetric)."""

    cache_rules = False             # the view keeps its masks by history

    def __init__(self, game, beam=None, max_guesses=None, memo_bytes=None):
        super().__init__(_SymmetryView(game), beam=beam, max_guesses=max_guesses,
                         memo_bytes=memo_bytes)
        codes = np.ascontiguousarray(game.pegs_array, dtype=np.uint8)
        self._codes, self._colours = codes, game.colours
        self._numbers = codes.astype(np.int64) @ (
            game.colours ** np.arange(codes.shape[1] - 1, -1, -1, dtype=np.int64))
        self._keys: dict = {}           # (history, feedbacks) -> key
        self._symmetries: dict = {}     # (history, feedbacks) -> (pi, sigma)

    def _key(self, cands, allowed):
        history = getattr(allowed, "history", ())
        if self.beam is not None or not 0 < len(history) <= CANONICAL_HISTORY:
            return cands.astype(np.int16).tobytes()   # MAX_CODES <= 2**15: 2 bytes a code
        feedbacks = self.matrix[list(history), cands[0]].astype(np.int64)
        # below a trivial group the mask keeps the history it had then: the node's own
        # guesses are not all in it, so it names no set; its symmetry is still valid
        node = None if allowed.trivial else (history, feedbacks.tobytes())
        key = self._keys.get(node)
        if key is None:
            pi, sigma = self._symmetry(history, feedbacks)
            image = np.empty(len(cands), np.int64)
            symmetry_image(self._codes, self._numbers, self._colours, pi, sigma, cands,
                           image)
            key = image.astype(np.int16).tobytes()
            if node is not None:
                if len(self._keys) >= KEY_CACHE:
                    self._keys.clear()
                self._keys[node] = key
        return key

    def _symmetry(self, history, feedbacks):
        """The symmetry keying the sets of the node reached by ``history`` (sorted guess
        indices) with ``feedbacks`` (:func:`~deductive.kernels.mastermind.
        canonical_symmetry`), remembered (cleared past :data:`KEY_CACHE` entries)."""
        node = (history, feedbacks.tobytes())
        found = self._symmetries.get(node)
        if found is None:
            if len(self._symmetries) >= KEY_CACHE:
                self._symmetries.clear()
            pegs = self._codes.shape[1]
            pi, sigma = np.empty(self._colours, np.int64), np.empty(pegs, np.int64)
            canonical_symmetry(self._codes[list(history)], feedbacks, self._colours,
                               _orders(len(history)), pi, sigma,
                               np.empty(len(history) * (pegs + 1), np.int64))
            found = self._symmetries[node] = (pi, sigma)
        return found

    def best_guess(self, cands, allowed=None, depth=None) -> int:
        """First guess of the best tree over ``cands``: the first in search order whose
        total is the set's value (-1 if no tree fits)."""
        if len(cands) <= 2 or self.beam is not None:
            return super().best_guess(cands, allowed, depth)
        value, _, exact = self.solve(cands, allowed, depth)
        if not exact:
            return -1
        rows, _, _ = self._order(cands, allowed, depth, value + 1)
        for guess in rows.tolist():
            if self._guess_total(guess, cands, allowed, depth, value + 1)[2]:
                return guess
        raise AssertionError(f"no guess attains the value {value} of a set")  # unreachable


#: Default cap on the estimated size of an exact search's memo (``memo_bytes``; past it
#: the smallest sets' entries go, see TreeSearch). The exact Bulls and Cows search stays
#: well under it (its peak memory: README).
MEMO_BYTES = 4 << 30

#: Histories of up to this many guesses key a set by its symmetric image (h! orders of
#: the history are tried); beyond it, sets are small and the group mostly trivial.
CANONICAL_HISTORY = 4

#: Nodes whose memo key (and keying symmetry) a search remembers (then all are
#: dropped). Above a trivial group a node's set is the codes consistent with its history
#: and feedbacks (every search here starts from every code), so its key is found once
#: although it is asked for again and again (as a child of each guess tried, then in its
#: own search); the cached key is the very bytes object the memo keeps.
KEY_CACHE = 1 << 16


@functools.lru_cache(maxsize=None)
def _orders(h: int) -> np.ndarray:
    """Every order of ``h`` history guesses, ``int64[h!, h]``."""
    return np.array(list(itertools.permutations(range(h))), np.int64).reshape(-1, h)


class WorstCaseSearch(_WorstCaseSearch):
    """The least worst case (the core's :class:`~deductive.engine.feedback.worst.
    WorstCaseSearch`) trying one guess per orbit of the symmetries fixing the guesses
    played."""

    def __init__(self, game, memo_bytes: int | None = _WORST_MEMO_BYTES):
        super().__init__(game, view=_SymmetryView(game), memo_bytes=memo_bytes)


def optimal(game, keep_tree: bool = False, max_guesses: int | None = None,
            progress=None, memo_bytes: int | None = MEMO_BYTES
            ) -> tuple[SearchResult, list[SearchResult]]:
    """The tree with the fewest total guesses over every first guess, exactly.

    One opener per symmetry class is searched (``game.openers()``), the smallest expected
    bucket first; after the first, each only has to beat the best total so far (its search
    stops as soon as it cannot).
    Returns the best result (its ``seconds`` and ``nodes``: the whole search's) and one
    per opener searched (those beaten: ``exact`` False and ``total`` a proven lower
    bound). ``memo_bytes`` caps the memo's estimated size (None: no cap)."""
    start_all = time.perf_counter()
    search = SymmetricSearch(game, max_guesses=max_guesses, memo_bytes=memo_bytes)
    cands = np.arange(len(game.answers), dtype=np.int64)
    root = np.ones(len(game.guesses), bool)
    best, rows = None, []
    firsts = np.array(game.openers(), dtype=np.int64)
    firsts = firsts[np.lexsort((firsts, partition_stats(game.patterns, rows=firsts).sumsq))]
    for k, first in enumerate(firsts.tolist()):
        start = time.perf_counter()
        if best is None:
            try:
                r = search.search_opener(game.word(first), keep_tree=keep_tree)
            except DeductiveError:          # nothing within max_guesses from this opener
                r = SearchResult(game.word(first), INFEASIBLE, 0, len(cands), False, None,
                                 time.perf_counter() - start, search.nodes)
        else:
            total, worst, ok = search._guess_total(first, cands, root, max_guesses,
                                                   best.total + 1)
            r = SearchResult(game.word(first), int(total), int(worst), len(cands), ok, None,
                             time.perf_counter() - start, search.nodes)
            if ok and (total < best.total or (total == best.total and worst < best.worst)):
                r = search.search_opener(game.word(first), keep_tree=keep_tree)
        rows.append(r)
        if r.exact and (best is None or (r.total, r.worst) < (best.total, best.worst)):
            best = r
        if progress is not None:
            progress(k + 1)
    if best is None:
        raise ArgumentError(f"no tree solves every code within `max_guesses` {max_guesses}")
    best = dataclasses.replace(best, seconds=time.perf_counter() - start_all,
                               nodes=search.nodes)
    return best, rows


def game_lower_bound(game, depth_two: bool = True, depth_three: bool = False,
                     progress=None) -> tuple[int, dict[str, int]]:
    """A proven lower bound of the least total guesses of any tree over every code, and
    the bound of each first guess it comes from.

    A tree opening with g costs n (every code meets g), plus for each non-winning bucket
    B of g at least the cheapest second guess's bound over B: ``|B| + sum floor[|S|]``
    over the buckets S that guess leaves of B (the search's guess bound,
    :func:`~deductive.kernels.search.split_bounds`, whose ``floor`` is the larger of
    2m - 1 and the counting bound :func:`~deductive.engine.feedback.search.
    counting_bounds`), over every guess. Every first guess is equivalent, under a
    symmetry of the game, to one of ``game.openers()`` (the same bound for both), so the
    least of theirs bounds every tree. With ``depth_two`` each opener's bound is also at
    least its refined depth-two bound (:func:`~deductive.engine.feedback.search.
    opener_bounds`: stronger on the smallest games only, and slow on the largest).
    Costs a pass of the matrix per opener (two with ``depth_two``).

    With ``depth_three``, the openers whose bound is below the least found so far, least
    first, are bounded again by :func:`~deductive.engine.feedback.search.
    deep_opener_bound` (each bucket's second guesses one per orbit of the symmetries
    fixing the opener, :func:`orbit_minima`; its third guesses all): their bounds up to
    that least (an opener's entry is then at least it), and the least of all exactly;
    ``progress(code, bound)`` is called as each is done. About half an hour an opener at
    5 pegs and 8 colours, on one thread."""
    search = TreeSearch(game)
    per = {}
    openers = game.openers()
    plains = opener_bounds(game, openers).tolist() if depth_two else [0] * len(openers)
    for g, plain in zip(openers, plains):
        total = len(game.answers)
        for code, grp in game.split(g, np.arange(len(game.answers), dtype=np.int64)):
            if code == game.win_code:
                continue
            if len(grp) <= 2:
                total += 2 * len(grp) - 1
                continue
            _, bounds, cut = search._order(grp, None, None, INFEASIBLE)
            total += int(bounds[0]) if len(bounds) else int(cut)
        per[game.word(g)] = max(total, int(plain))
    if depth_three:
        least = INFEASIBLE
        for g in sorted(openers, key=lambda g: per[game.word(g)]):
            if per[game.word(g)] >= least:
                break
            first, _ = orbit_minima(game.pegs_array, game.colours, (g,))
            deep = deep_opener_bound(game, g, least, first)
            per[game.word(g)] = max(per[game.word(g)], deep)
            least = min(least, per[game.word(g)])
            if progress is not None:
                progress(game.word(g), per[game.word(g)])
    return min(per.values()), per


#: The parameters of :func:`best_tree` (and ``--tree``: where the command writes it).
PEGS_SEARCH = (Param("objective", "expected", type=("expected", "worst")),
               Param("opener", None, "Search only trees opening with this code (default: "
                     "every first guess, one per symmetry class)."),
               Param("max_guesses", None, "Only trees that never need more guesses "
                     "(objective expected).", int, low=1), TREE.but(help=None))


def best_tree(game, objective: str = "expected", opener=None, max_guesses: int | None = None,
              progress=None, memo_bytes: int | None = MEMO_BYTES) -> SearchResult:
    """The exact best tree (kept in the result): the fewest total guesses (``expected``;
    every first guess, or ``opener`` only) or the fewest in the worst case (``worst``).
    ``progress`` is called with the number of first guesses searched (:func:`optimal`);
    ``memo_bytes`` caps the exact search's memo (:class:`SymmetricSearch`), or the
    worst-case search's memo and sets (:class:`WorstCaseSearch`)."""
    if objective == "worst":
        if opener or max_guesses:
            raise ArgumentError("`objective` worst takes neither `opener` nor `max_guesses`")
        return WorstCaseSearch(game, memo_bytes).search(keep_tree=True)
    if objective != "expected":
        raise ArgumentError(f"`objective` {objective!r}: choose expected or worst")
    if opener is not None:
        return SymmetricSearch(game, max_guesses=max_guesses,
                               memo_bytes=memo_bytes).search_opener(opener, True)
    return optimal(game, keep_tree=True, max_guesses=max_guesses, progress=progress,
                   memo_bytes=memo_bytes)[0]


def tree_stats(game, tree, **made) -> TreeStats:
    """The statistics of a tree (a benchmark's or a search's) as its check gives them
    (:class:`~deductive.engine.feedback.tree.TreeReport`), after ``made`` (what made it)."""
    from ..feedback.tree import check_tree, tree_document

    return TreeStats(check_tree(game, tree_document(game, tree)), made)


def check_tree_file(game, doc: dict, path) -> TreeStats:
    """The statistics of the tree ``doc`` read from ``path`` (and its opener), after
    checking it was made for this very game (its format and identity: pegs, colours,
    repetition)."""
    from ..feedback.tree import check_tree

    if doc.get("format") != f"deductive-{game.name}-tree" or any(
            doc.get(k) != v for k, v in game.identity().items()):
        raise DeductiveError(f"{path} is not a tree of this game ({doc.get('format')}, "
                             f"{ {k: doc.get(k) for k in game.identity()} })")
    return TreeStats(check_tree(game, doc), {"opener": doc["tree"]["guess"]})
