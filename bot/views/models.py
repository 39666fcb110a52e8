"""The small frozen inputs the views take, and what they return.

The bot core builds these from storage rows and engine views; the views never touch storage or Telegram.
Game screens take the engine's own view of one player (``state.view(player)``); group messages use only its
public fields, so any seat's view will do for them.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic

from aiogram.types import InlineKeyboardMarkup
from typing_extensions import TypeVar

from bot.callbacks import GameKind
from engine.ai import Level
from engine.core import JSONValue

if TYPE_CHECKING:
    from engine.konchinka import KonchinkaView

ViewT = TypeVar("ViewT", default="KonchinkaView")
"""The engine view a table carries: ``KonchinkaView`` unless said otherwise (``TableInfo[KingView]``)."""


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
    """A group lobby: ``options`` is the game's ``options_dict()`` (Кончинка: ``KonchinkaOptions.to_dict()``
    without ``players``, which is the number of seats at the start); ``turn_seconds`` is the bot's turn time
    limit (0: none). ``creator_id``: the creator's user id; when they sit at the table their seat is marked
    instead of a separate «Собирает:» line."""

    game_id: str
    kind: GameKind
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


@dataclass(frozen=True, slots=True)
class TableInfo(Generic[ViewT]):
    """A table as one player sees it (Кончинка: ``TableInfo``; Кинг: ``TableInfo[KingView]``).

    ``view`` is ``state.view(player)``; the group table and the deal/party results read only its public
    fields. ``solo`` marks a private game against bot players (one live message, more moves written out).

    Time never shows as a countdown (a text that changes by itself would need an edit every second):
    ``turn_seconds`` is the limit per turn, shown once («⏱ 60 с на ход»; 0: none). ``auto_move`` marks the last
    move as made by a bot player because the time ran out («⏰ … — сыграл бот»).
    """

    game_id: str
    seats: tuple[SeatInfo, ...]
    view: ViewT
    bot_username: str = ""
    solo: bool = False
    turn_seconds: int = 0
    auto_move: bool = False
