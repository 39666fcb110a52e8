"""SQLite storage: the database with its migrations, its rows and the queries."""

from __future__ import annotations

from bot.storage.db import Database
from bot.storage.models import GameRow, LiveMessage, Notice
from bot.storage.tx import Batch, Tx

__all__ = ["Batch", "Database", "GameRow", "LiveMessage", "Notice", "Tx"]
