"""Whole-dictionary benchmarks: every answer played, decision trees evaluated once.

A deterministic solver's choices depend only on the state, so its games form one decision
tree. :func:`run_bench` grows that tree breadth-wise from the root, visiting each node
once and handling all answers of a node together: the cost is one scoring per node, not
one per game and turn. Seeded solvers play game by game, each answer with its own
generator seeded by ``(seed, answer index)``, so results do not depend on the order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import DeductiveError
from ..params import Param
from ..._deprecated import OldAsDict

__all__ = ["BenchResult", "run_bench", "play_game"]

@dataclass
class BenchResult(OldAsDict):
    """Outcome of a benchmark: every answer (or a subset) played by one solver.

    Attributes
    ----------
    guesses : int array
        Guesses used for each played answer (aligned with ``answers``).
    answers : list of str
        The answers played.
    tree : dict or None
        The decision tree (deterministic solvers, when asked for).
    """

    solver: dict
    opener: str | None
    hard: bool
    prior: str
    answers: list
    guesses: np.ndarray
    weights: np.ndarray
    seconds: float
    tree: dict | None = field(default=None, repr=False)
    #: the rules' limit: a game needing more guesses counts as failed (None: no limit)
    limit: int | None = 6

    @property
    def total(self) -> int:
        return int(self.guesses.sum())

    @property
    def average(self) -> float:
        return float(self.guesses.mean()) if len(self.guesses) else 0.0

    @property
    def weighted_average(self) -> float:
        """Average weighted by the prior (equal to ``average`` under a uniform prior)."""
        w = self.weights
        return float((self.guesses * w).sum() / w.sum()) if len(w) else 0.0

    @property
    def worst(self) -> int:
        return int(self.guesses.max()) if len(self.guesses) else 0

    @property
    def fails(self) -> int:
        """Answers needing more guesses than the rules allow."""
        return 0 if self.limit is None else int((self.guesses > self.limit).sum())

    @property
    def distribution(self) -> dict:
        """Guess count -> number of answers, for 1 to the limit, then ``"fail"`` (no
        limit: to the worst case)."""
        top = self.worst if self.limit is None else self.limit
        dist = {str(k): int((self.guesses == k).sum()) for k in range(1, top + 1)}
        if self.limit is not None:
            dist["fail"] = self.fails
        return dist

    def to_json(self) -> dict:
        return {
            **self.solver, "opener": self.opener, "hard": self.hard, "prior": self.prior,
            "answers": len(self.answers), "total": self.total,
            "average": round(self.average, 6), "weighted_average": round(self.weighted_average, 6),
            "worst": self.worst, "fails": self.fails, "distribution": self.distribution,
            "seconds": round(self.seconds, 4),
        }


def _targets(game, answers) -> np.ndarray:
    if answers is None:
        return np.arange(len(game.answers), dtype=np.int64)
    if isinstance(answers, (int, np.integer)):
        return np.arange(min(int(answers), len(game.answers)), dtype=np.int64)
    return np.array(sorted({game.answer_index(w) if isinstance(w, str) else int(w)
                            for w in answers}), dtype=np.int64)


#: :func:`run_bench`'s ``opener`` and ``answers`` (a subset), :func:`play_game`'s answer.
OPENER = Param("opener", None, "Forced first guess (default: the solver's own).")
ANSWERS_SUBSET = Param("answers_subset", None, "Play only these answers (the first N, or a "
                       "list); candidates still span every answer.", metavar="N|FILE|NAME")
ANSWER = Param("answer", None, "The secret word.", required=True)


#: What a benchmark's ``answers`` may be: the first N, or words or answer indices.
Answers = int | Iterable[str | int] | None


def run_bench(game: Any, solver: Any, *, opener: str | int | None = None,
              answers: Answers = None, max_turns: int = 30, seed: int = 0,
              keep_tree: bool = False, progress: Callable[[int], Any] | None = None
              ) -> BenchResult:
    """Play every answer of ``game`` (or the ``answers`` subset) with ``solver``.

    ``game`` is a :class:`~.game.FeedbackGame` and ``solver`` a :class:`~.solvers.Solver`
    (typed ``Any``: both modules import this one).

    Parameters
    ----------
    opener : str or int, optional
        Forced first guess.
    answers : iterable of words/indices, or int, optional
        Play only these answers (an int: the first N); the candidate sets still hold every
        answer of the game.
    max_turns : int
        A game that is not solved within this many guesses raises an error (no solver here
        comes close; it guards against a solver that makes no progress).
    keep_tree : bool
        Return the decision tree (deterministic solvers only).
    progress : callable, optional
        Called with the number of answers finished so far.
    """
    targets = _targets(game, answers)
    first = None if opener is None else game.guess_index(opener)
    start = time.perf_counter()
    if solver.deterministic:
        counts, tree = _evaluate_tree(game, solver, targets, first, max_turns, keep_tree,
                                      progress)
    else:
        if keep_tree:
            raise DeductiveError(f"solver {solver.name} is random: it has no single tree to "
                                 "export; use entropy, minimax or expected")
        counts = np.empty(len(targets), dtype=np.int64)
        for k, target in enumerate(targets):
            counts[k] = len(play_game(game, solver, int(target), opener=first, seed=seed,
                                      max_turns=max_turns))
            if progress is not None:
                progress(k + 1)
        tree = None
    seconds = time.perf_counter() - start
    return BenchResult(
        solver=solver.describe(), opener=None if first is None else game.word(first),
        hard=game.hard, prior=game.prior, answers=[game.answers[t] for t in targets],
        guesses=counts, weights=game.weights[targets], seconds=seconds, tree=tree,
        limit=game.max_guesses,
    )


def _ensure_progress(game, state, guess: int) -> int:
    """``guess``, unless it tells no candidates apart: then the first candidate (no loops)."""
    codes = game.matrix[guess, state.candidates]
    if codes[0] != game.win_code and (codes == codes[0]).all():
        return int(game.answer_to_guess[state.candidates[0]])
    return int(guess)


def _evaluate_tree(game, solver, targets, first, max_turns, keep_tree, progress):
    """Guesses needed by each target, and (optionally) the tree as nested dicts."""
    wanted = np.zeros(len(game.answers), dtype=bool)
    wanted[targets] = True
    depth_of = np.zeros(len(game.answers), dtype=np.int64)
    done = 0
    root: dict = {}
    # each item: (state, depth of the next guess, dict to fill)
    frontier = [(game.start(), 1, root)]
    while frontier:
        state, depth, node = frontier.pop()
        if depth > max_turns:
            raise DeductiveError(f"solver {solver.name} did not solve "
                                 f"{game.answers[int(state.candidates[0])]!r} within "
                                 f"{max_turns} guesses")
        guess = first if (depth == 1 and first is not None) else solver.choose(state)
        guess = _ensure_progress(game, state, guess)
        children = game.children(state, guess)
        if keep_tree:
            node["guess"] = game.word(guess)
            node["then"] = {}
        for code, child in children:
            if not wanted[child.candidates].any():
                continue
            if code == game.win_code:
                depth_of[child.candidates] = depth
                done += 1
                if progress is not None:
                    progress(done)
                continue
            sub: dict = {}
            if keep_tree:
                node["then"][game.format(code)] = sub
            frontier.append((child, depth + 1, sub))
    return depth_of[targets], (root if keep_tree else None)


def play_game(game: Any, solver: Any, target: int, *, opener: str | int | None = None,
              seed: int = 0, max_turns: int = 30) -> list[tuple[int, int]]:
    """One game against answer index ``target``: the list of ``(guess index, code)``."""
    rng = np.random.default_rng([seed, target])
    state = game.start()
    moves = []
    first = None if opener is None else game.guess_index(opener)
    row = game.matrix
    for turn in range(1, max_turns + 1):
        guess = first if (turn == 1 and first is not None) else solver.choose(state, rng)
        guess = _ensure_progress(game, state, guess)
        code = int(row[guess, target])
        moves.append((guess, code))
        if code == game.win_code:
            return moves
        state = game.advance(state, guess, code)
    raise DeductiveError(f"solver {solver.name} did not solve {game.answers[target]!r} "
                         f"within {max_turns} guesses")
