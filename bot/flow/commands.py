"""Commands: every change of a game (or look at one) that a handler, a game's timer or the outbox asks for, as
one typed value; and what a decision comes to — its events (:class:`Decided`) or a refusal that changes nothing
(:class:`Refusal`).

A handler turns its update into a command; the pipeline loads what the command's decision needs, calls the
decision (a pure function of this package), stores the events, and has them drawn. ``answer`` is what a press is
answered when the decision says nothing else."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from bot.model.answers import Answer
from bot.model.game import Event, LobbyScreen, Person, Seat
from engine.ai import Level
from engine.core import IllegalActionError, JSONValue


class Command:
    """What every command has: the answer to its press when the decision gives none."""

    answer: ClassVar[Answer | None] = None


@dataclass(frozen=True, slots=True)
class Decided:
    """What a command did: its events (none: it changed nothing, as a look at a game) and the press's answer."""

    events: tuple[Event, ...] = ()
    answer: Answer | None = None


@dataclass(frozen=True, slots=True)
class Refusal:
    """A command refused: nothing changed. ``reason`` is an :class:`Answer` or an engine's reason (``cause``: the
    engine's refusal, whose cards the answer names)."""

    reason: enum.Enum
    params: Mapping[str, object] = field(default_factory=dict)
    cause: IllegalActionError | None = None

    @classmethod
    def of(cls, error: IllegalActionError) -> Refusal:
        """The engine's refusal of a move, in its own words."""
        return cls(error.reason, error.params, error)


Decision = Decided | Refusal


@dataclass(frozen=True, slots=True)
class FlowConfig:
    """The settings the flow's decisions follow."""

    lobby_ttl: float = 1800.0
    turn_timeout: int = 60
    reminder_before: float = 15.0
    afk_strikes: int = 2
    bot_delay: float = 1.0
    game_seed: int | None = None
    default_target: int | None = None
    max_open_lobbies: int = 3
    """Lobbies one person may have open at once (across all groups)."""


# --- the lobby -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenLobby(Command):
    """A game's command (or /new's choice) in a group: its lobby (``options`` None: the game's defaults). A
    rematch's lobby has the last party's ``seats``, its ``host`` and its ``turn_timeout``."""

    chat_id: int
    thread_id: int
    creator: Person
    kind: str
    options: dict[str, JSONValue] | None = None
    seats: tuple[Seat, ...] = ()
    host: int | None = None
    turn_timeout: int | None = None


@dataclass(frozen=True, slots=True)
class Join(Command):
    """``/start j_<game>`` in private: a seat in the lobby (only for a member of the lobby's group)."""

    answer = Answer.JOINED
    game_id: int
    person: Person


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
    game_id: int | None = None
    chat_id: int = 0
    thread_id: int = 0


@dataclass(frozen=True, slots=True)
class Rematch(Command):
    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class StartSolo(Command):
    """A private game against ``opponents`` bot players at ``level`` (``options`` None: the game's defaults)."""

    person: Person
    kind: str
    opponents: int
    level: Level
    options: dict[str, JSONValue] | None = None


# --- play ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pick(Command):
    """A tap on a card (or «🏁 Прикончить!»): its one move played, or what it can do shown."""

    game_id: int
    person: Person
    version: int
    card: str


@dataclass(frozen=True, slots=True)
class Back(Command):
    """«Другая карта»: the first tap forgotten."""

    game_id: int
    person: Person
    version: int


@dataclass(frozen=True, slots=True)
class Play(Command):
    """Play ``view.legal_actions[index]`` of the party at ``version``."""

    game_id: int
    person: Person
    version: int
    index: int


@dataclass(frozen=True, slots=True)
class TakeSeat(Command):
    """A player replaced by a bot player plays again (the press is answered with no words: their chat's notice
    says it)."""

    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class LeaveGame(Command):
    """``/leave``: the person's seat in the running game here (in private: in each) goes to a bot player."""

    chat_id: int
    thread_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class BotMove(Command):
    """A game's timer: the bot moves for ``seat`` of the party at ``version`` — a bot player's choice, or the move
    «любитель» would make for a person whose time ran out (``action``: the engine's action chosen)."""

    game_id: int
    version: int
    seat: int
    action: object


@dataclass(frozen=True, slots=True)
class Remind(Command):
    """A game's timer: the person to move is reminded that their time runs out."""

    game_id: int


@dataclass(frozen=True, slots=True)
class Expire(Command):
    """A game's timer: the lobby nobody started is closed."""

    game_id: int


# --- looking again (nothing stored: the messages drawn anew) -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowHand(Command):
    """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of their chat."""

    game_id: int
    person: Person


@dataclass(frozen=True, slots=True)
class HandsBack(Command):
    """/start, /score in private: the hand of each running game (``solo_only``: the solo one) anew."""

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
    """``/score text`` in a group: the table message again at the bottom of the chat."""

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
