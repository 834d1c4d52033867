"""Reading word lists: a file (the one reader of every game's lists), a built-in name
or the words themselves, and a Wordle game's pair of lists with their defaults."""

from __future__ import annotations

import os
from collections.abc import Sequence

from ..._io import read_text
from ...errors import WordListError
from ..params import Param
from .builtin import _ROLES, BUILTIN_NAMES, builtin_words
from .wordlist import MAX_LENGTH, MIN_LENGTH, WordList, fold_word


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


def load_lists(guesses: str | os.PathLike | Sequence[str] | WordList | None = None,
               answers: str | os.PathLike | Sequence[str] | WordList | None = None,
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
