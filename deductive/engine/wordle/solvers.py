"""Wordle's own solver: constraint propagation over letters (the other solvers are the core's).

:data:`WORDLE_SOLVERS` lists the core's solvers and ``csp``, in the order help texts show.
"""

from __future__ import annotations

import numpy as np

from ..feedback.solvers import SOLVERS, Solver
from ..registry import Registry

__all__ = ["WORDLE_SOLVERS", "CSPSolver", "csp_constraints", "csp_candidates"]


def csp_constraints(game, history):
    """Positional letter domains and min/max letter counts implied by ``history``.

    Returns
    -------
    domains : bool[L, 26]
        ``domains[i, c]``: letter c is still possible at position i.
    min_count, max_count : int64[26]
    """
    length = game.length
    domains = np.ones((length, 26), dtype=bool)
    min_count = np.zeros(26, dtype=np.int64)
    max_count = np.full(26, length, dtype=np.int64)
    for guess, code in history:
        letters = game.guesses.codes[guess]
        shown = np.zeros(26, dtype=np.int64)
        grey = np.zeros(26, dtype=bool)
        for i in range(length):
            c = letters[i]
            digit = (code // 3 ** i) % 3
            if digit == 2:
                domains[i, :] = False
                domains[i, c] = True
                shown[c] += 1
            else:
                domains[i, c] = False      # yellow or grey: not here (else it were green)
                if digit == 1:
                    shown[c] += 1
                else:
                    grey[c] = True
        min_count = np.maximum(min_count, shown)
        max_count = np.where(grey, np.minimum(max_count, shown), max_count)
    return domains, min_count, max_count


def csp_candidates(game, history) -> np.ndarray:
    """Answers satisfying the CSP constraints of ``history`` (indices, ascending)."""
    domains, min_count, max_count = csp_constraints(game, history)
    codes = game.answers.codes
    ok = np.ones(len(codes), dtype=bool)
    for i in range(game.length):
        ok &= domains[i][codes[:, i]]
    answer_counts = game.guess_counts[game.answer_to_guess]
    ok &= (answer_counts >= min_count).all(axis=1) & (answer_counts <= max_count).all(axis=1)
    return np.flatnonzero(ok).astype(np.int64)


class CSPSolver(Solver):
    """The original programs' constraint-propagation solver: per-position letter domains and min/max
    letter counts, then a random candidate among the answers that satisfy them."""

    name = "csp"
    deterministic = False

    def choose(self, state, rng=None) -> int:
        rng = rng if rng is not None else np.random.default_rng(0)
        cands = csp_candidates(self.game, state.history)
        return int(self.game.answer_to_guess[cands[rng.integers(len(cands))]])




WORDLE_SOLVERS = Registry("solver")
for _name in SOLVERS:
    _entry = SOLVERS[_name]
    WORDLE_SOLVERS.add(_name, _entry.factory, _entry.description, options=_entry.options)
    if _name == "random":
        WORDLE_SOLVERS.add("csp", CSPSolver, "constraint propagation (letter domains, "
                           "min/max counts), then a random candidate")
