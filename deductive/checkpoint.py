"""Checkpoint files: JSON lines of finished pieces of a long sweep, so a rerun resumes.

Each row is ``{"tag", "key", "result", "deductive", "format", "seconds", "digest"}``. The
tag names the sweep, its parameters and the SHA-256 of its inputs (word lists); rows of
another sweep of the same inputs in the same file are ignored. ``digest`` is the SHA-256
of the row's key and result bound to the inputs' digest (:func:`inputs_digest`: the tag,
the file format and the package's version family), so a row that was edited, damaged or
written for other inputs fails its check: a reader recomputes it (one warning names how
many). ``seconds`` is the time from the start of the run that wrote the row to the row.
Each run that appends also writes a header line first (``{"checkpoint": FORMAT, ...}``):
the package version, the tag, the lists' names and SHA-256 (``about``) and when it started.

A file that holds rows of the same sweep made from other lists, or by an incompatible
version of deductive (another format, or another ``major.minor``), is refused with one
line (:class:`~deductive.errors.ArgumentError`), as is anything but a regular file, a
file larger than :data:`MAX_BYTES` or a line longer than :data:`MAX_LINE`. A line cut by an
interruption is skipped, and the file is ended with a newline before anything is
appended, so the next entry never joins it.

The digest detects edits and damage; it is not a signature (anyone can recompute it).
A certificate from elsewhere is checked by recomputing it (``wordle verify-ranking``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import stat
import time
import warnings
import zlib

from .errors import ArgumentError, DeductiveWarning

__all__ = ["Checkpoint", "FORMAT", "MAX_BYTES", "MAX_LINE", "inputs_digest", "row_digest",
           "read_entries", "version_family", "package_version"]

#: The row format this version writes and reads (1: rows without digest or version).
FORMAT = 2
#: Largest checkpoint (or certificate, once expanded if gzip) a reader takes, in bytes.
MAX_BYTES = 1 << 30
#: Longest line a reader takes, in bytes (one row: a Hangman sweep of one length keeps every
#: word's result, a few MB for the largest lists).
MAX_LINE = 128 << 20
#: Keys of a tag that hold the SHA-256 of an input list.
LIST_KEYS = ("guesses", "answers", "words")


def package_version() -> str:
    from . import __version__

    return __version__


def version_family(version: str) -> str:
    """The part of a version whose rows a reader takes: ``major.minor`` (0.2.1 -> 0.2)."""
    return ".".join(str(version).split("+")[0].split(".")[:2])


def _canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def inputs_digest(tag, version: str | None = None) -> str:
    """SHA-256 of what a sweep's rows depend on: its tag (parameters and the lists'
    SHA-256), the row format and the version family of the package that wrote them."""
    family = version_family(version or package_version())
    return hashlib.sha256(_canonical({"format": FORMAT, "deductive": family,
                                      "tag": tag})).hexdigest()


def row_digest(inputs: str, key, result) -> str:
    """SHA-256 of a row's key and result bound to ``inputs`` (:func:`inputs_digest`)."""
    return hashlib.sha256(inputs.encode() + b"\n" + _canonical([key, result])).hexdigest()


def _family(tag):
    """What makes rows of two tags rows of the same kind of sweep (their lists aside)."""
    if isinstance(tag, dict):
        return tuple(sorted(tag))
    return str(tag).split(":", 1)[0]


def _lists(tag) -> dict:
    return {k: tag[k] for k in LIST_KEYS if k in tag} if isinstance(tag, dict) else {}


def read_entries(path, what: str = "checkpoint"):
    """Yield ``(line number, entry)`` for each JSON object line of ``path`` (plain or gzip,
    told by its first bytes). Bounded: the file must be a regular file of at most
    :data:`MAX_BYTES` (expanded, if gzip) with no line over :data:`MAX_LINE` bytes; else
    one :class:`ArgumentError` naming it. Lines that are not JSON objects (one cut by an
    interruption) are skipped."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ArgumentError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ArgumentError(f"{what} {path} is not a regular file; give a file")
    if info.st_size > MAX_BYTES:
        raise ArgumentError(f"{what} {path} is {info.st_size} bytes, more than a {what} "
                            f"may be ({MAX_BYTES}); give the right file")
    try:
        with open(path, "rb") as raw:
            packed = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            fh = gzip.GzipFile(fileobj=raw) if packed else raw
            total = 0
            number = 0
            while True:
                line = fh.readline(MAX_LINE + 1)
                if not line:
                    break
                number += 1
                total += len(line)
                if len(line) > MAX_LINE:
                    raise ArgumentError(f"{what} {path}: line {number} is longer than "
                                        f"{MAX_LINE} bytes; not a {what} of deductive")
                if total > MAX_BYTES:
                    raise ArgumentError(f"{what} {path} expands to more than {MAX_BYTES} "
                                        f"bytes, more than a {what} may be")
                try:
                    entry = json.loads(line)
                except (ValueError, RecursionError):
                    continue            # a line cut by an interruption, or not JSON
                if isinstance(entry, dict):
                    yield number, entry
    except (OSError, EOFError, zlib.error) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ArgumentError(f"cannot read {what} {path}: {why}") from None


class Checkpoint:
    """The finished pieces of one sweep in a JSON-lines file (``path`` None: no file).

    ``tag`` names the sweep (its parameters and the SHA-256 of its lists); ``about`` (the
    lists' names and SHA-256, more parameters) goes into the header a run writes before
    its first row.
    """

    def __init__(self, path, tag, about=None):
        self.path = path
        self.tag = json.loads(json.dumps(tag))     # as it reads back from the file
        self.about = about
        self.version = package_version()
        self.inputs = inputs_digest(self.tag, self.version)
        self.started = time.perf_counter()
        self._header = False
        self._gzip: bool | None = None   # whether the file is gzip (known at the first row)
        self.failed = 0

    def load(self, valid=None) -> dict:
        """key -> result of every finished piece of this sweep whose row passes its check
        (its digest, and ``valid(key, result)`` if given); rows that fail are left out, so
        the caller computes them again, and one warning says how many. Refuses (one
        :class:`ArgumentError`) a file of this sweep made from other lists or by an
        incompatible version, and what :func:`read_entries` refuses."""
        done: dict = {}
        failed: set = set()
        if not self.path or not os.path.lexists(self.path):
            return done
        family, lists = _family(self.tag), _lists(self.tag)
        for number, entry in read_entries(self.path):
            tag = entry.get("tag")
            if "key" not in entry or "result" not in entry or tag is None:
                continue                # a header, or not a row
            if tag != self.tag:
                other = _lists(tag)
                if _family(tag) == family and other and other != lists:
                    raise ArgumentError(self._other_lists(other))
                continue
            self._check_version(entry, number)
            key, result = entry["key"], entry["result"]
            ok = entry.get("digest") == row_digest(self.inputs, key, result)
            if ok and valid is not None:
                try:
                    ok = bool(valid(key, result))
                except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                    ok = False
            if ok:
                done[_hashable(key)] = result
            else:
                failed.add(_hashable(key))
        self.failed = len(failed - done.keys())
        if self.failed:
            warnings.warn(f"{self.path}: {self.failed} row(s) fail their check (edited or "
                          "damaged); computing them again", DeductiveWarning, stacklevel=2)
        with open(self.path, "rb+") as fh:
            if _packed(fh):             # a gzip file takes whole members (see append)
                return done
            fh.seek(0, os.SEEK_END)
            if fh.tell():
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    fh.write(b"\n")
        return done

    def _check_version(self, entry, number) -> None:
        version = entry.get("deductive")
        if entry.get("format") == FORMAT and version is not None and \
                version_family(version) == version_family(self.version):
            return
        made = f"deductive {version}" if version else "an older deductive"
        raise ArgumentError(f"{self.path}: line {number} was written by {made} (checkpoint "
                            f"format {entry.get('format', 1)}), not by deductive "
                            f"{version_family(self.version)}.x; give another checkpoint file "
                            "(or remove this one to start over)")

    def _other_lists(self, other: dict) -> str:
        ours = _lists(self.tag)
        diff = ", ".join(f"{k} {str(other.get(k))[:12]}... (these lists: "
                         f"{str(ours.get(k))[:12]}...)"
                         for k in sorted(set(ours) | set(other)) if other.get(k) != ours.get(k))
        return (f"{self.path}: a checkpoint of other lists (SHA-256 {diff}); give the lists it "
                "was made with, or another checkpoint file")

    def append(self, key, result) -> None:
        if not self.path:
            return
        lines = []
        if not self._header:
            lines.append({"checkpoint": FORMAT, "deductive": self.version, "tag": self.tag,
                          "inputs": self.inputs, "about": self.about,
                          "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})
            self._header = True
        result = json.loads(json.dumps(result))     # as it reads back
        lines.append({"tag": self.tag, "key": key, "result": result,
                      "deductive": self.version, "format": FORMAT,
                      "seconds": round(time.perf_counter() - self.started, 3),
                      "digest": row_digest(self.inputs, key, result)})
        data = "".join(json.dumps(line) + "\n" for line in lines).encode()
        # one write(2) per row, appended: an interruption (Ctrl-C) leaves a row whole or
        # absent, never cut (a full disk may still cut one: the reader skips it). To a
        # gzip file (a checkpoint kept packed, as in a repository) the row goes as a gzip
        # member of its own: readers take the members as one stream
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            if self._gzip is None:
                with os.fdopen(os.dup(fd), "rb") as fh:
                    self._gzip = _packed(fh)
            if self._gzip:
                data = gzip.compress(data, mtime=0)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)


def _packed(fh) -> bool:
    """Whether the open file ``fh`` (binary, readable) is gzip: its first two bytes."""
    fh.seek(0)
    return fh.read(2) == b"\x1f\x8b"


def _hashable(key):
    return json.dumps(key) if isinstance(key, (list, dict)) else key
