"""``deductive lists``: the built-in word lists, with their sizes and digests."""

from __future__ import annotations

import click

from ..engine.params import Param
from ..engine.words import MAX_LENGTH, MIN_LENGTH, ListTable, builtin_lists
from ._common import JSON, options, show

LENGTHS = Param("length", None, "Only lists of this word length (default: 5).", int,
                MIN_LENGTH, MAX_LENGTH)


@click.command(name="lists")
@options(LENGTHS, JSON)
def lists(length, json):
    """The built-in word lists: name, role, length, size, SHA-256 and source.

    Any NAME shown here is what --guesses and --answers (and Hangman's --words) take.
    The SHA-256 is that of the words joined by newlines, the digest every saved file and
    --json document records.

    \b
    Examples:
      deductive lists
      deductive lists --length 6 --json
    """
    show(ListTable(builtin_lists(lengths=(5 if length is None else length,))), json)
