"""The Wordle game over a cached pattern matrix: states, candidates, hard mode, priors.

Everything works on indices: a state holds the candidate answers (indices into the answer
list) and, in hard mode, the mask of guesses still allowed. Filtering is a comparison of
one matrix row with a code; no per-pair feedback is ever computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import DeductiveError, PatternError, UnknownNameError, WordListError
from .patterns import all_green, cached_pattern_matrix, format_pattern, parse_pattern
from .scoring import GuessScore, filter_candidates
from .words import WordList, load_words

__all__ = ["Wordle", "State", "PRIORS", "hard_mode_allowed"]

#: Priors over answers.
PRIORS = {
    "uniform": "every answer equally likely",
    "frequency": "answers weighted by their wordfreq frequency in the list's language",
}


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


def hard_mode_allowed(guess_codes: np.ndarray, guess_counts: np.ndarray, played: np.ndarray,
                      code: int, allowed: np.ndarray | None = None) -> np.ndarray:
    """Guesses that obey NYT hard mode after ``played`` got ``code``.

    Greens stay in place, and every revealed letter (green or yellow) is reused at least as
    many times as it was revealed in that guess. Grey letters and yellow positions may be
    reused, as on the NYT site.

    Parameters
    ----------
    guess_codes : uint8[n_guesses, L]
    guess_counts : uint8[n_guesses, 26]
        Letter counts of every guess.
    played : uint8[L]
        Letters of the guess played.
    code : int
        Its feedback.
    allowed : bool[n_guesses], optional
        Guesses allowed before this turn.
    """
    length = len(played)
    mask = np.ones(len(guess_codes), dtype=bool) if allowed is None else allowed.copy()
    revealed = np.zeros(26, dtype=np.int64)
    for i in range(length):
        digit = (code // 3 ** i) % 3
        if digit == 2:
            mask &= guess_codes[:, i] == played[i]
        if digit:
            revealed[played[i]] += 1
    for letter in np.flatnonzero(revealed):
        mask &= guess_counts[:, letter] >= revealed[letter]
    return mask


class Wordle:
    """A Wordle variant: a guess list, an answer list, normal or hard mode, and a prior.

    Parameters
    ----------
    guesses, answers : WordList, sequence of str, path or built-in name
        Every answer must also be an allowed guess.
    hard : bool
        NYT hard mode.
    prior : {"uniform", "frequency"}
        Weights of the answers, used by weighted entropy and the benchmark's average.
    lang : str, optional
        Language of the frequency prior (default: ``fr`` for lists named ``fr...``, else ``en``).
    cache_dir : path, optional
        Where the pattern matrix is cached.
    matrix : ndarray, optional
        A pattern matrix already at hand (it must match the lists).

    Examples
    --------
    >>> game = Wordle("fr-seed", "fr-seed")
    >>> game.candidates([("laine", "_Y_GG")])
    ['arene', 'crane']
    >>> [s.word for s in game.best_guesses([], k=3)]
    ['laine', 'paire', 'clair']
    """

    def __init__(self, guesses="en", answers=None, *, hard: bool = False,
                 prior: str = "uniform", lang: str | None = None, cache_dir=None,
                 matrix: np.ndarray | None = None):
        self.guesses = _words(guesses, "guesses")
        self.answers = _words(answers if answers is not None else guesses, "answers")
        if self.guesses.length != self.answers.length:
            raise WordListError(
                f"guesses ({self.guesses.name}) have {self.guesses.length} letters but answers "
                f"({self.answers.name}) have {self.answers.length}"
            )
        missing = [w for w in self.answers if w not in self.guesses]
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise WordListError(
                f"{len(missing)} answer(s) of {self.answers.name} are not in the guess list "
                f"{self.guesses.name} ({shown}); add them to the guess list"
            )
        self.hard = bool(hard)
        self.length = self.guesses.length
        self.win_code = all_green(self.length)
        self._matrix = matrix
        self._cache_dir = cache_dir
        if prior not in PRIORS:
            raise UnknownNameError(f"unknown prior {prior!r}; choose one of: {', '.join(PRIORS)}")
        self.prior = prior
        self.lang = lang or ("fr" if self.answers.name.startswith("fr") else "en")
        index = {w: i for i, w in enumerate(self.guesses)}
        self.answer_to_guess = np.array([index[w] for w in self.answers], dtype=np.int64)
        self.guess_to_answer = np.full(len(self.guesses), -1, dtype=np.int64)
        self.guess_to_answer[self.answer_to_guess] = np.arange(len(self.answers))
        codes = self.guesses.codes
        self.guess_counts = np.zeros((len(codes), 26), dtype=np.uint8)
        for i in range(self.length):
            np.add.at(self.guess_counts, (np.arange(len(codes)), codes[:, i]), 1)

    # -- data ---------------------------------------------------------------------------
    @property
    def matrix(self) -> np.ndarray:
        """The guess x answer pattern matrix (from the cache, built once)."""
        if self._matrix is None:
            self._matrix = cached_pattern_matrix(self.guesses, self.answers, self._cache_dir)
        return self._matrix

    @property
    def weights(self) -> np.ndarray:
        """Prior weight of each answer (sums to the number of answers)."""
        if getattr(self, "_weights", None) is None:
            if self.prior == "uniform":
                w = np.ones(len(self.answers))
            else:
                import wordfreq

                freq = np.array([wordfreq.word_frequency(a, self.lang) for a in self.answers])
                # unseen words get the smallest frequency seen, not zero
                floor = freq[freq > 0].min() if (freq > 0).any() else 1.0
                w = np.maximum(freq, floor)
            self._weights = w * (len(w) / w.sum())
        return self._weights

    # -- states -------------------------------------------------------------------------
    def start(self) -> State:
        """The opening state: every answer possible, every guess allowed."""
        return State(np.arange(len(self.answers), dtype=np.int64),
                     None if not self.hard else np.ones(len(self.guesses), dtype=bool))

    def advance(self, state: State, guess: int, code: int) -> State:
        """The state after guess index ``guess`` received ``code``."""
        kept = filter_candidates(self.matrix, guess, code, state.candidates)
        allowed = state.allowed
        if self.hard:
            allowed = hard_mode_allowed(self.guesses.codes, self.guess_counts,
                                        self.guesses.codes[guess], code, allowed)
        return State(kept, allowed, state.history + ((int(guess), int(code)),))

    def replay(self, history) -> State:
        """The state after a history of ``(guess, pattern)`` pairs (words and any spelling).

        Raises
        ------
        DeductiveError
            A guess outside the list, a malformed pattern, or a hard-mode violation.
        """
        state = self.start()
        for turn, (guess, pattern) in enumerate(history, start=1):
            g = self.guess_index(guess)
            if self.hard and not state.allowed[g]:
                raise DeductiveError(
                    f"turn {turn}: {self.guesses[g]!r} breaks hard mode (reuse every revealed "
                    "letter and keep greens in place)"
                )
            state = self.advance(state, g, parse_pattern(pattern, self.length))
        return state

    def guess_index(self, word) -> int:
        """Index of a guess given as a word or an index."""
        if isinstance(word, (int, np.integer)):
            if not 0 <= int(word) < len(self.guesses):
                raise WordListError(f"guess index {word} out of range")
            return int(word)
        return self.guesses.index(word)

    def candidates(self, history=()) -> list[str]:
        """The answers still possible after ``history`` (a list of ``(guess, pattern)``)."""
        return [self.answers[k] for k in self.replay(history).candidates]

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

    def best_guesses(self, history=(), k: int = 5, metric: str = "entropy",
                     pool: str = "all") -> list[GuessScore]:
        """The ``k`` best next guesses after ``history`` by ``metric``.

        Ties go to a guess that is still a candidate, then to the lower index.
        """
        from .solvers import rank_pool

        state = self.replay(history)
        if len(state.candidates) == 0:
            raise DeductiveError(_contradiction(history))
        rows = self.pool(state, pool)
        order, stats, entropy = rank_pool(self, state, rows, metric)
        expected = stats.expected
        return [
            GuessScore(self.guesses[int(rows[j])], int(rows[j]), float(entropy[j]),
                       int(stats.buckets[j]), int(stats.largest[j]), float(expected[j]))
            for j in order[:k]
        ]

    def solver(self, name: str, **options):
        """A solver from the registry by name (see :data:`deductive.engine.solvers.SOLVERS`)."""
        from .solvers import make_solver

        return make_solver(self, name, **options)

    def benchmark(self, solver, opener=None, answers=None, *, max_turns: int = 30,
                  seed: int = 0, keep_tree: bool = False, progress=None):
        """Play every answer (or ``answers``) and return a :class:`BenchmarkResult`."""
        from .bench import run_benchmark

        if isinstance(solver, str):
            solver = self.solver(solver)
        return run_benchmark(self, solver, opener=opener, answers=answers,
                             max_turns=max_turns, seed=seed, keep_tree=keep_tree,
                             progress=progress)

    def play(self, answer, solver, opener=None, *, seed: int = 0, max_turns: int = 30):
        """Play one game; return the list of ``(guess word, code)``."""
        from .bench import play_game

        if isinstance(solver, str):
            solver = self.solver(solver)
        target = self.answers.index(answer)
        moves = play_game(self, solver, target, opener=opener, seed=seed, max_turns=max_turns)
        return [(self.guesses[g], c) for g, c in moves]

    def format(self, code: int, style: str = "letters") -> str:
        return format_pattern(code, self.length, style)


def _contradiction(history) -> str:
    shown = ", ".join(f"{g} {p}" for g, p in history)
    return (f"no answer fits all the feedback ({shown}); check the last colours entered "
            "(or undo)")


def _words(source, what) -> WordList:
    if isinstance(source, WordList):
        return source
    if isinstance(source, (list, tuple)):
        return WordList(source, name=what)
    return load_words(source, role=what)


def parse_feedback(game: Wordle, text: str):
    """Split ``"crane GY..G"`` into ``(guess index, code)`` with clear errors."""
    parts = text.split()
    if len(parts) != 2:
        raise PatternError(
            f"expected a guess and its colours, like 'crane GY..G', not {text.strip()!r}"
        )
    return game.guess_index(parts[0]), parse_pattern(parts[1], game.length)
