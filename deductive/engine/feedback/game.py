"""A feedback game over its pattern matrix: states, the split of a candidate set, the rules.

Everything works on indices: a state holds the candidate answers (indices into the answer
list) and, in games with a hard mode, the mask of guesses still allowed. Two methods are
the whole of the rules the solvers see:

* :meth:`FeedbackGame.split` -- the candidates a guess separates, bucket by feedback code
  (the only split: benchmarks, searches, tree checks and precomputes all call it);
* :meth:`FeedbackGame.allowed_after` -- the guesses still allowed after a feedback (the only
  hard-mode step; every guess stays allowed in a game without one).

A game is built from a :class:`~deductive.engine.feedback.matrix.PatternMatrix`; a client
game (Wordle) subclasses it to read its word lists, compute or cache its matrix, spell
its feedback and add a hard mode.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import ArgumentError, DeductiveError, PatternError, UnknownNameError
from ...kernels.partition import group_by_code
from .bench import Answers, BenchResult, play_game, run_bench
from .matrix import PatternMatrix
from .scoring import GuessScore, filter_candidates
from .solvers import SOLVERS, Solver, rank_pool

#: A game's history: ``(guess, feedback)`` pairs, a guess as a word or an index, a
#: feedback as the game spells it or a code.
History = Sequence[tuple[str | int, str | int]]

__all__ = ["FeedbackGame", "State", "History"]


@dataclass(frozen=True)
class State:
    """A position: candidate answers, allowed guesses (hard mode) and the history so far.

    Attributes
    ----------
    candidates : int64 array
        Indices of the answers still possible, ascending.
    allowed : bool array or None
        Guesses allowed by hard mode (``None`` in normal mode: every guess).
    history : tuple of (guess index, code)
    """

    candidates: np.ndarray
    allowed: np.ndarray | None = None
    history: tuple = field(default=())

    @property
    def turn(self) -> int:
        """Number of guesses already played."""
        return len(self.history)


#: The error of a game made with neither a matrix nor a way to build one.
_NO_PATTERNS = ("`patterns` is required: give a PatternMatrix, or subclass FeedbackGame and "
                "override build_patterns")


class FeedbackGame:
    """A game whose feedback is a function of (guess, answer), over its pattern matrix.

    Parameters
    ----------
    patterns : PatternMatrix
        Every answer must also be a guess (a word of both lists).
    weights : array, optional
        Prior weight of each answer (uniform by default).

    Attributes
    ----------
    name : str
        Names the game in tree files (``deductive-NAME-tree``).
    max_guesses : int or None
        Guesses the rules allow; a game needing more counts as failed.
    solvers : Registry
        The solvers :meth:`solver` builds by name.
    """

    name = "feedback"
    max_guesses: int | None = None
    solvers = SOLVERS
    hard = False
    prior = "uniform"

    def __init__(self, patterns: PatternMatrix | None = None, *, weights: Any = None,
                 guesses: Sequence[Any] | None = None, answers: Sequence[Any] | None = None):
        if patterns is not None:
            guesses, answers = patterns.guesses, patterns.answers
        elif type(self).build_patterns is FeedbackGame.build_patterns:
            raise ArgumentError(_NO_PATTERNS)
        if guesses is None or answers is None:
            raise ArgumentError("`guesses` and `answers` are required without `patterns`")
        self._patterns = patterns
        self.guesses: Sequence[Any] = guesses
        self.answers: Sequence[Any] = answers
        self._words = {str(w): i for i, w in enumerate(guesses)}
        missing = [a for a in answers if str(a) not in self._words]
        if missing:
            shown = ", ".join(map(str, missing[:5])) + (" ..." if len(missing) > 5 else "")
            raise ArgumentError(f"{len(missing)} answer(s) are not guesses ({shown}); every "
                                "answer must be a guess too")
        self.answer_to_guess = np.array([self._words[str(a)] for a in answers], dtype=np.int64)
        self.guess_to_answer = np.full(len(guesses), -1, dtype=np.int64)
        self.guess_to_answer[self.answer_to_guess] = np.arange(len(answers))
        self._weights = None if weights is None else np.asarray(weights, dtype=np.float64)

    # -- data -------------------------------------------------------------------------------
    @property
    def patterns(self) -> PatternMatrix:
        """The guess x answer :class:`PatternMatrix` (a subclass may build it on first use)."""
        if self._patterns is None:
            self._patterns = self.build_patterns()
        return self._patterns

    def build_patterns(self) -> PatternMatrix:
        """The matrix of a game that builds it on first use (Wordle, Mastermind override
        this); a game given ``patterns`` never calls it, and one given none that does not
        override it is refused when it is made."""
        raise ArgumentError(_NO_PATTERNS)

    @property
    def matrix(self) -> np.ndarray:
        """The codes of :attr:`patterns` (guesses x answers)."""
        return self.patterns.codes

    @property
    def win_code(self) -> int:
        return self.patterns.win_code

    @property
    def weights(self) -> np.ndarray:
        """Prior weight of each answer (sums to the number of answers)."""
        if self._weights is None:
            self._weights = np.ones(len(self.answers))
        return self._weights

    def identity(self) -> dict:
        """What ties a tree file to this game (its lists and rules)."""
        return {"hard": self.hard, "guesses": len(self.guesses), "answers": len(self.answers)}

    # -- rules ------------------------------------------------------------------------------
    def groups(self, guess: int, candidates: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(ordered, codes, starts)``: the candidates ``guess`` separates, as arrays (group
        k, of code ``codes[k]``, is ``ordered[starts[k]:starts[k + 1]]``, ascending; codes
        ascending): :meth:`split` without the lists, for compiled callers."""
        return group_by_code(self.matrix[guess], np.asarray(candidates, dtype=np.int64))

    def split(self, guess: int, candidates: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """``[(code, answer indices)]``: the candidates ``guess`` separates, by code (each
        group ascending, groups in code order)."""
        if not len(candidates):
            return []
        ordered, codes, starts = self.groups(guess, candidates)
        cuts = starts.tolist()
        return [(code, ordered[a:b]) for code, a, b in zip(codes.tolist(), cuts, cuts[1:])]

    def allowed_after(self, allowed: np.ndarray | None, guess: int, code: int
                      ) -> np.ndarray | None:
        """The guesses allowed after ``guess`` got ``code`` (``None``: all of them)."""
        return allowed

    def rule_key(self, guess: int, code: int) -> Hashable:
        """What :meth:`allowed_after` reads of a turn: turns with equal keys restrict the
        guesses alike, whatever was allowed before (a search remembers masks by it)."""
        return guess, code

    def colour_letters(self) -> np.ndarray | None:
        """The guesses' letters (0-25, a row per guess) when the feedback is Wordle's
        colours, under which a letter no answer holds is grey and changes no other
        letter's colour; else None. The depth-three bound reads it to pass over guesses
        that a set's absent letters make redundant."""
        return None

    def children(self, state: State, guess: int) -> list[tuple[int, State]]:
        """``[(code, State)]`` after ``guess`` in ``state``, one per feedback, by code."""
        history = state.history
        return [(code, State(group, self.allowed_after(state.allowed, guess, code),
                             history + ((int(guess), code),)))
                for code, group in self.split(guess, state.candidates)]

    def start(self) -> State:
        """The opening state: every answer possible, every guess allowed."""
        return State(np.arange(len(self.answers), dtype=np.int64),
                     np.ones(len(self.guesses), dtype=bool) if self.hard else None)

    def advance(self, state: State, guess: int, code: int) -> State:
        """The state after guess index ``guess`` received ``code``."""
        kept = filter_candidates(self.matrix, guess, code, state.candidates)
        return State(kept, self.allowed_after(state.allowed, guess, code),
                     state.history + ((int(guess), int(code)),))

    def replay(self, history: History) -> State:
        """The state after a history of ``(guess, feedback)`` pairs (words, any spelling).

        Raises
        ------
        DeductiveError
            A guess outside the list, a malformed feedback, or a hard-mode violation.
        """
        state = self.start()
        for turn, (guess, feedback) in enumerate(history, start=1):
            g = self.guess_index(guess)
            if state.allowed is not None and not state.allowed[g]:
                raise DeductiveError(f"turn {turn}: {self.word(g)!r} breaks hard mode "
                                     f"({self.hard_rule})")
            state = self.advance(state, g, self.parse(feedback))
        return state

    hard_rule = "a guess the rules no longer allow"
    feedback_name = "feedback"

    # -- words and codes --------------------------------------------------------------------
    def word(self, guess: int) -> str:
        """The spelling of guess index ``guess``."""
        return str(self.guesses[guess])

    def guess_index(self, word: str | int | np.integer) -> int:
        """Index of a guess given as a word or an index."""
        if isinstance(word, (int, np.integer)):
            if not 0 <= int(word) < len(self.guesses):
                raise ArgumentError(f"guess index {word} out of range")
            return int(word)
        try:
            return self._words[str(word)]
        except KeyError:
            raise UnknownNameError(f"{word!r} is not a guess of this game") from None

    def format(self, code: int) -> str:
        """The spelling of a feedback code."""
        return str(int(code))

    def tiles(self, code: int) -> list[str] | None:
        """The colour of each position under a feedback code (``green``, ``yellow``,
        ``grey``), for a game whose feedback is coloured tiles; None otherwise."""
        return None

    def parse(self, text: str | int | np.integer) -> int:
        """The code of a feedback spelled as :meth:`format` spells it (or a code)."""
        try:
            code = int(text)
        except (TypeError, ValueError):
            raise PatternError(f"feedback {text!r} is not a code") from None
        if not 0 <= code < self.patterns.n_codes:
            raise PatternError(f"feedback code {code} is outside 0..{self.patterns.n_codes - 1}")
        return code

    # -- pools ------------------------------------------------------------------------------
    def pool(self, state: State, pool: str = "all") -> np.ndarray:
        """Guess indices a solver may play in ``state``.

        ``all``: every allowed guess; ``candidates``: only the remaining candidates.
        """
        if pool == "candidates":
            return self.answer_to_guess[state.candidates]
        if pool != "all":
            raise UnknownNameError(f"unknown pool {pool!r}; choose 'all' or 'candidates'")
        if state.allowed is None:
            return np.arange(len(self.guesses), dtype=np.int64)
        return np.flatnonzero(state.allowed).astype(np.int64)

    def is_candidate(self, candidates: np.ndarray, guesses: np.ndarray) -> np.ndarray:
        """For each guess index, whether it is among ``candidates`` (answer indices)."""
        mask = np.zeros(len(self.answers), dtype=bool)
        mask[candidates] = True
        answer = self.guess_to_answer[guesses]
        return (answer >= 0) & mask[np.maximum(answer, 0)]

    # -- front end: the core's modules, called on this game ----------------------------------
    def candidates(self, history: History = ()) -> list[Any]:
        """The answers still possible after ``history`` (a list of ``(guess, feedback)``)."""
        return [self.answers[k] for k in self.replay(history).candidates]

    def best_guesses(self, history: History = (), k: int = 5, metric: str = "entropy",
                     pool: str = "all") -> list[GuessScore]:
        """The ``k`` best next guesses after ``history`` by ``metric``.

        Ties go to a guess that is still a candidate, then to the lower index.
        """
        state = self.replay(history)
        if len(state.candidates) == 0:
            shown = ", ".join(f"{g} {p}" for g, p in history)
            raise DeductiveError(f"no answer fits all the feedback ({shown}); check the last "
                                 f"{self.feedback_name} entered (or undo)")
        rows = self.pool(state, pool)
        order, stats, entropy = rank_pool(self, state, rows, metric)
        return [GuessScore(self.word(int(rows[j])), int(rows[j]), float(entropy[j]),
                           int(stats.buckets[j]), int(stats.largest[j]),
                           float(stats.expected[j]))
                for j in order[:k]]

    def solver(self, name: str, **options: Any) -> Solver:
        """A solver from :attr:`solvers` by name."""
        return self.solvers.create(name, self, **options)

    def benchmark(self, *args: Any, **kwargs: Any) -> BenchResult:
        """Deprecated: :meth:`bench` (its name before 0.3)."""
        warnings.warn("FeedbackGame.benchmark() is deprecated; use bench()",
                      DeprecationWarning, stacklevel=2)
        return self.bench(*args, **kwargs)

    def bench(self, solver: str | Solver, opener: str | int | None = None,
              answers: Answers = None, *, max_turns: int = 30, seed: int = 0,
              keep_tree: bool = False, progress: Callable[[int], Any] | None = None
              ) -> BenchResult:
        """Play every answer (or ``answers``); a :class:`~.bench.BenchResult`."""
        if isinstance(solver, str):
            solver = self.solver(solver)
        return run_bench(self, solver, opener=opener, answers=answers,
                         max_turns=max_turns, seed=seed, keep_tree=keep_tree,
                         progress=progress)

    def play(self, answer: str | int, solver: str | Solver, opener: str | int | None = None, *,
             seed: int = 0, max_turns: int = 30) -> list[tuple[str, int]]:
        """Play one game; return the list of ``(guess word, code)``."""
        if isinstance(solver, str):
            solver = self.solver(solver)
        target = self.answer_index(answer)
        moves = play_game(self, solver, target, opener=opener, seed=seed, max_turns=max_turns)
        return [(self.word(g), c) for g, c in moves]

    def answer_index(self, answer: str | int | np.integer) -> int:
        guess = self.guess_index(answer)
        k = int(self.guess_to_answer[guess])
        if k < 0:
            raise UnknownNameError(f"{answer!r} is not an answer of this game")
        return k
