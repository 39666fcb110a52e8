"""Incoming throttling: too many commands or presses from one person or in one chat are refused, not queued.

A refused press is answered «Секунду…» (answering a press costs no message); a refused command gets the same
word as a message at most once per window and per chat, and after that nothing — so a burst of ``/score``,
``/rules``, ``/stats`` and ``/top`` in a group produces a few answers and one «Секунду…», not a message each.
Nothing refused reaches a handler, so it costs no database work either.

Windows run on the bot's :class:`Clock` and are forgotten once empty, so memory follows the active users and
chats, not all that were ever seen.
"""

from __future__ import annotations

import enum
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject

from bot.i18n import translator_for
from bot.services.clock import Clock
from bot.services.outbox import Outbox, is_group
from bot.services.presses import answer_press
from bot.views import Answer, answer_text

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Rate:
    """At most ``count`` events in any ``seconds`` (of the bot's clock)."""

    count: int
    seconds: float


@dataclass(frozen=True, slots=True)
class ThrottleLimits:
    press_per_user: Rate = Rate(6, 3.0)
    """A move is two taps; a quick player taps a few moves ahead at most."""
    press_per_group: Rate = Rate(20, 10.0)
    """Lobby buttons of one group (join, add a bot, the options), all players together."""
    command_per_user: Rate = Rate(3, 10.0)
    command_per_group: Rate = Rate(5, 30.0)
    """Every command answered in a group is a message there; Telegram allows a group ~20 a minute."""


class Kind(enum.StrEnum):
    PRESS_USER = "press/user"
    PRESS_GROUP = "press/group"
    COMMAND_USER = "command/user"
    COMMAND_GROUP = "command/group"


Key = tuple[Kind, int]

SWEEP_EVERY: Final = 60.0
"""Seconds of the bot's clock between two sweeps of the empty windows."""


class Windows:
    """Sliding windows of recent events, one per key, forgotten once they are empty."""

    def __init__(self) -> None:
        self._stamps: dict[Key, deque[float]] = {}
        self._lengths: dict[Key, float] = {}
        self._swept = 0.0

    def __len__(self) -> int:
        return len(self._stamps)

    def has_room(self, key: Key, rate: Rate, now: float) -> bool:
        stamps = self._stamps.get(key)
        if stamps is None:
            return rate.count > 0
        while stamps and stamps[0] <= now - rate.seconds:
            stamps.popleft()
        return len(stamps) < rate.count

    def take(self, key: Key, rate: Rate, now: float) -> None:
        self._stamps.setdefault(key, deque()).append(now)
        self._lengths[key] = rate.seconds

    def sweep(self, now: float) -> None:
        """Forget the windows whose every event is older than their length."""
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for key in [k for k, s in self._stamps.items() if not s or s[-1] <= now - self._lengths[k]]:
            del self._stamps[key]
            del self._lengths[key]


class ThrottleMiddleware(BaseMiddleware):
    """An outer middleware for ``message`` and ``callback_query``: refuses what comes too fast."""

    def __init__(self, outbox: Outbox, clock: Clock, limits: ThrottleLimits | None = None) -> None:
        self.outbox = outbox
        self.clock = clock
        self.limits = limits or ThrottleLimits()
        self.windows = Windows()
        self._told = Windows()
        """When each chat was last told «Секунду…» about its commands (one message per window)."""
        self.refused = 0

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        now = self.clock.now()
        self.windows.sweep(now)
        self._told.sweep(now)
        if isinstance(event, CallbackQuery):
            chat_id = event.message.chat.id if event.message else None
            keys = self._keys(event.from_user.id, chat_id, press=True)
            if self._admit(keys, now):
                return await handler(event, data)
            await self._refuse_press(event)
            return None
        if isinstance(event, Message) and event.text and event.text.startswith("/") and event.from_user:
            keys = self._keys(event.from_user.id, event.chat.id, press=False)
            if self._admit(keys, now):
                return await handler(event, data)
            await self._refuse_command(event, keys[-1], now)
            return None
        return await handler(event, data)

    def _keys(self, user_id: int, chat_id: int | None, *, press: bool) -> list[tuple[Key, Rate]]:
        limits = self.limits
        if press:
            keys = [((Kind.PRESS_USER, user_id), limits.press_per_user)]
            if chat_id is not None and is_group(chat_id):
                keys.append(((Kind.PRESS_GROUP, chat_id), limits.press_per_group))
        else:
            keys = [((Kind.COMMAND_USER, user_id), limits.command_per_user)]
            if is_group(chat_id or 0):
                assert chat_id is not None
                keys.append(((Kind.COMMAND_GROUP, chat_id), limits.command_per_group))
        return keys

    def _admit(self, keys: list[tuple[Key, Rate]], now: float) -> bool:
        if not all(self.windows.has_room(key, rate, now) for key, rate in keys):
            self.refused += 1
            return False
        for key, rate in keys:
            self.windows.take(key, rate, now)
        return True

    async def _refuse_press(self, callback: CallbackQuery) -> None:
        log.debug("press from user %d refused: too fast", callback.from_user.id)
        text = answer_text(Answer.TOO_FAST, translator_for(callback.from_user.language_code))
        answer_press(
            callback, text
        )  # in the background: a refused press holds no place while the network waits

    async def _refuse_command(self, message: Message, key: tuple[Key, Rate], now: float) -> None:
        told = (Kind.COMMAND_GROUP if is_group(message.chat.id) else Kind.COMMAND_USER, message.chat.id)
        rate = key[1]
        if not self._told.has_room(told, Rate(1, rate.seconds), now):
            return
        self._told.take(told, rate, now)
        log.info(
            "commands in chat %d come too fast: refusing them for up to %g s", message.chat.id, rate.seconds
        )
        tr = translator_for(message.from_user.language_code if message.from_user else None)
        thread_id = message.message_thread_id if message.is_topic_message and message.message_thread_id else 0
        await self.outbox.say(message.chat.id, answer_text(Answer.TOO_FAST, tr), thread_id=thread_id)
