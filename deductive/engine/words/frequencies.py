"""Word frequencies, from wordfreq: an optional dependency (the ``freq`` extra)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ...errors import ArgumentError


def _wordfreq():
    """The wordfreq module, an optional dependency (the ``freq`` extra)."""
    try:
        import wordfreq  # deferred: loading its lists costs ~0.4 s
    except ImportError:
        raise ArgumentError(
            "word frequencies need the wordfreq package, which is not installed; "
            "install it with: pip install 'deductive[freq]'"
        ) from None
    return wordfreq


def word_frequencies(words: Iterable[str], lang: str) -> np.ndarray:
    """wordfreq's frequency of each word in ``lang`` (0 for unseen words), as float64.

    Raises
    ------
    ArgumentError
        wordfreq (the ``freq`` extra) is not installed.
    """
    wordfreq = _wordfreq()
    return np.array([wordfreq.word_frequency(w, lang) for w in words], dtype=np.float64)


def frequency_languages() -> list[str]:
    """The languages wordfreq has frequencies for, sorted (needs the ``freq`` extra)."""
    return sorted(_wordfreq().available_languages(wordlist="best"))
