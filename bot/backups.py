"""The notes ``python -m bot backup`` leaves beside the database — of its last success and of its last failure —
and what the metrics read of them (``cardbot_last_backup_timestamp_seconds``,
``cardbot_last_backup_failure_timestamp_seconds``): the backup runs in a process of its own (a timer, cron,
compose's ``backup`` service), so the running bot learns of it from the files."""

from __future__ import annotations

import os
import time
from pathlib import Path


def stamp_of(database: Path) -> Path:
    """The file beside the database where ``backup`` notes its last success (read by the metrics)."""
    return database.with_name(database.name + ".last-backup")


def failure_stamp_of(database: Path) -> Path:
    """The file beside the database where ``backup`` notes its last failure (read by the metrics)."""
    return database.with_name(database.name + ".last-backup-failure")


def note_backup(database: Path, target: Path) -> None:
    """Note a successful backup beside the database: its Unix time and where the copy went."""
    _note(stamp_of(database), str(target.resolve()))


def note_failure(database: Path, reason: str) -> None:
    """Note a failed backup beside the database: its Unix time and why (one line)."""
    _note(failure_stamp_of(database), " ".join(reason.split()))


def _note(stamp: Path, text: str) -> None:
    partial = stamp.with_name(stamp.name + ".partial")
    partial.write_text(f"{time.time():.3f} {text}\n", encoding="utf-8")
    os.replace(partial, stamp)


def last_backup(database: Path) -> float | None:
    """When the last successful backup of ``database`` was taken (Unix time), or None."""
    return _read(stamp_of(database))


def last_failure(database: Path) -> float | None:
    """When the last backup of ``database`` failed (Unix time), or None."""
    return _read(failure_stamp_of(database))


def _read(stamp: Path) -> float | None:
    try:
        return float(stamp.read_text(encoding="utf-8").split(maxsplit=1)[0])
    except (OSError, ValueError, IndexError):
        return None
