"""``deductive cache ...``: inspect, clear and fill the pattern-matrix cache."""

from __future__ import annotations

import click

from ._common import (
    Group,
    MatrixSource,
    MemorySize,
    cache_dir_option,
    echo_json,
    json_option,
    load_lists,
    word_list_options,
)


@click.group(cls=Group)
def cache():
    """Inspect, clear or fill the cache of pattern matrices.

    \b
    Examples:
      deductive cache info
      deductive cache build --guesses guesses.txt --answers answers.txt
      deductive cache clear
    """


@cache.command()
@cache_dir_option
@json_option
def info(cache_dir, as_json):
    """List the cached matrices: file, shape, dtype, size, word lists, versions.

    \b
    Example:
      deductive cache info --json
    """
    from ..cache import PatternStore

    store = PatternStore(cache_dir)
    entries = store.entries() if store.directory.is_dir() else []
    temporary = [str(p) for p in store.temporary_files()] if store.directory.is_dir() else []
    if as_json:
        echo_json({"directory": str(store.directory), "entries": entries,
                   "temporary_files": temporary})
        return
    click.echo(f"cache directory: {store.directory}")
    if not entries:
        click.echo("no cached matrices")
    for entry in entries:
        if entry["status"] != "ok":
            click.echo(f"  {entry['path']}  {entry['bytes'] / 1e6:.1f} MB  {entry['status']}")
            continue
        shape = " x ".join(str(n) for n in entry["shape"])
        click.echo(
            f"  {entry['path']}  {shape} {entry['dtype']}  {entry['bytes'] / 1e6:.1f} MB  "
            f"guesses {entry['guesses_name']}, answers {entry['answers_name']}  "
            f"kernel v{entry['kernel_version']}  {entry['created']}"
        )
    live = {str(p) for p in store.live_temporary_files()}
    for path in temporary:
        what = "a write in progress" if path in live else "left by a process that stopped"
        click.echo(f"  {path}  (temporary: {what})")


@cache.command()
@cache_dir_option
def clear(cache_dir):
    """Delete the cached matrices (only deductive's own files).

    \b
    Example:
      deductive cache clear --cache-dir /tmp/my-cache
    """
    from ..cache import PatternStore

    store = PatternStore(cache_dir)
    removed = store.clear()
    click.echo(f"removed {len(removed)} file(s) from {store.directory}")
    live = store.live_temporary_files()
    if live:
        click.echo(f"kept {len(live)} temporary file(s) that running processes are writing "
                   f"(e.g. {live[0].name})")


@cache.command()
@word_list_options(default="en")
@cache_dir_option
@click.option("--max-memory", type=MemorySize(), default=None, metavar="SIZE",
              help="Refuse a matrix larger than this (e.g. 8G; default: the memory available).")
@click.option("--rebuild", is_flag=True, help="Compute and overwrite even if a valid file exists.")
def build(guesses, answers, length, cache_dir, max_memory, rebuild):
    """Build the pattern matrix of two word lists into the cache (no-op if already valid).

    \b
    Example:
      deductive cache build --guesses guesses.txt --answers answers.txt
    """
    from ..errors import CacheError

    guess_list, answer_list = load_lists(guesses, answers, length)
    info = {}
    source = MatrixSource(cache_dir, False, max_memory)
    result = source.matrix(guess_list, answer_list, rebuild=rebuild, info=info)
    if info["path"] is None:         # filling the cache is the point: not a mere warning
        raise CacheError("the matrix was computed but could not be stored (see the warning "
                         "above)")
    state = "already cached" if info["source"] == "cache" else "built"
    click.echo(f"{result.shape[0]} x {result.shape[1]} {result.dtype}: {state} in "
               f"{info['seconds']:.3f} s -> {info['path']}")
