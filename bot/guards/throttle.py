"""Incoming throttling: per person first, per group only against a real flood; a private question waits its turn.

* **In a private chat** a question is never dropped: a command (or any message) beyond the person's window waits
  until the window has room, in order of arrival, for up to :data:`MAX_WAIT` seconds of the bot's clock — five
  rules questions in ten seconds get five answers, the last ones a little later. Only beyond that (a person
  pasting dozens of commands) is one told, once per window, to ask again a little later.
* **In a group** the group's own window (every answer there is a message of the group's ~20 a minute) never
  refuses anyone: a command beyond it waits its turn, up to :data:`GROUP_MAX_WAIT`, and a person whose own window
  is empty does not wait at all. A question asked again while its twin waits (the same ``/rules`` words, ``/help``,
  ``/score``, ``/top`` by anyone; any other command by the same person) is answered by that twin's answer. A
  question that waits (:data:`SAY_WAIT_AFTER` or longer), or whose twin waits, is marked as coming, once: the
  bot's reaction on the message that asked. Its asker is told, and none of the group's 20 messages a minute goes
  on saying so (a «Секунду…» note in the chat cost a message, and its deletion, every time it went up again).
  Only a member beyond their own window (spamming ``/help``) is refused, told once per window by a note that goes
  away after it: one member's spam slows down that member alone.
* **A press** beyond the window is answered «Секунду…» (answering a press costs no message), with the same
  fairness in groups.

Nothing refused reaches a handler, so it costs no database work either. Windows run on the bot's :class:`Clock`
and are forgotten once empty, so memory follows the active users and chats, not all that were ever seen.
"""

from __future__ import annotations

import bisect
import enum
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject

from bot.clock import Clock
from bot.guards.updates import PLACE, Place
from bot.i18n import translator_for
from bot.model.answers import Answer
from bot.pipeline.service import Pipeline

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
    """In a group: refused beyond it. In private: the pace answers go out at (a queue, see :data:`MAX_WAIT`)."""
    command_per_group: Rate = Rate(5, 30.0)
    """Every command answered in a group is a message there; Telegram allows a group ~20 a minute. Beyond it a
    command waits (see :data:`GROUP_MAX_WAIT`); it applies only to people who have already sent something within
    their own window."""


class Kind(enum.StrEnum):
    PRESS_USER = "press/user"
    PRESS_GROUP = "press/group"
    COMMAND_USER = "command/user"
    COMMAND_PRIVATE = "command/private"
    """A person's questions in their private chat: a window apart from their commands in groups."""
    COMMAND_GROUP = "command/group"
    PAGE_USER = "page/user"
    """A person's calls to the Mini App's server (``bot.webapp.server``)."""


Key = tuple[Kind, int]
Spot = tuple[int, int]
"""A chat and a topic in it (0: none)."""
Twin = tuple[int, int, int, str]
"""What a group question asks: its chat, its topic, who asks (0 for :data:`CHAT_WIDE` commands) and its words."""

MAX_WAIT: Final = 20.0
"""Seconds (bot's clock) a private question may wait for its turn; later ones are refused with a word."""
MAX_WAITING_PER_PERSON: Final = 8
"""Questions of one person waiting at once (the window allows about six within :data:`MAX_WAIT`)."""
MAX_WAITING: Final = 1_000
"""Questions waiting at once over all private chats: a safety bound far above one person's. A waiting question
sets its place among the updates in flight aside (it costs a task, not a place), and a person's first question
(their window empty) never waits, so it is never refused because of anyone else."""
GROUP_MAX_WAIT: Final = 60.0
"""Seconds (bot's clock) a group's command may wait for the group's window: two windows, so a crowd of a dozen
people asking at once is answered within a minute; only beyond that is the chat told to ask again later."""
SAY_WAIT_AFTER: Final = 3.0
"""A command that waits this long or longer is marked as coming (a shorter wait passes unnoticed)."""
CHAT_WIDE: Final = frozenset({"help", "rules", "score", "top"})
"""Commands whose answer in a group is the same whoever asks: a twin waiting for its turn answers them all."""
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
        stamps = self._stamps.setdefault(key, deque())
        if stamps and stamps[-1] > now:  # times reserved ahead (waiting events): keep the stamps in order
            stamps.insert(bisect.bisect_right(stamps, now), now)
        else:
            stamps.append(now)
        self._lengths[key] = rate.seconds

    def is_empty(self, key: Key, rate: Rate, now: float) -> bool:
        """No event of ``key`` within the window (someone who has sent nothing lately)."""
        return self.has_room(key, Rate(1, rate.seconds), now)

    def reserve(self, key: Key, rate: Rate, now: float, max_wait: float) -> float | None:
        """The earliest time, ``now`` or later, an event of ``key`` fits the window, taken for it; None (nothing
        taken) when that is more than ``max_wait`` away. Times taken are in order, so events wait in turn."""
        stamps = self._stamps.setdefault(key, deque())
        self._lengths[key] = rate.seconds
        while stamps and stamps[0] <= now - rate.seconds:
            stamps.popleft()
        if rate.count <= 0:
            return None
        at = now if len(stamps) < rate.count else max(now, stamps[-rate.count] + rate.seconds)
        if at - now > max_wait:
            return None
        stamps.append(at)
        return at

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

    def __init__(self, pipeline: Pipeline, clock: Clock, limits: ThrottleLimits | None = None) -> None:
        self.pipeline = pipeline
        self.clock = clock
        self.limits = limits or ThrottleLimits()
        self.windows = Windows()
        self._told = Windows()
        """When each chat was last told about its commands coming too fast (one message per window)."""
        self.refused = 0
        self.delayed = 0
        """Private questions answered later rather than refused."""
        self.merged = 0
        """Group questions answered by a waiting twin's answer."""
        self.waiting = 0
        self._waiting_of: dict[int, int] = {}
        """Questions waiting, per person (only those who have some)."""
        self._twins: Counter[Twin] = Counter()
        """Group questions waiting, by what they ask."""
        self._notes: dict[Spot, float] = {}
        """Chats showing a note to a spammer, with when the note goes."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        now = self.clock.now()
        self.windows.sweep(now)
        self._told.sweep(now)
        if self._notes:
            await self._take_notes_down(now)
        limits = self.limits
        if isinstance(event, CallbackQuery):
            chat_id = event.message.chat.id if event.message else 0
            user_key = ((Kind.PRESS_USER, event.from_user.id), limits.press_per_user)
            group_key = ((Kind.PRESS_GROUP, chat_id), limits.press_per_group) if _is_group(chat_id) else None
            if self._admit(user_key, group_key, now):
                return await handler(event, data)
            await self._refuse_press(event)
            return None
        if not isinstance(event, Message) or event.from_user is None:
            return await handler(event, data)
        if _is_group(event.chat.id):
            if not (event.text or "").startswith("/"):
                return await handler(event, data)
            return await self._group_command(handler, event, data, now)
        if event.chat.id != event.from_user.id:
            return await handler(event, data)  # a channel or a chat of another kind: not ours to pace
        user_id = event.from_user.id
        user_key = ((Kind.COMMAND_PRIVATE, user_id), limits.command_per_user)
        room = self.windows.has_room(*user_key, now)
        queue_full = self._waiting_of.get(user_id, 0) >= MAX_WAITING_PER_PERSON or self.waiting >= MAX_WAITING
        at = self.windows.reserve(*user_key, now, MAX_WAIT) if room or not queue_full else None
        if at is None:
            self.refused += 1
            await self._refuse_command(event, user_key[1], Answer.TOO_MANY, now)
            return None
        if at > now:
            self.delayed += 1
            await self._wait(user_id, at - now, data.get(PLACE))
        return await handler(event, data)

    async def _group_command(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        message: Message,
        data: dict[str, Any],
        now: float,
    ) -> Any:
        """A command in a group: refused only beyond its sender's own window; else answered now, or after the
        group's window has room, or by a waiting twin's answer."""
        assert message.from_user is not None
        limits, windows = self.limits, self.windows
        user_key: Key = (Kind.COMMAND_USER, message.from_user.id)
        spot: Spot = (message.chat.id, _thread_of(message))
        if not windows.has_room(user_key, limits.command_per_user, now):
            self.refused += 1
            await self._refuse_command(message, limits.command_per_user, Answer.TOO_MANY, now)
            return None
        fresh = windows.is_empty(user_key, limits.command_per_user, now)
        windows.take(user_key, limits.command_per_user, now)
        group_key: Key = (Kind.COMMAND_GROUP, message.chat.id)
        if fresh:
            windows.take(group_key, limits.command_per_group, now)
            return await handler(message, data)
        twin = _twin_of(message, spot)
        if self._twins[twin]:
            self.merged += 1
            log.info("a command in chat %d waits already: its answer serves this one too", message.chat.id)
            await self.pipeline.coming(message.chat.id, message.message_id)
            return None
        at = windows.reserve(group_key, limits.command_per_group, now, GROUP_MAX_WAIT)
        if at is None:
            self.refused += 1
            await self._refuse_command(message, limits.command_per_group, Answer.TOO_MANY, now)
            return None
        if at == now:
            return await handler(message, data)
        self.delayed += 1
        self._twins[twin] += 1
        try:
            if at - now >= SAY_WAIT_AFTER:
                await self.pipeline.coming(message.chat.id, message.message_id)
            await self._wait(message.from_user.id, at - now, data.get(PLACE))
        finally:
            self._twins[twin] -= 1
            if not self._twins[twin]:
                del self._twins[twin]
        return await handler(message, data)

    async def _put_note(self, spot: Spot, answer: Answer, message: Message, until: float) -> None:
        """The chat's one throttle note (its live message) reads ``answer`` until ``until``, then goes."""
        tr = translator_for(message.from_user.language_code if message.from_user else None)
        await self.pipeline.note(*spot, answer, tr)
        self._notes[spot] = until

    async def _take_notes_down(self, now: float) -> None:
        """Delete the throttle notes whose time is over (checked as the chat's next update comes)."""
        for spot in [s for s, until in self._notes.items() if until <= now]:
            del self._notes[spot]
            await self.pipeline.note_gone(*spot)

    async def _wait(self, user_id: int, seconds: float, place: Place | None) -> None:
        """A private question waits its turn, its place among the updates in flight set aside meanwhile."""
        self.waiting += 1
        self._waiting_of[user_id] = self._waiting_of.get(user_id, 0) + 1
        try:
            if place is None:
                await self.clock.sleep(seconds)
            else:
                async with place.set_aside():
                    await self.clock.sleep(seconds)
        finally:
            self.waiting -= 1
            left = self._waiting_of.pop(user_id) - 1
            if left:
                self._waiting_of[user_id] = left

    def _admit(self, user: tuple[Key, Rate], group: tuple[Key, Rate] | None, now: float) -> bool:
        """The person's own window first; the group's only for someone who has sent something lately."""
        windows = self.windows
        fresh = windows.is_empty(*user, now)
        if not windows.has_room(*user, now) or (
            group is not None and not fresh and not windows.has_room(*group, now)
        ):
            self.refused += 1
            return False
        windows.take(*user, now)
        if group is not None:
            windows.take(*group, now)
        return True

    async def _refuse_press(self, callback: CallbackQuery) -> None:
        log.debug("press from user %d refused: too fast", callback.from_user.id)
        # answered in the background: a refused press holds no place while the network waits
        await self.pipeline.answer(
            callback.id, Answer.TOO_FAST, translator_for(callback.from_user.language_code)
        )

    async def _refuse_command(self, message: Message, rate: Rate, answer: Answer, now: float) -> None:
        told = (Kind.COMMAND_GROUP if _is_group(message.chat.id) else Kind.COMMAND_USER, message.chat.id)
        if not self._told.has_room(told, Rate(1, rate.seconds), now):
            return
        self._told.take(told, rate, now)
        log.info("commands in chat %d come too fast: one refused", message.chat.id)
        if _is_group(message.chat.id):
            spot = (message.chat.id, _thread_of(message))
            if spot not in self._notes:
                await self._put_note(spot, answer, message, now + rate.seconds)
            return
        tr = translator_for(message.from_user.language_code if message.from_user else None)
        await self.pipeline.tell(message.chat.id, 0, answer, tr)


def _thread_of(message: Message) -> int:
    return message.message_thread_id if message.is_topic_message and message.message_thread_id else 0


def _twin_of(message: Message, spot: Spot) -> Twin:
    """What ``message`` asks, so that the same question waiting twice is answered once."""
    head, _, words = (message.text or "").partition(" ")
    name = head.removeprefix("/").partition("@")[0].lower()
    who = 0 if name in CHAT_WIDE or message.from_user is None else message.from_user.id
    return (*spot, who, " ".join([name, *words.lower().split()]))


def _is_group(chat_id: int) -> bool:
    return chat_id < 0
