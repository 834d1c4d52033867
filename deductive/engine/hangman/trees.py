"""Hangman strategy trees as plain JSON, and a check that replays every word against one
without the search or the kernels."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ... import _io
from ...errors import DeductiveError
from ..._deprecated import renamed

if TYPE_CHECKING:
    from .exact import ExactPlay

__all__ = ["tree_document", "check_tree", "TreeCheck", "load_tree", "write_tree",
           "words_sha256", "TREE_FORMAT"]

TREE_FORMAT = "deductive-hangman-tree"


def words_sha256(words: Iterable[str]) -> str:
    return hashlib.sha256("\n".join(words).encode()).hexdigest()


def tree_document(play: ExactPlay, words: Iterable[str], *, strategy: str = "optimal",
                 source: str = "", seconds: float | None = None,
                 parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    """The strategy of ``play`` as a JSON-ready dict.

    A node is ``{"guess": letter, "hits": {pattern: node}, "miss": node}`` (a pattern
    shows the guessed letter where the word has it, ``_`` elsewhere; ``miss`` is absent if
    every candidate has the letter) or a leaf ``{"word": word}`` once one candidate is left.
    The document records its provenance: the package version, the list's name (``source``)
    and SHA-256, the ``parameters`` and the ``seconds`` the strategy took.
    """
    from ...checkpoint import package_version

    words = list(words)
    length = len(words[0])
    nodes: list[dict[str, Any] | None] = [None] * len(play.node_letter)
    order = range(len(nodes) - 1, -1, -1)      # children are numbered after their parent
    children: dict[int, list[int]] = {}
    for k in order:
        if play.node_letter[k] < 0:
            nodes[k] = {"word": words[int(play.node_word[k])]}
        else:
            letter = chr(97 + int(play.node_letter[k]))
            hits: dict[str, dict[str, Any] | None] = {}
            node: dict[str, Any] = {"guess": letter, "hits": hits}
            for child in reversed(children.get(k, [])):
                mask = int(play.node_mask[child])
                if mask == 0:
                    node["miss"] = nodes[child]
                else:
                    pattern = "".join(letter if mask >> i & 1 else "_" for i in range(length))
                    hits[pattern] = nodes[child]
            nodes[k] = node
        if k:
            children.setdefault(int(play.node_parent[k]), []).append(k)
    return {"format": TREE_FORMAT, "version": 1, "strategy": strategy, "source": source,
            "length": length, "lives": play.lives, "words": len(words),
            "words_sha256": words_sha256(words), "wins": int((play.wrong < play.lives).sum()),
            "deductive": package_version(),
            "parameters": {"strategy": strategy, "lives": int(play.lives), **(parameters or {})},
            "seconds": None if seconds is None else round(float(seconds), 4),
            "tree": nodes[0]}


@dataclass
class TreeCheck:
    """What :func:`check_tree` found."""

    words: int
    wins: int
    lives: int
    max_misses: int
    claimed_wins: int | None
    errors: list

    @property
    def ok(self) -> bool:
        return not self.errors and (self.claimed_wins is None or self.claimed_wins == self.wins)


def check_tree(tree: dict[str, Any], words: Iterable[str], lives: int | None = None,
               max_errors: int = 10) -> TreeCheck:
    """Replay every word against a strategy tree (plain Python, independent of the search).

    A word is won when the tree reaches its own leaf with fewer than ``lives`` misses
    (default: the tree's). Errors: a leaf naming another word (the tree confuses two
    words), a missing branch, a letter guessed twice on a path, a malformed node.
    """
    words = list(words)
    if not isinstance(tree, dict) or tree.get("format") != TREE_FORMAT or "tree" not in tree:
        raise DeductiveError(f"not a deductive Hangman tree (expected \"format\": "
                             f"\"{TREE_FORMAT}\"); write one with `deductive hangman sweep "
                             "--strategy optimal --tree FILE` or `hangman evil --tree FILE`")
    if lives is None:
        lives = int(tree.get("lives", 0))
    if lives < 1:
        raise DeductiveError("the tree names no lives; give lives")
    errors: list[str] = []
    wins = 0
    max_misses = 0
    for word in words:
        node = tree["tree"]
        misses = 0
        guessed = set()
        problem = None
        while problem is None and "word" not in node:
            letter = node.get("guess")
            if not isinstance(letter, str) or len(letter) != 1 or letter in guessed:
                problem = f"bad or repeated guess {letter!r}"
                break
            guessed.add(letter)
            if letter in word:
                pattern = "".join(ch if ch == letter else "_" for ch in word)
                node = node.get("hits", {}).get(pattern)
                if node is None:
                    problem = f"no branch for {pattern} after {''.join(sorted(guessed))}"
            else:
                misses += 1
                node = node.get("miss")
                if node is None:
                    problem = f"no miss branch after {''.join(sorted(guessed))}"
            if problem is None and not isinstance(node, dict):
                problem = "malformed node"
        if problem is None and node["word"] != word:
            problem = f"reaches the leaf of {node['word']!r}"
        if problem is not None:
            if len(errors) < max_errors:
                errors.append(f"{word}: {problem}")
            else:
                errors.append("...")
                break
            continue
        max_misses = max(max_misses, misses)
        wins += misses < lives
    claimed = tree.get("wins") if lives == tree.get("lives") else None
    return TreeCheck(len(words), wins, lives, max_misses, claimed, errors)


def load_tree(path: str | os.PathLike[str]) -> Any:
    """Read a tree file, plain or gzip-compressed (told by its first bytes), through the
    bounded reader (:func:`deductive._io.read_text`: a regular file, at most 64 MB read and
    expanded unless ``$DEDUCTIVE_MAX_INPUT`` raises it), JSON of a format version this
    package reads (parsed, its shape left to :func:`check_tree`); else one
    :class:`DeductiveError` naming the path."""
    hint = ("give a tree written by `hangman sweep --strategy optimal --tree` or "
            "`hangman evil --tree`")
    text = _io.read_text(path, what="Hangman tree", error=DeductiveError, hint=hint,
                         gunzip=True)
    try:
        tree = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DeductiveError(f"{path}: not JSON ({exc}); {hint}") from None
    except RecursionError:
        raise DeductiveError(f"{path}: JSON nested too deeply to read (nested deeper "
                             f"than any Hangman tree); {hint}") from None
    if isinstance(tree, dict) and isinstance(tree.get("version"), int) and tree["version"] > 1:
        raise DeductiveError(f"{path}: a tree of format version {tree['version']}, written by "
                             f"deductive {tree.get('deductive', '(newer)')}; this version reads "
                             "version 1: upgrade deductive")
    return tree


def write_tree(path: str | os.PathLike[str], doc: dict[str, Any]) -> None:
    """Write ``doc`` (a tree) as JSON to ``path`` through a temporary file, so that a crash
    leaves no half file (:func:`deductive._io.write_output`)."""
    _io.write_json(path, doc, separators=(",", ":"))


def __getattr__(name: str) -> object:
    return renamed(__name__, name, ("tree_to_json", "write_json"))    # their names before 0.3
