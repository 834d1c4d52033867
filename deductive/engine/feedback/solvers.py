"""Solvers of feedback games, found by name through a registry.

A solver maps a :class:`~deductive.engine.feedback.game.State` to the index of the next guess.
Deterministic solvers (``entropy``, ``minimax``, ``expected``) are functions of the state,
so a benchmark evaluates their decision tree once. ``random`` and ``csp`` draw from a
seeded generator handed to :meth:`Solver.choose`. A game adds its own solvers to a copy of
:data:`SOLVERS` (Wordle adds ``csp``).

Tie rules of the scoring solvers: the best score wins; among equal scores, a guess that is
still a candidate wins, then the lower guess index. With two or fewer candidates left,
every solver guesses the first remaining candidate.
"""

from __future__ import annotations

import abc
from typing import Any

import numpy as np

from ...errors import UnknownNameError
from ...kernels.partition import weighted_entropy, weighted_entropy_columns, weighted_entropy_rows
from .._parallel import run_rows
from ..params import Param
from ..registry import Registry
from .matrix import answer_major
from .scoring import COLUMNS_MAX, METRICS, partition_stats
from .search import TreeSearch

__all__ = ["SOLVERS", "Solver", "ScoringSolver", "RandomSolver", "LookaheadSolver",
           "make_solver", "rank_pool"]


class Solver(abc.ABC):
    """Base class: ``choose(state, rng)`` returns a guess index.

    ``game`` is a :class:`~.game.FeedbackGame` and ``state`` its
    :class:`~.game.State` (typed ``Any``: that module imports this one)."""

    name = "solver"
    deterministic = True

    def __init__(self, game: Any):
        self.game = game

    @abc.abstractmethod
    def choose(self, state: Any, rng: np.random.Generator | None = None) -> int:
        """The guess index to play in ``state`` (``rng``: the game's seeded generator)."""

    def describe(self) -> dict:
        return {"solver": self.name}


#: Rows x candidates from which the weighted entropy runs the parallel kernel (below: its
#: serial twin); measured as :data:`deductive.engine.feedback.scoring.PARALLEL_WORK` is.
WEIGHTED_PARALLEL_WORK = 7_000_000


def _metric_key(game, state, rows, metric, use_columns=False):
    """Per-row score to minimise, the stats, and the entropy of each row (``use_columns``:
    score small candidate sets from the answer-major matrix, for callers that score many)."""
    n_codes = game.patterns.n_codes
    # fewer candidates than codes: the column kernels give the row kernels' bits exactly
    small = use_columns and 0 < len(state.candidates) <= min(COLUMNS_MAX, n_codes - 1)
    stats = partition_stats(game.patterns, state.candidates, rows,
                            columns=answer_major(game.matrix) if small else None)
    entropy = stats.entropy
    if metric == "entropy" and game.prior != "uniform":
        entropy = np.zeros(len(rows))
        weights = np.ascontiguousarray(game.weights[state.candidates])
        if len(rows) and weights.sum() > 0 and small:
            weighted_entropy_columns(answer_major(game.matrix), stats.rows, state.candidates,
                                     weights, entropy, 0, len(rows))
        elif len(rows) and weights.sum() > 0:
            run_rows(weighted_entropy, weighted_entropy_rows, len(rows),
                     len(rows) * len(weights), WEIGHTED_PARALLEL_WORK, game.matrix, stats.rows,
                     state.candidates, weights, n_codes, entropy)
        return -entropy, stats, entropy
    if metric not in METRICS:
        raise UnknownNameError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}")
    key = {"entropy": stats.xlogx_sum, "minimax": stats.largest, "expected": stats.sumsq,
           "buckets": -stats.buckets}[metric]
    return key, stats, entropy


def rank_pool(game, state, rows, metric):
    """Order of ``rows`` best first (tie rule of the module), the stats and the entropies."""
    key, stats, entropy = _metric_key(game, state, rows, metric)
    not_candidate = ~game.is_candidate(state.candidates, rows)
    return np.lexsort((rows, not_candidate, key)), stats, entropy


def best_in_pool(game, state, rows, metric) -> int:
    """The best guess index of ``rows`` under the tie rule, in O(len(rows))."""
    key, _, _ = _metric_key(game, state, rows, metric, use_columns=True)
    tied = rows[key == key.min()]
    if len(tied) > 1:
        cand = tied[game.is_candidate(state.candidates, tied)]
        if len(cand):
            return int(cand.min())
    return int(tied.min())


class ScoringSolver(Solver):
    """Greedy one-step solver: the guess with the best ``metric`` over the candidates.

    Parameters
    ----------
    metric : {"entropy", "minimax", "expected", "buckets"}
    pool : {"all", "candidates"}
        Any allowed guess, or only the remaining candidates.
    """

    def __init__(self, game, metric: str = "entropy", pool: str = "all"):
        super().__init__(game)
        if pool not in ("all", "candidates"):
            raise UnknownNameError(f"unknown pool {pool!r}; choose 'all' or 'candidates'")
        if metric not in METRICS:
            raise UnknownNameError(
                f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}")
        self.metric = metric
        self.pool = pool
        self.name = {"entropy": "entropy", "minimax": "minimax", "expected": "expected",
                     "buckets": "buckets"}[metric]

    def choose(self, state, rng=None) -> int:
        cands = state.candidates
        if len(cands) <= 2:
            return int(self.game.answer_to_guess[cands[0]])
        return best_in_pool(self.game, state, self.game.pool(state, self.pool), self.metric)

    def describe(self) -> dict:
        return {"solver": self.name, "pool": self.pool}


class RandomSolver(Solver):
    """The original programs' filter solver: a uniformly random remaining candidate."""

    name = "random"
    deterministic = False

    def choose(self, state, rng=None) -> int:
        rng = rng if rng is not None else np.random.default_rng(0)
        cands = state.candidates
        return int(self.game.answer_to_guess[cands[rng.integers(len(cands))]])


class LookaheadSolver(Solver):
    """Plays the first guess of the best tree a beam search finds from the current state
    (see :mod:`deductive.engine.feedback.search`): a look-ahead over whole subtrees, not one step.

    The trees searched never need more than ``max_guesses`` guesses in all (6, the game's
    limit, by default; None: no limit) when such a tree exists from the current state, else
    the best tree without the limit. With ``beam=10`` it plays 7,920 guesses from salet on
    the original lists (the proven optimum), and 8,130 in hard mode without a failure."""

    name = "lookahead"

    def __init__(self, game, beam: int = 10, max_guesses: int | None = 6):
        super().__init__(game)
        if max_guesses is not None and max_guesses < 1:
            raise ValueError(f"max_guesses must be at least 1, not {max_guesses}")
        self.beam = beam
        self.max_guesses = max_guesses
        self.search = TreeSearch(game, beam=beam)

    def choose(self, state, rng=None) -> int:
        cands = state.candidates
        if self.max_guesses is not None and state.turn < self.max_guesses:
            guess = self.search.best_guess(cands, state.allowed, self.max_guesses - state.turn)
            if guess >= 0:
                return guess
        return self.search.best_guess(cands, state.allowed)

    def describe(self) -> dict:
        return {"solver": self.name, "beam": self.beam, "max_guesses": self.max_guesses}


#: A scoring solver's ``pool``, and the ``seed`` of the random ones (each answer gets the
#: generator (seed, answer index)).
POOL = Param("pool", "all", "Guesses a scoring solver may play or suggest: any allowed guess, "
             "or only the remaining candidates.", ("all", "candidates"))
#: The look-ahead's ``beam`` and ``max_guesses``.
BEAM = Param("beam", 10, "Guesses tried per node of the look-ahead's beam search.", int, low=1)
MAX_GUESSES = Param("max_guesses", 6, "Guesses its trees may need in all (when they can).",
                    int, low=1)
SEED = Param("seed", 0, "Seed of the random solvers (each answer gets (seed, index)).", int,
             low=0)

#: The core's solvers, in the order help texts list them.
SOLVERS = Registry("solver")
SOLVERS.add("random", RandomSolver, "a random remaining candidate (seeded)")
for _metric, _what in (("entropy", "maximise the entropy of the feedback (pool all or "
                                   "candidates)"),
                       ("minimax", "minimise the largest bucket (worst case)"),
                       ("expected", "minimise the expected number of candidates left")):
    SOLVERS.add(_metric, lambda game, pool="all", _m=_metric: ScoringSolver(game, _m, pool),
                _what, options=(POOL,))
SOLVERS.add("lookahead", LookaheadSolver,
            "the first guess of the best tree a beam search finds (option beam, 10)",
            options=(BEAM, MAX_GUESSES))


def make_solver(game, name: str, **options) -> Solver:
    """Build a solver of ``game.solvers`` by name; an unknown name lists the valid ones.

    Options: ``pool`` ("all" or "candidates") for the scoring solvers; an option a solver
    does not take is an error.
    """
    return game.solvers.create(name, game, **options)
