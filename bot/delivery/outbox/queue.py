"""What waits to be sent to one chat, and how urgent it is."""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from aiogram.types import InlineKeyboardMarkup

from bot.storage import LiveMessage, Notice


class Priority(IntEnum):
    """Where people look first: the player to move, then one's own hand, then group tables, then clean-up."""

    TURN = 0
    """The next player's «ваш ход» (a hand sent anew: a notification)."""
    HAND = 1
    """A person's own hand or a reply in a private chat."""
    TABLE = 2
    """A group table or lobby: it coalesces and may lag."""
    CLEANUP = 3
    """Deleting old messages (in batches, see :data:`LAZY_BATCH`), unless the budget is short."""
    LOW = 4
    """Low stakes: a lobby, a reply to a command in a group. A burst of them (a thousand groups opening lobbies
    at once) waits behind the calls of games in play instead of holding up their next hand."""


HEADSTART: Final = {
    Priority.TURN: 0.0,
    Priority.HAND: 0.5,
    Priority.TABLE: 2.0,
    Priority.CLEANUP: 1.0,
    Priority.LOW: 60.0,
}
"""Clock seconds a call of each priority is served ahead of a less urgent one asked for at the same moment.

A table asked for 2 s before a hand goes first: every call keeps its place in the end, so no chat starves. A
low-stakes call waits behind every game's call asked less than a minute after it: a burst of 1,000 lobbies
(33 s of the bot's whole budget) is served in the time games leave unused, and none waits more than a minute
behind them."""
DELETE_BATCH: Final = 100
"""Message ids one ``deleteMessages`` call takes."""
DOOMED_KEPT: Final = 300
"""Old messages per chat still waiting to be deleted; older ones are left where they are."""
LAZY_BATCH: Final = 3
"""Old messages without move buttons (a hand replaced by the next turn's message) wait until this many of one
chat have gathered ..."""
LAZY_AGE: Final = 20.0
"""... or the oldest of them is this many clock seconds old, and then go in one ``deleteMessages``. In a
3-player party whose people think 1–3 s a player's turn comes about every 7 s: three old hands gather in
about 20 s, so a chat's clean-up costs one call every three turns instead of one a turn, and no more than two
old hands (their buttons — the table, the rules — still work) stay above the current one for long. An old
message that still offers moves is deleted at once (:meth:`ChatQueue.delete_later` ``urgent``)."""


def digest(text: str, markup: InlineKeyboardMarkup | None) -> str:
    """A fingerprint of a message's content: equal fingerprints need no edit."""
    payload = text + "\x00" + (markup.model_dump_json(exclude_none=True) if markup else "")
    return hashlib.blake2b(payload.encode(), digest_size=12).hexdigest()


def default_priority(chat_id: int, resend: bool = False) -> Priority:
    """Group chats get the table's priority; private chats the hand's, or a turn's for a message sent anew."""
    if chat_id < 0:
        return Priority.TABLE
    return Priority.TURN if resend else Priority.HAND


@dataclass(slots=True)
class Live:
    """The content a live message should show next."""

    slot: str
    chat_id: int
    thread_id: int
    text: str
    markup: InlineKeyboardMarkup | None
    resend: bool
    only_existing: bool = False
    """Update the message if it was ever sent; never send a new one."""
    offers_moves: bool = False
    """The content offers moves (a turn): once replaced, the message must go at once, not in a later batch."""
    paced: bool = False
    """At most one call per ``OutboxLimits.paced_interval`` (a group's table)."""
    _digest: str | None = None
    after: frozenset[int] = frozenset()
    """Notices (to other chats) that must have gone out first: a deal's result in the group before the hands
    of the next deal."""

    @property
    def digest(self) -> str:
        """The content's fingerprint, computed once per content (it is compared and stored several times)."""
        if self._digest is None:
            self._digest = digest(self.text, self.markup)
        return self._digest

    def change(self, text: str, markup: InlineKeyboardMarkup | None) -> None:
        """Newer content for the same message."""
        self.text, self.markup, self._digest = text, markup, None

    def needs_call(self, known: LiveMessage | None) -> bool:
        """Telegram shows something else (``known``: what it last accepted for this slot), or nothing yet."""
        if known is None:
            return not self.only_existing
        return self.resend or known.chat_id != self.chat_id or known.digest != self.digest


Item = Live | Notice


@dataclass(slots=True)
class ChatQueue:
    """One chat's pending calls, in the order they were asked for, and the chat's place in line."""

    chat_id: int
    order: deque[str | int] = field(default_factory=deque)
    """Slots (str) of live messages and ids (int) of notices, in the order they were asked for."""
    lives: dict[str, Live] = field(default_factory=dict)
    notices: dict[int, Notice] = field(default_factory=dict)
    asked: dict[str | int, tuple[float, Priority]] = field(default_factory=dict)
    """When each pending item was first asked for (clock time), and how urgent it is."""
    to_delete: list[int] = field(default_factory=list)
    """Ids of old messages to delete (replaced turn messages), oldest first."""
    deletions_since: float = 0.0
    """Clock time the oldest of them was to_delete ..."""
    urgent_since: float | None = None
    """... and the time one that may not wait for a batch was (see :data:`LAZY_BATCH`), if any."""
    served: float = 0.0
    """Clock time of the chat's last call."""
    busy: bool = False
    """A call to this chat is on its way ..."""
    flying: str | None = None
    """... and this is the slot it changes, if any."""
    retry_at: float = 0.0
    """No call before this clock time (a failure's back-off, a 429)."""
    failures: int = 0
    """Failed calls in a row (network, timeout, 5xx): how long the chat waits before the next try."""

    def __bool__(self) -> bool:
        return bool(self.order or self.to_delete)

    @property
    def has_items(self) -> bool:
        return bool(self.order)

    def add(self, key: str | int, now: float, priority: Priority, ready: float = 0.0) -> None:
        """Queue ``key`` (its content is already in ``lives`` or ``notices``), or make it more urgent;
        ``ready``: not before this clock time (a paced message)."""
        asked = self.asked.get(key)
        if asked is not None:
            self.asked[key] = (min(asked[0], max(now, ready)), min(asked[1], priority))
            return
        self.order.append(key)
        self.asked[key] = (max(now, ready), priority)

    def next_key(self, now: float) -> str | int | None:
        """The first pending item whose time has come (a paced table's may be later, see ``add``)."""
        for key in self.order:
            if self.asked[key][0] <= now:
                return key
        return None

    def next_time(self) -> float:
        """The clock time the earliest pending item may go."""
        return min(asked for asked, _ in self.asked.values())

    def is_held(self, key: str | int, unsent: set[int]) -> bool:
        """The next call waits: the live message ``key`` needs a notice still unsent elsewhere."""
        return bool(unsent) and isinstance(key, str) and not self.lives[key].after.isdisjoint(unsent)

    def behind_notices(self, key: str) -> None:
        """New content of the pending ``key`` must not go out before a notice queued after it was (a deal's
        result before the next deal's table): ``key`` moves to the back of the line, keeping its asked time."""
        if key not in self.asked:
            return
        position = self.order.index(key)
        if any(isinstance(k, int) for k in list(self.order)[position + 1 :]):
            del self.order[position]
            self.order.append(key)

    def pop(self, key: str | int) -> tuple[Item, tuple[float, Priority]]:
        self.order.remove(key)
        asked = self.asked.pop(key)
        item: Item = self.lives.pop(key) if isinstance(key, str) else self.notices.pop(key)
        return item, asked

    def discard(self, key: str) -> None:
        """Forget a pending live message (it needs no call any more)."""
        self.lives.pop(key, None)
        if self.asked.pop(key, None) is not None:
            self.order.remove(key)

    def put_back(self, item: Item, asked: tuple[float, Priority]) -> None:
        """A call that must be tried again goes first in the chat's line, unless newer content replaced it."""
        if isinstance(item, Notice):
            self.notices[item.id] = item
            self.order.appendleft(item.id)
            self.asked[item.id] = asked
            return
        newer = self.lives.get(item.slot)
        if newer is not None:
            newer.resend = (
                newer.resend or item.resend
            )  # newer content replaces the refused one, sent anew still
        else:
            self.lives[item.slot] = item
            self.order.appendleft(item.slot)
            self.asked[item.slot] = asked

    def delete_later(self, message_id: int, now: float, *, urgent: bool = True) -> None:
        """Delete this old message: soon if ``urgent`` (it offers moves, or its turn is over), else with the
        chat's next batch."""
        if not self.to_delete:
            self.deletions_since = now
        self.to_delete.append(message_id)
        del self.to_delete[:-DOOMED_KEPT]
        if urgent and self.urgent_since is None:
            self.urgent_since = now

    def hurry_deletions(self, now: float) -> None:
        """Delete the old messages waiting for a batch soon (a deal or the party is over), and those the calls
        already queued replace."""
        if self.urgent_since is None:
            self.urgent_since = now

    def deletions_due(self) -> float:
        """The clock time the old messages should go: at once when urgent or a batch has gathered, else once the
        oldest is :data:`LAZY_AGE` old."""
        if self.urgent_since is not None:
            return self.urgent_since
        if len(self.to_delete) >= LAZY_BATCH:
            return self.deletions_since
        return self.deletions_since + LAZY_AGE

    def take_deletions(self, now: float) -> list[int]:
        batch, self.to_delete = self.to_delete[:DELETE_BATCH], self.to_delete[DELETE_BATCH:]
        if self.to_delete:
            self.deletions_since = now
        else:
            self.urgent_since = None
        return batch

    def clear(self) -> None:
        self.order.clear()
        self.lives.clear()
        self.notices.clear()
        self.asked.clear()
        self.to_delete.clear()
        self.urgent_since = None

    def rank(self, served: float) -> float:
        """The chat's place in the bot's line: its most urgent call, none earlier than the chat's last service.

        Every call a chat makes sends it to the back of the line among equals: round-robin between chats."""
        if self.asked:
            return min(max(asked, served) + HEADSTART[priority] for asked, priority in self.asked.values())
        return max(self.deletions_due(), served) + HEADSTART[Priority.CLEANUP]
