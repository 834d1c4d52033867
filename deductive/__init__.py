"""deductive: fast solvers for deduction games (Wordle and its variants, Mastermind, Bulls and Cows,
Hangman, Minesweeper).

Importing deductive compiles nothing: numba kernels are compiled, or loaded from numba's
on-disk cache, on first use.

>>> import deductive
>>> from deductive import wordle
>>> wordle.format_pattern(wordle.feedback("crane", "trace"), 5)
'YGG.G'
"""

from ._version import __version__
from .engine._parallel import get_threads, set_threads
from .errors import DeductiveError

__all__ = ["__version__", "DeductiveError", "get_threads", "set_threads", "wordle",
           "mastermind", "bulls", "hangman", "minesweeper"]

#: The games' facades, imported on first use so that ``import deductive`` stays cheap.
_FACADES = ("wordle", "mastermind", "bulls", "hangman", "minesweeper")


def __getattr__(name: str) -> object:
    if name in _FACADES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'deductive' has no attribute {name!r}")
