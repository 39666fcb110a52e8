"""Rows of the database as frozen dataclasses, and the enums stored in them."""

from __future__ import annotations

import enum
import json
import sqlite3
from dataclasses import dataclass
from typing import Final

from engine.ai.levels import Level
from engine.core import GameRecord, JSONValue


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"

    @property
    def is_active(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


class GameMode(enum.StrEnum):
    GROUP = "group"
    SOLO = "solo"


class Actor(enum.StrEnum):
    """Who made a move."""

    PLAYER = "player"
    BOT = "bot"
    """A bot player's seat, or a human's seat taken over by a bot."""
    AFK = "afk"
    """The bot played for a human who ran out of time."""


@dataclass(frozen=True, slots=True)
class UserRow:
    user_id: int
    name: str
    username: str | None
    lang: str | None
    started: bool
    blocked: bool

    @property
    def reachable(self) -> bool:
        """The bot can write to this user in private."""
        return self.started and not self.blocked

    def seen_as(self, name: str, username: str | None, lang: str | None, *, started: bool = False) -> UserRow:
        """This user as :func:`bot.storage.repo.upsert_user` leaves them (the same rule, in memory)."""
        return UserRow(
            self.user_id,
            name,
            username,
            lang if lang is not None else self.lang,
            self.started or started,
            False if started else self.blocked,
        )

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> UserRow:
        return cls(
            user_id=row["user_id"],
            name=row["name"],
            username=row["username"],
            lang=row["lang"],
            started=bool(row["started"]),
            blocked=bool(row["blocked"]),
        )


@dataclass(frozen=True, slots=True)
class GameRow:
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
        )


@dataclass(frozen=True, slots=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    name: str
    level: str | None
    misses: int
    replaced: bool
    score: int | None = None
    won: bool | None = None
    settlement: int | None = None

    @property
    def is_bot(self) -> bool:
        """A bot player's own seat (no human behind it)."""
        return self.user_id is None

    @property
    def bot_plays(self) -> bool:
        """The bot moves for this seat: a bot player, or a human replaced after missed turns."""
        return self.user_id is None or self.replaced

    @property
    def bot_level(self) -> Level | None:
        """A bot player's level (None for a person's seat, or a level this bot does not know)."""
        if not self.is_bot or not self.level:
            return None
        try:
            return Level(self.level)
        except ValueError:
            return None

    @property
    def plays_at(self) -> Level:
        """The level the bot plays this seat at: a bot player's own; a person's seat the bot stands in for (or
        whose time ran out) is played as «любитель» would."""
        return self.bot_level or Level.NORMAL

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> SeatRow:
        return cls(
            game_id=row["game_id"],
            seat=row["seat"],
            user_id=row["user_id"],
            name=row["name"],
            level=row["level"],
            misses=row["misses"],
            replaced=bool(row["replaced"]),
            score=row["score"],
            won=None if row["won"] is None else bool(row["won"]),
            settlement=row["settlement"],
        )


@dataclass(frozen=True, slots=True)
class LiveMessage:
    """A message the bot keeps up to date, stored under its name (``slot``, below): which message in which chat
    shows it, and a digest of what it shows."""

    slot: str
    chat_id: int
    message_id: int
    digest: str


# The names of live messages («slots»). Each message the bot keeps up to date has a name that says what it is for
# (a game's table, a player's hand, a rules page); showing new content under a name edits that message (or sends it
# anew below). A name is stored with its message, so a restart finds every message again, and its first letter
# says what it names: a game (``GAME_SLOTS``, the game's id next: ``g12``, ``h12:345``) or a chat.

GAME_SLOTS: Final = "ghmwvsy"
"""First letters of the names that belong to one game (:func:`game_of_slot`): forgotten once it is long over."""
REMINDERS: Final = "m"


def group_slot(game_id: int) -> str:
    """A game's table in its group (and a solo game's in its private chat)."""
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    """A player's hand, in their private chat."""
    return f"h{game_id}:{user_id}"


def reminder_slot(game_id: int, user_id: int, version: int) -> str:
    """The «⏰ your turn is running out» message of one turn (deleted when the turn is over)."""
    return f"{REMINDERS}{game_id}:{user_id}:{version}"


def review_slot(game_id: int, user_id: int) -> str:
    """«🔍 Разбор партии» of one player: sent once, however often the button is pressed."""
    return f"w{game_id}:{user_id}"


def table_slot(game_id: int, user_id: int) -> str:
    """The one private copy of a game's whole table a player keeps: sent anew below on each look."""
    return f"v{game_id}:{user_id}"


def sheet_slot(game_id: int, chat_id: int) -> str:
    """The score sheet's photo of a game in one chat: the group's, updated in place as each deal ends; a player's
    own, sent as the party ends and when asked for (``/score``, «📋 Запись»)."""
    return f"s{game_id}:{chat_id}"


def history_slot(game_id: int, chat_id: int) -> str:
    """The party's history file in one chat (sent once however often «📜 История» is pressed)."""
    return f"y{game_id}:{chat_id}"


def game_of_slot(slot: str) -> int | None:
    """The game a live message's name belongs to (None: it names a chat's message)."""
    if slot[:1] not in GAME_SLOTS:
        return None
    number = slot[1:].split(":", 1)[0]
    return int(number) if number.isdigit() else None


def chat_rules_slot(chat_id: int, thread_id: int = 0, user_id: int = 0) -> str:
    """A person's rules message in a chat (a forum topic): their next rules request replaces it (never someone
    else's: in a group each asker has their own), its pages turn in place. ``user_id``: 0 in a private chat."""
    return (
        f"R{chat_id}:{thread_id}"
        if chat_id == user_id or not user_id
        else f"R{chat_id}:{thread_id}:{user_id}"
    )


def setup_slot(chat_id: int, message_id: int) -> str:
    """The solo setup screen (opponents, level) turned in place."""
    return f"p{chat_id}:{message_id}"


def throttle_note_slot(chat_id: int, thread_id: int) -> str:
    """A group's (topic's) one note from the incoming throttle: «Секунду…» while questions wait, or a word to a
    member beyond their window; deleted once answered (or once that window is over)."""
    return f"q{chat_id}:{thread_id}"


@dataclass(frozen=True, slots=True)
class Notice:
    """A one-off message waiting in the persistent outbox: its text, or — for a game's notice not drawn yet —
    the game and what happened (``event``, JSON of a :mod:`bot.flow.events` event; drawn once committed)."""

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
