"""Hangman sweeps of several word lists: the chunk function a process or a Dask task runs
(:func:`sweep_chunk`, one list, every number of lives), their checkpoint tag, the
single-process driver, and the report a command prints."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ...checkpoint import Checkpoint
from ...errors import ArgumentError
from ..params import Param
from .game import LANG, PRIOR, Hangman
from .results import SweepResult
from .strategies import EXACT_LIMIT, LIVES, MEMORY, STRATEGIES, STRATEGY
from .trees import tree_document, write_tree
from .words import HangmanWords
from ..._deprecated import OldAsDict

if TYPE_CHECKING:
    from .exact import ExactPlay

__all__ = ["sweep_tag", "sweep_chunk", "sweep_lists", "optimal_tree", "SweepReport",
           "sweep_lives"]

#: A sweep's parameters (and the word list's): what :func:`sweep_lists` and
#: :func:`optimal_tree` take, ``length`` and ``lives`` as :func:`sweep_lives` reads them.
SWEEP = (
    Param("length", "all", "Word length, or all (each length swept on its own).",
          metavar="N|all"), STRATEGY,
    LIVES.but(type=str, low=None, high=None, default="6", metavar="L|all",
              help=(LIVES.help or "")[:-1] + "; all: L = 1 to 10."), PRIOR, LANG,
    Param("top", 10, "How many hardest and easiest words to print.", int, low=0), EXACT_LIMIT,
    Param("tree", None, "optimal: write the strategy as a JSON tree (one length, one L; check "
          "it with hangman tree-check).", kind="output"),
    Param("checkpoint", None, "Record each finished length in FILE (JSON lines); a rerun with "
          "the same arguments skips them.", kind="file"), MEMORY)


def sweep_lives(strategy: str, lives: int | str = "6", length: int | str = "all",
                tree: str | os.PathLike[str] | None = None,
                checkpoint: str | os.PathLike[str] | None = None,
                distributed: bool = False) -> list[int]:
    """The numbers of lives a sweep covers, from ``lives`` (1 to 26, or ``all``: 1 to 10),
    after checking the strategy's name, ``length`` (a number, or ``all``) and that a
    ``tree`` goes with one optimal sweep in this process (``distributed``: on Dask)."""
    STRATEGIES[strategy]
    lives = str(lives)
    if lives != "all" and not (lives.isdigit() and 1 <= int(lives) <= 26):
        raise ArgumentError(f"`lives` {lives!r}: give a number from 1 to 26, or all")
    if length != "all" and not str(length).isdigit():
        raise ArgumentError(f"`length` {length!r}: give a number or all")
    if tree and (strategy != "optimal" or "all" in (length, lives) or distributed or checkpoint):
        raise ArgumentError("`tree` needs `strategy` optimal, one `length`, one `lives`, and no "
                            "`workers`, `scheduler` or `checkpoint`")
    return list(range(1, 11)) if lives == "all" else [int(lives)]


def sweep_tag(lists: Mapping[int, HangmanWords], strategy: str, lives_list: Iterable[int],
              prior: str, lang: str, exact_limit: int) -> dict[str, Any]:
    """The checkpoint tag of a sweep: its settings and the SHA-256 of its word lists (one
    entry per length, holding every number of lives swept)."""
    text = "\n".join(w for n in sorted(lists) for w in lists[n].words)
    return {"hangman": strategy, "lives": list(lives_list), "prior": prior, "lang": lang,
            "exact_limit": exact_limit, "words": hashlib.sha256(text.encode()).hexdigest()}


def sweep_about(lists: Mapping[int, HangmanWords]) -> dict[str, Any]:
    """The provenance a sweep's checkpoint records: each length's list, its name, size and
    SHA-256."""
    return {"lists": {str(n): {"name": words.name, "size": len(words.words),
                               "sha256": hashlib.sha256("\n".join(words.words).encode())
                               .hexdigest()} for n, words in sorted(lists.items())}}


def sweep_valid(lives_list: Iterable[int]) -> Callable[[str, dict[str, Any]], bool]:
    """``valid(key, part)`` of a sweep's checkpoint rows: one result per number of lives,
    each read back as a :class:`SweepResult`."""
    def valid(key: str, part: dict[str, Any]) -> bool:
        for lives in lives_list:
            SweepResult.from_dict(part[str(lives)])
        return int(key) >= 1
    return valid


def sweep_chunk(words: HangmanWords | Iterable[str], strategy: str, lives_list: Iterable[int],
                prior: str = "uniform", lang: str = "en", exact_limit: int = 16,
                memory: int | None = None) -> dict[str, dict[str, Any]]:
    """Sweeps of one word list for every number of lives of ``lives_list`` (one game, so
    that ``optimal`` searches share their memo), as JSON-ready dicts keyed by the lives:
    the piece a checkpoint stores and a Dask task returns."""
    game = Hangman(words, prior=prior, lang=lang)
    return {str(lives): game.sweep(strategy, lives=lives, exact_limit=exact_limit,
                                   memory=memory).to_json()
            for lives in lives_list}


def sweep_lists(lists: Mapping[int, HangmanWords], strategy: str, lives_list: Sequence[int],
                *, prior: str = "uniform", lang: str = "en", exact_limit: int = 16,
                memory: int | None = None, checkpoint: str | os.PathLike[str] | None = None,
                progress: Callable[[int], object] | None = None
                ) -> list[tuple[int, list[SweepResult]]]:
    """Sweeps of every list of ``lists`` (length -> HangmanWords) in this process:
    ``[(length, [SweepResult per lives])]``. With ``checkpoint`` (a path), each length is
    stored as it finishes and a rerun with the same settings skips it; ``progress(k)`` is
    called after the k-th length."""
    store = Checkpoint(checkpoint, sweep_tag(lists, strategy, lives_list, prior, lang,
                                             exact_limit), about=sweep_about(lists))
    done = store.load(sweep_valid(lives_list))
    sweeps: list[tuple[int, list[SweepResult]]] = []
    for k, (n, words) in enumerate(lists.items(), start=1):
        part = done.get(str(n))
        if part is None:
            part = sweep_chunk(words, strategy, lives_list, prior, lang, exact_limit, memory)
            store.append(str(n), part)
        sweeps.append((n, [SweepResult.from_dict(part[str(x)]) for x in lives_list]))
        if progress is not None:
            progress(k)
    return sweeps


def optimal_tree(words: HangmanWords, lives: int, path: str | os.PathLike[str], *,
                 prior: str = "uniform", lang: str = "en",
                 memory: int | None = None) -> SweepResult:
    """The optimal sweep of one list; its strategy tree (:func:`tree_document`) is written
    to ``path``."""
    result = Hangman(words, prior=prior, lang=lang).sweep("optimal", lives=lives, memory=memory)
    # the optimal strategy always records its ExactPlay (SweepResult types it ``object``)
    write_tree(path, tree_document(cast("ExactPlay", result.exact), words.words, source=words.name,
                                  seconds=result.seconds,
                                  parameters={"prior": prior, "lang": lang}))
    return result


@dataclass
class SweepReport(OldAsDict):
    """What ``hangman sweep`` shows: per length, one result per number of lives."""

    sweeps: list            # [(length, [SweepResult, ...])]
    strategy: str
    lives: list
    prior: str

    def to_json(self) -> dict:
        if len(self.lives) > 1:
            return {"strategy": self.strategy, "prior": self.prior, "lives": self.lives,
                    "by_length": {str(n): {str(x): r.to_json(with_results=False)
                                           for x, r in zip(self.lives, rs)}
                                  for n, rs in self.sweeps}}
        lives = self.lives[0]
        wrong = np.concatenate([rs[0].wrong for _, rs in self.sweeps])
        out = {"words": len(wrong), "strategy": self.strategy, "lives": lives,
               "prior": self.prior, "mean_misses": round(float(wrong.mean()), 6),
               "win_rate": round(float((wrong < lives).mean()), 6),
               "wins": int((wrong < lives).sum()),
               "seconds": round(sum(rs[0].seconds for _, rs in self.sweeps), 4)}
        out["by_length"] = {str(n): rs[0].to_json(with_results=False) for n, rs in self.sweeps}
        out["results"] = [list(r) for r in sorted(r for _, rs in self.sweeps
                                                  for r in rs[0].results)]
        return out
