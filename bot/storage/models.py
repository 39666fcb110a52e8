"""Rows of the database as frozen dataclasses, and the enums stored in them."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from bot.model.game import GameMode, GameStatus, Screens
from engine.core import GameRecord, JSONValue


@dataclass(frozen=True, slots=True)
class GameRow:
    """A row of the ``games`` table: a game without its seats, people and moves (the pipeline's store builds the
    game in play from it). ``record`` is the party's start — its game, options and seed; its moves are the
    ``moves`` rows."""

    id: int
    kind: str
    mode: GameMode
    status: GameStatus
    chat_id: int
    thread_id: int
    creator_id: int
    options: dict[str, JSONValue]
    turn_timeout: int
    lang: str
    record: GameRecord | None
    version: int
    created_at: float
    expires_at: float | None
    deadline: float | None
    reminded: bool
    finished_at: float | None
    screens: Screens

    @property
    def key(self) -> str:
        """The game id as buttons and deep links carry it."""
        return str(self.id)

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> GameRow:
        record = row["record"]
        options: dict[str, JSONValue] = json.loads(row["options"])
        return cls(
            id=row["id"],
            kind=row["kind"],
            mode=GameMode(row["mode"]),
            status=GameStatus(row["status"]),
            chat_id=row["chat_id"],
            thread_id=row["thread_id"],
            creator_id=row["creator_id"],
            options=dict(options),
            turn_timeout=row["turn_timeout"],
            lang=row["lang"],
            record=GameRecord.from_json(record) if record else None,
            version=row["version"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            deadline=row["deadline"],
            reminded=bool(row["reminded"]),
            finished_at=row["finished_at"],
            screens=Screens.from_json(row["screens"]),
        )


@dataclass(frozen=True, slots=True)
class LiveMessage:
    """A message the bot keeps up to date, stored under its name (``slot``, below): which message in which chat
    shows it, and a digest of what it shows."""

    slot: str
    chat_id: int
    message_id: int
    digest: str


@dataclass(frozen=True, slots=True)
class Notice:
    """A one-off message waiting in the persistent outbox: its text, or — for a game's notice not drawn yet —
    the game and what happened (``event``: the event and the seat it is for, see ``bot.model.game.dump_told``;
    drawn once committed)."""

    id: int
    chat_id: int
    thread_id: int
    text: str
    markup: str | None
    game_id: int | None = None
    event: str | None = None


@dataclass(frozen=True, slots=True)
class UserStats:
    """A person's finished parties of one game (``kind``), in groups or solo (``mode``)."""

    kind: str
    mode: GameMode
    games: int
    wins: int
    points: int
    settlement: int


@dataclass(frozen=True, slots=True)
class ChatRank:
    """One line of a chat's leaderboard (/top): a person's finished parties in that chat."""

    user_id: int
    name: str
    games: int
    wins: int
    points: int
