"""Decision trees as JSON: export, and verification against a game's lists.

A file holds ``{"format": "deductive-GAME-tree", "version": 1, ...identity, "tree": NODE}``
where the identity is the game's (:meth:`FeedbackGame.identity`: for Wordle ``hard``,
``length``, the lists' names and SHA-256) and a node is ``{"guess": WORD, "then":
{FEEDBACK: NODE, ...}}``. FEEDBACK is spelled as the game spells it (Wordle: ``GY..G``, or
any spelling its parser reads); the winning feedback has no entry: the guess was the
answer.

The check is strict: every node of the file is checked, so a branch that no answer
reaches, or one under the winning feedback, is an error, not dead weight.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._io import expand, read_json, write_json
from ...errors import DeductiveError, PatternError, UnknownNameError, WordListError
from ..params import Param
from ..._deprecated import OldAsDict

__all__ = ["TreeError", "TreeReport", "tree_document", "write_tree", "check_tree", "load_tree",
           "unpacked"]

VERSION = 1
#: Where :func:`write_tree` writes a tree, when a command is asked for one.
TREE = Param("tree", None, "Export the decision tree as JSON (deterministic solvers).",
             kind="output")


class TreeError(DeductiveError, ValueError):
    """A decision tree is malformed, misses an answer, or breaks the rules."""


def tree_document(game: Any, tree: dict) -> dict:
    """Wrap a tree (from a benchmark) with the metadata that ties it to its lists.

    ``game`` is a :class:`~.game.FeedbackGame` (typed ``Any``: the game's solvers import
    this module through the search)."""
    return {"format": f"deductive-{game.name}-tree", "version": VERSION, **game.identity(),
            "tree": tree}


def write_tree(path: str | os.PathLike[str], game: Any, tree: dict) -> None:
    """Write a tree to ``path`` as a tree file of ``game`` (:func:`tree_document`), never
    half (:func:`deductive._io.write_output`)."""
    write_json(path, tree_document(game, tree))


def unpacked(data: bytes) -> bytes:
    """``data``, decompressed if it is gzip (told by its first bytes); a damaged or cut
    gzip stream, or one expanding past the input limit, is a ``ValueError`` naming it."""
    try:
        return expand(data, error=ValueError)
    except ValueError as exc:
        raise ValueError(str(exc).removeprefix("the input: ")) from None


def load_tree(path: str | os.PathLike[str]) -> dict:
    """Read a tree file, plain or gzip-compressed (told by its first bytes, whatever its
    name); a clear error if it is not one. The file and its expanded size are bounded
    (:func:`deductive._io.read_bytes`: 64 MB unless ``$DEDUCTIVE_MAX_INPUT`` raises it)."""
    doc = read_json(path, what="tree file", error=TreeError)
    if not isinstance(doc, dict) or not isinstance(doc.get("tree"), dict):
        raise TreeError(f"{path}: no 'tree' object; write trees with 'deductive wordle bench "
                        "--tree FILE'")
    return doc


@dataclass
class TreeReport(OldAsDict):
    """Statistics of a verified tree."""

    depths: np.ndarray
    nodes: int
    hard: bool
    limit: int | None = 6

    def to_json(self) -> dict:
        d = self.depths
        return {
            "valid": True, "hard": self.hard, "answers": int(len(d)), "total": int(d.sum()),
            "average": round(float(d.mean()), 6), "worst": int(d.max()),
            "fails": 0 if self.limit is None else int((d > self.limit).sum()),
            "nodes": self.nodes,
            "distribution": {str(k): int((d == k).sum()) for k in range(1, int(d.max()) + 1)},
        }


def check_tree(game: Any, doc: dict, *, hard: bool | None = None) -> TreeReport:
    """Verify that ``doc`` solves every answer of ``game`` with words of its guess list.

    Parameters
    ----------
    hard : bool, optional
        Check hard-mode rules (default: the file's own ``hard`` flag).

    Raises
    ------
    TreeError
        The first problem found: a word outside the guess list, a malformed feedback, an
        answer with no branch, a branch no answer reaches or one under the winning
        feedback, or (hard mode) a guess that breaks the rules.
    """
    hard = bool(doc.get("hard", False)) if hard is None else hard
    length = getattr(game, "length", None)
    if length is not None and doc.get("length", length) != length:
        raise TreeError(f"the tree is for {doc.get('length')}-letter words, the lists have "
                        f"{length}")
    depths = np.zeros(len(game.answers), dtype=np.int64)
    nodes = 0
    start = np.ones(len(game.guesses), dtype=bool) if hard else None
    stack: list[tuple[Any, np.ndarray, int, np.ndarray | None, tuple[str, ...]]] = [
        (doc["tree"], np.arange(len(game.answers)), 1, start, ())]
    while stack:
        node, cands, depth, allowed, path = stack.pop()
        nodes += 1
        where = " -> ".join(path) or "the root"
        if depth > 100:
            raise TreeError(f"the tree is deeper than 100 guesses at {where}")
        word = node.get("guess") if isinstance(node, dict) else None
        if not isinstance(word, str):
            raise TreeError(f"node at {where} has no 'guess' word")
        try:
            g = game.guess_index(word)
        except (UnknownNameError, WordListError):
            raise TreeError(f"the tree uses {word!r} at {where}, which is not in the guess "
                            f"list {getattr(game.guesses, 'name', '')}".rstrip()) from None
        if allowed is not None and not allowed[g]:
            raise TreeError(f"{word!r} at {where} breaks hard mode ({game.hard_rule})")
        branches = _branches(game, node, word, where)
        reached = set()
        for code, group in game.split(g, cands):
            reached.add(code)
            if code == game.win_code:
                depths[group] = depth
                continue
            child = branches.get(code)
            label = game.format(code)
            if child is None:
                raise TreeError(
                    f"the tree misses answer {game.answers[int(group[0])]!r}: no branch for "
                    f"{label} after {word!r} at {where}"
                )
            child_allowed = game.allowed_after(allowed, g, code) if hard else None
            stack.append((child, group, depth + 1, child_allowed, path + (f"{word} {label}",)))
        dead = sorted(set(branches) - reached)
        if dead:
            raise TreeError(f"the branch {game.format(dead[0])} under {word!r} at {where} is "
                            "reached by no answer; remove it")
    return TreeReport(depths, nodes, hard, game.max_guesses)


def _branches(game, node, word, where) -> dict:
    """A node's ``then`` as {code: child}; a malformed feedback or the winning one is an
    error."""
    then = node.get("then") or {}
    if not isinstance(then, dict):
        raise TreeError(f"'then' under {word!r} at {where} is not an object")
    branches = {}
    for key, child in then.items():
        try:
            code = game.parse(key)
        except PatternError as exc:
            raise TreeError(f"bad pattern {key!r} under {word!r} at {where}: {exc}") from None
        if code == game.win_code:
            raise TreeError(f"the winning feedback {key!r} under {word!r} at {where} has a "
                            "branch; the game ends there")
        if code in branches:
            raise TreeError(f"feedback {key!r} appears twice under {word!r} at {where}")
        branches[code] = child
    return branches
