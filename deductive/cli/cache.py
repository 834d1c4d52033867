"""``deductive cache ...``: inspect, clear and fill the pattern-matrix cache."""

from __future__ import annotations

import click

from ..cache import PatternStore
from ..engine.words import WORD_LISTS, load_lists
from ..engine.wordle.patterns import MATRIX, REBUILD
from ..errors import CacheError
from ._common import JSON, MatrixSource, options, show
from . import cache_group as cache

CACHE_DIR, _, MAX_MEMORY = MATRIX


@cache.command()
@options(CACHE_DIR, JSON)
def info(cache_dir, json):
    """List the cached matrices: file, shape, dtype, size, word lists, versions.

    \b
    Example:
      deductive cache info --json
    """
    show(PatternStore(cache_dir).summary(), json)


@cache.command()
@options(CACHE_DIR)
def clear(cache_dir):
    """Delete the cached matrices (only deductive's own files).

    \b
    Example:
      deductive cache clear --cache-dir /tmp/my-cache
    """
    store = PatternStore(cache_dir)
    click.echo(f"removed {len(store.clear())} file(s) from {store.directory}")
    if live := store.live_temporary_files():
        click.echo(f"kept {len(live)} temporary file(s) that running processes are writing "
                   f"(e.g. {live[0].name})")


@cache.command()
@options(WORD_LISTS, CACHE_DIR, MAX_MEMORY, REBUILD.but(
    help="Compute and overwrite even if a valid file exists."))
def build(guesses, answers, length, cache_dir, max_memory, rebuild):
    """Build the pattern matrix of two word lists into the cache (no-op if already valid).

    \b
    Example:
      deductive cache build --guesses guesses.txt --answers answers.txt
    """
    info = {}
    result = MatrixSource(cache_dir, False, max_memory).matrix(
        *load_lists(guesses, answers, length), rebuild=rebuild, info=info)
    if info["path"] is None:         # filling the cache is the point: not a mere warning
        raise CacheError("the matrix was computed but could not be stored (see the warning "
                         "above)")
    state = "already cached" if info["source"] == "cache" else "built"
    click.echo(f"{result.shape[0]} x {result.shape[1]} {result.dtype}: {state} in "
               f"{info['seconds']:.3f} s -> {info['path']}")
