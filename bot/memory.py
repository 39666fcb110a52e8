"""The memory the whole bot holds: its own process and every process it started (the bot players' workers, their
resource tracker), as the metric ``cardbot_service_memory_bytes`` says it.

``process_resident_memory_bytes`` counts the main process alone, but the limit the service runs under (systemd's
``MemoryMax``, compose's ``mem_limit``) counts them all: two workers add some 60 MB. Each process counts with its
proportional set size (``Pss`` in ``/proc/PID/smaps_rollup``: a page shared by several processes — the
interpreter's and the libraries' code, a page a fork did not copy — is split between them, so the sum counts it
once, as the limit does), or its resident size where that file cannot be read. Read from ``/proc`` (Linux); 0
elsewhere. A few milliseconds a scrape, on the metrics server's thread.
"""

from __future__ import annotations

import os
import resource
from pathlib import Path

PROC = Path("/proc")


def service_memory(pid: int | None = None) -> int:
    """Bytes held by process ``pid`` (this one) and all its descendants; 0 where ``/proc`` cannot say."""
    root = os.getpid() if pid is None else pid
    return sum(process_memory(each) for each in [root, *descendants(root)])


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs, as ``/proc`` lists them now."""
    children: dict[int, list[int]] = {}
    try:
        entries = [int(entry.name) for entry in PROC.iterdir() if entry.name.isdigit()]
    except OSError:
        return []
    for each in entries:
        parent = _parent(each)
        if parent is not None:
            children.setdefault(parent, []).append(each)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def process_memory(pid: int) -> int:
    """Bytes of process ``pid``: its proportional set size, else its resident size; 0 once it is gone."""
    try:
        for line in (PROC / str(pid) / "smaps_rollup").read_text(encoding="ascii").splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        pages = int((PROC / str(pid) / "statm").read_text(encoding="ascii").split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * resource.getpagesize()


def _parent(pid: int) -> int | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    # "pid (name) state ppid ...": the name may hold spaces and parentheses; the last ")" ends it.
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        return int(fields[1])
    except (ValueError, IndexError):
        return None
