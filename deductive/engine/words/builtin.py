"""The built-in word lists by name (``wordle``, ``nyt``, ``en``, ``fr``, ``fr-seed``; with
``:guesses`` or ``:answers``, one role of a list) and the table of them that
``deductive lists`` shows."""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import lru_cache
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from ...errors import UnknownNameError, WordListError
from . import dictionaries
from .dictionaries import _common_words, _en_lines, dictionary, rank_answers
from .wordlist import MAX_LENGTH, MIN_LENGTH, WordList
from ..render import render


#: Size of the built-in answer lists: that of the original Wordle answers.
ANSWER_LIST_SIZE = 2_315


#: Names accepted by :func:`load_words`, with what they are.
BUILTIN_NAMES = {
    "wordle": "the original Wordle lists: 12,972 allowed guesses, 2,315 answers (5 letters; "
              "the default for 5 letters)",
    "nyt": "the NYT's 2022 answer list: the original 2,315 answers less 6 (2,309), with the "
           "original 12,972 guesses (5 letters)",
    "en": "English: guesses every SCOWL word of the length (size 70), answers the 2,315 "
          "most frequent common words that are not inflections (shipped)",
    "fr": "French: guesses every word of the length of Debian's wfrench, answers the 2,315 "
          "most frequent that are not plurals (needs /usr/share/dict/french)",
    "fr-seed": "the seeds' 297-word French list (5 letters; guesses and answers alike)",
}


_ROLES = ("guesses", "answers")


#: The six answers the New York Times removed in 2022 (the ``nyt`` answer list lacks them).
NYT_REMOVED = ("agora", "fibre", "lynch", "pupal", "slave", "wench")


#: Where each built-in list comes from (shown by ``deductive lists``).
_SOURCES = {
    "wordle": "Wordle's original lists (January 2022)",
    "nyt": "Wordle's original answers less the NYT's 2022 removals",
    "en": "SCOWL 2020.12.07 (K. Atkinson) up to size 70; answers ranked by wordfreq",
    "fr": "Debian's wfrench (/usr/share/dict/french); answers ranked by wordfreq",
    "fr-seed": "the seed programs' 297-word French list",
}


def builtin_words(name: str, *, role: str = "guesses", length: int = 5) -> WordList:
    """A built-in word list: the original Wordle lists, or real words of one language by a
    fixed rule.

    ``wordle`` and ``nyt`` (shipped with the package; 5 letters)
        The original Wordle lists (:data:`BUILTIN_NAMES`); ``nyt`` has the 2,309 answers
        left after the 2022 removals (:data:`NYT_REMOVED`).
    ``en`` (shipped with the package)
        Guesses: every word of ``length`` letters of SCOWL (Kevin Atkinson's Spell Checker
        Oriented Word Lists, 2020.12.07) up to size 70 ("large"): the word lists of
        Debian's ``wamerican-large``, without its abbreviations, contractions, capitalised
        words and proper names (size 80 adds words such as salet, reast and raile, which
        would then rank among the best openers). Answers: of its *common* words (size 50
        and below, the lists of Debian's ``wamerican``), those that are not a simple
        inflection of a shorter common word (:func:`inflection_base`), the 2,315 most
        frequent by wordfreq.
    ``fr`` (read from Debian's ``wfrench``, ``/usr/share/dict/french``)
        Guesses: every word of ``length`` letters. Answers: those that are not the plural
        (-s, -x) of a shorter word, the 2,315 most frequent by wordfreq.

    Entries are kept only if they start with a lowercase letter (which drops proper
    names) and are made of a-z once folded (``élève`` becomes ``eleve``). A word's
    frequency is the largest wordfreq frequency of the entries that fold to it; ties go
    to the alphabetically first. Both lists are sorted alphabetically, so that ties in
    the games (which go to the lower index) fall alphabetically. English lists are built
    by ``python -m deductive.data.build`` and shipped; a test checks them against the rule.

    Parameters
    ----------
    name : {"wordle", "nyt", "en", "fr", "fr-seed"}
        Or ``NAME:ROLE`` (``wordle:guesses``): that role's list whatever ``role`` says,
        e.g. every allowed guess as the answers.
    role : {"guesses", "answers"}
    length : int
        From 2 to 12 (``wordle``, ``nyt`` and ``fr-seed`` have only 5).
    """
    base, _, qualifier = name.partition(":")
    if qualifier in _ROLES and base in BUILTIN_NAMES:
        name, role = base, qualifier       # "wordle:guesses": that role of the list
    if name not in BUILTIN_NAMES:
        raise UnknownNameError(
            f"{name!r} is neither a file nor a built-in word list; built-in lists are: "
            + "; ".join(f"{k} ({v})" for k, v in BUILTIN_NAMES.items())
        )
    if role not in _ROLES:
        raise ValueError(f"role must be one of {_ROLES}, not {role!r}")
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise WordListError(
            f"length {length} is not supported; choose a length from {MIN_LENGTH} to {MAX_LENGTH}"
        )
    if name in _FIVE_LETTER:
        if length != 5:
            raise WordListError(f"{name} has only 5-letter words; drop --length or use 5 "
                                "(the built-in list en has every length)")
        return _five_letter(name, role)
    words = builtin_answers(name, length) if role == "answers" else builtin_guesses(name, length)
    if not words:
        raise WordListError(f"the built-in list {name} has no words of {length} letters; "
                            "choose another --length")
    return WordList(sorted(words), name=f"{name}:{length}:{role}")


#: The built-in lists of five-letter words only: name -> {role: file of the package}.
_FIVE_LETTER = {
    "wordle": {"guesses": "wordle-guesses.txt", "answers": "wordle-answers.txt"},
    "nyt": {"guesses": "wordle-guesses.txt", "answers": "wordle-answers.txt"},
    "fr-seed": {"guesses": "fr-seed.txt", "answers": "fr-seed.txt"},
}


@lru_cache(maxsize=None)
def _five_letter(name: str, role: str) -> WordList:
    words = _package_lines(_FIVE_LETTER[name][role])
    if name == "nyt" and role == "answers":
        words = [w for w in words if w not in NYT_REMOVED]
    if name == "fr-seed":
        return WordList(words, name="fr-seed")
    return WordList(words, name=f"{name}:{role}")


class BuiltinList(NamedTuple):
    """One built-in list, as ``deductive lists`` shows it."""

    name: str        #: what ``--guesses`` / ``--answers`` take
    role: str        #: guesses or answers
    length: int      #: letters of every word
    size: int        #: number of words
    sha256: str      #: :attr:`WordList.sha256`, the digest every saved file records
    source: str      #: where the words come from

    def to_json(self) -> dict:
        return self._asdict()


@dataclass(frozen=True)
class ListTable:
    """Built-in lists (:func:`builtin_lists`) as one result: ``deductive lists`` shows it."""

    rows: list

    def to_json(self) -> list:
        """One object per list: the form ``lists --json`` prints."""
        return [r.to_json() for r in self.rows]


@render.register
def _list_table(table: ListTable) -> str:
    """One line per list: name, role, length, size, the digest's first 16 digits, source."""
    width = max((len(r.name) for r in table.rows), default=0)
    return "\n".join(f"{r.name:<{width}}  {r.role:<7}  {r.length:>2}  {r.size:>6,}  "
                     f"{r.sha256[:16]}  {r.source}" for r in table.rows)


def builtin_lists(*, lengths: Iterable[int] = (5,)) -> list[BuiltinList]:
    """The built-in lists of the given lengths (``fr`` only where Debian's wfrench is
    installed), each with its size and digest.

    Examples
    --------
    >>> [(b.name, b.role, b.size) for b in builtin_lists()][:4]  # doctest: +NORMALIZE_WHITESPACE
    [('wordle', 'guesses', 12972), ('wordle', 'answers', 2315),
     ('nyt', 'guesses', 12972), ('nyt', 'answers', 2309)]
    """
    rows = []
    for name in BUILTIN_NAMES:
        if name == "fr" and not os.path.exists(dictionaries.FRENCH_WORDS):
            continue
        for length in lengths:
            if name in _FIVE_LETTER and length != 5:
                continue
            for role in _ROLES:
                try:
                    words = builtin_words(name, role=role, length=length)
                except WordListError:           # no words of that length
                    continue
                rows.append(BuiltinList(name, role, length, len(words), words.sha256,
                                        _SOURCES[name]))
    return rows


def builtin_guesses(lang: str, length: int) -> list[str]:
    """Every dictionary word of ``length`` letters of a built-in language, alphabetically."""
    if lang == "en" and length == 5:
        return _package_lines("en-5.txt")   # the default: no need to read the whole list
    if lang == "en":                        # by length, then alphabetically: "word size ..."
        return [line[:length] for line in _en_lines() if line.find(" ") == length]
    return sorted(w for w in dictionary(lang) if len(w) == length)


def builtin_answers(lang: str, length: int, limit: int = ANSWER_LIST_SIZE) -> list[str]:
    """The built-in answers of ``length`` letters, most frequent first (see
    :func:`builtin_words` for the rule)."""
    if lang == "en":
        ranked = [w for w in _package_lines("en-answers.txt") if len(w) == length]
        return ranked[:limit]
    return rank_answers(dictionary(lang), _common_words(lang), length, lang, limit)


def _package_lines(filename: str) -> list[str]:
    text = resources.files("deductive.data").joinpath(filename).read_text(encoding="utf-8")
    return [w for w in (line.split("#", 1)[0].strip() for line in text.splitlines()) if w]
