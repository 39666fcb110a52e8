"""What waits to be sent to one chat, and how urgent it is; and what the outbox remembers of the messages it
sent (:class:`SentMessages`, :class:`LiveMessages`): the content Telegram last accepted for each live message,
which offer no moves, and when each paced message (a group's table) was last changed."""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Final

from aiogram.types import InlineKeyboardMarkup

from bot.storage import Database, LiveMessage, Notice
from bot.storage import repo as stored
from bot.storage.tx import Deferred, Journal
from bot.views.sheets import Drawn
from engine.core import JSONValue


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
    """Low stakes: a lobby. A burst of them (a thousand groups opening lobbies at once) waits behind the calls of
    games in play instead of holding up their next hand."""
    ASKED = 5
    """An answer to what a member asked in a group (a command's reply, their rules message, the throttle's note):
    as low as a lobby among chats, and in its own group behind every message of the group's games, within the
    share of the group's minute the games leave (:meth:`ChatQueue.kept_for_games`); the members who asked are
    answered in turn, so one member's questions wait behind that member's own, not the group's."""


HEADSTART: Final = {
    Priority.TURN: 0.0,
    Priority.HAND: 0.5,
    Priority.TABLE: 2.0,
    Priority.CLEANUP: 1.0,
    Priority.LOW: 60.0,
    Priority.ASKED: 60.0,
}
"""Clock seconds a call of each priority is served ahead of a less urgent one asked for at the same moment.

A table asked for 2 s before a hand goes first: every call keeps its place in the end, so no chat starves. A
low-stakes call waits behind every game's call asked less than a minute after it: a burst of 1,000 lobbies
(33 s of the bot's whole budget) is served in the time games leave unused, and none waits more than a minute
behind them."""
KEPT_FOR_GAMES: Final = 6
"""Places of a group's minute (20) answers to its members leave free beyond their own share: however much its
members ask, the group's games have these for their deal ends and lobbies ..."""
KEPT_WHILE_PLAYING: Final = 14
"""... and these while a table of the group is changing (a paced call within :data:`PLAYING_FOR`): a paced table
takes 12 a minute, and a deal's end two more, so answers beyond their share would take the table's places (the
table then waited for the whole minute to pass: 12.5 s with forty members' ``/rules`` waiting) ..."""
PLAYING_FOR: Final = 60.0
"""Clock seconds a group counts as playing after its last paced call (a table's change)."""
ANSWERS_SHARE: Final = 6
"""... and the answers' own share: this many a minute go whatever the games take (the window permitting), so a
busy game does not silence its group either."""
ANSWERS_WINDOW: Final = 60.0
"""Clock seconds over which the answers' share is counted."""
COMING_AFTER: Final = 3.0
"""Clock seconds an answer to a member may wait in its group's queue before the question is marked as coming (a
shorter wait passes unnoticed; the incoming throttle marks after as long, see ``guards.throttle``)."""
ASKERS_KEPT: Final = 64
"""Askers of one chat whose last answer is remembered before those with nothing waiting are forgotten."""
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


@dataclass(frozen=True, slots=True)
class SheetPhoto:
    """A live message that is a photo: the score sheet drawn (off the loop, once per content) when it goes out;
    its text is the caption."""

    sheet: Drawn


@dataclass(frozen=True, slots=True)
class TextFile:
    """A live message that is a document: a text file (the party's history); its text is the caption."""

    name: str
    text: str


Media = SheetPhoto | TextFile


def buttons_json(markup: InlineKeyboardMarkup | None) -> str | None:
    """An inline keyboard as the Bot API takes it (JSON; None: no buttons)."""
    return markup.model_dump_json(exclude_none=True) if markup else None


def digest(text: str, buttons: str | None, media: Media | None = None) -> str:
    """A fingerprint of a message's content (``buttons``: its keyboard's JSON): equal fingerprints need no
    edit."""
    payload = text + "\x00" + (buttons or "")
    if media is not None:
        payload += "\x00" + repr(media)
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
    _buttons: str | None = None
    after: frozenset[int] = frozenset()
    """Notices (to other chats) that must have gone out first: a deal's result in the group before the hands
    of the next deal."""
    media: Media | None = None
    """A photo or a document with ``text`` as its caption (None: a text message)."""
    as_text: bool = False
    """Telegram refused the score sheet's picture: the sheet goes as a text message in its place (newer content
    tries the picture again). The message then stands for this content: its fingerprint is the picture's."""

    @property
    def digest(self) -> str:
        """The content's fingerprint, computed once per content (it is compared and stored several times)."""
        if self._digest is None:
            self._digest = digest(self.text, self.buttons, self.media)
        return self._digest

    @property
    def buttons(self) -> str | None:
        """The keyboard as the Bot API takes it (JSON), made once per content: its fingerprint and its call
        both use it."""
        if self._buttons is None:
            self._buttons = buttons_json(self.markup)
        return self._buttons

    def change(self, text: str, markup: InlineKeyboardMarkup | None, media: Media | None = None) -> None:
        """Newer content for the same message."""
        self.text, self.markup, self.media = text, markup, media
        self._digest = self._buttons = None
        self.as_text = False

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
    sending: str | None = None
    """... and this is the slot it changes, if any."""
    retry_at: float = 0.0
    """No call before this clock time (a failure's back-off, a 429)."""
    failures: int = 0
    """Failed calls in a row (network, timeout, 5xx): how long the chat waits before the next try."""
    idle_until: float = 0.0
    """Clock time before which nothing of the chat may go, as the scheduler last found it (a paced table's time,
    old messages waiting for their batch, a back-off, the chat's rate windows): it need not look again before
    then ..."""
    ready: bool = False
    """... or the scheduler found its next call's time come and its windows free, which time cannot undo: its
    item is ``ready_key`` (None: old messages to delete). Every change of the queue forgets both."""
    ready_key: str | int | None = None
    _ranked: tuple[float, float] | None = None
    """The last :meth:`rank`: its ``served`` and the rank (forgotten on every change)."""
    askers: dict[str | int, int] = field(default_factory=dict)
    """Who asked each pending :attr:`Priority.ASKED` item (0: unknown) ..."""
    answered: dict[int, int] = field(default_factory=dict)
    """... and the turn each asker was last answered at (the chat's count of answers): the asker answered longest
    ago goes first."""
    questions: dict[str | int, list[int]] = field(default_factory=dict)
    """The messages that asked each pending :attr:`Priority.ASKED` item, until marked as coming (see
    :data:`COMING_AFTER`)."""
    turns: int = 0
    paced_at: float = -math.inf
    """Clock time of the chat's last paced call (a table's change): a game in play (see :meth:`kept_for_games`)."""
    answers: deque[float] = field(default_factory=deque)
    """Clock times of the answers to members sent within the latest :data:`ANSWERS_WINDOW`."""

    def __bool__(self) -> bool:
        return bool(self.order or self.to_delete)

    @property
    def has_items(self) -> bool:
        return bool(self.order)

    def add(
        self,
        key: str | int,
        now: float,
        priority: Priority,
        ready: float = 0.0,
        *,
        asker: int = 0,
        question: int = 0,
    ) -> None:
        """Queue ``key`` (its content is already in ``lives`` or ``notices``), or make it more urgent;
        ``ready``: not before this clock time (a paced message); ``asker``: the member whose question it answers,
        ``question``: the message that asked it."""
        self.changed()
        if asker:
            self.askers[key] = asker
        if question and priority is Priority.ASKED:
            self.questions.setdefault(key, []).append(question)
        asked = self.asked.get(key)
        if asked is not None:
            self.asked[key] = (min(asked[0], max(now, ready)), min(asked[1], priority))
            return
        self.order.append(key)
        self.asked[key] = (max(now, ready), priority)

    def changed(self) -> None:
        """Something of the chat changed (what waits, a call ended): the scheduler looks at it afresh."""
        self.idle_until = 0.0
        self.ready, self.ready_key = False, None
        self._ranked = None

    def next_key(self, now: float) -> str | int | None:
        """The first pending item whose time has come (a paced table's may be later, see ``add``); an answer to a
        member (:attr:`Priority.ASKED`) only when no other item's has, and of those the one of the asker answered
        longest ago (the first asked, among one asker's)."""
        answer: str | int | None = None
        answer_turn = 0
        for key in self.order:
            at, priority = self.asked[key]
            if at > now:
                continue
            if priority is not Priority.ASKED:
                return key
            turn = self.answered.get(self.askers.get(key, 0), 0)
            if answer is None or turn < answer_turn:
                answer, answer_turn = key, turn
        return answer

    def share_back(self, now: float) -> float:
        """Clock time the answers to members are within their own share again (``now`` if they are)."""
        while self.answers and self.answers[0] <= now - ANSWERS_WINDOW:
            self.answers.popleft()
        if len(self.answers) < ANSWERS_SHARE:
            return now
        return self.answers[len(self.answers) - ANSWERS_SHARE] + ANSWERS_WINDOW

    def goes_first(self, key: str | int | None) -> bool:
        """``key`` is the chat's next call whenever its other items come due (none would go before it)."""
        return key is None or key == self.next_key(math.inf)

    def questions_due(self, now: float) -> tuple[list[int], float]:
        """The questions whose answers have waited :data:`COMING_AFTER` by ``now`` (each handed out once), and the
        clock time the next one will have (``inf``: none)."""
        due: list[int] = []
        later = math.inf
        for key in list(self.questions):
            at = self.asked[key][0] + COMING_AFTER
            if at <= now:
                due.extend(self.questions.pop(key))
            else:
                later = min(later, at)
        return due, later

    def kept_for_games(self, now: float) -> int:
        """Places of the group's minute its members' answers leave to its games beyond their own share."""
        return KEPT_WHILE_PLAYING if now - self.paced_at < PLAYING_FOR else KEPT_FOR_GAMES

    def games_due(self) -> float:
        """The clock time the earliest pending item that answers no member (a game's) may go; ``inf``: none."""
        return min(
            (at for at, priority in self.asked.values() if priority is not Priority.ASKED), default=math.inf
        )

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
        self.changed()
        position = self.order.index(key)
        if any(isinstance(k, int) for k in list(self.order)[position + 1 :]):
            del self.order[position]
            self.order.append(key)

    def pop(self, key: str | int, now: float = 0.0) -> tuple[Item, tuple[float, Priority]]:
        """Take ``key`` out to be sent (at ``now``)."""
        self.changed()
        self.order.remove(key)
        asked = self.asked.pop(key)
        asker = self.askers.pop(key, 0)
        self.questions.pop(key, None)  # answered now
        if asked[1] is Priority.ASKED:
            self.answers.append(now)
            self.turns += 1
            self.answered[asker] = self.turns
            if len(self.answered) > ASKERS_KEPT:  # only the askers still waiting matter
                waiting = set(self.askers.values())
                self.answered = {a: t for a, t in self.answered.items() if a in waiting}
        item: Item = self.lives.pop(key) if isinstance(key, str) else self.notices.pop(key)
        if isinstance(item, Live) and item.paced:
            self.paced_at = now
        return item, asked

    def discard(self, key: str) -> None:
        """Forget a pending live message (it needs no call any more)."""
        self.changed()
        self.lives.pop(key, None)
        self.askers.pop(key, None)
        self.questions.pop(key, None)
        if self.asked.pop(key, None) is not None:
            self.order.remove(key)

    def put_back(self, item: Item, asked: tuple[float, Priority]) -> None:
        """A call that must be tried again goes first in the chat's line, unless newer content replaced it."""
        self.changed()
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
        self.changed()
        if not self.to_delete:
            self.deletions_since = now
        self.to_delete.append(message_id)
        del self.to_delete[:-DOOMED_KEPT]
        if urgent and self.urgent_since is None:
            self.urgent_since = now

    def hurry_deletions(self, now: float) -> None:
        """Delete the old messages waiting for a batch soon (a deal or the party is over), and those the calls
        already queued replace."""
        self.changed()
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
        self.changed()
        batch, self.to_delete = self.to_delete[:DELETE_BATCH], self.to_delete[DELETE_BATCH:]
        if self.to_delete:
            self.deletions_since = now
        else:
            self.urgent_since = None
        return batch

    def clear(self) -> None:
        self.changed()
        self.order.clear()
        self.lives.clear()
        self.notices.clear()
        self.asked.clear()
        self.askers.clear()
        self.questions.clear()
        self.to_delete.clear()
        self.urgent_since = None

    def rank(self, served: float) -> float:
        """The chat's place in the bot's line: its most urgent call, none earlier than the chat's last service.

        Every call a chat makes sends it to the back of the line among equals: round-robin between chats. Kept
        until the queue changes (the scheduler asks on every call the bot makes, of every chat that may go)."""
        if self._ranked is not None and self._ranked[0] == served:
            return self._ranked[1]
        if self.asked:
            rank = min(max(asked, served) + HEADSTART[priority] for asked, priority in self.asked.values())
        else:
            rank = max(self.deletions_due(), served) + HEADSTART[Priority.CLEANUP]
        self._ranked = (served, rank)
        return rank


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
        self._unstored: Deferred[str, LiveMessage | None] = Deferred(
            db, stored.put_live, Journal(Path(f"{db.path}-live"), _live_json, _live_of)
        )
        """Kept in a journal too: a restart right after a call still knows what the message shows."""

    async def recall(self, slot: str) -> LiveMessage | None:
        """The live message ``slot`` as Telegram last accepted it, from memory or else from the database."""
        known = self.cache.get(slot)
        if known is not None:
            self.cache.move_to_end(slot)
            return known
        waiting = self._unstored.get(slot)
        if waiting is not None:
            return waiting[0]
        known = await stored.get_live(self.db, slot)
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
        found = {m.slot: m for m in await stored.live_with_prefix(self.db, prefix)}
        for slot, message in self._unstored.items():
            if not slot.startswith(prefix):
                continue
            if message is None:
                found.pop(slot, None)
            else:
                found[slot] = message
        return sorted(found.values(), key=lambda m: m.slot)


def _live_json(message: LiveMessage | None) -> JSONValue:
    return None if message is None else [message.chat_id, message.message_id, message.digest]


def _live_of(slot: str, data: JSONValue) -> LiveMessage | None:
    if not isinstance(data, list):
        return None
    chat_id, message_id, digest = data
    return LiveMessage(slot, int(str(chat_id)), int(str(message_id)), str(digest))


# The names of live messages («slots»). Each message the bot keeps up to date has a name that says what it is for
# (a game's table, a player's hand, a rules page); showing new content under a name edits that message (or sends it
# anew below). A name is stored with its message, so a restart finds every message again, and its first letter
# says what it names: a game (``GAME_SLOTS``, the game's id next: ``g12``, ``h12:345``) or a chat.

GAME_SLOTS: Final = "ghmwvsy"
"""First letters of the names that belong to one game (:func:`game_of_slot`): forgotten once it is long over."""
TURNED_SLOTS: Final = "p"
"""First letters of the names of screens turned in place by their own buttons (:func:`setup_slot`): each press
makes the pressed message the slot's again, so a stored row is never needed after its press — forgotten at every
upkeep, or there would be one for each screen anyone ever pressed."""
REMINDERS: Final = "m"


def group_slot(game_id: int) -> str:
    """A game's table in its group (and a solo game's in its private chat)."""
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    """A player's hand, in their private chat."""
    return f"h{game_id}:{user_id}"


def reminder_slot(game_id: int, user_id: int, version: int) -> str:
    """The «⏰ your turn is running out» message of one turn (deleted when the turn is over)."""
    return f"{REMINDERS}{game_id}:{user_id}:{version}"


def review_slot(game_id: int, user_id: int) -> str:
    """«🔍 Разбор партии» of one player: sent once, however often the button is pressed."""
    return f"w{game_id}:{user_id}"


def table_slot(game_id: int, user_id: int) -> str:
    """The one private copy of a game's whole table a player keeps: sent anew below on each look."""
    return f"v{game_id}:{user_id}"


def sheet_slot(game_id: int, chat_id: int) -> str:
    """The score sheet's photo of a game in one chat: the group's, updated in place as each deal ends; a player's
    own, sent as the party ends and when asked for (``/score``, «📋 Запись»)."""
    return f"s{game_id}:{chat_id}"


def history_slot(game_id: int, chat_id: int) -> str:
    """The party's history file in one chat (sent once however often «📜 История» is pressed)."""
    return f"y{game_id}:{chat_id}"


def game_of_slot(slot: str) -> int | None:
    """The game a live message's name belongs to (None: it names a chat's message)."""
    if slot[:1] not in GAME_SLOTS:
        return None
    number = slot[1:].split(":", 1)[0]
    return int(number) if number.isdigit() else None


def chat_rules_slot(chat_id: int, thread_id: int = 0, user_id: int = 0) -> str:
    """A person's rules message in a chat (a forum topic): their next rules request replaces it (never someone
    else's: in a group each asker has their own), its pages turn in place. ``user_id``: 0 in a private chat."""
    return (
        f"R{chat_id}:{thread_id}"
        if chat_id == user_id or not user_id
        else f"R{chat_id}:{thread_id}:{user_id}"
    )


def page_slot(user_id: int) -> str:
    """A person's page (``/me``) in their private chat: sent anew below each time it is asked for."""
    return f"u{user_id}"


def setup_slot(chat_id: int, message_id: int) -> str:
    """The solo setup screen (opponents, level) turned in place."""
    return f"p{chat_id}:{message_id}"


def throttle_note_slot(chat_id: int, thread_id: int) -> str:
    """A group's (topic's) one note from the incoming throttle: a word to a member beyond their window; deleted once
    that window is over."""
    return f"q{chat_id}:{thread_id}"
