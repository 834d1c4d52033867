"""How much memory a new allocation may take: the one reader of the machine's and the
cgroup's limits, used by every memory budget (matrix sizes, Minesweeper tables)."""

from __future__ import annotations

import os

__all__ = ["available_memory", "cgroup_memory_left"]

#: cgroup v2's limit and usage of this process's group, then cgroup v1's.
_CGROUP_FILES = (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                 ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                  "/sys/fs/cgroup/memory/memory.usage_in_bytes"))
#: cgroup v1 writes "no limit" as a huge number (the largest page-aligned int64).
_NO_LIMIT = 1 << 60


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as fh:
            text = fh.read(64).strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None        # "max": no limit


def cgroup_memory_left(files=_CGROUP_FILES) -> int | None:
    """Bytes the process's cgroup may still allocate (its limit less its usage), or None
    where no limit is set or none can be read."""
    for limit_path, usage_path in files:
        limit = _read_int(limit_path)
        if limit is None or limit >= _NO_LIMIT:
            continue
        usage = _read_int(usage_path) or 0
        return max(limit - usage, 0)
    return None


def _meminfo_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now, or None where unknown: the
    machine's (Linux: ``MemAvailable``), or what the process's cgroup limit leaves when
    that is less (a container or a systemd slice with ``memory.max`` set)."""
    known = [n for n in (_meminfo_available(), cgroup_memory_left()) if n is not None]
    return min(known) if known else None
