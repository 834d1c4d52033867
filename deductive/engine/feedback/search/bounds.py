"""Lower bounds of the tree search: a set's floor, a guess's bound, an opener's depth-two
bound (see :mod:`deductive.engine.feedback.search` for how the search uses each)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ....kernels.opener_bounds import opener_bounds as _opener_bounds_parallel
from ....kernels.opener_bounds import opener_bounds_rows
from ..._parallel import get_threads, run_rows
from ..matrix import answer_major

#: Total reported for a set no tree solves within the guesses left (larger than any real
#: total; a lower bound of at least this much means the same).
INFEASIBLE = 1 << 60


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
#: over the guess rows (:func:`~deductive.kernels.opener_bounds.joint_splits`). Smaller
#: buckets mostly have a guess that splits them perfectly, found early; larger ones stop
#: early by their caps. Measured on 40 openers of the original lists, one thread: their buckets of
#: 11-320 answers 2.12 s one by one, 0.95 s together.
OPENER_JOINT_MIN = 10
OPENER_JOINT_MAX = 320

#: Openers x matrix codes from which :func:`opener_bounds` runs in parallel: one opener
#: costs tens of milliseconds (a whole-matrix pass), so two already pay for the threads.
OPENER_BOUNDS_WORK = 2 * 12_972 * 2_315
