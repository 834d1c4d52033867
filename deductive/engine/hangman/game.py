"""Hangman over one word list: the rules (which words fit a position), the prior, and the
front door to the strategies' sweeps and letters."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ...errors import DeductiveError, UnknownNameError, WordListError
from ...kernels.hangman import letter_counts, position_masks, split_entropy
from ..words import word_frequencies
from ..params import Param
from .exact import DEFAULT_MEMORY, ExactHangman
from .results import SweepResult
from .strategies import make_strategy
from .words import HangmanWords, load_hangman_words

__all__ = ["Hangman", "LetterStats", "PRIORS"]

PRIORS = ("uniform", "frequency")
#: :class:`Hangman`'s ``prior`` and ``lang``.
PRIOR = Param("prior", "uniform", "How the setter picks words.", PRIORS)
LANG = Param("lang", "en", "Language of the frequency prior.", kind="lang")


@dataclass(frozen=True)
class LetterStats:
    """Statistics of one letter over a candidate set."""

    letter: str
    containing: int       # candidates that contain it
    hit_probability: float
    entropy: float        # bits, of the split by positions
    groups: int

    def to_json(self) -> dict:
        """JSON-able data: the fields as they are."""
        return asdict(self)


class Hangman:
    """Hangman over one word list of one length.

    A word's difficulty is the number of wrong letters a strategy guesses before the word
    is the only candidate left (the original programs' measure). A sweep grows the
    strategy's decision tree once over the whole list (see :mod:`deductive.kernels.hangman`)
    and reports, for every word, the tuple ``(wrong, guesses, word, letters)``.

    Parameters
    ----------
    words : HangmanWords or sequence of str
    prior : {"uniform", "frequency"}
        How the setter is assumed to choose words (``frequency``: wordfreq, ``lang``).

    Examples
    --------
    >>> game = Hangman("deed even eyes heel mere peep star".split())
    >>> game.sweep("min-miss").results[:3]
    [(0, 1, 'mere', 'e'), (0, 2, 'deed', 'ed'), (0, 2, 'even', 'en')]
    """

    def __init__(self, words: HangmanWords | Iterable[str], *, prior: str = "uniform",
                 lang: str = "en"):
        if not isinstance(words, HangmanWords):
            words = list(words)
            lengths = {len(w) for w in words}
            if len(lengths) != 1:
                raise WordListError("a Hangman game needs words of one length; "
                                    "split the list with load_hangman_words")
            lists = load_hangman_words(words, length=lengths.pop())
            words = next(iter(lists.values()))
        self.words = words
        if prior not in PRIORS:
            raise UnknownNameError(f"unknown prior {prior!r}; choose one of: {', '.join(PRIORS)}")
        self.prior = prior
        self.lang = lang
        self.masks, self.presence = position_masks(words.codes)
        self.word_array = np.array(words.words)
        if prior == "uniform":
            self.weights = np.ones(len(words))
        else:
            freq = word_frequencies(words.words, lang)
            floor = freq[freq > 0].min() if (freq > 0).any() else 1.0
            self.weights = np.maximum(freq, floor)
            self.weights *= len(freq) / self.weights.sum()

    def subgame(self, candidates: Iterable[int]) -> "Hangman":
        """The game over the words ``candidates`` (indices) alone, with the same prior."""
        return Hangman([self.words.words[k] for k in candidates], prior=self.prior,
                       lang=self.lang)

    # -- the sweep ----------------------------------------------------------------------
    def sweep(self, strategy: str = "min-miss", lives: int = 6, exact_limit: int = 16,
              memory: int | None = None) -> SweepResult:
        """Play every word; return the tuples ``(wrong, guesses, word, letters)``, sorted
        ascending. ``exact_limit`` is for ``best-lives``, ``memory`` (bytes) for
        ``optimal`` (see :mod:`deductive.engine.hangman.strategies`)."""
        player = make_strategy(strategy, exact_limit=exact_limit, memory=memory)
        if lives < 1:
            raise DeductiveError(f"lives must be at least 1, not {lives}")
        start = time.perf_counter()
        wrong, count, letters, play = player.sweep(self, lives)
        return SweepResult.ordered(wrong, count, letters, self.word_array, self.weights, lives,
                                   strategy, time.perf_counter() - start, play)

    def exact(self, memory: int | None = None) -> ExactHangman:
        """The exact solver of this list (:class:`~deductive.engine.hangman.ExactHangman`),
        made once and kept, so that sweeps with several lives share its memo."""
        kept: ExactHangman | None = getattr(self, "_exact", None)
        if kept is None or (memory and memory != kept.memory):
            self._exact = kept = ExactHangman(self, memory=memory or DEFAULT_MEMORY)
        return self._exact

    # -- a position ---------------------------------------------------------------------
    def candidates(self, pattern: str, wrong: str = "") -> list[int]:
        """Indices of the words that fit ``pattern`` (``_`` unknown) and avoid ``wrong``."""
        pattern = pattern.strip().lower().replace(".", "_").replace("-", "_")
        if len(pattern) != self.words.length:
            raise DeductiveError(f"pattern {pattern!r} has {len(pattern)} letters but the words "
                                 f"have {self.words.length}")
        bad = [ch for ch in pattern if ch != "_" and not "a" <= ch <= "z"]
        if bad:
            raise DeductiveError(f"pattern {pattern!r}: {bad[0]!r} is neither a letter nor _")
        wrong = wrong.lower()
        if any(not "a" <= ch <= "z" for ch in wrong):
            raise DeductiveError(f"wrong letters {wrong!r}: give letters a-z only")
        both = set(wrong) & set(pattern)
        if both:
            raise DeductiveError(f"letter(s) {''.join(sorted(both))} are both in the pattern "
                                 "and among the wrong letters")
        ok = np.ones(len(self.words), dtype=bool)
        for c in set(pattern) - {"_"}:
            k = ord(c) - 97
            mask = sum(1 << i for i, ch in enumerate(pattern) if ch == c)
            ok &= self.masks[:, k] == mask
        for c in wrong:
            ok &= self.masks[:, ord(c) - 97] == 0
        return np.flatnonzero(ok).tolist()

    def letter_stats(self, candidates: Any, guessed: str = "") -> list[LetterStats]:
        """Statistics of every unguessed letter over the candidates, best hit first."""
        idx = np.asarray(candidates, dtype=np.int64)
        counts, mass = letter_counts(self.presence, self.weights, idx, 0, len(idx))
        total = self.weights[idx].sum()
        stats = []
        for c in range(26):
            ch = chr(97 + c)
            if ch in guessed:
                continue
            groups = len(np.unique(self.masks[idx, c])) if len(idx) else 0
            stats.append(LetterStats(ch, int(counts[c]), float(mass[c] / total) if total else 0.0,
                                     float(split_entropy(self.masks, self.weights, idx, 0,
                                                         len(idx), c)), groups))
        return sorted(stats, key=lambda s: (-s.hit_probability, s.letter))

    def best_letter(self, candidates: Any, guessed: str, strategy: str = "min-miss",
                    lives_left: int = 6) -> str:
        """The strategy's next letter for a candidate set."""
        idx = np.asarray(candidates, dtype=np.int64).copy()
        guessed_bits = sum(1 << (ord(ch) - 97) for ch in set(guessed))
        return chr(97 + make_strategy(strategy).choose(self, idx, guessed_bits, lives_left))
