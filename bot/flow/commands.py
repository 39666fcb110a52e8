"""Commands: every change a handler, a timer or the outbox asks of the game flow, as one typed value.

A handler turns its update into a command and hands it to :meth:`bot.flow.service.GameService.run`; the command's
component decides (a :class:`~bot.flow.store.Change`, stored in one transaction, or a refusal); the service then
has the change drawn and delivered. ``answer`` is what a press is answered when the change says nothing else.
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import ClassVar

from bot.views import Answer, LobbyScreen
from engine.ai import Level
from engine.core import JSONValue


@dataclass(frozen=True, slots=True)
class Pressed:
    """The message a button was pressed in (a private hand whose send the bot never recorded is adopted)."""

    chat_id: int
    message_id: int


class Command:
    """What every command has: the answer to its press when the change gives none."""

    answer: ClassVar[Answer | None] = None


# --- the lobby -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenLobby(Command):
    chat_id: int
    thread_id: int
    creator: Person
    kind: str
    options: dict[str, JSONValue] | None = None


@dataclass(frozen=True, slots=True)
class Join(Command):
    answer = Answer.JOINED
    game_id: int
    person: Person
    is_member: MemberCheck


@dataclass(frozen=True, slots=True)
class LeaveLobby(Command):
    answer = Answer.LEFT
    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class AddBot(Command):
    answer = Answer.BOT_ADDED
    game_id: int
    person: Person
    level: str


@dataclass(frozen=True, slots=True)
class RemoveBot(Command):
    answer = Answer.BOT_REMOVED
    game_id: int
    person: Person
    seat: str


@dataclass(frozen=True, slots=True)
class ShowScreen(Command):
    game_id: int
    person: Person
    screen: LobbyScreen


@dataclass(frozen=True, slots=True)
class SetOption(Command):
    answer = Answer.SETTING_SAVED
    game_id: int
    person: Person
    key: str
    value: str


@dataclass(frozen=True, slots=True)
class Start(Command):
    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class Cancel(Command):
    """The lobby's cancel button (``game_id``), or ``/cancel`` in a chat (``game_id`` None: the chat's game)."""

    answer = Answer.GAME_CANCELLED
    person: Person
    is_admin: AdminCheck
    game_id: int | None = None
    chat_id: int = 0
    thread_id: int = 0


@dataclass(frozen=True, slots=True)
class Rematch(Command):
    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class StartSolo(Command):
    """A private game against ``opponents`` bot players, in one live message (``adopt_message``, if any)."""

    person: Person
    kind: str
    opponents: int
    level: Level
    options: dict[str, JSONValue] | None = None
    adopt_message: int | None = None


# --- play ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick(Command):
    """A tap on a card (or «🏁 Прикончить!»): its one move played, or what it can do shown."""

    game_id: int
    person: Person
    version: int
    card: str
    pressed: Pressed | None = None


@dataclass(frozen=True, slots=True)
class Back(Command):
    """«Another card»: the first tap forgotten."""

    game_id: int
    person: Person
    version: int
    pressed: Pressed | None = None


@dataclass(frozen=True, slots=True)
class Play(Command):
    """Play ``view.legal_actions[index]`` of the party at ``version``."""

    game_id: int
    person: Person
    version: int
    index: int
    pressed: Pressed | None = None


@dataclass(frozen=True, slots=True)
class TakeSeat(Command):
    """A player replaced by a bot player plays again."""

    answer = Answer.SEAT_TAKEN_BACK
    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class LeaveGame(Command):
    """``/leave``: the person's seat in the running game here (in private: in each) goes to a bot player."""

    chat_id: int
    thread_id: int
    person: Person


# --- looking again (nothing stored: the messages drawn anew) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowHand(Command):
    """«🃏 Мои карты»: the player's live message sent anew at the bottom of their chat."""

    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class HandsBack(Command):
    """/start, /play, /score in private: the hand of each running game (``solo_only``: the solo one) anew."""

    person: Person
    solo_only: bool = False


@dataclass(frozen=True, slots=True)
class ShowTable(Command):
    """«📋 Стол»: the whole table, privately (``game_id`` None: of every running game of the person)."""

    person: Person
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class ShowSheet(Command):
    """``/score`` and «📋 Запись»: the score sheet's picture anew below, in ``chat_id`` — of ``game_id``, else of
    the game open in that group chat (topic), or in a private chat of every running game of the person."""

    person: Person
    chat_id: int
    thread_id: int = 0
    game_id: int | None = None


@dataclass(frozen=True, slots=True)
class SendHistory(Command):
    """«📜 История»: a finished party as a text file, in the chat whose button was pressed."""

    person: Person
    game_id: int
    chat_id: int
    thread_id: int = 0


@dataclass(frozen=True, slots=True)
class Repost(Command):
    """``/score`` in a group: the table message again at the bottom of the chat."""

    chat_id: int
    thread_id: int


# --- people and chats ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen(Command):
    """A person as they are now (``started``: a private /start — the bot may write to them)."""

    person: Person
    started: bool = False


@dataclass(frozen=True, slots=True)
class Forbidden(Command):
    """The bot may not write to ``chat_id`` (a 403, or the person blocked it)."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class ChatClosed(Command):
    """The bot was removed from a group, or may not post there."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class ChatOpened(Command):
    """The bot is back in a group."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class TopicReopened(Command):
    chat_id: int
    thread_id: int


@dataclass(frozen=True, slots=True)
class ChatMoved(Command):
    """A group was upgraded to a supergroup."""

    old: int
    new: int


@dataclass(frozen=True, slots=True)
class EndAbandoned(Command):
    """The games nobody has moved in for ``idle_for`` seconds (the bot's clock) are closed, each chat told why."""

    idle_for: float


@dataclass(frozen=True, slots=True)
class Done:
    """What a command came to: the answer to its press, and the game it concerned (0: none)."""

    answer: Answer | None
    game_id: int = 0
    counted: int = 0
    """How many games it showed (a look at every running game)."""


AdminCheck = Callable[[int], Awaitable[bool]]
"""Whether the person administers the chat with this id (asked of Telegram, outside any game's lock)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Whether the person is a member of the chat with this id (likewise)."""


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    lobby_ttl: float = 1800.0
    turn_timeout: int = 60
    reminder_before: float = 15.0
    afk_strikes: int = 2
    bot_delay: float = 1.0
    game_seed: int | None = None
    default_target: int | None = None
    max_open_lobbies: int = 3
    """Lobbies one person may have open at once (across all groups)."""


@dataclass(frozen=True, slots=True)
class Person:
    """A Telegram user as the service needs them."""

    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None


class ServiceError(Exception):
    """A press or command the service refuses; ``reason`` is a views ``Answer`` or an engine reason enum."""

    def __init__(self, reason: enum.Enum, **params: object) -> None:
        super().__init__(f"{reason.value}")
        self.reason = reason
        self.params = params
