"""The exception and warning hierarchy of deductive.

Every error a user can cause derives from :class:`DeductiveError`. Its message names the
problem and, where there is one, the fix; the command-line interface prints it as one line
on stderr and exits with status 2.
"""

__all__ = [
    "DeductiveError",
    "WordListError",
    "PatternError",
    "CacheError",
    "UnknownNameError",
    "DeductiveWarning",
    "DuplicateWordWarning",
    "CacheRebuildWarning",
    "CacheWriteWarning",
    "MemoryBudgetError",
    "ArgumentError",
    "IndexArgumentError",
    "InputError",
    "OutputError",
]


class DeductiveError(Exception):
    """Base class of every error caused by bad input or a bad environment."""


class WordListError(DeductiveError, ValueError):
    """A word list is malformed: bad characters, mixed lengths, empty, unreadable."""


class PatternError(DeductiveError, ValueError):
    """A feedback pattern string or code is malformed or of the wrong length."""


class CacheError(DeductiveError, OSError):
    """The cache directory cannot be used (not writable, not a directory)."""


class UnknownNameError(DeductiveError, KeyError):
    """A name looked up in a registry (a word list, a solver) does not exist."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ArgumentError(DeductiveError, ValueError):
    """A function argument is outside its range (a count, a mask's shape)."""


class IndexArgumentError(DeductiveError, IndexError):
    """An index (a guess row, an answer column) is outside the matrix."""


class MemoryBudgetError(DeductiveError, MemoryError):
    """A computation would need more memory than is available or allowed."""


class DeductiveWarning(UserWarning):
    """Base class of deductive's warnings."""


class DuplicateWordWarning(DeductiveWarning):
    """A word list contained duplicates; they were removed, keeping the first."""


class CacheRebuildWarning(DeductiveWarning):
    """A cache file was invalid (corrupt, stale, mismatched) and is being rebuilt."""


class CacheWriteWarning(DeductiveWarning):
    """The cache could not be written (full disk, read-only directory); the result was
    computed in memory and is used all the same."""


class InputError(DeductiveError, OSError):
    """An input file is missing, not a regular file, unreadable or over the size limit."""


class OutputError(DeductiveError, OSError):
    """An output cannot be written (not a regular file, no such folder, a full disk); what
    was at the path is left as it was."""
