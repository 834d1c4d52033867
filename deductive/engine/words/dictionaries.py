"""The dictionaries behind the built-in ``en`` and ``fr`` lists (SCOWL, shipped; Debian's
wfrench) and the rule that picks their answers: common words that are not simple
inflections of a shorter word, by decreasing frequency (:func:`rank_answers`)."""

from __future__ import annotations

import gzip
from collections.abc import Container, Iterable
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from ...errors import UnknownNameError, WordListError
from .frequencies import _wordfreq
from .wordlist import _VALID, fold_word


#: SCOWL sizes up to this one are the common words (Debian's wamerican: "size 50 is what
#: most dictionaries contain"); guesses go up to size 70 (wamerican-large).
COMMON_SIZE = 50


GUESS_SIZE = 70


#: Where Debian's wfrench puts the French word list.
FRENCH_WORDS = "/usr/share/dict/french"


class DictionaryEntry(NamedTuple):
    """A word of a built-in dictionary: whether it is common (eligible as an answer) and
    the dictionary's spellings of it before folding (their frequencies rank it)."""

    common: bool
    forms: tuple


@lru_cache(maxsize=None)
def dictionary(lang: str) -> dict:
    """word -> :class:`DictionaryEntry` of a built-in language's dictionary."""
    if lang == "en":
        entries = {}
        for line in _en_lines():
            word, size, *forms = line.split()
            entries[word] = DictionaryEntry(int(size) <= COMMON_SIZE, tuple(forms) or (word,))
        return entries
    if lang == "fr":
        try:
            with open(FRENCH_WORDS, encoding="utf-8") as fh:
                raw_entries = fh.read().split()
        except OSError:
            raise WordListError(
                f"the built-in French lists are read from Debian's wfrench word list "
                f"({FRENCH_WORDS}), which is absent: install it (apt-get install wfrench), "
                "or give a word-list file"
            ) from None
        return fold_entries(raw_entries, common=lambda entry: True)
    raise UnknownNameError(f"no built-in dictionary for {lang!r}; choose en or fr")


def _en_lines() -> list[str]:
    data = resources.files("deductive.data").joinpath("en-words.txt.gz").read_bytes()
    return gzip.decompress(data).decode("utf-8").splitlines()


def fold_entries(raw_entries: Iterable[str], common) -> dict:
    """Fold dictionary entries into words: keep those that start with a lowercase letter
    and are a-z once folded; ``common(entry)`` says whether an entry is common."""
    entries: dict = {}
    for entry in raw_entries:
        if not entry[:1].islower():
            continue                                   # proper names, abbreviations
        word = fold_word(entry)
        if not _VALID.fullmatch(word):
            continue
        old = entries.get(word)
        forms = (entry,) if old is None else tuple(dict.fromkeys(old.forms + (entry,)))
        entries[word] = DictionaryEntry(bool(common(entry)) or (old is not None and old.common),
                                        forms)
    return entries


def common_words(entries: dict) -> frozenset:
    """The words of a dictionary that may be answers (:attr:`DictionaryEntry.common`)."""
    return frozenset(w for w, e in entries.items() if e.common)


@lru_cache(maxsize=None)
def _common_words(lang: str) -> frozenset:
    return common_words(dictionary(lang))


#: Suffixes of simple inflections, by language: (suffix, what replaces it to give the base).
#: English: plurals and third persons (-s, -es, -ies from -y) and regular past tenses
#: (-ed, -d after a final e but not ee: seed is no past of see; -ied from -y; a doubled
#: final consonant: stopped from stop). French: plurals (-s, -x).
_INFLECTIONS = {
    "en": (("s", ""), ("es", ""), ("ies", "y"), ("ed", ""), ("ied", "y")),
    "fr": (("s", ""), ("x", "")),
}


#: Bases shorter than this are not taken (bed is no past tense of be, nor gas a plural).
_MIN_BASE = 3


def inflection_base(word: str, common: Container[str], lang: str = "en") -> str | None:
    """The shorter word of ``common`` that ``word`` is a simple inflection of, or None.

    Examples
    --------
    >>> common = {"crane", "box", "try", "stop", "raise", "see", "seed"}
    >>> [inflection_base(w, common) for w in ("cranes", "boxes", "tried", "stopped",
    ...                                       "raised", "seed")]
    ['crane', 'box', 'try', 'stop', 'raise', None]
    """
    for suffix, replace in _INFLECTIONS.get(lang, ()):
        if not word.endswith(suffix):
            continue
        base = word[: -len(suffix)] + replace
        if len(base) >= _MIN_BASE and base in common:
            return base
        if lang == "en" and suffix == "ed":
            stem = word[:-1]                            # raised <- raise
            if len(stem) >= _MIN_BASE and stem in common and not stem.endswith("ee"):
                return stem
            if len(base) > _MIN_BASE and base[-1] == base[-2] and base[:-1] in common:
                return base[:-1]                        # stopped <- stop
    return None


def rank_answers(entries: dict, common, length: int, lang: str,
                 limit: int | None) -> list[str]:
    """Apply the answer rule: the common words of ``length`` letters that are not simple
    inflections of a shorter common word, by decreasing wordfreq frequency (ties
    alphabetical), at most ``limit``.

    ``entries`` maps each dictionary word to :class:`DictionaryEntry`; ``common`` is
    :func:`common_words` of it.
    """
    wordfreq = _wordfreq()
    kept = [w for w in common if len(w) == length and inflection_base(w, common, lang) is None]
    frequency = {w: max(wordfreq.word_frequency(form, lang) for form in entries[w].forms)
                 for w in kept}
    kept.sort(key=lambda w: (-frequency[w], w))
    return kept if limit is None else kept[:limit]
