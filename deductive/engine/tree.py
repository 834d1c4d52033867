"""Decision trees as JSON: export, and verification against the word lists.

A file holds ``{"format": "deductive-wordle-tree", "version": 1, "hard": bool, "length": L,
"guesses_sha256": ..., "answers_sha256": ..., "tree": NODE}`` where a node is
``{"guess": WORD, "then": {PATTERN: NODE, ...}}``. PATTERN is spelled ``GY..G`` (any spelling
:func:`~deductive.engine.patterns.parse_pattern` reads is accepted); the all-green pattern
has no entry: the guess was the answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ..errors import DeductiveError, PatternError

__all__ = ["TreeError", "TreeReport", "tree_document", "check_tree", "load_tree"]

FORMAT = "deductive-wordle-tree"
VERSION = 1


class TreeError(DeductiveError, ValueError):
    """A decision tree is malformed, misses an answer, or breaks the rules."""


def tree_document(game, tree: dict) -> dict:
    """Wrap a tree (from a benchmark) with the metadata that ties it to its lists."""
    return {
        "format": FORMAT, "version": VERSION, "hard": game.hard, "length": game.length,
        "guesses": game.guesses.name, "answers": game.answers.name,
        "guesses_sha256": game.guesses.sha256, "answers_sha256": game.answers.sha256,
        "tree": tree,
    }


def load_tree(path) -> dict:
    """Read a tree file; a clear error if it is not one."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except FileNotFoundError:
        raise TreeError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TreeError(f"{path}: not a JSON tree ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tree"), dict):
        raise TreeError(f"{path}: no 'tree' object; write trees with 'deductive wordle bench "
                        "--tree FILE'")
    return doc


@dataclass
class TreeReport:
    """Statistics of a verified tree."""

    depths: np.ndarray
    nodes: int
    hard: bool

    def as_dict(self) -> dict:
        d = self.depths
        return {
            "valid": True, "hard": self.hard, "answers": int(len(d)), "total": int(d.sum()),
            "average": round(float(d.mean()), 6), "worst": int(d.max()),
            "fails": int((d > 6).sum()), "nodes": self.nodes,
            "distribution": {str(k): int((d == k).sum()) for k in range(1, int(d.max()) + 1)},
        }


def check_tree(game, doc: dict, *, hard: bool | None = None) -> TreeReport:
    """Verify that ``doc`` solves every answer of ``game`` with words of its guess list.

    Parameters
    ----------
    hard : bool, optional
        Check hard-mode rules (default: the file's own ``hard`` flag).

    Raises
    ------
    TreeError
        The first problem found: a word outside the guess list, a malformed pattern, an
        answer with no branch, or (hard mode) a guess that breaks the rules.
    """
    from .game import hard_mode_allowed

    hard = bool(doc.get("hard", False)) if hard is None else hard
    if doc.get("length", game.length) != game.length:
        raise TreeError(f"the tree is for {doc.get('length')}-letter words, the lists have "
                        f"{game.length}")
    depths = np.zeros(len(game.answers), dtype=np.int64)
    nodes = 0
    stack = [(doc["tree"], np.arange(len(game.answers)), 1, None, ())]
    while stack:
        node, cands, depth, allowed, path = stack.pop()
        nodes += 1
        where = " -> ".join(path) or "the root"
        if depth > 100:
            raise TreeError(f"the tree is deeper than 100 guesses at {where}")
        word = node.get("guess") if isinstance(node, dict) else None
        if not isinstance(word, str):
            raise TreeError(f"node at {where} has no 'guess' word")
        if word not in game.guesses:
            raise TreeError(f"the tree uses {word!r} at {where}, which is not in the guess "
                            f"list {game.guesses.name}")
        g = game.guesses.index(word)
        if allowed is not None and not allowed[g]:
            raise TreeError(f"{word!r} at {where} breaks hard mode (every revealed letter "
                            "must be reused and greens kept in place)")
        branches = {}
        for key, child in (node.get("then") or {}).items():
            try:
                branches[parse_key(key, game.length)] = child
            except PatternError as exc:
                raise TreeError(f"bad pattern {key!r} under {word!r} at {where}: {exc}") from None
        codes = game.matrix[g, cands]
        for code in np.unique(codes):
            group = cands[codes == code]
            if code == game.win_code:
                depths[group] = depth
                continue
            child = branches.get(int(code))
            label = game.format(int(code))
            if child is None:
                raise TreeError(
                    f"the tree misses answer {game.answers[int(group[0])]!r}: no branch for "
                    f"{label} after {word!r} at {where}"
                )
            child_allowed = None
            if hard:
                child_allowed = hard_mode_allowed(game.guesses.codes, game.guess_counts,
                                                  game.guesses.codes[g], int(code), allowed)
            stack.append((child, group, depth + 1, child_allowed, path + (f"{word} {label}",)))
    return TreeReport(depths, nodes, hard)


def parse_key(key, length) -> int:
    from .patterns import parse_pattern

    return parse_pattern(key, length)
