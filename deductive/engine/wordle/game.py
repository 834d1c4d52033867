"""Wordle: the feedback game of word lists, its hard mode and its priors.

:class:`Wordle` is one client of the feedback-game core (:mod:`deductive.engine.feedback`):
it reads its word lists, computes or caches its pattern matrix, spells its feedback
(``GY..G``) and adds NYT hard mode and a frequency prior. Every solver, benchmark, search
and tree check is the core's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from ...errors import PatternError, UnknownNameError, WordListError
from ..feedback.game import FeedbackGame, State
from ..feedback.matrix import PatternMatrix
from ..params import Param
from ..words import WordList, default_source, load_words, word_frequencies
from .patterns import (all_green, cached_pattern_matrix, format_pattern, matrix_key,
                       n_patterns, parse_pattern, pattern_colours, pattern_digits)
from .solvers import WORDLE_SOLVERS

__all__ = ["Wordle", "State", "PRIORS", "hard_mode_allowed", "parse_feedback"]

#: Priors over answers.
PRIORS = {
    "uniform": "every answer equally likely",
    "frequency": "answers weighted by their wordfreq frequency in the list's language",
}


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


#: :class:`Wordle`'s rules: ``hard``, ``prior`` and ``lang``.
RULES = (
    Param("hard", False, "NYT hard mode: keep greens, reuse every revealed letter.", bool),
    Param("prior", "uniform", "Weights of the answers: used by entropy and weighted averages.",
          ("uniform", "frequency")),
    Param("lang", None, "Language of the frequency prior (default: fr for fr lists, else en).",
          kind="lang"))


#: A word list as a game takes it: a WordList, the words, a file or a built-in name.
WordSource = WordList | Sequence[str] | str | os.PathLike[str]


class Wordle(FeedbackGame):
    """A Wordle variant: a guess list, an answer list, normal or hard mode, and a prior.

    Parameters
    ----------
    guesses, answers : WordList, sequence of str, path or built-in name
        Every answer must also be an allowed guess. Default: the original Wordle lists
        (``wordle``: 12,972 guesses, 2,315 answers); ``answers`` defaults to the guess
        source (for a built-in name, its answer list).
    hard : bool
        NYT hard mode.
    prior : {"uniform", "frequency"}
        Weights of the answers, used by weighted entropy and the benchmark's average.
    lang : str, optional
        Language of the frequency prior (default: ``fr`` for lists named ``fr...``, else ``en``).
    cache_dir : path, optional
        Where the pattern matrix is cached.
    matrix : ndarray or callable, optional
        A pattern matrix already at hand (it must match the lists), or a function
        ``matrix(guesses, answers)`` that returns it, called when it is first needed (so
        that a mistake found before costs no computation).

    Examples
    --------
    >>> game = Wordle("fr-seed", "fr-seed")
    >>> game.candidates([("laine", "_Y_GG")])
    ['arene', 'crane']
    >>> [s.word for s in game.best_guesses([], k=3)]
    ['laine', 'paire', 'clair']
    """

    name = "wordle"
    guesses: WordList
    answers: WordList
    max_guesses = 6
    solvers = WORDLE_SOLVERS
    hard_rule = "reuse every revealed letter and keep greens in place"
    feedback_name = "colours"

    def __init__(self, guesses: WordSource | None = None, answers: WordSource | None = None,
                 *, hard: bool = False, prior: str = "uniform", lang: str | None = None,
                 cache_dir: str | os.PathLike[str] | None = None,
                 matrix: np.ndarray | Callable[[WordList, WordList], np.ndarray] | None = None):
        source = default_source() if guesses is None else guesses
        guesses = _words(source, "guesses")
        if answers is None and not isinstance(source, (str, os.PathLike)):
            answers = guesses               # the words given are the answers too
        answers = _words(source if answers is None else answers, "answers")
        if guesses.length != answers.length:
            raise WordListError(
                f"guesses ({guesses.name}) have {guesses.length} letters but answers "
                f"({answers.name}) have {answers.length}"
            )
        missing = [w for w in answers if w not in guesses]
        if missing:
            shown = ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else "")
            raise WordListError(
                f"{len(missing)} answer(s) of {answers.name} are not in the guess list "
                f"{guesses.name} ({shown}); add them to the guess list"
            )
        if prior not in PRIORS:
            raise UnknownNameError(f"unknown prior {prior!r}; choose one of: {', '.join(PRIORS)}")
        super().__init__(guesses=guesses, answers=answers)
        self.hard = bool(hard)
        self.prior = prior
        self.length = guesses.length
        self.lang = lang or ("fr" if answers.name.startswith("fr") else "en")
        self._cache_dir = cache_dir
        self._matrix_source = matrix if callable(matrix) else None
        if matrix is not None and not callable(matrix):
            self._patterns = self._wrap(matrix, "given")
        codes = guesses.codes
        self.guess_counts = np.zeros((len(codes), 26), dtype=np.uint8)
        for i in range(self.length):
            np.add.at(self.guess_counts, (np.arange(len(codes)), codes[:, i]), 1)

    # -- data ---------------------------------------------------------------------------
    def build_patterns(self) -> PatternMatrix:
        """The matrix from the function given as ``matrix``, else from the cache (built and
        stored once)."""
        if self._matrix_source is not None:
            codes = self._matrix_source(self.guesses, self.answers)
            self._matrix_source = None          # used once: the game pickles without it
            return self._wrap(codes, "given")
        info: dict[str, Any] = {}
        codes = cached_pattern_matrix(self.guesses, self.answers, self._cache_dir, info=info)
        return self._wrap(codes, info.get("source", "computed"))

    def _wrap(self, codes, source) -> PatternMatrix:
        return PatternMatrix(codes, self.guesses, self.answers, n_patterns(self.length),
                             all_green(self.length), source,
                             matrix_key(self.guesses, self.answers))

    @property
    def weights(self) -> np.ndarray:
        """Prior weight of each answer (sums to the number of answers)."""
        if self._weights is None:
            if self.prior == "uniform":
                w = np.ones(len(self.answers))
            else:
                freq = word_frequencies(self.answers, self.lang)
                # unseen words get the smallest frequency seen, not zero
                floor = freq[freq > 0].min() if (freq > 0).any() else 1.0
                w = np.maximum(freq, floor)
            self._weights = w * (len(w) / w.sum())
        return self._weights

    def identity(self) -> dict:
        return {"hard": self.hard, "length": self.length,
                "guesses": self.guesses.name, "answers": self.answers.name,
                "guesses_sha256": self.guesses.sha256, "answers_sha256": self.answers.sha256}

    @property
    def win_code(self) -> int:
        return all_green(self.length)

    # -- rules --------------------------------------------------------------------------
    def allowed_after(self, allowed: np.ndarray | None, guess: int, code: int
                      ) -> np.ndarray | None:
        """NYT hard mode (see :func:`hard_mode_allowed`); ``None`` in normal mode."""
        if allowed is None:
            return None
        codes = self.guesses.codes
        return hard_mode_allowed(codes, self.guess_counts, codes[guess], code, allowed)

    def rule_key(self, guess: int, code: int) -> Hashable:
        """Hard mode reads of a turn only its greens (position, letter) and the revealed
        letters, each as many times as it must be reused: many turns share them."""
        tables = self.__dict__.get("_rule_tables")
        if tables is None:
            digits = [pattern_digits(c, self.length) for c in range(n_patterns(self.length))]
            known: dict[int, tuple[int, ...]] = {}
            tables = self._rule_tables = (digits, known)
        digits, letters = tables
        word = letters.get(guess)
        if word is None:
            word = letters[guess] = tuple(int(x) for x in self.guesses.codes[guess])
        marks = digits[code]
        return (tuple(x if d == 2 else -1 for x, d in zip(word, marks)),
                tuple(sorted(x for x, d in zip(word, marks) if d)))

    def colour_letters(self) -> np.ndarray:
        """The guesses' letters, 0-25 (the feedback is Wordle's colours)."""
        return self.guesses.codes

    def guess_index(self, word: str | int | np.integer) -> int:
        """Index of a guess given as a word (any case, accents folded) or an index."""
        if isinstance(word, (int, np.integer)):
            if not 0 <= int(word) < len(self.guesses):
                raise WordListError(f"guess index {word} out of range")
            return int(word)
        return self.guesses.index(word)

    def answer_index(self, answer: str | int | np.integer) -> int:
        if isinstance(answer, (int, np.integer)):
            return super().answer_index(answer)
        if answer not in self.answers:
            raise WordListError(f"`answer` {answer!r} is not in the answer list "
                                f"{self.answers.name}")
        return self.answers.index(answer)

    def answer_subset(self, spec: str | int) -> int | list[str]:
        """The answers a benchmark plays, from ``spec``: a number N (the first N answers,
        as an int) or a word list (a file, read as it is, or a built-in name, taken at
        the game's length) whose words must all be answers (a list of words)."""
        text = str(spec).strip()
        if text.isdigit():
            if int(text) < 1:
                raise WordListError(f"`answers_subset` {spec}: give at least 1 answer (or a "
                                    "word list)")
            return int(text)
        subset = load_words(str(spec), role="answers",
                            length=None if os.path.exists(str(spec)) else self.length)
        if subset.length != self.length:
            raise WordListError(f"`answers_subset` {spec}: its words have {subset.length} "
                                f"letters, the game's {self.length}")
        missing = [w for w in subset if w not in self.answers]
        if missing:
            raise WordListError(f"`answers_subset`: {len(missing)} word(s) are not answers "
                                f"({', '.join(missing[:5])})")
        return list(subset)

    def word(self, guess: int) -> str:
        return self.guesses[guess]

    def format(self, code: int, style: str = "letters") -> str:
        return format_pattern(code, self.length, style)

    def tiles(self, code: int) -> list[str]:
        return pattern_colours(code, self.length)

    def parse(self, text: str | int | np.integer) -> int:
        return parse_pattern(text, self.length)


def _words(source: WordSource, what: str) -> WordList:
    if isinstance(source, WordList):
        return source
    if isinstance(source, (list, tuple)):
        return WordList(source, name=what)
    return load_words(source, role=what)


def parse_feedback(game: Wordle, text: str) -> tuple[int, int]:
    """Split ``"crane GY..G"`` into ``(guess index, code)`` with clear errors."""
    parts = text.split()
    if len(parts) != 2:
        raise PatternError(
            f"expected a guess and its colours, like 'crane GY..G', not {text.strip()!r}"
        )
    return game.guess_index(parts[0]), parse_pattern(parts[1], game.length)
