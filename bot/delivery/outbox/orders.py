"""What the drawing hands the outbox: each an order about one chat's messages, applied in turn
(:meth:`~bot.delivery.outbox.core.Outbox.deliver`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup, InlineQueryResultArticle

from bot.delivery.outbox.queue import Media, Priority
from bot.storage import Notice


@dataclass(frozen=True, slots=True)
class Show:
    """The live message ``slot`` should now read ``text`` (see :meth:`Outbox.show` for the rest)."""

    slot: str
    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    thread_id: int = 0
    resend: bool = False
    only_existing: bool = False
    priority: Priority | None = None
    after: tuple[int, ...] = ()
    paced: bool = False
    media: Media | None = None
    asker: int = 0
    """The member whose question it answers (with :attr:`Priority.ASKED`: answered in turn with the others) ..."""
    question: int = 0
    """... and the message that asked it: marked as coming if the answer waits (0: none)."""


@dataclass(frozen=True, slots=True)
class Post:
    """Notices stored with the change that caused them, drawn: they go out."""

    notices: tuple[Notice, ...]
    priority: Priority | None = None


@dataclass(frozen=True, slots=True)
class Drop:
    """The live message ``slot`` is no longer wanted (a reminder once its turn is over)."""

    slot: str
    chat_id: int


@dataclass(frozen=True, slots=True)
class Hurry:
    """A deal or the party is over: the chat's old messages that wait for a batch go soon."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class Adopt:
    """An existing message becomes the live message ``slot``: the one whose button started a solo game, a rules
    page or a setup screen turned in place (``newer_only``: a hand pressed that the bot never recorded sending —
    adopted only if it is newer than the one known, which is then deleted)."""

    slot: str
    chat_id: int
    message_id: int
    newer_only: bool = False


@dataclass(frozen=True, slots=True)
class DeleteStray:
    """A press came too late from ``message_id``: if it is not the live message ``slot`` (which shows the present
    anyway), it is a dead keyboard the bot lost track of, and it goes."""

    slot: str
    chat_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class Reply:
    """A one-off message: a reply to a command (stored, then sent within the chat's limits)."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    thread_id: int = 0
    priority: Priority | None = None
    asker: int = 0
    """The member whose question it answers (with :attr:`Priority.ASKED`: answered in turn with the others) ..."""
    question: int = 0
    """... and the message that asked it: marked as coming if the answer waits (0: none)."""


@dataclass(frozen=True, slots=True)
class AnswerPress:
    """The answer to a pressed button: a short text (or none), an alert, or a link Telegram opens."""

    query_id: str
    text: str | None = None
    alert: bool = False
    url: str | None = None


@dataclass(frozen=True, slots=True)
class AnswerInline:
    """The answer to an inline query («@bot ералаш»): the results to pick from, kept by Telegram ``cache_time``
    seconds (``personal``: for the asker only — they are in the asker's language)."""

    query_id: str
    results: tuple[InlineQueryResultArticle, ...]
    cache_time: int
    personal: bool = True


@dataclass(frozen=True, slots=True)
class Coming:
    """A member's question in a group waits its turn: the message that asked it is marked as coming (the bot's
    reaction on it: no message of the group's minute), once however often it is marked."""

    chat_id: int
    message_id: int


Order = Show | Post | Drop | Hurry | Adopt | DeleteStray | Reply | AnswerPress | AnswerInline | Coming
Orders = Iterable[Order]
