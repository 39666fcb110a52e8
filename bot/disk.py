"""What is wrong with the disk a file lives on, told in words: full, or mounted read-only."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def disk_trouble(path: Path, exc: BaseException | None = None) -> str:
    """Why nothing can be written beside ``path`` ("" when the disk looks fine): its file system is mounted
    read-only, or has no space (or no inode) left. ``exc``, the error met, settles it when it says so."""
    err = getattr(exc, "errno", None)
    folder = path if path.is_dir() else path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        stats = os.statvfs(folder)
    except OSError:
        stats = None
    if err == errno.EROFS or (stats is not None and stats.f_flag & os.ST_RDONLY):
        return f"the file system holding {folder} is mounted read-only"
    if err == errno.ENOSPC or (
        stats is not None and (stats.f_bavail == 0 or (stats.f_files and not stats.f_favail))
    ):
        free = stats.f_bavail * stats.f_frsize if stats is not None else 0
        return f"the disk holding {folder} is full ({free} bytes free)"
    return ""
