"""Batch precomputes: the best second guess for every feedback of an opener."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scoring import partition_stats

__all__ = ["second_guesses", "second_guesses_chunk", "SecondGuesses"]


def second_guesses(game, solver, opener, progress=None, select=None) -> list[dict]:
    """For every feedback the opener can get, the solver's next guess and its statistics.

    ``select=(lo, hi)`` computes only the feedbacks lo:hi of that order (for chunked runs).

    Returns
    -------
    list of dict
        One per feedback, largest candidate set first (ties: lower code first), with
        ``pattern``, ``code``, ``candidates`` (count), ``guess``, ``entropy``, ``largest``,
        ``buckets`` and ``expected`` (the guess's partition of that set). The all-green
        feedback (the opener was the answer) has ``guess`` null.
    """
    first = game.guess_index(opener)
    rows = []
    children = sorted(game.children(game.start(), first),
                      key=lambda item: (-len(item[1].candidates), item[0]))
    if select is not None:
        children = children[select[0]:select[1]]
    for done, (code, state) in enumerate(children, start=1):
        entry = {"pattern": game.format(code), "code": code,
                 "candidates": int(len(state.candidates))}
        if code == game.win_code:
            entry.update(guess=None, entropy=0.0, largest=0, buckets=0, expected=0.0)
        else:
            guess = solver.choose(state, np.random.default_rng([0, code]))
            stats = partition_stats(game.patterns, state.candidates, [guess])
            entry.update(guess=game.word(guess), entropy=round(float(stats.entropy[0]), 10),
                         largest=int(stats.largest[0]), buckets=int(stats.buckets[0]),
                         expected=round(float(stats.expected[0]), 10))
        rows.append(entry)
        if progress is not None:
            progress(done)
    return rows


def second_guesses_chunk(chunk, game, solver_spec, opener) -> list[dict]:
    """Rows ``chunk = (lo, hi)`` of :func:`second_guesses` with the solver
    ``solver_spec = (name, options)``: a sweep's piece."""
    solver = game.solver(solver_spec[0], **solver_spec[1])
    return second_guesses(game, solver, opener, select=chunk)


@dataclass(frozen=True)
class SecondGuesses:
    """The rows of :func:`second_guesses` for ``opener`` (``wordle second`` shows them)."""

    opener: str
    solver: str
    hard: bool
    rows: list

    def to_json(self) -> dict:
        """The form ``--json`` prints: the opener, the solver, the mode, a row per feedback."""
        return {"opener": self.opener, "solver": self.solver, "hard": self.hard,
                "feedbacks": self.rows}
