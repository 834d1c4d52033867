"""Checkpoint files: JSON lines of finished pieces of a long sweep, so a rerun resumes.

Each line is ``{"tag": ..., "key": ..., "result": ...}``. The tag names the sweep and its
arguments: lines of another sweep in the same file are ignored. A line cut by an
interruption is skipped, and the file is ended with a newline before anything is appended,
so the next entry never joins it.
"""

from __future__ import annotations

import json
import os

__all__ = ["Checkpoint"]


class Checkpoint:
    """The finished pieces of one sweep in a JSON-lines file (``path`` None: no file)."""

    def __init__(self, path, tag):
        self.path = path
        self.tag = json.loads(json.dumps(tag))     # as it reads back from the file

    def load(self) -> dict:
        """key -> result of every finished piece of this sweep."""
        done: dict = {}
        if not self.path or not os.path.exists(self.path):
            return done
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue            # a line cut by an interruption
                if entry.get("tag") == self.tag:
                    done[entry["key"]] = entry["result"]
        with open(self.path, "rb+") as fh:
            fh.seek(0, os.SEEK_END)
            if fh.tell():
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    fh.write(b"\n")
        return done

    def append(self, key, result) -> None:
        if self.path:
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"tag": self.tag, "key": key, "result": result}) + "\n")

