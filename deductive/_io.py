"""The one place files are written for a user and read from one: safe writes, bounded reads.

**Writes** (:func:`write_output`, :func:`check_output`) never clobber. The content goes to a
temporary file in the target's folder, is flushed to disk, and only a completed write is
renamed into place, so a full disk or a crash leaves the previous file as it was. The
target must be absent or a regular file: a symlink is written through (the file it points
to is replaced, the link stays), a folder, device, FIFO or socket is refused with one line
(a device such as ``/dev/stdout`` or ``/dev/full`` is never opened: write to a file, then
copy it). A read-only file is refused rather than replaced.

**Reads** (:func:`read_bytes`, :func:`read_text`, :func:`read_json`) are bounded. Where a
file is needed, only a regular file is read (``-`` is standard input where a command says
so); a FIFO, ``/dev/zero`` or a folder is refused before it is opened for reading, so
nothing blocks. A file larger than the cap, or a gzip stream that expands past it, is
refused before memory climbs. The cap is :data:`DEFAULT_MAX_INPUT` (64 MB) and
``$DEDUCTIVE_MAX_INPUT`` (``500M``, ``2G``, ...) raises it. JSON nested too deeply to
parse is one error, not a ``RecursionError``.

Every failure is a :class:`~deductive.errors.DeductiveError` (the reader's own class where
it passes one) whose message names the path and the fix.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from typing import IO

from .errors import DeductiveError, InputError, OutputError

__all__ = ["drop_stdout", "unwritable", "flush_stdout", "provenance", "write_output",
           "write_json", "check_output", "read_bytes", "read_text", "expand",
           "read_json", "max_input", "parse_size", "DEFAULT_MAX_INPUT", "MAX_INPUT_ENV"]

#: The size cap of every input (bytes, after decompression) unless $DEDUCTIVE_MAX_INPUT says.
DEFAULT_MAX_INPUT = 64 * 10 ** 6
MAX_INPUT_ENV = "DEDUCTIVE_MAX_INPUT"
GZIP_MAGIC = b"\x1f\x8b"
_UNITS = {"": 1, "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "t": 10 ** 12}


def parse_size(value) -> int | None:
    """Bytes of ``8G``, ``500M``, ``1.5GB``, ``64k`` or plain bytes (decimal units); None
    if ``value`` is not a positive size."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kmgt]?)b?\s*", str(value).lower())
    if not match or float(match.group(1)) <= 0:
        return None
    return int(float(match.group(1)) * _UNITS[match.group(2)])


def max_input() -> int:
    """The input cap in bytes: ``$DEDUCTIVE_MAX_INPUT`` if set, else 64 MB."""
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT
    size = parse_size(raw)
    if size is None:
        raise InputError(f"${MAX_INPUT_ENV}={raw!r} is not a size; write e.g. 500M or 2G")
    return size


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 10 ** 5 else f"{n:,} bytes"


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode)
            or stat.S_ISBLK(mode) else "not a regular file")


# -- stdout and provenance ----------------------------------------------------------------

#: The errors of a write that cannot complete (a full disk or quota, a failing device).
FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def drop_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of what could not be
    written fails no second time (a second message, exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass        # no real stdout (a test runner's): nothing will flush it


def unwritable(exc: OSError) -> str:
    """One line for a write that could not complete (stdout, a cache or a kernel file;
    the files written by :func:`write_output` say so themselves); stdout is dropped."""
    drop_stdout()
    return (f"cannot write the output ({exc.strerror}): the disk is full or a limit is "
            "reached; free space or write elsewhere")


def flush_stdout() -> str | None:
    """Flush stdout; :func:`unwritable`'s line if that fails (None: it worked, or there is
    no stdout: a process started with it closed)."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:
        return unwritable(exc)
    return None


def _plain(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


def provenance(lists, command: str, parameters: dict, start: float | None) -> dict:
    """What made a document: the package version, ``command``, the word ``lists`` read
    (objects with ``name``, ``len()`` and ``sha256`` or ``words``: each once, with the
    SHA-256 of its words joined by newlines), the ``parameters`` as given and the seconds
    since ``start`` (``time.perf_counter()``)."""
    from . import __version__

    rows = []
    for words in lists:
        digest = getattr(words, "sha256", None) or hashlib.sha256(
            "\n".join(words.words).encode()).hexdigest()
        row = {"name": getattr(words, "name", None), "sha256": digest, "size": len(words)}
        if row not in rows:
            rows.append(row)
    return {"deductive": __version__, "command": command, "lists": rows,
            "parameters": {k: _plain(v) for k, v in parameters.items()},
            "elapsed_s": round(time.perf_counter() - (start or time.perf_counter()), 3)}


# -- writes --------------------------------------------------------------------------------

def check_output(path) -> str:
    """The real path ``path`` writes to (symlinks resolved), after checking that it can be
    written: the folder exists and takes a new file, the target is absent or a writable
    regular file. Raise :class:`OutputError` naming the fix otherwise. Nothing is opened."""
    path = os.fspath(path)
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write {path} ({exc.strerror}); choose another place") \
            from None
    if mode is not None and not stat.S_ISREG(mode):
        what = f"{path} is {_kind(mode)}" + (f" ({target})" if target != os.path.abspath(path)
                                             else "")
        fix = "give a file name" if stat.S_ISDIR(mode) else \
            "deductive writes only regular files; write to a file, then copy it"
        raise OutputError(f"{what}; {fix}")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write {path}: the folder {folder} does not exist")
    if mode is not None and not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {path}: the file is read-only; choose another name")
    try:    # the one sure test (permissions, read-only file systems, root or not)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise OutputError(f"cannot write {path} ({exc.strerror}); choose another place") \
            from None
    return target


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_output(path, content: bytes | str | Callable[[IO[bytes]], object]) -> None:
    """Write ``content`` (bytes, text as UTF-8, or a function writing to a binary file) to
    ``path`` without ever leaving it half written (see the module's text).

    Raises
    ------
    OutputError
        The target is not a regular file, its folder is missing or read-only, or the write
        failed (a full disk): the message says the previous file, if any, is intact.
    """
    path = os.fspath(path)
    target = check_output(path)
    existed = os.path.exists(target)
    mode = os.stat(target).st_mode & 0o7777 if existed else 0o666 & ~_umask()
    folder, name = os.path.split(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            if callable(content):
                content(fh)
            else:
                fh.write(content.encode("utf-8") if isinstance(content, str) else content)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            kept = "the previous file is intact" if existed else "nothing was written"
            raise OutputError(f"cannot write {path} ({exc.strerror or exc}); {kept}") from None
        raise


def write_json(path, doc, **dump) -> None:
    """``doc`` as JSON (``json.dumps(doc, **dump)``) to ``path`` by :func:`write_output`."""
    write_output(path, json.dumps(doc, **dump))


# -- reads ---------------------------------------------------------------------------------

def _too_big(path, size, limit, error, what, expanded=False) -> DeductiveError:
    how = "expands to more than" if expanded else f"is {_megabytes(size)}, over"
    return error(f"{path}: the {what} {how} the input limit of {_megabytes(limit)}; raise it "
                 f"with ${MAX_INPUT_ENV} (e.g. {MAX_INPUT_ENV}=1G) if the file is right")


def read_bytes(path, *, what: str = "file", error=InputError, hint: str = "",
               stdin: bool = False, limit: int | None = None, gunzip: bool = False) -> bytes:
    """The bytes of the regular file ``path`` (``-``: standard input, if ``stdin``), at
    most ``limit`` (default :func:`max_input`) of them; with ``gunzip``, a gzip file (told
    by its first bytes) is expanded, to at most ``limit`` bytes too.

    A missing file, a folder, a FIFO or device (never opened for reading: nothing
    blocks), an unreadable file or one over the limit is one ``error`` naming the path,
    ``what`` it should be and ``hint`` (what to give instead).
    """
    limit = max_input() if limit is None else limit
    fix = f"; {hint}" if hint else ""
    if stdin and str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise _too_big("standard input", len(data), limit, error, what)
    else:
        path = os.fspath(path)
        try:
            mode = os.stat(path).st_mode
            if not stat.S_ISREG(mode):
                alt = " or - for standard input" if stdin else ""
                raise error(f"{path}: is {_kind(mode)}, not a regular file" + (
                    fix or f"; give a {what}{alt}"))
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):   # swapped since stat
                    raise error(f"{path}: not a regular file; give a {what}{fix}")
                size = os.fstat(fh.fileno()).st_size
                if size > limit:
                    raise _too_big(path, size, limit, error, what)
                data = fh.read(limit + 1)
        except DeductiveError:
            raise
        except (FileNotFoundError, NotADirectoryError):
            raise error(f"{path}: no such file{fix}") from None
        except OSError as exc:
            raise error(f"{path}: cannot be read ({exc.strerror or exc}){fix}") from None
        if len(data) > limit:           # it grew while read
            raise _too_big(path, len(data), limit, error, what)
    return expand(data, name=path, what=what, error=error, limit=limit, hint=hint) if gunzip \
        else data


def expand(data: bytes, *, name="the input", what: str = "file", error=InputError,
           limit: int | None = None, hint: str = "") -> bytes:
    """``data``, expanded if it is gzip (told by its first bytes: every member), to at most
    ``limit`` bytes (default :func:`max_input`); past it, or a damaged or cut stream, one
    ``error`` naming ``name``."""
    if data[:2] != GZIP_MAGIC:
        return data
    limit = max_input() if limit is None else limit
    fix = f"; {hint}" if hint else ""
    return _gunzip(data, limit, lambda: _too_big(name, 0, limit, error, what, True),
                   lambda exc: error(f"{name}: a damaged or cut gzip file ({exc}){fix}"))


def _gunzip(data: bytes, limit: int, too_big, damaged) -> bytes:
    """Every gzip member of ``data`` expanded, stopping past ``limit`` bytes."""
    out, total, rest = [], 0, data
    while rest:
        d = zlib.decompressobj(wbits=31)
        while True:
            try:
                chunk = d.decompress(rest, limit + 1 - total)
            except zlib.error as exc:
                raise damaged(exc) from None
            out.append(chunk)
            total += len(chunk)
            if total > limit:
                raise too_big()
            if d.eof:
                break
            rest = d.unconsumed_tail
            if not rest and not chunk:
                raise damaged("the stream ends early")
        rest = d.unused_data.lstrip(b"\0")      # members may be followed by padding
    return b"".join(out)


def read_text(path, *, what: str = "file", error=InputError, hint: str = "",
              stdin: bool = False, limit: int | None = None, gunzip: bool = False) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a leading byte-order mark dropped); bytes that
    are not UTF-8 are one ``error`` naming the first."""
    data = read_bytes(path, what=what, error=error, hint=hint, stdin=stdin, limit=limit,
                      gunzip=gunzip)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        name = "standard input" if stdin and str(path) == "-" else path
        raise error(f"{name}: not UTF-8 text (byte {exc.start}); save the {what} as UTF-8") \
            from None


def read_json(path, *, what: str = "document", error=InputError, hint: str = "",
              limit: int | None = None):
    """The JSON document in ``path`` (plain or gzip), read by :func:`read_text`; malformed
    JSON, or JSON nested too deeply to parse, is one ``error``."""
    text = read_text(path, what=what, error=error, hint=hint, limit=limit, gunzip=True)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not a JSON {what} ({exc}){'; ' + hint if hint else ''}") \
            from None
    except RecursionError:
        raise error(f"{path}: JSON nested too deeply to read; a {what} is never this deep") \
            from None
