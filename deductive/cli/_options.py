"""Flags made from the engine's parameters: one click option per :class:`Param`, checked
when the command line is read, and decorators that stack or gather them.

Like :mod:`._group`, this imports neither numpy nor numba: the top-level group's
``--threads`` is made here.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from typing import Any

import click

from .. import _io
from ..engine.params import Param
from ..errors import ArgumentError, DeductiveError
from ..plot import check_plot_path
from ._group import _flags

#: --json, for every command with a table a script may want; --plot, for those that draw.
JSON = Param("json", False, "Print machine-readable JSON instead of a table.", bool)
PLOT = Param("plot", None, "Write a PNG of the result.", kind="plot")


class OutputFile(click.ParamType):
    """A file the command will write, checked before any computation (:func:`deductive.
    _io.check_output`) and (for plots) its extension is a format matplotlib writes."""

    name = "file"

    def __init__(self, plot: bool = False):
        self.plot = plot

    def convert(self, value, param, ctx):
        path = os.fspath(value)
        try:
            if self.plot and not os.path.isdir(path):
                check_plot_path(path)
            _io.check_output(path)
        except DeductiveError as exc:
            self.fail(str(exc), param, ctx)
        return path


class MemorySize(click.ParamType):
    """A number of bytes: ``8G``, ``500M``, ``1.5GB``, ``64k`` or plain bytes (decimal)."""

    name = "size"

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        size = _io.parse_size(value)
        if size is None:
            self.fail(f"{value!r} is not a size; write e.g. 8G, 500M or 1.5GB", param, ctx)
        return size


class FiniteRange(click.FloatRange):
    """A float within its range and finite: NaN and infinities are refused when the
    command line is read (NaN compares false with any bound and would pass a range)."""

    def convert(self, value, param, ctx):
        value = super().convert(value, param, ctx)
        if not math.isfinite(value):
            self.fail(f"{value} is not a finite number", param, ctx)
        return value


def _check_lang(ctx, param, value):
    """--lang: a language wordfreq has frequencies for (only the frequency prior uses it)."""
    if value is None:
        return value
    from ..engine.words import frequency_languages   # numpy: only when --lang is given

    try:
        languages = frequency_languages()
    except ArgumentError:       # no wordfreq (the freq extra): only the frequency prior reads
        return value            # --lang, and it names the extra when asked for
    if value not in languages:
        raise click.BadParameter(f"{value!r}: wordfreq has no frequencies for it; choose one "
                                 f"of {', '.join(languages)}", ctx, param)
    return value


#: What a :class:`Param`'s ``kind`` means on the command line.
_KINDS: dict[str, dict[str, Any]] = {
    "output": dict(type=OutputFile()), "plot": dict(type=OutputFile(plot=True)),
    "size": dict(type=MemorySize()), "lang": dict(callback=_check_lang),
    "file": dict(type=click.Path(dir_okay=False)), "folder": dict(type=click.Path(file_okay=False)),
    "input": dict(type=click.Path(exists=True, dir_okay=False))}


def flag(p: Param):
    """The click option of an engine :class:`Param`."""
    shown = p.default is not None if p.show_default is None else p.show_default
    kw = dict(default=p.default, help=p.help and _flags(p.help), metavar=p.metavar,
              required=p.required, envvar=p.envvar, show_default=shown, **_KINDS.get(p.kind, {}))
    if p.required and p.default is None:
        del kw["default"]       # click >= 8.3 takes an explicit None as a value given
    if p.type is bool:
        kw.update({} if "/" in p.flag else {"is_flag": True})
    elif isinstance(p.type, tuple):
        kw["type"] = click.Choice(p.type)
    elif p.type in (int, float):
        kw["type"] = (click.IntRange if p.type is int else FiniteRange)(*p.bounds)
    elif p.type is not str:
        kw["type"] = p.type
    return click.option(p.flag, p.name, **kw)


def options(*items):
    """One decorator of ``items`` (click decorators, :class:`Param` s, tuples of them),
    applied as if stacked in the order listed."""
    decorators = [options(*d) if isinstance(d, tuple) else flag(d) if isinstance(d, Param)
                  else d for d in items]
    return lambda func: functools.reduce(lambda f, d: d(f), reversed(decorators), func)


def gather(name: str, factory, *items):
    """The options ``items`` define, handed to the command as one argument: ``name =
    factory(**their values)`` (the factory's parameters name the values it takes)."""
    keys = set(inspect.signature(factory).parameters)

    def decorate(func):
        @functools.wraps(func)
        def command(**kwargs):
            made = factory(**{k: kwargs.pop(k) for k in list(kwargs) if k in keys})
            return func(**{name: made}, **kwargs)
        return options(*items)(command)
    return decorate
