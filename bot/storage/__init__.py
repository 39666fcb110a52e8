"""SQLite storage: the database with its migrations, the row types and the queries."""

from __future__ import annotations

from bot.storage.db import Database
from bot.storage.models import Actor, GameMode, GameRow, GameStatus, LiveMessage, Notice, SeatRow, UserRow
from bot.storage.tx import Batch, Tx

__all__ = [
    "Actor",
    "Batch",
    "Database",
    "GameMode",
    "GameRow",
    "GameStatus",
    "LiveMessage",
    "Notice",
    "SeatRow",
    "Tx",
    "UserRow",
]
