"""What the outbox reports back about chats, for the game flow to act on: it never calls up into the flow.

The outbox puts each report on its :attr:`~bot.delivery.outbox.core.Outbox.reports` queue; the game service
takes them one by one (:meth:`bot.flow.service.GameService.follow`) and handles each like any other change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChatForbidden:
    """Telegram refused a call to this chat with 403: a person who never opened the bot or blocked it, or a
    group the bot may not post in."""

    chat_id: int


@dataclass(frozen=True, slots=True)
class ChatMigrated:
    """A call found that group ``old`` was upgraded to supergroup ``new``."""

    old: int
    new: int


DeliveryReport = ChatForbidden | ChatMigrated
