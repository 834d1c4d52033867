"""Word lists: loading, validation, accent folding and the built-in dictionaries.

A :class:`WordList` is an immutable, ordered, duplicate-free sequence of words of one length
made of the letters a-z. Its order matters: every tie-break in deductive goes to the lower
index. Lists are read from files (one word per line) or built by name:

``fr-seed``
    The seeds' 297-word French list, shipped with the package.
``en``, ``fr``
    Built from wordfreq's frequency lists (see :func:`builtin_words` for the exact rule).
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from functools import cached_property
from importlib import resources

import numpy as np

from ..errors import DuplicateWordWarning, UnknownNameError, WordListError

__all__ = [
    "WordList",
    "fold_word",
    "load_words",
    "builtin_words",
    "BUILTIN_NAMES",
    "GUESS_LIST_SIZE",
    "ANSWER_LIST_SIZE",
    "MIN_LENGTH",
    "MAX_LENGTH",
]

MIN_LENGTH = 2
MAX_LENGTH = 12

#: Sizes of the wordfreq-built lists: those of the original Wordle lists.
GUESS_LIST_SIZE = 12_972
ANSWER_LIST_SIZE = 2_315

#: Names accepted by :func:`load_words`, with what they are.
BUILTIN_NAMES = {
    "en": "English, from wordfreq (guesses: 12,972 most frequent; answers: 2,315 most frequent)",
    "fr": "French, from wordfreq (guesses: 12,972 most frequent; answers: 2,315 most frequent)",
    "fr-seed": "the seeds' 297-word French list (5 letters; guesses and answers alike)",
}
_WORDFREQ_LANGS = {"en", "fr"}
_ROLES = ("guesses", "answers")

_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ĳ": "ij", "ø": "o", "đ": "d", "ł": "l"})
_VALID = re.compile(r"[a-z]+")


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


def _read_lines(path: str, length: int | None) -> tuple[list[str], list[int]]:
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise WordListError(
            f"{path}: no such file; give a path to a word list (one word per line) "
            f"or a built-in name ({', '.join(BUILTIN_NAMES)})"
        ) from None
    except IsADirectoryError:
        raise WordListError(f"{path}: is a directory; give a word-list file") from None
    except UnicodeDecodeError as exc:
        raise WordListError(
            f"{path}: not UTF-8 text (byte {exc.start}); save the list as UTF-8"
        ) from None
    except OSError as exc:
        raise WordListError(f"{path}: cannot be read ({exc.strerror})") from None
    words, lines = [], []
    for lineno, line in enumerate(text.splitlines(), start=1):
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


def builtin_words(name: str, *, role: str = "guesses", length: int = 5) -> WordList:
    """A built-in word list.

    The rule for ``en`` and ``fr``: walk wordfreq's ``best`` list for the language in
    order of decreasing frequency; fold each entry (case, accents, ligatures such as
    œ -> oe); keep it if it is then made of exactly ``length`` letters a-z and was not
    kept before. The guess list is the first 12,972 words kept (all of them if fewer),
    the answer list the first 2,315; each is then sorted alphabetically, so that ties
    (which go to the lower index) fall alphabetically. English of length 5, the default
    of the CLI, is shipped precomputed (``deductive/data/en-5.txt``, in frequency order)
    so that no start-up pays for loading wordfreq; a test checks it against the rule.

    Parameters
    ----------
    name : {"en", "fr", "fr-seed"}
    role : {"guesses", "answers"}
    length : int
        From 2 to 12 (``fr-seed`` has only 5).
    """
    if name not in BUILTIN_NAMES:
        raise UnknownNameError(
            f"{name!r} is neither a file nor a built-in word list; built-in lists are: "
            + "; ".join(f"{k} ({v})" for k, v in BUILTIN_NAMES.items())
        )
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise WordListError(
            f"length {length} is not supported; choose a length from {MIN_LENGTH} to {MAX_LENGTH}"
        )
    if name == "fr-seed":
        if length != 5:
            raise WordListError("fr-seed has only 5-letter words; drop --length or use 5")
        return WordList(_package_lines("fr-seed.txt"), name="fr-seed")
    ranked = _ranked_words(name, length)
    size = GUESS_LIST_SIZE if role == "guesses" else ANSWER_LIST_SIZE
    return WordList(sorted(ranked[:size]), name=f"{name}:{length}:{role}")


def _package_lines(filename: str) -> list[str]:
    text = resources.files("deductive.data").joinpath(filename).read_text(encoding="utf-8")
    return [w for w in (line.split("#", 1)[0].strip() for line in text.splitlines()) if w]


def _ranked_words(lang: str, length: int) -> list[str]:
    """Words of ``length`` letters in decreasing wordfreq frequency (shipped for en/5)."""
    if lang == "en" and length == 5:
        return _package_lines("en-5.txt")
    return wordfreq_ranked(lang, length, GUESS_LIST_SIZE)


def wordfreq_ranked(lang: str, length: int, limit: int) -> list[str]:
    """Apply the built-in rule to wordfreq directly: the first ``limit`` words kept."""
    import wordfreq  # deferred: loading its lists costs ~0.4 s

    if lang not in _WORDFREQ_LANGS:
        raise UnknownNameError(f"no wordfreq list for {lang!r}; choose one of {_WORDFREQ_LANGS}")
    kept: list[str] = []
    seen: set[str] = set()
    for entry in wordfreq.iter_wordlist(lang, wordlist="best"):
        word = fold_word(entry)
        if len(word) == length and word not in seen and _VALID.fullmatch(word):
            seen.add(word)
            kept.append(word)
            if len(kept) >= limit:
                break
    return kept
