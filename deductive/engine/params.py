"""The parameters a user sets, declared once as data beside the code that reads them.

A :class:`Param` is a keyword argument of the engine (``max_guesses``): its default, the
kind of value it takes and a one-line help. The command line makes each one a flag
(``--max-guesses``) and hands the value back under the same keyword; engine errors name
the keyword in backquotes (`max_guesses`), which the command line shows as the flag. The
engine imports no command-line library: a ``kind`` says what a string names (a file to
write, a memory size, ...) and the command line checks it.

>>> from deductive.engine.params import Param
>>> beam = Param("beam", None, "Guesses tried per node.", int, low=1)
>>> beam.flag, beam.but(default=10).default
('--beam', 10)
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import Any

__all__ = ["Param", "CEILINGS", "CEILING"]

#: The largest value of a number whose :class:`Param` states no ``high`` (documented in
#: docs/reliability.md): --workers at 4x the cores, --games at a million, ...
CEILINGS = {"games": 10 ** 6, "boards": 64, "workers": 4 * (os.cpu_count() or 1),
            "timeout": 86_400.0, "max_guesses": 100, "mines": 1 << 20}
CEILING = 10 ** 12


@dataclass(frozen=True)
class Param:
    """One parameter: ``name`` (a keyword argument), ``default``, one-line ``help``.

    ``type`` is ``str``, ``int``, ``float``, ``bool`` (a switch) or a tuple of choices;
    ``low`` and ``high`` bound a number. ``kind`` names what a string stands for, for the
    checks made before any work: ``output`` (a file to write), ``plot`` (an image to
    write), ``file`` (a file path), ``input`` (a file that must exist), ``folder``,
    ``size`` (bytes: ``8G``), ``lang`` (a language with word frequencies). ``spelling`` is
    the flag when it is not ``--name`` (a switch pair: ``--hard/--normal``). Help texts
    name other parameters in backquotes.
    """

    name: str
    default: Any = None
    help: str | None = None
    type: Any = str
    low: float | None = None
    high: float | None = None
    metavar: str | None = None
    kind: str = ""
    required: bool = False
    show_default: bool | None = None    # None: shown when there is a default
    envvar: str | None = None
    spelling: str | None = None          # the flag, when not --name

    @property
    def bounds(self) -> tuple:
        """(low, high) of a number; a ``high`` left open is :data:`CEILINGS`' for the name,
        else :data:`CEILING`: beyond these a run only exhausts memory or time."""
        high = self.high if self.high is not None else CEILINGS.get(self.name, CEILING)
        return self.low, high if high is None else self.type(high)

    @property
    def flag(self) -> str:
        return self.spelling or "--" + self.name.replace("_", "-")

    def but(self, **changes) -> Param:
        """This parameter with ``changes`` (another default, help, ...)."""
        return dataclasses.replace(self, **changes)
