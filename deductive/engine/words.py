"""Word lists: loading, validation, accent folding and the built-in dictionaries.

A :class:`WordList` is an immutable, ordered, duplicate-free sequence of words of one length
made of the letters a-z. Its order matters: every tie-break in deductive goes to the lower
index. Lists are read from files (one word per line) or built by name:

``wordle`` (the default for English five-letter games)
    The original Wordle lists, shipped with the package: 12,972 allowed guesses and the
    2,315 answers (as of January 2022, before the New York Times edited them).
``nyt``
    The 2,309 answers of the NYT's edit of 2022 (the original minus agora, fibre, lynch,
    pupal, slave and wench), with the original 12,972 guesses.
``fr-seed``
    The seeds' 297-word French list, shipped with the package.
``en``, ``fr``
    Real words: every dictionary word of the length as guesses, the most frequent common
    ones that are not inflections of a shorter word as answers (see :func:`builtin_words`
    for the exact rule and the sources).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from functools import cached_property, lru_cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from .._io import read_text
from ..errors import ArgumentError, DuplicateWordWarning, UnknownNameError, WordListError
from .params import Param

__all__ = [
    "WordList",
    "fold_word",
    "load_words",
    "load_lists",
    "read_word_file",
    "builtin_words",
    "builtin_guesses",
    "builtin_answers",
    "inflection_base",
    "BUILTIN_NAMES",
    "BuiltinList",
    "builtin_lists",
    "default_source",
    "word_frequencies",
    "frequency_languages",
    "NYT_REMOVED",
    "ANSWER_LIST_SIZE",
    "MIN_LENGTH",
    "MAX_LENGTH",
]

MIN_LENGTH = 2
MAX_LENGTH = 12

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

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ĳ": "ij", "ø": "o", "đ": "d",
                            "ł": "l"})
_VALID = re.compile(r"[a-z]+")


#: The parameters of :func:`load_lists`: a Wordle game's word lists.
WORD_LISTS = (
    Param("guesses", None, "Allowed guesses: a file (one word per line) or a built-in name "
          "(wordle, nyt, en, fr, fr-seed; `deductive lists` shows them; NAME:guesses or "
          "NAME:answers picks one of its lists). Default: wordle (the original lists) for 5 "
          "letters, en for other lengths.", metavar="FILE|NAME", show_default=False),
    Param("answers", None, "Possible answers: a file or a built-in name (default: the guess "
          "source; for a built-in name, its answer list; wordle:guesses makes every allowed "
          "guess an answer).", metavar="FILE|NAME"),
    Param("length", None, "Word length: builds a built-in list of this length, or keeps only "
          "words of this length from a file (default 5 for built-in lists).", int,
          MIN_LENGTH, MAX_LENGTH))


def fold_word(text: str) -> str:
    """Fold case and accents: ``"Élève"`` becomes ``"eleve"``, ``"cœur"`` becomes ``"coeur"``.

    The result is not validated; it may still hold characters outside a-z.

    Examples
    --------
    >>> fold_word("Élève")
    'eleve'
    """
    text = text.strip().casefold().translate(_LIGATURES)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class WordList(Sequence):
    """An immutable, ordered list of distinct words of one length over a-z.

    Parameters
    ----------
    words : iterable of str
        The words, already folded or not (they are folded here). Duplicates are dropped,
        keeping the first, with a :class:`~deductive.errors.DuplicateWordWarning`.
    name : str, optional
        Where the list came from, used in messages and cache listings.

    Examples
    --------
    >>> wl = WordList(["crane", "Slate"], name="demo")
    >>> list(wl), wl.length
    (['crane', 'slate'], 5)
    """

    def __init__(self, words: Iterable[str], name: str | None = None, *, _lines=None):
        self.name = name or "<list>"
        folded, lines = [], []
        for pos, raw in enumerate(words):
            if not isinstance(raw, str):
                raise WordListError(
                    f"{self.name}: item {pos} is {type(raw).__name__} {raw!r}, not a word; "
                    "pass strings"
                )
            folded.append(fold_word(raw))
            lines.append(_lines[pos] if _lines is not None else None)
        self.words = _validate(folded, lines, self.name)

    # -- Sequence protocol --------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.words)

    def __getitem__(self, item):
        return self.words[item]

    def __iter__(self):
        return iter(self.words)

    def __contains__(self, word) -> bool:
        return isinstance(word, str) and fold_word(word) in self._index

    def __eq__(self, other) -> bool:
        if isinstance(other, WordList):
            return self.words == other.words
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.words)

    def __repr__(self) -> str:
        return f"WordList({self.name!r}, {len(self)} words of {self.length} letters)"

    # -- derived views ------------------------------------------------------------------
    @property
    def length(self) -> int:
        """Number of letters of every word."""
        return len(self.words[0])

    @cached_property
    def codes(self) -> np.ndarray:
        """Letters as a read-only ``(len(self), length)`` uint8 array, ``a`` = 0 ... ``z`` = 25."""
        flat = np.frombuffer("".join(self.words).encode("ascii"), dtype=np.uint8)
        arr = (flat.reshape(len(self.words), self.length) - ord("a")).astype(np.uint8)
        arr.flags.writeable = False
        return arr

    @cached_property
    def sha256(self) -> str:
        """SHA-256 of the words joined by newlines, in order."""
        return hashlib.sha256("\n".join(self.words).encode("ascii")).hexdigest()

    @cached_property
    def _index(self) -> dict:
        return {w: i for i, w in enumerate(self.words)}

    def index(self, word: str, *_args) -> int:
        """Position of ``word`` (folded) in the list.

        Raises
        ------
        WordListError
            If the word is not in the list.
        """
        try:
            return self._index[fold_word(word)]
        except KeyError:
            raise WordListError(
                f"{word!r} is not in the word list {self.name} ({len(self)} words)"
            ) from None

    def subset(self, words: Iterable[str], name: str | None = None) -> "WordList":
        """A new list of the given words, which must all be in this one, in the given order."""
        chosen = [self.words[self.index(w)] for w in words]
        return WordList(chosen, name=name or f"{self.name} (subset)")


def _validate(words: list[str], lines: list, source: str) -> tuple[str, ...]:
    def where(k):
        return f"{source}:{lines[k]}" if lines[k] is not None else f"{source}: item {k}"

    if not words:
        raise WordListError(
            f"{source}: the word list is empty (blank lines and # comments are ignored); "
            "give at least one word"
        )
    length = len(words[0])
    for k, word in enumerate(words):
        if not _VALID.fullmatch(word):
            bad = next((ch for ch in word if not ("a" <= ch <= "z")), None)
            what = f"contains {bad!r}" if bad is not None else "is empty"
            raise WordListError(
                f"{where(k)}: word {word!r} {what}; words may hold only the letters a-z "
                "(accents are folded); fix or remove that line"
            )
        if len(word) != length:
            raise WordListError(
                f"{where(k)}: word {word!r} has {len(word)} letters but the first word "
                f"{words[0]!r} has {length}; all words must have one length "
                "(split the list, or pass a length to keep only words of that length)"
            )
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise WordListError(
            f"{source}: words have {length} letters; lengths {MIN_LENGTH} to {MAX_LENGTH} "
            "are supported"
        )
    seen: dict[str, int] = {}
    unique = []
    dups = []
    for k, word in enumerate(words):
        if word in seen:
            dups.append(word)
            continue
        seen[word] = k
        unique.append(word)
    if dups:
        shown = ", ".join(repr(w) for w in dups[:5]) + (" ..." if len(dups) > 5 else "")
        warnings.warn(
            f"{source}: removed {len(dups)} duplicate word(s), keeping the first of each: {shown}",
            DuplicateWordWarning,
            stacklevel=4,
        )
    return tuple(unique)


def read_word_file(path: str, *, hint: str) -> list[str]:
    """The lines of a word-list file: the one reader of every game.

    UTF-8, a leading byte-order mark dropped (it is not part of the first word); a file
    that is missing, a folder, unreadable or not UTF-8 is one :class:`WordListError`
    naming the path. ``hint`` says what to give instead of a missing file. Each game
    parses the lines itself (Wordle folds accents and drops ``#`` comments, Hangman keeps
    lowercase a-z words only). Only a regular file is read (a FIFO or device is refused
    unopened), up to the input limit (:func:`deductive._io.max_input`: 64 MB unless
    ``$DEDUCTIVE_MAX_INPUT`` raises it).
    """
    if os.path.isdir(path):
        raise WordListError(f"{path}: is a directory; give a word-list file")
    return read_text(path, what="list", error=WordListError, hint=hint).splitlines()


def _read_lines(path: str, length: int | None) -> tuple[list[str], list[int]]:
    text = read_word_file(
        path,
        hint="give a path to a word list (one word per line) or a built-in name "
        f"({', '.join(BUILTIN_NAMES)})",
    )
    words, lines = [], []
    for lineno, line in enumerate(text, start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if length is not None and len(fold_word(line)) != length:
            continue
        words.append(line)
        lines.append(lineno)
    return words, lines


def load_words(
    source: str | os.PathLike | Sequence[str] | WordList,
    *,
    role: str = "guesses",
    length: int | None = None,
) -> WordList:
    """Load a word list from a file, a built-in name, or a sequence of words.

    Parameters
    ----------
    source : str, path, sequence of str or WordList
        A path to a file with one word per line (blank lines and ``#`` comments ignored,
        case and accents folded), a built-in name (:data:`BUILTIN_NAMES`), or the words.
        An existing file wins over a name.
    role : {"guesses", "answers"}
        Which list of a built-in dictionary to take (``en`` and ``fr`` have a long guess
        list and a short answer list; ``fr-seed`` has one list).
    length : int, optional
        Keep only words of this length (files), or build words of this length (names;
        default 5). Without it, a file of mixed lengths is an error.

    Returns
    -------
    WordList

    Raises
    ------
    WordListError
        The file is missing or malformed; the message names the file, the line and the word.
    UnknownNameError
        ``source`` is neither a file nor a built-in name.
    """
    if role not in _ROLES:
        raise ValueError(f"role must be one of {_ROLES}, not {role!r}")
    if length is not None and not MIN_LENGTH <= int(length) <= MAX_LENGTH:
        raise WordListError(
            f"length {length} is not supported; choose a length from {MIN_LENGTH} to {MAX_LENGTH}"
        )
    if isinstance(source, WordList):
        if length is not None and source.length != length:
            raise WordListError(
                f"{source.name} has words of {source.length} letters, not {length}"
            )
        return source
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.exists(path) or os.sep in path or path.endswith(".txt"):
            words, lines = _read_lines(path, length)
            if not words and length is not None:
                raise WordListError(
                    f"{path}: no words of {length} letters (blank lines and # comments are "
                    "ignored); choose another --length or another list"
                )
            return WordList(words, name=path, _lines=lines)
        return builtin_words(path, role=role, length=5 if length is None else length)
    words = list(source)
    if length is not None:
        words = [w for w in words if isinstance(w, str) and len(fold_word(w)) == length]
    return WordList(words)


def default_source(length: int | None = None) -> str:
    """The built-in list a game uses when none is named: ``wordle`` (the original lists)
    for five letters, ``en`` for other lengths.

    Examples
    --------
    >>> default_source(), default_source(6)
    ('wordle', 'en')
    """
    return "wordle" if length in (None, 5) else "en"


def load_lists(guesses=None, answers=None,
               length: int | None = None) -> tuple[WordList, WordList]:
    """The guess and the answer list of a game (:func:`load_words` each): ``guesses``
    defaults to :func:`default_source`, ``answers`` to the guess source (for a built-in
    name, its answer list). One file named for both is read, and warned of, once.

    Examples
    --------
    >>> guesses, answers = load_lists()
    >>> guesses.name, len(guesses), answers.name, len(answers)
    ('wordle:guesses', 12972, 'wordle:answers', 2315)
    """
    if guesses is None:
        guesses = default_source(length)
    guess_list = load_words(guesses, role="guesses", length=length)
    if answers in (None, guesses) and guess_list.name == str(guesses):
        return guess_list, guess_list
    return guess_list, load_words(answers or guesses, role="answers", length=length)


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
        if name == "fr" and not os.path.exists(FRENCH_WORDS):
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


def _en_lines() -> list[str]:
    data = resources.files("deductive.data").joinpath("en-words.txt.gz").read_bytes()
    return gzip.decompress(data).decode("utf-8").splitlines()


def builtin_answers(lang: str, length: int, limit: int = ANSWER_LIST_SIZE) -> list[str]:
    """The built-in answers of ``length`` letters, most frequent first (see
    :func:`builtin_words` for the rule)."""
    if lang == "en":
        ranked = [w for w in _package_lines("en-answers.txt") if len(w) == length]
        return ranked[:limit]
    return rank_answers(dictionary(lang), _common_words(lang), length, lang, limit)


@lru_cache(maxsize=None)
def _common_words(lang: str) -> frozenset:
    return common_words(dictionary(lang))


def common_words(entries: dict) -> frozenset:
    """The words of a dictionary that may be answers (:attr:`DictionaryEntry.common`)."""
    return frozenset(w for w, e in entries.items() if e.common)


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


def inflection_base(word: str, common, lang: str = "en") -> str | None:
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


class DictionaryEntry(NamedTuple):
    """A word of a built-in dictionary: whether it is common (eligible as an answer) and
    the dictionary's spellings of it before folding (their frequencies rank it)."""

    common: bool
    forms: tuple


#: Where Debian's wfrench puts the French word list.
FRENCH_WORDS = "/usr/share/dict/french"


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


#: SCOWL sizes up to this one are the common words (Debian's wamerican: "size 50 is what
#: most dictionaries contain"); guesses go up to size 70 (wamerican-large).
COMMON_SIZE = 50
GUESS_SIZE = 70


def _package_lines(filename: str) -> list[str]:
    text = resources.files("deductive.data").joinpath(filename).read_text(encoding="utf-8")
    return [w for w in (line.split("#", 1)[0].strip() for line in text.splitlines()) if w]
