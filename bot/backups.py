"""The note a successful ``python -m bot backup`` leaves beside the database, and what the metrics read of it
(``cardbot_last_backup_timestamp_seconds``): the backup runs in a process of its own (a timer, cron, compose's
``backup`` service), so the running bot learns of it from the file."""

from __future__ import annotations

import os
import time
from pathlib import Path


def stamp_of(database: Path) -> Path:
    """The file beside the database where ``backup`` notes its last success (read by the metrics)."""
    return database.with_name(database.name + ".last-backup")


def note_backup(database: Path, target: Path) -> None:
    """Note a successful backup beside the database: its Unix time and where the copy went."""
    stamp = stamp_of(database)
    partial = stamp.with_name(stamp.name + ".partial")
    partial.write_text(f"{time.time():.3f} {target.resolve()}\n", encoding="utf-8")
    os.replace(partial, stamp)


def last_backup(database: Path) -> float | None:
    """When the last successful backup of ``database`` was taken (Unix time), or None."""
    try:
        return float(stamp_of(database).read_text(encoding="utf-8").split(maxsplit=1)[0])
    except (OSError, ValueError, IndexError):
        return None
