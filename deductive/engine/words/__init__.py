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

from .builtin import (ANSWER_LIST_SIZE, BUILTIN_NAMES, NYT_REMOVED, BuiltinList, ListTable,
                      builtin_answers, builtin_guesses, builtin_lists, builtin_words)
from .dictionaries import inflection_base
from .frequencies import frequency_languages, word_frequencies
from .loading import default_source, load_lists, load_words, read_word_file
from .wordlist import MAX_LENGTH, MIN_LENGTH, WordList, fold_word

# Importable from here as before, outside the API above: a game's list Params (the CLI), and
# the dictionaries and answer rule that ``python -m deductive.data.build`` applies.
from .dictionaries import (COMMON_SIZE, FRENCH_WORDS, GUESS_SIZE,  # noqa: F401
                           DictionaryEntry, common_words, dictionary, fold_entries, rank_answers)
from .loading import WORD_LISTS  # noqa: F401

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
    "ListTable",
    "builtin_lists",
    "default_source",
    "word_frequencies",
    "frequency_languages",
    "NYT_REMOVED",
    "ANSWER_LIST_SIZE",
    "MIN_LENGTH",
    "MAX_LENGTH",
]

