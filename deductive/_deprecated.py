"""Old names that still answer, with a DeprecationWarning: the package's renames in one
place. It sits beside the tiers (as ``errors`` and ``_io`` do) and imports nothing of the
package, so a wing can keep an old name without importing another's modules."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterable
from typing import Any

__all__ = ["RENAMED", "renamed", "OldAsDict"]

#: Module-level names renamed, old -> new: 0.2.0's naming pass (a whole-list benchmark is a
#: bench everywhere: the facades' verb, the command, Minesweeper's run_bench), then 0.3's
#: (Hangman's tree as JSON takes the core's names, tree_document and write_tree).
RENAMED = {"BenchmarkResult": "BenchResult", "run_benchmark": "run_bench",
           "tree_to_json": "tree_document", "write_json": "write_tree"}


def renamed(module: str, name: str, names: Iterable[str]) -> Any:
    """What ``module``'s ``__getattr__`` answers for ``name``: the module's object of the
    new name (:data:`RENAMED`), with a DeprecationWarning, if ``name`` is one of the old
    ``names`` it exported."""
    if name not in names:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(f"{module}.{name} is deprecated; use {module}.{RENAMED[name]}",
                  DeprecationWarning, stacklevel=3)
    return getattr(sys.modules[module], RENAMED[name])


class OldAsDict:
    """Base of the result types that had ``as_dict()``, the old name of ``to_json()``
    (before 0.3): it still answers, with a DeprecationWarning."""

    def as_dict(self, *args: Any, **kwargs: Any) -> Any:
        """Deprecated: ``to_json``."""
        warnings.warn(f"{type(self).__name__}.as_dict() is deprecated; use to_json()",
                      DeprecationWarning, stacklevel=2)
        return self.to_json(*args, **kwargs)      # type: ignore[attr-defined]
