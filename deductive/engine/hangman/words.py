"""Hangman's word lists: lowercase a-z words of each length, as the original programs keep
them, read through the shared reader :func:`deductive.engine.words.read_word_file`."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ...errors import WordListError
from ..params import Param
from ..words import builtin_answers, read_word_file

__all__ = ["HangmanWords", "load_hangman_words", "MAX_LENGTH"]

#: The ``source`` of :func:`load_hangman_words`.
WORDS = Param("words", "en", "A word list (one word per line; only lowercase a-z words are "
              "kept, as the original programs do), or en / fr (wordfreq).", metavar="FILE|NAME")

_LOWER = re.compile(r"[a-z]+")
MAX_LENGTH = 32


@dataclass(frozen=True)
class HangmanWords:
    """Distinct lowercase words of one length, in list order."""

    words: tuple
    name: str

    @property
    def length(self) -> int:
        return len(self.words[0]) if self.words else 0

    def __len__(self):
        return len(self.words)

    @property
    def codes(self) -> np.ndarray:
        flat = np.frombuffer("".join(self.words).encode("ascii"), dtype=np.uint8)
        return (flat.reshape(len(self.words), self.length) - ord("a")).astype(np.uint8)


#: Where Hangman's words come from: a file, ``en`` or ``fr``, or the words themselves.
WordSource = str | os.PathLike[str] | Iterable[str]


def load_hangman_words(source: WordSource, length: int | str = "all"
                       ) -> dict[int, HangmanWords]:
    """Word lists by length, filtered as the original programs filter them: lowercase a-z
    words only.

    Parameters
    ----------
    source : path, name or sequence of str
        A file with one word per line (``/usr/share/dict/web2``...), ``en`` or ``fr`` (the
        built-in secrets: of each length, the answer list of
        :func:`deductive.engine.words.builtin_words`, i.e. the 2,315 most frequent common
        dictionary words that are not inflections of a shorter word), or the words
        themselves. Lines that are not entirely lowercase a-z (capitalised proper nouns,
        apostrophes) are skipped, as the original programs skip them; duplicates are
        dropped. A file is read as every game reads one (UTF-8, a byte-order mark dropped).
    length : int or "all"

    Returns
    -------
    dict
        Length -> :class:`HangmanWords`, ascending by length.
    """
    if length != "all":
        length = int(length)
        if not 1 <= length <= MAX_LENGTH:
            raise WordListError(f"length {length} is not supported; choose 1 to {MAX_LENGTH}")
    if isinstance(source, (str, os.PathLike)) and not os.path.exists(source) \
            and str(source) in ("en", "fr"):
        return _builtin_lists(str(source), length)
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        raw = read_word_file(name, hint="give a word list (one word per line, e.g. "
                                        "/usr/share/dict/web2) or en / fr")
    else:
        raw, name = list(source), "<list>"
    by_length: dict = {}
    seen = set()
    for line in raw:
        word = line.strip()
        if not _LOWER.fullmatch(word) or len(word) > MAX_LENGTH or word in seen:
            continue
        if length != "all" and len(word) != length:
            continue
        seen.add(word)
        by_length.setdefault(len(word), []).append(word)
    if not by_length:
        what = "" if length == "all" else f" of {length} letters"
        raise WordListError(f"{name}: no lowercase a-z words{what}; check the file and the "
                            "length")
    return {n: HangmanWords(tuple(by_length[n]), f"{name}:{n}") for n in sorted(by_length)}


def _builtin_lists(lang, length):
    lengths = range(2, MAX_LENGTH + 1) if length == "all" else [length]
    out = {}
    for n in lengths:
        words = sorted(builtin_answers(lang, n))
        if words:
            out[n] = HangmanWords(tuple(words), f"{lang}:{n}")
    if not out:
        raise WordListError(f"the built-in list {lang} has no words of {length} letters; "
                            "choose another length")
    return out
