"""Wordle feedback: single patterns, the guess x answer matrix, and pattern spellings.

A pattern code is ``sum(fb[i] * 3**i)``, ``fb[i]`` in {0 grey, 1 yellow, 2 green}, position 0
the least significant digit; ``3**L - 1`` is all green. Three spellings are understood:

* letters: ``GY..G`` (``G`` green, ``Y`` yellow; ``.``, ``-``, ``_``, ``B`` or ``X`` grey),
* digits: ``21002`` (the digit of each position, left to right),
* emoji: 🟩 green, 🟨 yellow, ⬜ or ⬛ grey (and the high-contrast 🟧 green, 🟦 yellow).
"""

from __future__ import annotations

import hashlib
import os
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...cache import PatternStore
from .._memory import available_memory
from ...errors import (CacheError, CacheWriteWarning, MemoryBudgetError, PatternError,
                       WordListError)
from ...kernels.patterns import KERNEL_VERSION, fill_pattern_matrix, fill_pattern_rows
from .._parallel import run_rows
from ..words import WordList, load_words
from ..params import Param

__all__ = [
    "MatrixInfo",
    "feedback",
    "pattern_matrix",
    "cached_pattern_matrix",
    "matrix_key",
    "pattern_dtype",
    "matrix_bytes",
    "check_matrix_memory",
    "available_memory",
    "n_patterns",
    "all_green",
    "parse_pattern",
    "format_pattern",
    "pattern_digits",
    "pattern_colours",
]


@dataclass(frozen=True)
class MatrixInfo:
    """A pattern matrix as ``wordle matrix`` reports it: its lists, shape, size, where it
    came from (``built`` or ``cache``), the seconds taken and the cache file (or None)."""

    guesses: str
    answers: str
    shape: tuple
    dtype: str
    bytes: int
    source: str
    seconds: float
    cache: str | None

    def to_json(self) -> dict:
        """The form ``--json`` prints."""
        return {"guesses": self.guesses, "answers": self.answers, "shape": list(self.shape),
                "dtype": self.dtype, "bytes": self.bytes, "source": self.source,
                "seconds": round(self.seconds, 4), "cache": self.cache}


_GREEN, _YELLOW, _GREY = 2, 1, 0
_SYMBOLS = {
    "G": _GREEN, "Y": _YELLOW, ".": _GREY, "-": _GREY, "_": _GREY, "B": _GREY, "X": _GREY,
    "0": _GREY, "1": _YELLOW, "2": _GREEN,
    "🟩": _GREEN, "🟧": _GREEN, "🟨": _YELLOW, "🟦": _YELLOW, "⬜": _GREY, "⬛": _GREY,
}
_STYLES = {
    "letters": ".YG",
    "digits": "012",
    "emoji": ("⬛", "🟨", "🟩"),
}


def n_patterns(length: int) -> int:
    """Number of distinct codes for words of ``length`` letters: ``3**length``."""
    return 3 ** int(length)


def all_green(length: int) -> int:
    """The code of a solved row: ``3**length - 1``."""
    return n_patterns(length) - 1


def pattern_dtype(length: int) -> np.dtype:
    """Smallest unsigned dtype that holds every code: uint8 up to 5 letters, uint16 up to 10."""
    if length <= 5:
        return np.dtype(np.uint8)
    if length <= 10:
        return np.dtype(np.uint16)
    return np.dtype(np.uint32)


def _as_words(words, what: str) -> WordList:
    if isinstance(words, WordList):
        return words
    if isinstance(words, (str, bytes, os.PathLike)):
        raise WordListError(
            f"{what} must be a sequence of words or a WordList, not a single "
            f"{type(words).__name__}; use load_words({words!r}) to read a file or a name"
        )
    return load_words(list(words))


def pattern_matrix(guesses: WordList | Sequence[str], answers: WordList | Sequence[str], *,
                   max_bytes: int | None = None,
                   progress: Callable[[int], Any] | None = None) -> np.ndarray:
    """Compute the guess x answer matrix of pattern codes. Never touches the cache.

    Parameters
    ----------
    guesses, answers : WordList or sequence of str
        Words of one common length.
    max_bytes : int, optional
        Memory the matrix may take; by default, the memory available now. A larger matrix
        raises :class:`~deductive.errors.MemoryBudgetError` before anything is allocated.
    progress : callable, optional
        Called with the number of guess rows done: the matrix is then built in row blocks.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(guesses), len(answers))``, dtype :func:`pattern_dtype`.

    Examples
    --------
    >>> pattern_matrix(["crane", "slate"], ["trace"]).ravel().tolist()
    [187, 207]
    """
    guesses = _as_words(guesses, "guesses")
    answers = _as_words(answers, "answers")
    _check_same_length(guesses, answers)
    check_matrix_memory(len(guesses), len(answers), guesses.length, max_bytes)
    out = np.empty((len(guesses), len(answers)), dtype=pattern_dtype(guesses.length))
    columns = np.ascontiguousarray(answers.codes.T)
    work_per_row = len(answers) * guesses.length
    if progress is None:
        run_rows(fill_pattern_matrix, fill_pattern_rows, len(guesses),
                 len(guesses) * work_per_row, PARALLEL_WORK, guesses.codes, columns, out)
        return out
    step = max(1, _BLOCK_CELLS // max(1, len(answers)))
    for lo in range(0, len(guesses), step):
        hi = min(len(guesses), lo + step)
        run_rows(fill_pattern_matrix, fill_pattern_rows, hi - lo, (hi - lo) * work_per_row,
                 PARALLEL_WORK, guesses.codes[lo:hi], columns, out[lo:hi])
        progress(hi)
    return out


#: Cells per row block when a build reports progress (~10 ms of work on 2 cores).
_BLOCK_CELLS = 1 << 24


def matrix_bytes(n_guesses: int, n_answers: int, length: int) -> int:
    """Bytes of the pattern matrix of ``n_guesses`` x ``n_answers`` words of ``length``."""
    return int(n_guesses) * int(n_answers) * pattern_dtype(length).itemsize


def format_bytes(n: float) -> str:
    """``1536`` -> ``'1.5 kB'``: decimal units, as disks and ``--max-memory`` count."""
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n} TB"


def check_matrix_memory(n_guesses: int, n_answers: int, length: int,
                        max_bytes: int | None = None) -> int:
    """Raise :class:`~deductive.errors.MemoryBudgetError` unless the matrix fits in
    ``max_bytes`` (by default, the memory available now); return its size in bytes."""
    need = matrix_bytes(n_guesses, n_answers, length)
    limit, what = max_bytes, "the --max-memory budget"
    if limit is None:
        limit, what = available_memory(), "the memory available"
    if limit is not None and need > limit:
        fix = ("raise --max-memory" if max_bytes is not None else
               "free memory or use a machine with more")
        raise MemoryBudgetError(
            f"the {n_guesses:,} x {n_answers:,} pattern matrix needs {format_bytes(need)}, "
            f"more than {what} ({format_bytes(limit)}); use shorter word lists (fewer "
            f"guesses or answers), or {fix}"
        )
    return need


#: Guesses x answers x letters from which :func:`pattern_matrix` runs the parallel kernel
#: (below: its serial twin), measured with ``benchmarks/thresholds.py`` (README). Building
#: the matrix of the original lists stays parallel.
PARALLEL_WORK = 40_000_000


def _check_same_length(guesses: WordList, answers: WordList) -> None:
    if guesses.length != answers.length:
        raise WordListError(
            f"guesses ({guesses.name}) have {guesses.length} letters but answers "
            f"({answers.name}) have {answers.length}; give lists of one length"
        )


def matrix_key(guesses: WordList, answers: WordList) -> str:
    """SHA-256 naming a matrix: of the kernel version and both word lists, in order."""
    digest = hashlib.sha256()
    digest.update(f"deductive-patterns\0kernel={KERNEL_VERSION}\0".encode())
    digest.update(guesses.sha256.encode() + b"\0" + answers.sha256.encode())
    return digest.hexdigest()


#: Where a command's matrix comes from: the cache's folder (``cache_dir`` below), or no
#: cache, and the memory it may take (``max_bytes``).
MATRIX = (
    Param("cache_dir", None, "Cache directory (default: $DEDUCTIVE_CACHE_DIR, else "
          "~/.cache/deductive).", kind="folder"),
    Param("no_cache", False, "Compute the matrix in memory; neither read nor write the cache "
          "(also DEDUCTIVE_NO_CACHE=1).", bool, envvar="DEDUCTIVE_NO_CACHE"),
    Param("max_memory", None, "Refuse a pattern matrix larger than this (e.g. 8G; default: the "
          "memory available).", metavar="SIZE", kind="size"))
REBUILD = Param("rebuild", False, "Compute and overwrite the cached file.", bool)


def cached_pattern_matrix(guesses: WordList | Sequence[str], answers: WordList | Sequence[str],
                          cache_dir: str | os.PathLike[str] | None = None, *,
                          rebuild: bool = False, info: dict | None = None,
                          max_bytes: int | None = None,
                          progress: Callable[[int], Any] | None = None) -> np.ndarray:
    """The pattern matrix, loaded from the HDF5 cache or built once and stored there.

    Parameters
    ----------
    guesses, answers : WordList or sequence of str
    cache_dir : path or False, optional
        Defaults to ``$DEDUCTIVE_CACHE_DIR``, else ``~/.cache/deductive``. ``False`` (or
        the environment variable ``DEDUCTIVE_NO_CACHE=1``): compute in memory, neither
        read nor write the cache.
    rebuild : bool
        Build and store anew even if a valid file exists.
    info : dict, optional
        Filled with ``path`` (None without a cache), ``source`` ("cache" or "built")
        and ``seconds``.
    max_bytes, progress
        As :func:`pattern_matrix`; the budget is checked before a file is read too.

    Returns
    -------
    numpy.ndarray
        As :func:`pattern_matrix`, read-only.

    Notes
    -----
    A file that is truncated, corrupt, from another kernel version, or whose word lists do
    not match its key is never used: it is rebuilt with a
    :class:`~deductive.errors.CacheRebuildWarning`. A cache that cannot be written (a full
    disk, a read-only directory) costs a :class:`~deductive.errors.CacheWriteWarning`;
    the matrix computed in memory is returned all the same.
    """
    guesses = _as_words(guesses, "guesses")
    answers = _as_words(answers, "answers")
    _check_same_length(guesses, answers)
    check_matrix_memory(len(guesses), len(answers), guesses.length, max_bytes)
    start = time.perf_counter()
    if cache_dir is False or cache_disabled():
        matrix = pattern_matrix(guesses, answers, max_bytes=max_bytes, progress=progress)
        matrix.flags.writeable = False
        if info is not None:
            info.update(path=None, source="built", seconds=time.perf_counter() - start)
        return matrix
    store = PatternStore(cache_dir)
    key = matrix_key(guesses, answers)
    loaded = None if rebuild else store.load(key, guesses.words, answers.words,
                                             KERNEL_VERSION, pattern_dtype(guesses.length))
    source = "cache"
    path: str | None = str(store.path_for(key))
    if loaded is not None:
        matrix = loaded
    else:
        matrix = pattern_matrix(guesses, answers, max_bytes=max_bytes, progress=progress)
        source = "built"
        try:
            store.save(key, guesses.words, answers.words, KERNEL_VERSION, matrix,
                       names=(guesses.name, answers.name))
        except CacheError as exc:
            warnings.warn(f"{exc}; the matrix was computed in memory and is not cached",
                          CacheWriteWarning, stacklevel=2)
            path = None
    matrix.flags.writeable = False
    if info is not None:
        info.update(path=path, source=source, seconds=time.perf_counter() - start)
    return matrix


def cache_disabled() -> bool:
    """Whether ``$DEDUCTIVE_NO_CACHE`` asks to keep the cache out (1, true, yes, on)."""
    return os.environ.get("DEDUCTIVE_NO_CACHE", "").strip().lower() in ("1", "true", "yes", "on")


def feedback(guess: str, answer: str) -> int:
    """The pattern code of ``guess`` against ``answer``.

    Examples
    --------
    >>> feedback("crane", "trace")
    187
    >>> format_pattern(feedback("crane", "trace"), 5)
    'YGG.G'
    """
    return int(pattern_matrix(_pair(guess, "guess"), _pair(answer, "answer"))[0, 0])


def _pair(word, what) -> WordList:
    if not isinstance(word, str):
        raise WordListError(f"{what} must be a word (str), not {type(word).__name__}")
    return WordList([word], name=what)


def parse_pattern(text: str | int | np.integer | Sequence[int], length: int | None = None
                  ) -> int:
    """Read a pattern in any spelling and return its code.

    Parameters
    ----------
    text : str, int or sequence of int
        ``"GY..G"``, ``"gy--g"``, ``"GYXXG"``, ``"21002"``, ``"🟩🟨⬜⬜🟩"``, a list of
        digits, or a code. Letters in either case: ``G`` green, ``Y`` yellow, and grey as
        ``.``, ``-``, ``_``, ``B`` (black) or ``X``.
    length : int, optional
        The word length the pattern must have.

    Raises
    ------
    PatternError
        Unknown symbols, a wrong length, or an out-of-range code.

    Examples
    --------
    >>> parse_pattern("GY..G") == parse_pattern("21002") == parse_pattern("🟩🟨⬜⬜🟩")
    True
    """
    if isinstance(text, (int, np.integer)) and not isinstance(text, bool):
        if length is None or not 0 <= int(text) < n_patterns(length):
            limit = "3**length - 1" if length is None else str(n_patterns(length) - 1)
            raise PatternError(
                f"pattern code {text} needs a word length and must be from 0 to {limit}"
            )
        return int(text)
    if isinstance(text, str):
        cleaned = text.strip().replace("\ufe0f", "").replace(" ", "")
        digits = []
        for ch in cleaned:
            value = _SYMBOLS.get(ch.upper())
            if value is None:
                raise PatternError(
                    f"pattern {text!r}: unknown symbol {ch!r}; write G green, Y yellow and "
                    "grey as . (or - _ B X), digits 2/1/0, or 🟩/🟨/⬜"
                )
            digits.append(value)
    elif isinstance(text, bool):
        raise PatternError(f"pattern {text!r}: give colours, digits or a code")
    else:
        digits = [int(d) for d in text]
        if any(d not in (0, 1, 2) for d in digits):
            raise PatternError(f"pattern {list(text)!r}: digits must be 0, 1 or 2")
    if not digits:
        raise PatternError("empty pattern; write one symbol per letter, e.g. GY..G")
    if length is not None and len(digits) != length:
        raise PatternError(
            f"pattern {text!r} has {len(digits)} symbols but words have {length} letters"
        )
    return sum(d * 3 ** i for i, d in enumerate(digits))


def pattern_digits(code: int, length: int) -> tuple[int, ...]:
    """The per-position values (0 grey, 1 yellow, 2 green) of a code, left to right."""
    code = int(code)
    if not 0 <= code < n_patterns(length):
        raise PatternError(f"pattern code {code} is out of range for {length}-letter words")
    return tuple((code // 3 ** i) % 3 for i in range(length))


def format_pattern(code: int, length: int, style: str = "letters") -> str:
    """Spell a code: ``style`` is ``"letters"`` (``GY..G``), ``"digits"`` or ``"emoji"``."""
    try:
        symbols = _STYLES[style]
    except KeyError:
        raise PatternError(f"unknown pattern style {style!r}; choose one of "
                           f"{list(_STYLES)}") from None
    return "".join(symbols[d] for d in pattern_digits(code, length))


def pattern_colours(code: int, length: int) -> list[str]:
    """The colour of each position of a code, left to right: ``grey``, ``yellow`` or
    ``green``."""
    return [("grey", "yellow", "green")[d] for d in pattern_digits(code, length)]
