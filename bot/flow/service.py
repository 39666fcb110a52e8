"""The game service: the one way a change goes, whatever asks for it — a person's press or command, a game's
timer (a bot player's move, time running out, a lobby's expiry), the outbox reporting a chat closed or moved.

1. The handler turns its update into a command (:mod:`bot.flow.commands`) and calls :meth:`GameService.run`.
2. The command's component decides: :mod:`~bot.flow.lobby`, :mod:`~bot.flow.moves`, :mod:`~bot.flow.people`,
   :mod:`~bot.flow.chats` (and :mod:`~bot.flow.turns` for the timers). Under the game's lock it checks the
   command against the game, changes a copy and stores it all — the game, the moves, the events to tell, the
   update's mark — in **one** transaction (:meth:`bot.flow.store.Store.mutate`), or refuses, changing nothing.
   It returns what changed (a :class:`~bot.flow.store.Change`) and wakes nobody.
3. :meth:`GameService._made` hands the committed change to delivery (:class:`~bot.delivery.publisher.Publisher`),
   the one place that draws: the events become notices, the game becomes the table, the hands or the lobby,
   and the outbox sends them. Then the game's timer looks again at what is due.

Handlers reach the component that does their job directly for what changes no game (replies and rules pages:
the publisher; figures: people; hints: hints; rights: membership); this module names them all for the handlers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot import views
from bot.delivery.outbox import ChatForbidden, DeliveryReport
from bot.delivery.outbox.core import answer_press
from bot.delivery.publisher import Publisher
from bot.flow import commands as cmd
from bot.flow.chats import Chats
from bot.flow.commands import AdminCheck, MemberCheck, Person, ServiceConfig, ServiceError
from bot.flow.hints import Hints
from bot.flow.lobby import Lobby, end_abandoned
from bot.flow.moves import Moves
from bot.flow.people import People
from bot.flow.store import CURRENT_GAME, Change, Match, Store
from bot.flow.thinker import Thinker
from bot.flow.turns import Turns, TurnTimers
from bot.games import plugin_of
from bot.guards.access import Membership
from bot.guards.refusals import RefusalThrottle
from bot.guards.updates import CHAT_LOCALE, USER_LOCALE, ChatLanguages, person
from bot.i18n import translator_for
from bot.operations.operator import HOUR, Operator
from bot.storage import Database, GameMode, GameRow
from engine.core import JSONValue

log = logging.getLogger(__name__)

__all__ = [
    "CHAT_LOCALE",
    "HOUR",
    "USER_LOCALE",
    "AdminCheck",
    "ChatLanguages",
    "GameRow",
    "GameService",
    "Hints",
    "MemberCheck",
    "Membership",
    "Operator",
    "People",
    "Person",
    "Publisher",
    "RefusalThrottle",
    "ServiceConfig",
    "ServiceError",
    "answer_press",
    "cmd",
    "current_game",
    "person",
]

Decide = Callable[[Any], Awaitable[Change | list[Change]]]


def current_game() -> int | None:
    """The game the update being handled touched last (for the log), if any."""
    return CURRENT_GAME.get()


class GameService:
    def __init__(
        self,
        db: Database,
        publisher: Publisher,
        config: ServiceConfig,
        membership: Membership,
        thinker: Thinker | None = None,
    ) -> None:
        outbox = publisher.outbox
        clock = outbox.clock
        self.config = config
        self.publisher = publisher
        self.membership = membership
        self.store = Store(db, clock, config)
        self.thinker = thinker if thinker is not None else Thinker(0)
        self.lobby = Lobby(self.store, config, outbox.is_refused)
        self.moves = Moves(self.store, config)
        self.turns = Turns(self.store, self.moves, clock, config, self.thinker, publisher.screens.picked)
        self.timers = TurnTimers(clock, self._on_timer)
        self.people = People(self.store)
        self.chats = Chats(self.store, outbox)
        self.hints = Hints(self.store, self.thinker)
        self.languages = ChatLanguages(db)
        self.refusals = RefusalThrottle(clock)
        """Refusals merged per chat (the handlers' error handler asks it)."""
        self._deciders: dict[type[cmd.Command], Decide] = {
            cmd.OpenLobby: self.lobby.open,
            cmd.Join: self.lobby.join,
            cmd.LeaveLobby: self.lobby.leave,
            cmd.AddBot: self.lobby.add_bot,
            cmd.RemoveBot: self.lobby.remove_bot,
            cmd.ShowScreen: self.lobby.show_screen,
            cmd.SetOption: self.lobby.set_option,
            cmd.Start: self.lobby.start,
            cmd.Cancel: self.lobby.cancel,
            cmd.Rematch: self.lobby.rematch,
            cmd.StartSolo: self.lobby.start_solo,
            cmd.Pick: self.moves.pick,
            cmd.Back: self.moves.back,
            cmd.Play: self.moves.play,
            cmd.TakeSeat: self.moves.take_seat,
            cmd.LeaveGame: self.people.leave,
            cmd.ShowHand: self.people.show_hand,
            cmd.HandsBack: self.people.hands_back,
            cmd.ShowTable: self.people.show_table,
            cmd.Repost: self.people.repost,
            cmd.ShowSheet: self.people.show_sheet,
            cmd.SendHistory: self.people.send_history,
            cmd.Seen: self._seen,
            cmd.Forbidden: self._forbidden,
            cmd.ChatClosed: self.chats.close,
            cmd.ChatOpened: self.chats.open,
            cmd.TopicReopened: self.chats.topic_reopened,
            cmd.ChatMoved: self._moved,
            cmd.EndAbandoned: functools.partial(end_abandoned, self.store),
        }

    @property
    def bot_username(self) -> str:
        return self.publisher.bot_username

    async def run(self, command: cmd.Command) -> cmd.Done:
        """Decide ``command``, then have every change it made drawn and delivered: the press's answer (the
        command's own when the change names none) and the game it concerned (for a look at every running game:
        how many were shown)."""
        decided = await self._deciders[type(command)](command)
        changes = decided if isinstance(decided, list) else [decided]
        reopened = _reopened(command)
        if reopened is not None:
            await self._post_kept(reopened)
        answer = command.answer
        for change in changes:
            await self._made(change)
            answer = change.answer or answer
        game_id = changes[0].match.game.id if changes else 0
        return cmd.Done(answer, game_id, len(changes))

    async def _made(self, change: Change) -> None:
        """A committed change becomes visible: the publisher draws its notices and the game's messages, and the
        game's timer looks again at what is due (a game with nothing that falls due by itself — people to move,
        no limit per turn — wakes no timer: a press there costs no task)."""
        match = change.match
        wake = change.wake_timer and (match.timed or not match.game.status.is_active)
        if wake:
            self.turns.changed(match.game.id, match)
        await self.publisher.made(change)
        if wake:
            self.timers.poke(match.game.id, match)

    async def _on_timer(self, game_id: int, fresh: Match | None) -> float | None:
        """A game's timer: what is due is done (:meth:`Turns.act`) and made known like any change."""
        change, delay = await self.turns.act(game_id, fresh)
        if change is not None:
            await self._made(change)
        return delay

    # ------------------------------------------------------------------------------------------- lifecycle

    async def resume(self) -> int:
        """After a start: the notices a previous run left unsent go out (drawn from the games as stored), every
        active game is shown again and its timer restarted. Returns how many games."""
        games = await self.turns.resume()
        await self.publisher.recall_reminders(games)
        await self._post_kept(None)
        for game_id in games:
            match = await self.store.read(game_id)
            if match is not None:
                await self._made(Change(match))
        return len(games)

    async def _post_kept(self, chat_id: int | None) -> None:
        """The stored notices not sent yet (of one chat, if given), each game's drawn from the game as stored."""
        kept = await self.publisher.outbox.stored(chat_id)
        self.publisher.post([n for n in kept if n.game_id is None])
        for game_id in dict.fromkeys(n.game_id for n in kept if n.game_id is not None):
            match = await self.store.read(game_id)
            self.publisher.post([n for n in kept if n.game_id == game_id], match)

    async def end_abandoned(self, idle_for: float) -> int:
        """Close the games nobody has moved in for ``idle_for`` seconds (the operator's hourly upkeep); how many."""
        return (await self.run(cmd.EndAbandoned(idle_for))).counted

    async def close(self) -> None:
        await self.timers.close()

    async def follow(self, reports: asyncio.Queue[DeliveryReport]) -> None:
        """What the outbox reports about chats (closed to the bot, moved), handled one at a time while it runs."""
        while True:
            report = await reports.get()
            try:
                if isinstance(report, ChatForbidden):
                    await self.run(cmd.Forbidden(report.chat_id))
                else:
                    await self.run(cmd.ChatMoved(report.old, report.new))
            except Exception:
                log.exception("could not act on the outbox's report %s", report)

    # ---------------------------------------------------------------------- deciders that span components

    async def _forbidden(self, command: cmd.Forbidden) -> list[Change]:
        """The bot could not write to a chat: a group is closed to it; a person's group games wait for them."""
        if command.chat_id < 0:
            return await self.chats.close(cmd.ChatClosed(command.chat_id))
        return await self.people.forbid(command.chat_id)

    async def _seen(self, command: cmd.Seen) -> list[Change]:
        """A person as they are now; a private /start lets the bot write to them again."""
        if command.started:
            self.publisher.allow(command.person.user_id)
        return await self.people.seen(command)

    async def _moved(self, command: cmd.ChatMoved) -> list[Change]:
        """A group became a supergroup: its language choice and its games follow it."""
        self.languages.migrate(command.old, command.new)
        return await self.chats.migrate(command)

    # --------------------------------------------------------------------------------------------- queries

    def new_options(self, kind: str, choice: str) -> dict[str, JSONValue]:
        """A new lobby's options for one of the game's /new choices, under this bot's settings."""
        try:
            return plugin_of(kind).new_options(choice, self.config.default_target)
        except ValueError:
            raise ServiceError(views.Answer.UNKNOWN) from None

    async def joined_notice(self, game_id: int, lang: str | None) -> views.Rendered | None:
        """What the private chat says after joining a group game: which game, which group, what comes next
        (None when the group's title cannot be had: the short answer then says it)."""
        game = await self.store.game(game_id)
        if game is None or game.mode is not GameMode.GROUP:
            return None
        title = await self.membership.title(game.chat_id)
        if not title:
            return None
        tr = translator_for(lang)
        return views.render_joined(title, tr.t(f"game-{game.kind}"), tr)


def _reopened(command: cmd.Command) -> int | None:
    """The chat the bot may post in again after ``command``: the notices kept for it go out first."""
    match command:
        case cmd.ChatOpened(chat_id=chat) | cmd.TopicReopened(chat_id=chat) | cmd.ChatMoved(new=chat):
            return chat
    return None
