"""Self-describing HDF5 files of pattern matrices, written atomically and verified on read.

One file per matrix, named by its key (the SHA-256 of the kernel version and both word
lists). Each file records the format version, the package and kernel versions, the key,
both word lists and their hashes. The matrix is stored in row chunks with HDF5's
Fletcher-32 checksum filter, so flipped bytes in the data fail the read instead of being
returned. A file that fails any check is never used: :meth:`PatternStore.load` warns and
returns ``None``, and the caller rebuilds and :meth:`PatternStore.save` replaces it.

Writes go to a temporary file in the same directory, which is flushed, synced and renamed
into place (``os.replace`` is atomic on POSIX), so readers see either the old complete
file or the new one, never a partial one, even if the writer is killed. A write that
cannot happen (not enough free space, a read-only directory, a disk that fills up
during the write) raises :class:`~deductive.errors.CacheError` and leaves nothing behind:
the caller keeps the matrix it computed.
"""

from __future__ import annotations

import datetime as _dt
import glob
import hashlib
import os
import secrets
import shutil
import socket
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import h5py
import numpy as np
import platformdirs

from ..errors import CacheError, CacheRebuildWarning

__all__ = ["PatternStore", "CacheSummary", "default_cache_dir", "FORMAT_VERSION"]

#: Bump when the layout of the files changes (2: the ``code_encoding`` attribute).
FORMAT_VERSION = 2
#: How the pattern codes in ``matrix`` are encoded, recorded in every file.
CODE_ENCODING = ("code = sum fb[i]*3^i, position 0 least significant; 0 grey 1 yellow "
                 "2 green")
_PREFIX = "patterns-"
_CHUNK_BYTES = 1 << 20
#: A temporary file of a writer on another machine (shared storage), whose process this
#: one cannot ask about, counts as live while it is younger than this.
FOREIGN_TMP_SECONDS = 24 * 3600
#: Room left on the disk beyond the file's own size.
_SPARE_BYTES = 16 << 20


def default_cache_dir() -> Path:
    """``$DEDUCTIVE_CACHE_DIR``, else the user cache directory of the platform
    (platformdirs: ``$XDG_CACHE_HOME/deductive`` or ``~/.cache/deductive`` on Linux,
    ``~/Library/Caches/deductive`` on macOS, ``%LOCALAPPDATA%\\deductive\\Cache`` on
    Windows)."""
    env = os.environ.get("DEDUCTIVE_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_cache_dir("deductive", appauthor=False))


def _package_version() -> str:
    from .. import __version__

    return __version__


def _words_sha256(words) -> str:
    return hashlib.sha256("\n".join(words).encode("ascii")).hexdigest()


class _Invalid(Exception):
    """A cache file failed a check; the message says which."""


@dataclass(frozen=True)
class CacheSummary:
    """A cache directory's matrices (:meth:`PatternStore.entries`) and temporary files."""

    directory: str
    entries: list
    temporary_files: list
    live: list              # the temporary files a running writer holds

    def to_json(self) -> dict:
        """The form ``cache info --json`` prints."""
        return {"directory": self.directory, "entries": self.entries,
                "temporary_files": self.temporary_files}


class PatternStore:
    """A directory of cached pattern matrices.

    Parameters
    ----------
    directory : path, optional
        Defaults to :func:`default_cache_dir`.
    """

    def __init__(self, directory=None):
        self.directory = Path(directory).expanduser() if directory else default_cache_dir()

    def path_for(self, key: str) -> Path:
        """The file that holds (or would hold) the matrix with this key."""
        return self.directory / f"{_PREFIX}{key[:24]}.h5"

    # -- reading ------------------------------------------------------------------------
    def load(self, key, guesses, answers, kernel_version, dtype):
        """The cached matrix, or ``None`` if absent or invalid (invalid files are warned of).

        Parameters
        ----------
        key : str
            Expected key.
        guesses, answers : sequence of str
            The word lists the file must hold, in order.
        kernel_version : int
        dtype : numpy dtype
            Expected dtype of the matrix.
        """
        path = self.path_for(key)
        if not path.exists():
            return None
        try:
            return self._read(path, key, guesses, answers, kernel_version, np.dtype(dtype))
        except _Invalid as exc:
            reason = str(exc)
        except (OSError, KeyError, ValueError, TypeError, RuntimeError) as exc:
            reason = f"unreadable ({type(exc).__name__}: {exc})"
        warnings.warn(f"cache file {path} is invalid: {reason}; rebuilding it",
                      CacheRebuildWarning, stacklevel=3)
        return None

    @staticmethod
    def _read(path, key, guesses, answers, kernel_version, dtype):
        with h5py.File(path, "r") as fh:
            attrs = fh.attrs
            expected = {"format_version": FORMAT_VERSION, "kernel_version": kernel_version,
                        "key": key}
            for name, want in expected.items():
                got = attrs.get(name)
                if got is None or _plain(got) != want:
                    raise _Invalid(f"{name} is {_plain(got)!r}, expected {want!r}")
            for name, words in (("guesses", guesses), ("answers", answers)):
                stored = [w.decode("ascii") for w in fh[name][()]]
                if stored != list(words):
                    raise _Invalid(f"its {name} list does not match the key")
                if _plain(attrs.get(f"{name}_sha256")) != _words_sha256(stored):
                    raise _Invalid(f"its {name} list does not match its recorded hash")
            data = fh["matrix"]
            if data.shape != (len(guesses), len(answers)) or data.dtype != dtype:
                raise _Invalid(f"matrix is {data.shape} {data.dtype}, expected "
                               f"{(len(guesses), len(answers))} {dtype}")
            if data.fletcher32 is not True:
                raise _Invalid("matrix has no checksum")
            out = np.empty(data.shape, dtype=dtype)
            if out.size:
                data.read_direct(out)  # the Fletcher-32 filter verifies every chunk
            return out

    # -- writing ------------------------------------------------------------------------
    def save(self, key, guesses, answers, kernel_version, matrix, *, names=None) -> Path:
        """Write the matrix atomically; return its path.

        Parameters
        ----------
        names : tuple of str, optional
            Human-readable names of the two lists, recorded for ``cache info``.

        Raises
        ------
        CacheError
            The file cannot be written (the directory, or the space on the disk); nothing
            is left behind.
        """
        path = self.path_for(key)
        self._ensure_directory()
        self._remove_orphans(path)
        needed = file_bytes(matrix, guesses, answers)
        free = shutil.disk_usage(self.directory).free
        if free < needed + _SPARE_BYTES:
            raise CacheError(
                f"cache directory {self.directory} has {free / 1e6:,.0f} MB free and the "
                f"matrix's file needs {needed / 1e6:,.0f} MB; free some space, or pass "
                "--cache-dir to another disk (or --no-cache)"
            )
        host = socket.gethostname().replace(".", "-") or "host"
        tmp = path.with_name(f".{path.name}.{host}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            self._write(tmp, key, guesses, answers, kernel_version, matrix, names)
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise CacheError(f"cannot write the cache file {path} ({exc.strerror or exc}); "
                             "free some space, or pass --cache-dir to another disk "
                             "(or --no-cache)") from None
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        _fsync_directory(self.directory)
        return path

    @staticmethod
    def _write(tmp, key, guesses, answers, kernel_version, matrix, names):
        length = len(guesses[0]) if len(guesses) else 1
        rows_per_chunk = max(1, min(matrix.shape[0], _CHUNK_BYTES // max(1, matrix[0:1].nbytes)))
        chunks = (rows_per_chunk, max(1, matrix.shape[1])) if matrix.size else None
        with open(tmp, "wb+") as raw:
            # HDF5 never sees an I/O error: one during a write (a full disk) left the HDF5
            # library in a state that crashed the interpreter (segfault) when the file was
            # closed or collected; _GuardedFile keeps the first error for after the close
            guarded = _GuardedFile(raw)
            with h5py.File(guarded, "w") as fh:
                fh.attrs.update({
                    "format_version": FORMAT_VERSION,
                    "kernel_version": kernel_version,
                    "package_version": _package_version(),
                    "key": key,
                    "code_encoding": CODE_ENCODING,
                    "guesses_sha256": _words_sha256(guesses),
                    "answers_sha256": _words_sha256(answers),
                    "guesses_name": (names or ("", ""))[0],
                    "answers_name": (names or ("", ""))[1],
                    "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                })
                fh.create_dataset("guesses", data=np.array(guesses, dtype=f"S{length}"))
                fh.create_dataset("answers", data=np.array(answers, dtype=f"S{length}"))
                fh.create_dataset("matrix", data=matrix, chunks=chunks, fletcher32=bool(chunks))
            guarded.call(raw.flush)
            guarded.call(os.fsync, raw.fileno())
            if guarded.error is not None:
                raise guarded.error

    def _ensure_directory(self):
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CacheError(
                f"cache directory {self.directory} cannot be created ({exc.strerror}); "
                "set DEDUCTIVE_CACHE_DIR or pass --cache-dir to a writable directory"
            ) from None
        if not os.access(self.directory, os.W_OK):
            raise CacheError(
                f"cache directory {self.directory} is not writable; set DEDUCTIVE_CACHE_DIR "
                "or pass --cache-dir to a writable directory"
            )

    def _remove_orphans(self, path: Path):
        """Delete temporary files of this entry left by writers that no longer run."""
        for tmp in glob.glob(str(path.with_name(f".{path.name}.*.tmp"))):
            if not _live_temporary(Path(tmp)):
                Path(tmp).unlink(missing_ok=True)

    # -- listing ------------------------------------------------------------------------
    def entries(self) -> list[dict]:
        """One dict per cache file: path, bytes, shape, dtype, names, versions, status."""
        found = []
        for path in sorted(self.directory.glob(f"{_PREFIX}*.h5")):
            entry = {"path": str(path), "bytes": path.stat().st_size}
            try:
                with h5py.File(path, "r") as fh:
                    data = fh["matrix"]
                    entry.update(
                        shape=list(data.shape), dtype=str(data.dtype),
                        **{k: _plain(fh.attrs.get(k)) for k in (
                            "guesses_name", "answers_name", "kernel_version",
                            "format_version", "package_version", "created")},
                    )
                entry["status"] = "ok"
            except (OSError, KeyError, ValueError) as exc:
                entry["status"] = f"unreadable ({type(exc).__name__})"
            found.append(entry)
        return found

    def summary(self) -> CacheSummary:
        """What ``deductive cache info`` reports: the directory, its entries
        (:meth:`entries`) and its leftover temporary files (those of running writers
        marked)."""
        here = self.directory.is_dir()
        return CacheSummary(str(self.directory), self.entries() if here else [],
                            [str(p) for p in self.temporary_files()] if here else [],
                            [str(p) for p in self.live_temporary_files()] if here else [])

    def temporary_files(self) -> list[Path]:
        """Leftover temporary files (of running writers, or of killed ones)."""
        return sorted(self.directory.glob(f".{_PREFIX}*.tmp"))

    def clear(self) -> list[Path]:
        """Delete this store's files (and only them); return what was deleted.

        A temporary file that a running process is writing is kept: removing it would
        make that process fail and lose its work.

        Raises
        ------
        CacheError
            A file cannot be removed (a read-only directory).
        """
        removed: list[Path] = []
        if not self.directory.is_dir():
            return removed
        temporary = [p for p in self.temporary_files() if not _live_temporary(p)]
        for path in list(self.directory.glob(f"{_PREFIX}*.h5")) + temporary:
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                done = f" after removing {len(removed)} file(s)" if removed else ""
                raise CacheError(f"cannot remove {path} ({exc.strerror}){done}; the cache "
                                 f"directory {self.directory} is not writable by you") from None
            removed.append(path)
        return removed

    def live_temporary_files(self) -> list[Path]:
        """Temporary files that running writers are still writing."""
        if not self.directory.is_dir():
            return []
        return [p for p in self.temporary_files() if _live_temporary(p)]


def file_bytes(matrix, guesses, answers) -> int:
    """About how many bytes the file of a matrix takes (the matrix dominates)."""
    words = (len(guesses) + len(answers)) * (len(guesses[0]) if len(guesses) else 1)
    return int(matrix.nbytes * 1.01) + words + (64 << 10)


class _GuardedFile:
    """A file object for h5py that never raises: the first ``OSError`` is kept in
    ``error`` and later calls only pretend (positions are tracked), so that HDF5 finishes
    and closes cleanly; the caller then discards the file."""

    def __init__(self, raw):
        self.raw = raw
        self.error = None
        self.pos = 0

    def call(self, func, *args):
        if self.error is None:
            try:
                return func(*args)
            except OSError as exc:
                self.error = exc
        return None

    def write(self, data):
        self.call(self.raw.write, data)
        self.pos += len(data)
        return len(data)

    def read(self, size=-1):
        data = self.call(self.raw.read, size) or b""
        self.pos += len(data)
        return data

    def seek(self, offset, whence=os.SEEK_SET):
        where = self.call(self.raw.seek, offset, whence)
        if where is not None:
            self.pos = where
        elif whence == os.SEEK_SET:
            self.pos = offset
        elif whence == os.SEEK_CUR:
            self.pos += offset
        return self.pos

    def tell(self):
        return self.pos

    def truncate(self, size=None):
        self.call(self.raw.truncate, size)
        return self.pos if size is None else size

    def flush(self):
        self.call(self.raw.flush)


def _plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, np.generic):
        return value.item()
    return value


def _live_temporary(path: Path) -> bool:
    """Whether a writer may still be writing this temporary file.

    Its name holds the writer's host and process id: on this host, live while that
    process runs; from another host (shared storage), while younger than
    :data:`FOREIGN_TMP_SECONDS`. Names without a host (older versions) hold the pid only.
    """
    parts = path.name.split(".")
    try:
        pid = int(parts[-3])
    except (IndexError, ValueError):
        return False
    host = parts[-4] if len(parts) >= 6 and parts[-4] != "h5" else None
    if host is None or host == (socket.gethostname().replace(".", "-") or "host"):
        return _alive(pid)
    try:
        return time.time() - path.stat().st_mtime < FOREIGN_TMP_SECONDS
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync_directory(directory: Path):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
