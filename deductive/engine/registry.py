"""One registry type for every game's solvers, players and strategies.

A :class:`Registry` maps a name to an :class:`RegistryEntry`: the factory that builds the object,
a one-line description, and the options the factory accepts (names, or the
:class:`~deductive.engine.params.Param` s that declare them, which :meth:`Registry.params`
gathers for the command line). Unknown names and options fail
with one message that lists the valid ones, so the command line and a program importing
the library see the same errors.

>>> from deductive.engine.registry import Registry
>>> greeters = Registry("greeter")
>>> @greeters.register("plain", "says hello", options=("name",))
... def plain(name="world"):
...     return f"hello {name}"
>>> greeters.create("plain", name="you")
'hello you'
>>> greeters.create("loud")
Traceback (most recent call last):
...
deductive.errors.UnknownNameError: unknown greeter 'loud'; choose one of: plain (says hello)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..errors import ArgumentError, UnknownNameError
from .params import Param

__all__ = ["RegistryEntry", "Registry"]


@dataclass(frozen=True)
class RegistryEntry:
    """A registered name: its factory, one-line description and accepted options (names
    or :class:`Param` s)."""

    name: str
    factory: Callable
    description: str
    options: tuple = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the options."""
        return tuple(o.name if isinstance(o, Param) else o for o in self.options)


class Registry(Mapping):
    """Name -> :class:`RegistryEntry`, in registration order (the order ``--help`` lists them)."""

    def __init__(self, kind: str):
        self.kind = kind
        self._entries: dict[str, RegistryEntry] = {}

    def register(self, name: str, description: str, *, options=()):
        """A decorator that registers ``factory`` under ``name``; it returns the factory."""

        def decorate(factory):
            self.add(name, factory, description, options=options)
            return factory

        return decorate

    def add(self, name: str, factory: Callable, description: str, *, options=()) -> None:
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is registered twice")
        self._entries[name] = RegistryEntry(name, factory, description, tuple(options))

    def __getitem__(self, name: str) -> RegistryEntry:
        try:
            return self._entries[name]
        except KeyError:
            raise UnknownNameError(f"unknown {self.kind} {name!r}; choose one of: "
                                   f"{self.choices()}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name) -> bool:
        return name in self._entries

    def choices(self) -> str:
        """``name (description); ...`` for error messages and help texts."""
        return "; ".join(f"{e.name} ({e.description})" for e in self._entries.values())

    def param(self, name: str, default: str, more: str = "", **changes) -> Param:
        """The parameter that picks one of these by name; its help lists them (and adds
        ``more``)."""
        *first, last = self._entries
        return Param(name, default, f"{', '.join(first)} or {last}{more}.", **changes)

    def params(self) -> tuple[Param, ...]:
        """The options its entries declare as :class:`Param` s, each once, in order."""
        found: dict[str, Param] = {}
        for entry in self._entries.values():
            found.update((o.name, o) for o in entry.options if isinstance(o, Param))
        return tuple(found.values())

    def descriptions(self) -> dict[str, str]:
        return {e.name: e.description for e in self._entries.values()}

    def create(self, name: str, /, *args, **options):
        """Build ``name`` with ``options``; an option it does not accept is an error
        (options given as ``None`` are dropped, so callers may pass every option)."""
        entry = self[name]
        options = {k: v for k, v in options.items() if v is not None}
        unknown = sorted(set(options) - set(entry.names))
        if unknown:
            accepted = ", ".join(entry.names) or "none"
            raise ArgumentError(f"{self.kind} {name!r} takes no option {unknown[0]!r} "
                                f"(it accepts: {accepted})")
        return entry.factory(*args, **options)
