"""The single-instance lock is on the database file, not on the name it is reached by: a symlink or a hard link
to a running bot's database is refused like the path itself, naming the bot that holds it. (``flock`` is per
open file, so two locks in one process meet as two processes would; ``test_running.py`` runs real processes.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.instance import InstanceLock
from bot.settings import ExitCode, StartupError


@pytest.mark.parametrize("link", ["symlink", "hard link", "same path"])
def test_a_second_lock_on_another_name_for_the_same_database_is_refused(tmp_path: Path, link: str) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    first = InstanceLock(database)
    first.acquire()
    try:
        other = tmp_path / "elsewhere" / "linked.sqlite3"
        other.parent.mkdir()
        if link == "symlink":
            other.symlink_to(database)
        elif link == "hard link":
            os.link(database, other)
        else:
            other = database
        second = InstanceLock(other)
        with pytest.raises(StartupError) as refused:
            second.acquire()
        assert refused.value.code == ExitCode.INSTANCE
        assert f"another bot runs on this database (pid {os.getpid()}," in refused.value.message
    finally:
        first.release()
    again = InstanceLock(other)  # free once the first one lets go
    again.acquire()
    again.release()
