"""The small frozen inputs the views take, and what they return.

The bot core builds these from storage rows and engine views; the views never touch storage or Telegram.
Game screens take the engine's own view of one player (``state.view(player)``); group messages use only its
public fields, so any seat's view will do for them.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Generic

from aiogram.types import InlineKeyboardMarkup
from typing_extensions import TypeVar

from engine.ai import Level
from engine.core import JSONValue

ViewT = TypeVar("ViewT")
"""The engine view a table carries (``TableInfo[SomeView]``: a table of the game whose view that is)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message ready to send: Telegram HTML text (≤ 4096 characters) and an optional inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat at the table (or in a lobby), in seat order.

    ``name`` is the raw user-supplied name (the views escape it). ``level`` is set for bot players.
    ``is_reachable`` is False for a person who never opened the bot or blocked it. ``is_replaced`` marks a
    person whose seat a bot player took over after missed turns. ``number`` tells apart unnamed bot players of
    the same level at one table («Бот-мастер 1», «Бот-мастер 2»); 0 when it is not needed.
    """

    name: str
    user_id: int | None = None
    is_bot: bool = False
    level: Level | None = None
    is_reachable: bool = True
    is_replaced: bool = False
    number: int = 0


def number_bots(seats: Iterable[SeatInfo]) -> tuple[SeatInfo, ...]:
    """The seats with unnamed bot players numbered wherever two or more of them share a level."""
    seats = tuple(seats)
    same = Counter(seat.level for seat in seats if seat.is_bot and not seat.name)
    seen: Counter[Level | None] = Counter()
    numbered = []
    for seat in seats:
        if seat.is_bot and not seat.name and same[seat.level] > 1:
            seen[seat.level] += 1
            seat = replace(seat, number=seen[seat.level])
        numbered.append(seat)
    return tuple(numbered)


class LobbyScreen(enum.StrEnum):
    """What the lobby message shows."""

    MAIN = "main"
    SETTINGS = "settings"
    BOT_LEVEL = "bot_level"


class LobbyStatus(enum.StrEnum):
    OPEN = "open"
    STARTED = "started"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """A group lobby: ``options`` are the game's options as stored (without the number of players, which is the
    number of seats at the start); ``summary`` names the game and its options, ``rules_section`` the rules that
    fit them, ``fills_with_bots`` whether empty seats go to bot players at the start (all three from the game's
    plug-in); ``turn_seconds`` is the bot's turn time limit (0: none). ``creator_id``: the creator's user id; when
    they sit at the table their seat is marked instead of a separate «Собирает:» line."""

    game_id: str
    kind: str
    options: Mapping[str, JSONValue]
    seats: tuple[SeatInfo, ...]
    bot_username: str
    creator_name: str = ""
    turn_seconds: int = 60
    creator_id: int | None = None
    min_players: int = 2
    max_players: int = 4
    screen: LobbyScreen = LobbyScreen.MAIN
    status: LobbyStatus = LobbyStatus.OPEN
    summary: str = ""
    rules_section: str = ""
    fills_with_bots: bool = False


@dataclass(frozen=True, slots=True)
class TableFrame:
    """What a message of a party shows besides the engine's view: its seats, the bot's username (for the «🃏 Мои
    карты» link; empty for a look from the private chat itself), whether it is a private game against bot
    players (``solo``: one live message, more moves written out), the limit per turn and whether the timer made
    the last move.

    Time never shows as a countdown (a text that changes by itself would need an edit every second):
    ``turn_seconds`` is the limit per turn, shown once («⏱ 60 с на ход»; 0: none). ``auto_move`` marks the last
    move as made by a bot player because the time ran out («⏰ … — сыграл бот»).
    """

    game_id: str
    seats: tuple[SeatInfo, ...]
    bot_username: str = ""
    solo: bool = False
    turn_seconds: int = 0
    auto_move: bool = False


@dataclass(frozen=True, slots=True)
class TableInfo(TableFrame, Generic[ViewT]):
    """A table as one player sees it: the frame and ``view``, ``state.view(player)`` of the game's engine (the
    group table and the deal/party results read only its public fields)."""

    view: ViewT = field(kw_only=True)

    @classmethod
    def of(cls, frame: TableFrame, view: ViewT) -> TableInfo[ViewT]:
        return cls(
            frame.game_id,
            frame.seats,
            frame.bot_username,
            frame.solo,
            frame.turn_seconds,
            frame.auto_move,
            view=view,
        )
