"""Scoring guesses by how they partition a candidate set: entropy, minimax, expected size.

Every score is computed from integer bucket statistics (see :mod:`deductive.kernels.partition`),
so equal partitions give bit-identical scores and rankings are reproducible. Rankings put
the best first; ties go to the lower guess index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ArgumentError, IndexArgumentError, UnknownNameError
from ...kernels.partition import bucket_stats, bucket_stats_columns, bucket_stats_rows
from .._parallel import run_rows
from ..params import Param
from .matrix import PatternMatrix, answer_major
from ..._deprecated import OldAsDict

__all__ = ["PartitionStats", "partition_stats", "answer_major", "METRICS", "GuessScore",
           "Ranking",
           "rank_guesses", "bucket_counts", "filter_candidates", "xlogx_table",
           "partition_chunk", "merge_partition_chunks", "ranked_scores"]

#: Ranking metrics and what "best" means for each.
METRICS = {
    "entropy": "largest Shannon entropy (bits) of the feedback distribution",
    "minimax": "smallest largest bucket (worst case)",
    "expected": "smallest expected number of candidates left",
    "buckets": "most distinct feedbacks (non-empty buckets)",
}

#: The ``metric`` of :func:`rank_guesses` and its ``top``.
METRIC = Param("metric", "entropy", "entropy: most bits; minimax: smallest worst bucket; "
               "expected: fewest candidates left on average; buckets: most distinct "
               "feedbacks.", tuple(METRICS))
TOP = Param("top", 10, "How many guesses to list (0: all).", int, low=0)


def xlogx_table(n: int) -> tuple[np.ndarray, int]:
    """Fixed-point table of ``c * log2(c)`` for c = 0..n, and its scale exponent."""
    total = n * math.log2(max(n, 2)) + 2
    shift = 62 - math.ceil(math.log2(total))
    c = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.where(c > 0, c * np.log2(np.maximum(c, 1)), 0.0)
    return np.rint(np.ldexp(values, shift)).astype(np.int64), shift


@dataclass(frozen=True)
class PartitionStats:
    """Bucket statistics of guess rows over a candidate set (arrays aligned with ``rows``)."""

    rows: np.ndarray
    n_candidates: int
    xlogx_sum: np.ndarray
    buckets: np.ndarray
    largest: np.ndarray
    sumsq: np.ndarray
    shift: int

    @property
    def entropy(self) -> np.ndarray:
        """Shannon entropy in bits of each row's feedback over the candidates."""
        n = self.n_candidates
        if n == 0:
            return np.zeros(len(self.rows))
        return math.log2(n) - np.ldexp(self.xlogx_sum.astype(np.float64), -self.shift) / n

    @property
    def expected(self) -> np.ndarray:
        """Expected number of candidates left after each row's feedback."""
        n = self.n_candidates
        return self.sumsq / n if n else np.zeros(len(self.rows))

    def order(self, metric: str = "entropy") -> np.ndarray:
        """Positions into ``rows``, best first; ties go to the lower guess index."""
        key = {
            "entropy": self.xlogx_sum,
            "minimax": self.largest,
            "expected": self.sumsq,
            "buckets": -self.buckets,
        }.get(metric)
        if key is None:
            raise UnknownNameError(
                f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}"
            )
        return np.lexsort((self.rows, key))


#: A set of answers or guesses: indices, or a boolean mask (None: all of them).
Selection = Any


def partition_stats(matrix: np.ndarray | PatternMatrix, candidates: Selection = None,
                    rows: Selection = None, *,
                    columns: np.ndarray | None = None) -> PartitionStats:
    """Bucket statistics of guess rows of ``matrix`` over a set of answer columns.

    Parameters
    ----------
    matrix : PatternMatrix or ndarray
        Pattern matrix (guesses x answers); a bare array's code alphabet is taken to end
        at its largest code.
    candidates : array of int or bool mask, optional
        Answer columns of the candidate set; all answers by default.
    rows : array of int or bool mask, optional
        Guess rows to score; all guesses by default.
    columns : ndarray, optional
        ``answer_major(matrix)``: with it, candidate sets of at most :data:`COLUMNS_MAX`
        answers are scored from contiguous codes (the same results, several times faster;
        worth it for the many small sets of a tree search or a benchmark).
    """
    patterns = PatternMatrix.of(matrix)
    matrix = patterns.codes
    n_guesses, n_answers = matrix.shape
    cand = _indices(candidates, n_answers, "candidates")
    rws = _indices(rows, n_guesses, "rows")
    table, shift = xlogx_table(len(cand))
    out = [np.zeros(len(rws), dtype=np.int64) for _ in range(4)]
    if columns is not None and 0 < len(cand) <= COLUMNS_MAX and len(rws):
        if columns.shape != (n_answers, n_guesses) or not columns.flags.c_contiguous:
            raise ValueError("columns must be answer_major(matrix)")
        bucket_stats_columns(columns, rws, cand, table, *out, 0, len(rws))
    else:
        run_rows(bucket_stats, bucket_stats_rows, len(rws), len(rws) * len(cand),
                 PARALLEL_WORK, matrix, rws, cand, patterns.n_codes, table, *out)
    xlogx, buckets, largest, sumsq = out
    return PartitionStats(rws, len(cand), xlogx, buckets, largest, sumsq, shift)


#: Rows x candidates from which :func:`partition_stats` runs the parallel kernel (below:
#: its serial twin), measured with ``benchmarks/thresholds.py`` on the machine as it is and
#: beside a CPU-bound process (README, "Performance"). Every node of a tree search or a
#: benchmark runs serially, whole-list rankings in parallel.
PARALLEL_WORK = 7_000_000

#: Candidate sets up to this size are scored from :func:`answer_major` when the caller
#: passes it: below it the column kernel is faster than the row kernel, above it not
#: (``benchmarks/thresholds.py --columns``; README).
COLUMNS_MAX = 64

def _indices(selection, size: int, what: str) -> np.ndarray:
    if selection is None:
        return np.arange(size, dtype=np.int64)
    arr = np.asarray(selection)
    if arr.dtype == bool:
        if arr.shape != (size,):
            raise ArgumentError(f"{what} mask has shape {arr.shape}, expected ({size},): one "
                                "flag per row or column of the matrix")
        return np.flatnonzero(arr).astype(np.int64)
    arr = arr.astype(np.int64, copy=False).ravel()
    if arr.size and (arr.min() < 0 or arr.max() >= size):
        bad = int(arr[(arr < 0) | (arr >= size)][0])
        raise IndexArgumentError(f"{what}: index {bad} is outside the matrix; indices go "
                                 f"from 0 to {size - 1}")
    return np.ascontiguousarray(arr)


def _row(guess, n_guesses: int) -> int:
    if not 0 <= int(guess) < n_guesses:
        raise IndexArgumentError(f"guess: index {int(guess)} is outside the matrix; guess "
                                 f"rows go from 0 to {n_guesses - 1}")
    return int(guess)


@dataclass(frozen=True)
class GuessScore(OldAsDict):
    """One ranked guess."""

    word: str
    index: int
    entropy: float
    buckets: int
    largest: int
    expected: float

    def to_json(self) -> dict:
        return {
            "word": self.word, "index": self.index, "entropy": round(self.entropy, 10),
            "buckets": self.buckets, "largest": self.largest,
            "expected": round(self.expected, 10),
        }


@dataclass(frozen=True)
class Ranking:
    """First guesses ranked (``openers``): the scores, best first, and what they rank."""

    scores: list            # GuessScore, best first
    guesses: str            # the guess list's name, and its size
    n_guesses: int
    answers: str
    n_answers: int
    metric: str

    @classmethod
    def of(cls, scores: list, game: Any, metric: str) -> Ranking:
        """The ranking ``scores`` of ``game``'s guesses by ``metric``."""
        name = game.name
        return cls(scores, getattr(game.guesses, "name", name), len(game.guesses),
                   getattr(game.answers, "name", name), len(game.answers), metric)

    def to_json(self) -> list:
        """One object per guess, best first: the form ``--json`` prints."""
        return [s.to_json() for s in self.scores]


def rank_guesses(matrix: np.ndarray | PatternMatrix, guesses: Sequence[Any] | None = None,
                 metric: str = "entropy", candidates: Selection = None,
                 top: int | None = None) -> list[GuessScore]:
    """Rank every guess (rows of ``matrix``) over the candidates, best first.

    Parameters
    ----------
    matrix : PatternMatrix or ndarray
        Pattern matrix of guesses x answers.
    guesses : sequence of str, optional
        The words of the rows (default: those of a :class:`PatternMatrix`).
    metric : {"entropy", "minimax", "expected", "buckets"}
    candidates : indices or mask over answers, optional
    top : int, optional
        Keep only the first ``top`` (0 or more; None: all).
    """
    if top is not None and int(top) < 0:
        raise ArgumentError(f"top={top}: give a number of guesses, 0 or more (None for all)")
    if guesses is None:
        guesses = PatternMatrix.of(matrix).guesses
    return ranked_scores(partition_stats(matrix, candidates), guesses, metric, top)


def bucket_counts(matrix: np.ndarray | PatternMatrix, guess: int,
                  candidates: Selection = None) -> np.ndarray:
    """Number of candidates behind each pattern code of one guess row.

    Returns an int64 array with one count per code of the matrix's alphabet (index = code).
    """
    patterns = PatternMatrix.of(matrix)
    matrix = patterns.codes
    n_answers = matrix.shape[1]
    cand = _indices(candidates, n_answers, "candidates")
    return np.bincount(matrix[_row(guess, matrix.shape[0]), cand].astype(np.int64),
                       minlength=patterns.n_codes)


def filter_candidates(matrix: np.ndarray | PatternMatrix, guess: int, code: int,
                      candidates: Selection = None) -> np.ndarray:
    """The candidates (answer indices, in order) that give ``code`` for ``guess``."""
    matrix = np.asarray(matrix)
    cand = _indices(candidates, matrix.shape[1], "candidates")
    return cand[matrix[_row(guess, matrix.shape[0]), cand] == code]


def partition_chunk(chunk, matrix) -> list:
    """The four statistics of guess rows ``chunk = (lo, hi)`` over every answer, as lists
    (a sweep's piece of :func:`rank_guesses`; :func:`merge_partition_chunks` joins them)."""
    stats = partition_stats(matrix, rows=np.arange(chunk[0], chunk[1]))
    return [stats.xlogx_sum.tolist(), stats.buckets.tolist(), stats.largest.tolist(),
            stats.sumsq.tolist()]


def merge_partition_chunks(parts, n_answers: int) -> PartitionStats:
    """The :class:`PartitionStats` of every guess row from the pieces, in row order."""
    columns = [np.concatenate([np.asarray(p[k], dtype=np.int64) for p in parts])
               for k in range(4)]
    _, shift = xlogx_table(n_answers)
    xlogx, buckets, largest, sumsq = columns
    return PartitionStats(np.arange(len(xlogx), dtype=np.int64), n_answers, xlogx, buckets,
                          largest, sumsq, shift)


def ranked_scores(stats: PartitionStats, guesses, metric: str = "entropy",
                  top: int | None = None) -> list[GuessScore]:
    """The rows of ``stats`` as :class:`GuessScore`, best first by ``metric``."""
    order = stats.order(metric)
    if top is not None:
        order = order[:top]
    entropy, expected = stats.entropy, stats.expected
    return [GuessScore(str(guesses[int(stats.rows[k])]), int(stats.rows[k]), float(entropy[k]),
                       int(stats.buckets[k]), int(stats.largest[k]), float(expected[k]))
            for k in order]
