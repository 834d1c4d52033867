"""One word list: :class:`WordList` (folded, validated, hashed, in order) and
:func:`fold_word`, the folding of case and accents every list goes through."""

from __future__ import annotations

import hashlib
import re
import unicodedata
import warnings
from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from ...errors import DuplicateWordWarning, WordListError


MIN_LENGTH = 2


MAX_LENGTH = 12


_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ĳ": "ij", "ø": "o", "đ": "d",
                            "ł": "l"})


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

    def __init__(self, words: Iterable[str], name: str | None = None, *,
                 _lines: Sequence[int] | None = None) -> None:
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

    def index(self, word: str, *_args: int) -> int:
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
