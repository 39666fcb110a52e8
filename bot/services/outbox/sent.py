"""What the outbox remembers of the messages it sent: the content Telegram last accepted for each live message,
which offer no moves, and when each paced message (a group's table) was last changed."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Final

from bot.storage import Database, LiveMessage, repo
from bot.storage.batch import Deferred

KNOWN_CACHED: Final = 5000
"""Live messages whose id and accepted content are kept in memory (the most recently used); the rest are read
from the database when needed."""
KEPT: Final = 5000
"""Messages remembered as offering no moves; the others, once replaced, are deleted at once. Also the most paced
messages remembered before the ones changed long ago are forgotten."""


class SentMessages:
    def __init__(self, paced_interval: float) -> None:
        self.paced_interval = paced_interval
        self._no_moves: OrderedDict[tuple[int, int], None] = OrderedDict()
        """(chat id, message id) of messages whose accepted content offers no moves: replaced, they may wait
        for a batch of deletions."""
        self._paced: dict[str, float] = {}
        """Clock time of the last call for each paced message."""

    def calling(self, slot: str, now: float) -> None:
        """A call for the paced message ``slot`` starts now: the next one waits ``paced_interval`` from here (a
        change asked for while this call is on its way too)."""
        self._paced[slot] = now
        if len(self._paced) > KEPT:
            self._paced = {s: t for s, t in self._paced.items() if t > now - self.paced_interval}

    def delivered(self, chat_id: int, message_id: int, *, offers_moves: bool) -> None:
        """Telegram accepted new content for a message: whether it offers moves (``offers_moves``)."""
        key = (chat_id, message_id)
        if offers_moves:
            self._no_moves.pop(key, None)
        else:
            self._no_moves[key] = None
            self._no_moves.move_to_end(key)
            while len(self._no_moves) > KEPT:
                self._no_moves.popitem(last=False)

    def offers_no_moves(self, chat_id: int, message_id: int) -> bool:
        """The message is known to offer no moves (unknown ones are taken to offer them)."""
        return (chat_id, message_id) in self._no_moves

    def forget(self, chat_id: int, message_ids: Iterable[int]) -> None:
        """The messages were deleted."""
        for message_id in message_ids:
            self._no_moves.pop((chat_id, message_id), None)

    def ready(self, slot: str, now: float) -> float:
        """The earliest clock time a paced message may be changed again."""
        last = self._paced.get(slot)
        return now if last is None else max(now, last + self.paced_interval)


class LiveMessages:
    """What Telegram last accepted for each live message: the most recently used in memory, all of them in the
    ``live_messages`` table. A new one is stored with the database's next transaction (several deliveries, one
    transaction): until then it is read from here."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.cache: OrderedDict[str, LiveMessage] = OrderedDict()
        self._unstored: Deferred[str, LiveMessage | None] = Deferred(db, repo.put_live)

    async def recall(self, slot: str) -> LiveMessage | None:
        """The live message ``slot`` as Telegram last accepted it, from memory or else from the database."""
        known = self.cache.get(slot)
        if known is not None:
            self.cache.move_to_end(slot)
            return known
        waiting = self._unstored.get(slot)
        if waiting is not None:
            return waiting[0]
        known = await repo.get_live(self.db, slot)
        if known is not None:
            self.keep(known)
        return known

    def keep(self, message: LiveMessage) -> None:
        self.cache[message.slot] = message
        self.cache.move_to_end(message.slot)
        while len(self.cache) > KNOWN_CACHED:
            self.cache.popitem(last=False)

    def remember(self, message: LiveMessage) -> None:
        self.keep(message)
        self._unstored.put(message.slot, message)

    def forget(self, slot: str) -> None:
        """The slot has no message any more."""
        self.cache.pop(slot, None)
        self._unstored.put(slot, None)

    async def with_prefix(self, prefix: str) -> list[LiveMessage]:
        """The live messages whose slot starts with ``prefix``."""
        found = {m.slot: m for m in await repo.live_with_prefix(self.db, prefix)}
        for slot, message in self._unstored.items():
            if not slot.startswith(prefix):
                continue
            if message is None:
                found.pop(slot, None)
            else:
                found[slot] = message
        return sorted(found.values(), key=lambda m: m.slot)
