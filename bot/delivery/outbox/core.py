"""The outbox: what the service and the handlers ask for, one call made for a chat, and the answers to presses.

Handlers and the game service never wait for Telegram. They state what a message should look like now
(:meth:`Outbox.show` for a *live* message — the group table, a lobby, a player's hand — identified by a slot
name) or queue a one-off message (:meth:`Outbox.post`, stored in the ``outbox`` table in the same transaction
as the move that caused it, so it survives a crash). The scheduler (``scheduler.py``) then decides which chat
gets the bot's next call:

- live messages are coalesced: while a chat waits, newer content for a slot replaces older, so only the newest
  state goes out; an edit is made only if the content differs from what Telegram last accepted for that
  message (content that returns to it costs nothing);
- ``resend=True`` sends a new message (its owner gets a notification); the old one is deleted later, in one
  ``deleteMessages`` call with the chat's other old messages, when the bot has calls to spare — at once if it
  still offers moves, else once a few have gathered (see ``queue.LAZY_BATCH``);
- ``paced=True`` (a group's table): at most one call per ``OutboxLimits.paced_interval`` for that message, the
  newest content, so fast moves leave room in the group's 20 a minute for its notices and lobbies;
- rates: at most one call per ``chat_interval`` per chat, ``group_per_minute`` per group chat and
  ``global_per_second`` for the whole bot; a 429 is waited out and the call re-queued; the calls to groups
  still inside their minute windows are handed over to the next run through the database at
  :meth:`Outbox.stop`, so a restart does not spend a group's budget twice;
- 403 (the user never opened the bot, or blocked it): the chat's queue is dropped and a report (:mod:`~bot.delivery.outbox.reports`) tells
  the game flow, which shows a «start the bot» link in the group and lets the AFK rules run;
- a network failure, a request left unanswered past ``REQUEST_TIMEOUT`` or a 5xx: the call is tried again, with
  backoff, for as long as it takes. Only a refusal (4xx) drops a message — but a score sheet's picture: refused,
  the sheet goes as text in its place (the next deal's sheet tries the picture again).

**Marks on questions** go beside the queue too: a member's question whose answer waits its turn in a group
(:data:`~bot.delivery.outbox.queue.COMING_AFTER` seconds, or in the incoming throttle) is marked as coming, once, by the bot's reaction on the
message that asked (:meth:`Outbox.mark_coming`) — no message of the group's minute spent on saying so.

**Answers to presses** go beside the queue (:func:`answer_press`): Telegram shows a spinner on a pressed button
until the bot answers the query, and drops the query after 15 s. An answer is worth a few seconds at most, and it
must never hold anything up: the update that asked for it has one of the places among the updates handled at
once (``guards.updates.InFlightLimit``), and a network that hangs would keep that place taken for aiogram's
default 60 s — with enough hung answers no press of anyone is handled. So an answer is a task of its own,
started when the handler has done its work, with ``ANSWER_TIMEOUT`` real seconds to go through; the handler
returns at once. A failed or late answer is only logged: the move it answered is applied either way, and the
person sees the result in the messages.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections import Counter, OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from aiogram import Bot
from aiogram.types import InlineKeyboardMarkup, ReactionTypeEmoji

from bot.clock import Clock
from bot.delivery.outbox.orders import (
    Adopt,
    AnswerInline,
    AnswerPress,
    Coming,
    DeleteStray,
    Drop,
    Hurry,
    Orders,
    Post,
    Reply,
    Show,
)
from bot.delivery.outbox.queue import Live, LiveMessages, Media, Priority, SentMessages, default_priority
from bot.delivery.outbox.reports import DeliveryReport
from bot.delivery.outbox.scheduler import CallScheduler, OutboxLimits, RateLimiter
from bot.delivery.outbox.serving import ChatServer, TelegramCalls
from bot.storage import Database, LiveMessage, Notice
from bot.storage import repo as stored
from bot.storage.tx import Batch, Deferred, Journal
from bot.views.sheets import PictureCache

log = logging.getLogger(__name__)

REQUEST_TIMEOUT: Final = 10.0
"""Clock seconds an outbox call may take before it counts as lost and is tried again (aiogram's default, 60 real
seconds, would hold the chat's queue that long behind one hung request) ..."""
MIN_REQUEST_TIMEOUT: Final = 2
"""... but never less than this many real seconds (a busy machine answers slowly, and a send that timed out
after Telegram executed it shows twice)."""
COMING_MARK: Final = "👀"
"""The reaction that marks a member's question as seen and its answer as coming (one of the emoji Telegram lets a
bot react with)."""
MARKS_KEPT: Final = 1_000
"""Questions remembered as marked (a question is marked once, by whichever part finds it waiting first)."""
PICTURES_KEPT: Final = 32
"""Score sheet pictures kept drawn (~90 KB each): enough for one sheet going to a party's every chat at once; the
``file_id`` Telegram gave each is kept longer, by the picture's digest."""


class Outbox:
    def __init__(
        self,
        bot: Bot,
        db: Database,
        clock: Clock,
        limits: OutboxLimits | None = None,
        pictures: PictureCache | None = None,
    ) -> None:
        self.bot = bot
        self.db = db
        self.clock = clock
        self.limiter = RateLimiter(limits or OutboxLimits(), clock)
        self.reports: asyncio.Queue[DeliveryReport] = asyncio.Queue()
        """Chats found closed (403) or moved (a supergroup): the game flow takes them from here."""
        self.request_timeout = max(MIN_REQUEST_TIMEOUT, round(clock.real(REQUEST_TIMEOUT)))
        """Real seconds (aiogram wants an int)."""
        self.telegram = TelegramCalls(bot, self.request_timeout, pictures or PictureCache(PICTURES_KEPT))
        self.live = LiveMessages(db)
        """A cache of the ``live_messages`` table: each slot's message and the content Telegram accepted."""
        self.sent = SentMessages(self.limiter.limits.paced_interval)
        self.notice_sent: Deferred[int, None] = Deferred(
            db, stored.drop_notice, Journal(Path(f"{db.path}-sent"), lambda _: None, lambda _, __: None)
        )
        """Notices sent (or refused), whose rows leave the ``outbox`` table with the next transaction (kept in a
        journal meanwhile: a restart right after a send does not send it again)."""
        self.refused: set[int] = set()
        """Chats that answered 403, or the bot left: nothing more is sent there until :meth:`allow`."""
        self.dropped: set[str] = set()
        """Slots dropped while a call was changing them: forgotten as soon as it lands."""
        self._forgetting: set[asyncio.Task[None]] = set()
        self.server = ChatServer(self)
        self.scheduler = CallScheduler(self.limiter, clock, self.server.serve, self.mark_coming)
        self.answers = PressAnswers()
        """Answers to presses on their way (beside the queue: see :class:`PressAnswers`)."""
        self.marked: OrderedDict[tuple[int, int], None] = OrderedDict()
        """The questions marked as coming lately (chat, message): each is marked once."""

    @property
    def calls(self) -> Counter[str]:
        """Calls made, by kind (``send``, ``edit``, ``delete``, ``429``, ``403``, ``not_modified``, ``failed``)."""
        return self.telegram.calls

    async def start(self) -> None:
        """Load a previous run's recent calls to groups (its unsent notices: :meth:`stored`)."""
        async with self.db.tx() as tx:
            handed_over = await stored.take_rate_stamps(tx)
        self.limiter.add_group_stamps(handed_over)

    async def stored(self, chat_id: int | None = None) -> list[Notice]:
        """The notices stored and not sent yet (of one chat, if given), oldest first: a previous run's, or those
        kept while a chat was closed. Each goes out once handed to :meth:`post` (a game's drawn first)."""
        queued = {n for queue in self.scheduler.queues.values() for n in queue.notices}
        return [
            n
            for n in await stored.pending_notices(self.db, chat_id)
            if self.notice_sent.get(n.id) is None and n.id not in queued
        ]

    def forget_notice(self, notice_id: int) -> None:
        """A stored notice that will never go out (its game is gone): its row leaves with the next transaction."""
        self.notice_sent.put(notice_id, None)

    async def stop(self) -> None:
        if self._forgetting:
            await asyncio.wait(set(self._forgetting), timeout=self.request_timeout)
        await self.scheduler.stop()
        try:
            batch = Batch()
            stored.put_rate_stamps(batch, self.limiter.group_stamps())
            await self.db.write(batch)
        except sqlite3.Error:
            log.exception("could not hand the groups' rate windows over to the next run")

    # --- asking for messages (never blocks) ------------------------------------------------------------

    def show(
        self,
        slot: str,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int = 0,
        resend: bool = False,
        only_existing: bool = False,
        priority: Priority | None = None,
        after: Iterable[int] = (),
        paced: bool = False,
        media: Media | None = None,
        asker: int = 0,
        question: int = 0,
    ) -> None:
        """The live message ``slot`` should now read ``text``; ``resend`` sends it anew, below (a notification).

        ``only_existing``: change the message if it was ever sent, but send none if it was not.
        ``priority``: how urgent (default: a table in a group; in a private chat a hand, or a turn if sent anew);
        :attr:`Priority.TURN` content offers moves, so the message is deleted at once once replaced.
        ``after``: ids of notices to other chats this content must not overtake.
        ``paced``: at most one call per ``paced_interval`` for this message (a group's table).
        ``media``: a photo or a document, ``text`` its caption (a slot keeps one kind of message).
        ``asker``: the member whose question it answers (:attr:`Priority.ASKED`: answered in turn), ``question``
        the message that asked it (marked as coming if the answer waits, see :data:`~bot.delivery.outbox.queue.COMING_AFTER`).
        """
        queue = self.scheduler.queue(chat_id)
        pending = queue.lives.get(slot)
        if pending is not None:
            pending.change(text, markup, media)
            pending.resend = pending.resend or resend
            pending.thread_id = thread_id
            pending.only_existing = pending.only_existing and only_existing
            queue.behind_notices(slot)
        else:
            pending = queue.lives[slot] = Live(
                slot, chat_id, thread_id, text, markup, resend, only_existing, media=media
            )
        if after:
            pending.after = pending.after | frozenset(after)
        known = self.live.cache.get(slot)
        if known is not None and queue.sending != slot and not pending.needs_call(known):
            queue.discard(slot)  # back to what the message shows: nothing to do
            self.scheduler.settle(queue)
            return
        if priority is None:
            priority = default_priority(chat_id, resend)
        pending.offers_moves = priority is Priority.TURN
        now = self.clock.now()
        pending.paced = paced and not resend
        ready = self.sent.ready(slot, now) if pending.paced else now
        queue.add(slot, now, priority, ready, asker=asker, question=question)
        self.scheduler.kick()

    def drop(self, slot: str, chat_id: int) -> None:
        """The live message ``slot`` is no longer wanted (a reminder once its turn is over): never sent if still
        waiting; else deleted with the chat's other old messages, and the slot forgotten in the database too."""
        queue = self.scheduler.queue(chat_id)
        queue.discard(slot)
        if queue.sending == slot:
            self.dropped.add(slot)  # forgotten as soon as it lands
        else:
            task = asyncio.create_task(self.server.forget(slot), name=f"outbox:forget:{slot}")
            self._forgetting.add(task)
            task.add_done_callback(self._forgetting.discard)
        self.scheduler.settle(queue)

    async def live_messages(self, prefix: str) -> list[LiveMessage]:
        """The live messages whose slot starts with ``prefix``, as Telegram last accepted them."""
        return await self.live.with_prefix(prefix)

    def post(
        self,
        notices: Iterable[Notice],
        *,
        priority: Priority | None = None,
        asker: int = 0,
        question: int = 0,
    ) -> None:
        """Queue notices already stored in the ``outbox`` table (see :func:`repo.add_notice`); ``asker``: the
        member whose question they answer, ``question`` the message that asked it."""
        now = self.clock.now()
        for notice in notices:
            queue = self.scheduler.queue(notice.chat_id)
            if notice.id in queue.notices:
                continue
            queue.notices[notice.id] = notice
            self.scheduler.unsent.add(notice.id)
            queue.add(
                notice.id,
                now,
                priority if priority is not None else default_priority(notice.chat_id),
                asker=asker,
                question=question,
            )
            self.scheduler.kick()

    def hurry_deletions(self, chat_id: int) -> None:
        """A deal or the party is over: the chat's old messages that wait for a batch go soon."""
        queue = self.scheduler.queues.get(chat_id)
        if queue is not None:
            queue.hurry_deletions(self.clock.now())
            self.scheduler.kick()

    def allow(self, chat_id: int) -> None:
        """The person opened the bot again: their chat may be written to."""
        self.refused.discard(chat_id)

    def refuse(self, chat_id: int) -> None:
        """Nothing more goes to ``chat_id`` (the bot was removed from the group) until :meth:`reopen`."""
        self.refused.add(chat_id)
        if chat_id in self.scheduler.queues:
            self.scheduler.kick()  # the next call to it drops what is queued

    def is_refused(self, chat_id: int) -> bool:
        return chat_id in self.refused

    def reopen(self, chat_id: int) -> None:
        """The bot is back in the group: it may post there again (the notices kept for it: :meth:`stored`)."""
        self.refused.discard(chat_id)

    def migrate(self, old: int, new: int) -> None:
        """Group ``old`` became supergroup ``new``: nothing more goes to ``old``.

        Its live messages stay behind in the old chat (they cannot be edited any more): their slots are
        forgotten, so the next look of each is sent to the new chat as a new message. The game service moves
        the stored notices to ``new``, then :meth:`reopen` and :meth:`stored` send them.
        """
        self.refused.add(old)
        for slot in [slot for slot, known in self.live.cache.items() if known.chat_id == old]:
            self.live.forget(slot)
        if old in self.scheduler.queues:
            self.scheduler.kick()  # the next call drops what was still queued for the old id

    async def say(
        self,
        chat_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None = None,
        *,
        thread_id: int = 0,
        priority: Priority | None = None,
        asker: int = 0,
        question: int = 0,
    ) -> None:
        """A one-off message (a reply to a command): stored, then sent within the chat's limits (``asker``: the
        member whose question it answers, ``question`` the message that asked it)."""
        if chat_id in self.refused:
            return  # the bot may not write there; a reply kept for later would come out of place
        dumped = markup.model_dump_json(exclude_none=True) if markup else None
        notice = Notice(self.db.next_notice_id(), chat_id, thread_id, text, dumped)
        batch = Batch()
        stored.add_notice(batch, notice, self.clock.now())
        await self.db.write(batch)
        self.post([notice], priority=priority, asker=asker, question=question)

    def mark_coming(self, chat_id: int, message_ids: Iterable[int]) -> None:
        """Members' questions whose answers wait their turn in a group: each is marked as coming, once — the bot's
        reaction (:data:`COMING_MARK`) on the message that asked, beside the queue like a press's answer. A
        reaction sends no message: it costs none of the group's 20 a minute, whose places the answers wait for,
        and it tells the one who asked, on their own message, without a word to everyone else."""
        if chat_id in self.refused:
            return
        for message_id in message_ids:
            if (chat_id, message_id) in self.marked:
                continue
            self.marked[chat_id, message_id] = None
            if len(self.marked) > MARKS_KEPT:
                self.marked.popitem(last=False)
            log.info(
                "chat %s: the answer to message %s waits its turn; marked as coming", chat_id, message_id
            )
            self.answers.react(self.bot, chat_id, message_id, COMING_MARK)

    def adopt(self, slot: str, chat_id: int, message_id: int) -> None:
        """Make an existing message (e.g. the one whose button started a game) the live message of ``slot``."""
        self.live.remember(LiveMessage(slot, chat_id, message_id, ""))

    def message_id(self, slot: str) -> int | None:
        """The id of the live message ``slot`` if it is among those cached in memory."""
        known = self.live.cache.get(slot)
        return known.message_id if known else None

    async def delete_stray(self, slot: str, chat_id: int, message_id: int) -> bool:
        """Delete ``message_id``, pressed as if it were live message ``slot`` but not it (a send whose answer a
        crash lost); False when it is ``slot``'s after all, or a call changing ``slot`` is on its way."""
        queue, known = self.scheduler.queues.get(chat_id), await self.live.recall(slot)
        if known is None or known.message_id == message_id or (queue is not None and queue.sending == slot):
            return False
        self.scheduler.queue(chat_id).delete_later(message_id, self.clock.now())
        self.scheduler.kick()
        return True

    async def adopt_newer(self, slot: str, chat_id: int, message_id: int) -> bool:
        """``message_id`` in ``chat_id`` was pressed as live message ``slot`` and is newer than the one known: a
        send whose mark a crash lost. It becomes the slot's message (the next look edits it) and the one known
        goes. False when nothing changed."""
        queue, known = self.scheduler.queues.get(chat_id), await self.live.recall(slot)
        if known is None or known.chat_id != chat_id or message_id <= known.message_id:
            return False
        if queue is not None and queue.sending == slot:
            return False
        self.live.remember(LiveMessage(slot, chat_id, message_id, ""))
        self.scheduler.queue(chat_id).delete_later(known.message_id, self.clock.now(), urgent=True)
        self.scheduler.kick()
        return True

    async def deliver(self, orders: Orders) -> None:
        """Apply what the drawing asks, in order (only an adoption, a stray's deletion or a reply waits for the
        database; nothing waits for Telegram)."""
        for order in orders:
            if isinstance(order, Show):
                self.show(
                    order.slot,
                    order.chat_id,
                    order.text,
                    order.markup,
                    thread_id=order.thread_id,
                    resend=order.resend,
                    only_existing=order.only_existing,
                    priority=order.priority,
                    after=order.after,
                    paced=order.paced,
                    media=order.media,
                    asker=order.asker,
                    question=order.question,
                )
            elif isinstance(order, Post):
                self.post(order.notices, priority=order.priority)
            elif isinstance(order, Drop):
                self.drop(order.slot, order.chat_id)
            elif isinstance(order, Hurry):
                self.hurry_deletions(order.chat_id)
            elif isinstance(order, Adopt):
                if not order.newer_only:
                    self.adopt(order.slot, order.chat_id, order.message_id)
                elif await self.adopt_newer(order.slot, order.chat_id, order.message_id):
                    log.info(
                        "%s: message %s adopted (its send was not recorded)", order.slot, order.message_id
                    )
            elif isinstance(order, DeleteStray):
                if await self.delete_stray(order.slot, order.chat_id, order.message_id):
                    log.info("%s: a stray message %s deleted", order.slot, order.message_id)
            elif isinstance(order, Reply):
                await self.say(
                    order.chat_id,
                    order.text,
                    order.markup,
                    thread_id=order.thread_id,
                    priority=order.priority,
                    asker=order.asker,
                    question=order.question,
                )
            elif isinstance(order, Coming):
                self.mark_coming(order.chat_id, [order.message_id])
            elif isinstance(order, AnswerPress):
                self.answers.answer(
                    self.bot, order.query_id, order.text, show_alert=order.alert, url=order.url
                )
            else:
                self.answers.answer_inline(self.bot, order)

    def __len__(self) -> int:
        """The chats with a queue (a chat's queue goes once it is empty)."""
        return len(self.scheduler.queues)

    def backlog(self) -> tuple[int, float]:
        """The calls waiting (messages to send or edit, old ones to delete) and how long the oldest of the
        messages has waited, in real seconds (0 when none waits; a paced table counts from when it may go)."""
        queues = self.scheduler.queues.values()
        waiting = sum(len(q.order) + len(q.to_delete) for q in queues)
        oldest = min((asked for q in queues for asked, _ in q.asked.values()), default=None)
        return waiting, 0.0 if oldest is None else self.clock.real(self.clock.now() - oldest)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait (real seconds) until every queued message went out (old messages waiting for a batch: now)."""
        for chat_id in list(self.scheduler.queues):
            self.hurry_deletions(chat_id)
        await asyncio.wait_for(self.scheduler.idle(), timeout)


ANSWER_TIMEOUT: Final = 3
"""Real seconds an answer to a press may take (aiogram wants an int); later, the spinner has gone anyway."""


class PressAnswers:
    """The answers on their way, so none is collected as garbage before it is sent and shut-down can wait."""

    def __init__(self, timeout: int = ANSWER_TIMEOUT) -> None:
        self.timeout = timeout
        self._pending: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.failed = 0

    def answer(
        self,
        bot: Bot,
        query_id: str,
        text: str | None = None,
        *,
        show_alert: bool = False,
        url: str | None = None,
    ) -> None:
        """Answer the press ``query_id`` in the background (``url``: a link Telegram opens, such as the private
        chat); never raises, never waits."""
        task = asyncio.create_task(self._send(bot, query_id, text, show_alert, url))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def answer_inline(self, bot: Bot, order: AnswerInline) -> None:
        """Answer an inline query in the background, within the same deadline as a press's answer."""
        task = asyncio.create_task(self._send_inline(bot, order))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _send_inline(self, bot: Bot, order: AnswerInline) -> None:
        try:
            await bot.answer_inline_query(
                order.query_id,
                list(order.results),
                cache_time=order.cache_time,
                is_personal=order.personal,
                request_timeout=self.timeout,
            )
        except Exception as exc:  # a query too old, a network that hangs: the asker types again
            self.failed += 1
            log.info("an inline query was not answered: %s", exc)
        else:
            self.sent += 1

    def react(self, bot: Bot, chat_id: int, message_id: int, emoji: str) -> None:
        """Set the bot's reaction ``emoji`` on a message in the background, within the same deadline as a press's
        answer (a chat whose admins allow no such reaction refuses it: only logged)."""
        task = asyncio.create_task(self._react(bot, chat_id, message_id, emoji))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _react(self, bot: Bot, chat_id: int, message_id: int, emoji: str) -> None:
        try:
            await bot.set_message_reaction(
                chat_id, message_id, [ReactionTypeEmoji(emoji=emoji)], request_timeout=self.timeout
            )
        except Exception as exc:  # reactions off in the chat, the message gone, a network that hangs
            self.failed += 1
            log.info("message %s in chat %s was not marked: %s", message_id, chat_id, exc)
        else:
            self.sent += 1

    async def settle(self, timeout: float) -> None:
        """Wait until the answers on their way are through, at most ``timeout`` real seconds."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout)

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def _send(
        self, bot: Bot, query_id: str, text: str | None, show_alert: bool, url: str | None
    ) -> None:
        try:
            await bot.answer_callback_query(
                query_id, text=text, show_alert=show_alert, url=url, request_timeout=self.timeout
            )
        except Exception as exc:  # a query too old, a network that hangs: the move stands either way
            self.failed += 1
            log.debug("a press was not answered: %s", exc)
        else:
            self.sent += 1
