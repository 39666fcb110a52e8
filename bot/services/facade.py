"""The façade: the one thing handlers call. It wires the rooms of the game service together.

Each room does one job — :mod:`~bot.services.store` (the unit of work), :mod:`~bot.services.lobby`,
:mod:`~bot.services.moves`, :mod:`~bot.services.scheduler` (timers, bot players, AFK), :mod:`~bot.services.publisher`
(every message), :mod:`~bot.services.players`, :mod:`~bot.services.chats` — and returns what it changed; the
façade then has the change published and the game's timer poked. Rooms never call back into the façade.

Handlers import only this module: it also re-exports what they need of the service (``Person``, ``ServiceError``,
the membership checks) and answers commands through :meth:`GameService.say`.
"""

from __future__ import annotations

import logging

from aiogram.types import InlineKeyboardMarkup

# bot.views first: its lobby view imports the plug-ins, which import bot.views.models.
from bot import views
from bot.callbacks import GameKind
from bot.games import plugin_of
from bot.i18n import translator_for
from bot.services.access import Membership
from bot.services.chats import Chats
from bot.services.clock import Clock
from bot.services.config import AdminCheck, MemberCheck, Person, ServiceConfig
from bot.services.errors import ServiceError
from bot.services.lobby import Lobby
from bot.services.moves import Moves
from bot.services.outbox import Outbox
from bot.services.peeks import Peeks, table_slot
from bot.services.players import Players
from bot.services.publisher import Publisher, hand_slot, rules_slot, setup_slot
from bot.services.scheduler import Scheduler
from bot.services.store import CURRENT_GAME, Change, Store
from bot.services.thinker import Thinker
from bot.services.throttle import RefusalThrottle
from bot.storage import Database, GameMode, GameRow, GameStatus
from bot.storage.models import ChatRank, UserStats
from engine.ai import Level
from engine.core import JSONValue

log = logging.getLogger(__name__)

__all__ = [
    "AdminCheck",
    "GameRow",
    "GameService",
    "MemberCheck",
    "Person",
    "ServiceConfig",
    "ServiceError",
    "current_game",
]


def current_game() -> int | None:
    """The game the update being handled touched last (for the log), if any."""
    return CURRENT_GAME.get()


class GameService:
    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        clock: Clock,
        config: ServiceConfig,
        bot_username: str,
        membership: Membership | None = None,
        refusals: RefusalThrottle | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.config = config
        self.clock = clock
        self.bot_username = bot_username
        self.outbox = outbox
        self.membership = membership
        self.refusals = refusals if refusals is not None else RefusalThrottle(clock)
        self.store = Store(db, clock, config)
        self.publisher = Publisher(outbox, clock, self.store.mem, bot_username)
        self.lobby = Lobby(self.store, config, outbox.is_refused)
        self.moves = Moves(self.store, self.publisher, config)
        self.thinker = thinker if thinker is not None else Thinker(0)
        self.scheduler = Scheduler(self.store, self.moves, self.publisher, clock, config, self.thinker)
        self.players = Players(self.store, self.publisher)
        self.chats = Chats(self.store, outbox)
        self.peeks = Peeks(self.store, self.thinker)

    # ---------------------------------------------------------------------------------------------- wiring

    def _made(self, change: Change) -> views.Answer | None:
        """A committed change becomes visible: its notices go out, its messages are redrawn, its timer wakes."""
        game = change.match.game
        if change.touched and game.status.is_active:
            self.store.mem.changed_at[game.id] = self.clock.now()
        self.publisher.post(change.notices)
        self.publisher.publish(
            change.match, renew=change.renew, renew_group=change.renew_group, after=change.notices
        )
        if change.touched:
            self.scheduler.poke(game.id, change.match)
        return change.answer

    async def _show(
        self, game_id: int, *, renew: set[int] | None = None, renew_group: bool = False, poke: bool = False
    ) -> None:
        """Redraw a game's messages as they are now (a game that is gone is skipped)."""
        try:
            async with self.store.mutate(game_id) as unit:
                pass
        except ServiceError:
            return
        self.publisher.publish(unit.match, renew=renew or set(), renew_group=renew_group)
        if poke:
            self.scheduler.poke(game_id)

    # ------------------------------------------------------------------------------------------- lifecycle

    async def resume(self) -> int:
        """After a start: republish every active game and restart its timer. Returns how many."""
        games = await self.scheduler.resume()
        await self.publisher.recall_reminders(games)
        for game_id in games:
            await self._show(game_id, poke=True)
        return len(games)

    async def close(self) -> None:
        await self.scheduler.close()

    # --------------------------------------------------------------------------------------------- replies

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off reply to a command or press."""
        await self.publisher.say(chat_id, text, markup, thread_id=thread_id)

    async def turn_rules_page(self, chat_id: int, message_id: int, rendered: views.Rendered) -> None:
        await self.publisher.turn_page(rules_slot(chat_id, message_id), chat_id, message_id, rendered)

    async def turn_setup_page(self, chat_id: int, message_id: int, rendered: views.Rendered) -> None:
        await self.publisher.turn_page(setup_slot(chat_id, message_id), chat_id, message_id, rendered)

    def refusal_allowed(self, chat_id: int, thread_id: int, command: str, reason: str) -> bool:
        """Whether this refusal may be said now (the same one again soon after is merged)."""
        return self.refusals.allow(chat_id, thread_id, command, reason)

    def admin_check(self, user_id: int) -> AdminCheck:
        """Ask Telegram (only when needed, and cached) whether the user administers the game's chat."""
        membership = self.membership

        async def check(chat_id: int) -> bool:
            return membership is not None and await membership.is_admin(chat_id, user_id)

        return check

    def member_check(self, user_id: int) -> MemberCheck:
        """Ask Telegram (cached) whether the user is a member of the game's chat."""
        membership = self.membership

        async def check(chat_id: int) -> bool:
            return membership is not None and await membership.is_member(chat_id, user_id)

        return check

    def forget_chat(self, chat_id: int) -> None:
        """What is known of people's rights in this chat is stale."""
        if self.membership is not None:
            self.membership.forget_chat(chat_id)

    # ----------------------------------------------------------------------------------------------- users

    async def seen(self, person: Person, *, started: bool = False) -> None:
        """Remember a user (and, for a private /start, that the bot may write to them)."""
        if started:
            self.outbox.allow(person.user_id)
        for game_id in await self.players.seen(person, started=started):
            await self._show(game_id, renew={person.user_id})

    async def on_forbidden(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id``: a person who never opened the bot or blocked it."""
        if chat_id < 0:
            await self.on_chat_closed(chat_id)
            return
        notices, games = await self.players.forbid(chat_id)
        self.publisher.post(notices)
        for game_id in games:
            self.scheduler.poke(game_id)

    async def stats(self, user_id: int) -> UserStats:
        return await self.players.stats(user_id)

    async def top(self, chat_id: int) -> list[ChatRank]:
        return await self.players.top(chat_id)

    async def game_options(self, game_id: int) -> dict[str, JSONValue] | None:
        return await self.players.game_options(game_id)

    async def game_for_rules(
        self, chat_id: int, thread_id: int, game_id: int | None = None
    ) -> GameRow | None:
        return await self.players.game_for_rules(chat_id, thread_id, game_id)

    async def lang_of(self, game_id: int) -> str | None:
        return await self.players.lang_of(game_id)

    # ----------------------------------------------------------------------------------------------- lobby

    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        kind: GameKind = GameKind.KONCHINKA,
        options: dict[str, JSONValue] | None = None,
    ) -> int:
        change = await self.lobby.open(chat_id, thread_id, creator, kind, options)
        self._made(change)
        return change.match.game.id

    def default_options(self, kind: GameKind) -> dict[str, JSONValue]:
        """A new lobby's options for ``kind`` under this bot's settings."""
        return plugin_of(kind).default_options(self.config.default_target)

    async def join(self, game_id: int, person: Person, is_member: MemberCheck) -> views.Answer:
        change = await self.lobby.join(game_id, person, is_member)
        return self._made(change) or views.Answer.JOINED

    async def joined_notice(self, game_id: int, lang: str | None) -> views.Rendered | None:
        """What the private chat says after joining a group game: which game, which group, what comes next
        (None when the group's title cannot be had: the short answer then says it)."""
        game = await self.store.game(game_id)
        if game is None or game.mode is not GameMode.GROUP or self.membership is None:
            return None
        title = await self.membership.title(game.chat_id)
        if not title:
            return None
        tr = translator_for(lang)
        return views.render_joined(title, tr.t(f"game-{game.kind}"), tr)

    async def leave(self, game_id: int, person: Person) -> views.Answer:
        return self._made(await self.lobby.leave(game_id, person)) or views.Answer.LEFT

    async def add_bot(self, game_id: int, person: Person, level: str) -> views.Answer:
        return self._made(await self.lobby.add_bot(game_id, person, level)) or views.Answer.BOT_ADDED

    async def remove_bot(self, game_id: int, person: Person, seat: str) -> views.Answer:
        return self._made(await self.lobby.remove_bot(game_id, person, seat)) or views.Answer.BOT_REMOVED

    async def show_screen(self, game_id: int, person: Person, screen: views.LobbyScreen) -> None:
        self._made(await self.lobby.show_screen(game_id, person, screen))

    async def set_option(self, game_id: int, person: Person, key: str, value: str) -> views.Answer:
        return (
            self._made(await self.lobby.set_option(game_id, person, key, value)) or views.Answer.SETTING_SAVED
        )

    async def start(self, game_id: int, person: Person) -> None:
        self._made(await self.lobby.start(game_id, person))

    async def cancel(
        self, chat_id: int, thread_id: int, person: Person, is_admin: AdminCheck
    ) -> views.Answer:
        """``/cancel`` in a group, or the lobby's cancel button: the creator or a chat admin."""
        change = await self.lobby.cancel_in_chat(chat_id, thread_id, person, is_admin)
        return self._made(change) or views.Answer.GAME_CANCELLED

    async def cancel_game(self, game_id: int, person: Person, is_admin: AdminCheck) -> views.Answer:
        return self._made(await self.lobby.cancel(game_id, person, is_admin)) or views.Answer.GAME_CANCELLED

    async def cancel_solo(self, person: Person) -> views.Answer:
        return self._made(await self.lobby.cancel_solo(person)) or views.Answer.GAME_CANCELLED

    async def rematch(self, game_id: int, person: Person) -> int:
        change = await self.lobby.rematch(game_id, person)
        self._made(change)
        return change.match.game.id

    async def start_solo(
        self,
        person: Person,
        kind: GameKind,
        opponents: int,
        level: Level,
        *,
        options: dict[str, JSONValue] | None = None,
        adopt_message: int | None = None,
    ) -> int:
        """A private game against ``opponents`` bot players, in one live message (``adopt_message``, if any)."""
        change = await self.lobby.start_solo(person, kind, opponents, level, options=options)
        game_id = change.match.game.id
        if adopt_message is not None:
            await self.publisher.adopt_hand(game_id, person.user_id, adopt_message)
        self._made(change)
        return game_id

    # ---------------------------------------------------------------------------------------------- moves

    async def pick(self, game_id: int, person: Person, version: int, card: str) -> None:
        """The first tap on a card: show what it can do; a card with one action plays at once."""
        self._made(await self.moves.pick(game_id, person, version, card))

    async def back(self, game_id: int, person: Person, version: int) -> None:
        self._made(await self.moves.back(game_id, person, version))

    async def play(self, game_id: int, person: Person, version: int, index: int) -> None:
        """Play ``view.legal_actions[index]`` of the party at ``version``."""
        self._made(await self.moves.play(game_id, person, version, index))

    async def stale_press(self, game_id: int, user_id: int, chat_id: int, message_id: int) -> None:
        """A press came too late from ``message_id``: if that is not the player's live hand (which shows the
        present anyway), it is a dead keyboard the bot lost track of, and it goes."""
        if chat_id == user_id and await self.outbox.delete_stray(
            hand_slot(game_id, user_id), chat_id, message_id
        ):
            log.info("game %s: a stray hand message %s in chat %s deleted", game_id, message_id, chat_id)

    async def take_seat(self, game_id: int, person: Person) -> views.Answer:
        return self._made(await self.moves.take_seat(game_id, person)) or views.Answer.SEAT_TAKEN_BACK

    async def show_hand(self, game_id: int, person: Person) -> None:
        """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of the chat
        (the old one may have been deleted by the player, and edits of it would go nowhere)."""
        async with self.store.mutate(game_id) as unit:
            match = unit.match
            if not match.game.status.is_active:
                raise ServiceError(views.Answer.NO_GAME)
            if match.seat_of(person.user_id) is None:
                raise ServiceError(views.Answer.NOT_A_PLAYER)
        if match.game.status is GameStatus.PLAYING:
            self.publisher.publish(match, renew={person.user_id})

    async def show_table(self, game_id: int, person: Person) -> None:
        """«📋 Стол»: the whole table, privately, to a player of the game (one copy, sent anew below)."""
        self._send_table(game_id, person, await self.peeks.table(game_id, person))

    async def show_tables(self, person: Person) -> None:
        """``/score`` in private: the whole table of every running game the person plays in."""
        tables = await self.peeks.tables_of(person)
        if not tables:
            raise ServiceError(views.Answer.NO_GAME)
        for game_id, rendered in tables:
            self._send_table(game_id, person, rendered)

    def _send_table(self, game_id: int, person: Person, rendered: views.Rendered) -> None:
        slot = table_slot(game_id, person.user_id)
        self.outbox.show(slot, person.user_id, rendered.text, rendered.markup, renew=True)

    async def hint(self, game_id: int, person: Person, version: int) -> str:
        """«💡 Подсказка» in a solo game: what «мастер» would play now, and why (nothing is played)."""
        return await self.peeks.hint(game_id, person, version)

    async def review(self, game_id: int, person: Person) -> None:
        """«🔍 Разбор партии»: the person's costliest moves in the finished game, sent to them privately."""
        rendered = await self.peeks.review(game_id, person)
        await self.publisher.say(person.user_id, rendered.text, rendered.markup)

    async def repost(self, chat_id: int, thread_id: int) -> None:
        """``/score``: the table message again at the bottom of the chat (the old one deleted)."""
        game = await self.players.active_game_in(chat_id, thread_id)
        if game is None:
            raise ServiceError(views.Answer.NO_GAME)
        await self._show(game.id, renew_group=True)

    async def tick(self, game_id: int) -> float | None:
        """Do whatever is due for this game now (see :meth:`Scheduler.tick`)."""
        return await self.scheduler.tick(game_id)

    # ------------------------------------------------------------------------------------- chat lifecycle

    async def on_chat_closed(self, chat_id: int) -> None:
        """The bot was removed from a group (or may not post there): nothing more is sent to it."""
        for game_id in await self.chats.close(chat_id):
            await self._show(game_id, poke=True)

    async def on_chat_open(self, chat_id: int) -> None:
        """The bot is back in a group: the kept notices go out and every running game's table is posted anew."""
        games, hidden = await self.chats.open(chat_id)
        for game_id in games:
            await self._show(game_id, renew_group=True)
        for game_id in hidden:
            # The old lobby message still offers to join: it now says the lobby was cancelled.
            await self._show(game_id)
        log.info("chat %s: the bot may post again; %d games republished", chat_id, len(games))

    async def on_topic_reopened(self, chat_id: int, thread_id: int) -> None:
        """A closed forum topic opened again: the notices kept meanwhile go out, the game's table anew below."""
        game = await self.chats.topic_reopened(chat_id, thread_id)
        if game is None:
            return
        await self._show(game.id, renew_group=True)
        log.info("game %s: topic %s of chat %s reopened; the table posted anew", game.id, thread_id, chat_id)

    async def on_chat_migrated(self, old: int, new: int) -> None:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        for game_id in await self.chats.migrate(old, new):
            await self._show(game_id, renew_group=True, poke=True)
