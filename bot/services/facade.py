"""The façade: the one thing handlers call. It wires the rooms of the game service together.

Each room does one job — :mod:`~bot.services.store` (the games in memory, the unit of work),
:mod:`~bot.services.lobby`, :mod:`~bot.services.moves`, :mod:`~bot.services.turns` (what each game's timer finds
due: bot players, reminders, time running out), :mod:`~bot.services.players`, :mod:`~bot.services.chats`,
:mod:`~bot.services.hints` — and returns what it changed (a :class:`Change`). Every change, a person's press or
a timer's, then takes one path, :meth:`GameService._made`: its notices go out, its messages are redrawn by the
:mod:`~bot.services.publisher` (which only the façade calls), and its game's timer (:class:`TurnTimers`) wakes.

Handlers import only this module: it also re-exports what they need of the service (``Person``, ``ServiceError``,
the membership checks, :func:`answer_press`) and answers commands through :meth:`GameService.say`.
"""

from __future__ import annotations

import logging

from aiogram.types import InlineKeyboardMarkup

# bot.views first: its lobby view imports the plug-ins, which import bot.views.models.
from bot import views
from bot.games import plugin_of
from bot.i18n import translator_for
from bot.services.abandoned import end_abandoned
from bot.services.access import Membership, admin_check, member_check
from bot.services.chats import Chats
from bot.services.clock import Clock
from bot.services.config import AdminCheck, MemberCheck, Person, ServiceConfig
from bot.services.errors import ServiceError
from bot.services.hints import Hints
from bot.services.languages import CHAT_LOCALE, USER_LOCALE, ChatLanguages
from bot.services.lobby import Lobby
from bot.services.moves import Moves
from bot.services.notices import Notices
from bot.services.operator import HOUR, Operator
from bot.services.outbox import Outbox
from bot.services.players import Players
from bot.services.presses import answer_press
from bot.services.publisher import Publisher, hand_slot, setup_slot
from bot.services.screens import Screens
from bot.services.store import CURRENT_GAME, Change, Match, Store
from bot.services.thinker import Thinker
from bot.services.throttle import RefusalThrottle
from bot.services.timers import TurnTimers
from bot.services.turns import Turns
from bot.storage import Database, GameMode, GameRow, GameStatus, repo
from bot.storage.models import ChatRank, UserStats
from engine.ai import Level
from engine.core import JSONValue

log = logging.getLogger(__name__)

__all__ = [
    "CHAT_LOCALE",
    "HOUR",
    "USER_LOCALE",
    "AdminCheck",
    "GameRow",
    "GameService",
    "MemberCheck",
    "Operator",
    "Person",
    "ServiceConfig",
    "ServiceError",
    "answer_press",
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
        self.screens = Screens()
        self.publisher = Publisher(outbox, self.screens, bot_username)
        notices = Notices(bot_username)
        self.lobby = Lobby(self.store, self.screens, config, outbox.is_refused)
        self.moves = Moves(self.store, notices, self.screens, config)
        self.thinker = thinker if thinker is not None else Thinker(0)
        self.turns = Turns(self.store, self.moves, clock, config, self.thinker)
        self.timers = TurnTimers(clock, self._on_timer)
        self.players = Players(self.store, notices)
        self.chats = Chats(self.store, outbox)
        self.hints = Hints(self.store, self.thinker)
        self.languages = ChatLanguages(db)

    # ---------------------------------------------------------------------------------------------- wiring

    def _made(self, change: Change) -> views.Answer | None:
        """A committed change becomes visible: its notices go out, its messages are redrawn, its timer wakes."""
        match = change.match
        game_id = match.game.id
        if change.timer_move and match.party is not None:
            self.screens.timer_moves[game_id] = match.party.version
        if not match.game.status.is_active:
            self.screens.forget(game_id)
        if change.wake_timer:
            self.turns.changed(game_id, match)
        self.publisher.post(change.notices)
        self.publisher.publish(
            match, resend=change.resend, resend_table=change.resend_table, after=change.notices
        )
        if change.reminder is not None:
            seat, seconds_left = change.reminder
            self.publisher.remind(match, match.seats[seat], seconds_left)
        if change.wake_timer:
            self.timers.poke(game_id, match)
        return change.answer

    async def _on_timer(self, game_id: int, fresh: Match | None) -> float | None:
        """A game's timer: what is due is done (:meth:`Turns.act`) and made known like any change."""
        change, delay = await self.turns.act(game_id, fresh)
        if change is not None:
            self._made(change)
        return delay

    async def _show(
        self, game_id: int, *, resend: set[int] | None = None, resend_table: bool = False, wake: bool = False
    ) -> None:
        """Redraw a game's messages as they are now (a game that is gone is skipped)."""
        match = await self.store.read(game_id)
        if match is None:
            return
        self.publisher.publish(match, resend=resend or set(), resend_table=resend_table)
        if wake:
            self.timers.poke(game_id)

    # ------------------------------------------------------------------------------------------- lifecycle

    async def resume(self) -> int:
        """After a start: republish every active game and restart its timer. Returns how many."""
        games = await self.turns.resume()
        await self.publisher.recall_reminders(games)
        for game_id in games:
            await self._show(game_id, wake=True)
        return len(games)

    async def end_abandoned(self, idle_for: float) -> int:
        """End the games nobody has moved in for ``idle_for`` seconds (:mod:`bot.services.abandoned`)."""
        return await end_abandoned(self.store, self.clock.now(), idle_for, self.say, self._show)

    async def close(self) -> None:
        await self.timers.close()

    # --------------------------------------------------------------------------------------------- replies

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off reply to a command or press."""
        await self.publisher.say(chat_id, text, markup, thread_id=thread_id)

    async def show_rules(self, chat_id: int, rendered: views.Rendered, *, thread_id: int = 0) -> None:
        """A rules message: the chat's one, sent anew below (the previous one deleted)."""
        self.publisher.show_rules(chat_id, thread_id, rendered)

    async def turn_rules_page(self, chat_id: int, message_id: int, page: views.Rendered, thread: int) -> None:
        self.publisher.turn_rules_page(chat_id, thread, message_id, page)

    async def turn_setup_page(self, chat_id: int, message_id: int, rendered: views.Rendered) -> None:
        self.publisher.turn_page(setup_slot(chat_id, message_id), chat_id, message_id, rendered)

    def admin_check(self, user_id: int) -> AdminCheck:
        """Ask Telegram (only when needed, and cached) whether the user administers the game's chat."""
        return admin_check(self.membership, user_id)

    def member_check(self, user_id: int) -> MemberCheck:
        """Ask Telegram (cached) whether the user is a member of the game's chat."""
        return member_check(self.membership, user_id)

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
            await self._show(game_id, resend={person.user_id})

    async def on_forbidden(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id``: a person who never opened the bot or blocked it."""
        if chat_id < 0:
            await self.on_chat_closed(chat_id)
            return
        notices, games = await self.players.forbid(chat_id)
        self.publisher.post(notices)
        for game_id in games:
            self.timers.poke(game_id)

    async def stats(self, user_id: int) -> list[UserStats]:
        return await self.players.stats(user_id)

    async def top(self, chat_id: int, kind: str) -> list[ChatRank]:
        return await self.players.top(chat_id, kind)

    async def game_for_rules(
        self, chat_id: int, thread_id: int, game_id: int | None = None
    ) -> GameRow | None:
        return await self.players.game_for_rules(chat_id, thread_id, game_id)

    # ----------------------------------------------------------------------------------------------- lobby

    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        kind: str,
        options: dict[str, JSONValue] | None = None,
    ) -> int:
        change = await self.lobby.open(chat_id, thread_id, creator, kind, options)
        self._made(change)
        return change.match.game.id

    def new_options(self, kind: str, choice: str) -> dict[str, JSONValue]:
        """A new lobby's options for one of the game's /new choices, under this bot's settings."""
        try:
            return plugin_of(kind).new_options(choice, self.config.default_target)
        except ValueError:
            raise ServiceError(views.Answer.UNKNOWN) from None

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
        kind: str,
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
            self.publisher.adopt_hand(game_id, person.user_id, adopt_message)
        self._made(change)
        return game_id

    # ---------------------------------------------------------------------------------------------- moves

    async def pick(self, game_id: int, person: Person, version: int, card: str) -> None:
        """The first tap on a card (or another pick, such as «🏁 Прикончить!»): show what it can do."""
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

    async def pressed(self, game_id: int, user_id: int, chat_id: int, message_id: int, version: int) -> None:
        """A move button of ``version`` was pressed in ``message_id``: if that version is current and the message
        is a hand newer than the one the bot knows (its send was not recorded before a crash), it becomes the
        player's live hand."""
        if chat_id != user_id:
            return
        match = await self.store.read(game_id)
        if match is None or match.party is None or match.party.version != version:
            return  # a late press: answered as such (and a stray message deleted) by the move itself
        if await self.outbox.adopt_newer(hand_slot(game_id, user_id), chat_id, message_id):
            log.info(
                "game %s: hand message %s of %s adopted (its send was not recorded)",
                game_id,
                message_id,
                user_id,
            )

    async def take_seat(self, game_id: int, person: Person) -> views.Answer:
        return self._made(await self.moves.take_seat(game_id, person)) or views.Answer.SEAT_TAKEN_BACK

    async def show_hand(self, game_id: int, person: Person) -> None:
        """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of the chat
        (the old one may have been deleted by the player, and edits of it would go nowhere)."""
        match = await self.store.read(game_id)
        if match is None or not match.game.status.is_active:
            raise ServiceError(views.Answer.NO_GAME)
        if match.seat_of(person.user_id) is None:
            raise ServiceError(views.Answer.NOT_A_PLAYER)
        if match.game.status is GameStatus.PLAYING:
            self.publisher.publish(match, resend={person.user_id})

    async def hand_back(self, person: Person, *, solo_only: bool = False) -> int:
        """/start, /play, /score in private: the hand of each running game (or the solo one) anew below."""
        matches = await self.players.running(person.user_id, solo_only=solo_only)
        for match in matches:
            self.publisher.publish(match, resend={person.user_id})
        return len(matches)

    async def leave_game(self, chat_id: int, thread_id: int, person: Person) -> None:
        """/leave: the person's seat in the running game here (in private: in each) goes to a bot player."""
        for change in await self.players.leave(chat_id, thread_id, person):
            self._made(change)

    async def can_write(self, user_id: int) -> bool:
        """Whether the bot may write to this person's private chat (they started it and did not block it)."""
        return await self.players.can_write(user_id)

    async def show_table(self, game_id: int, person: Person) -> None:
        """«📋 Стол»: the whole table, privately, to a player of the game (one copy, sent anew below)."""
        match = await self.store.read(game_id)
        if match is None:
            raise ServiceError(views.Answer.NO_GAME)
        self.publisher.show_table(match, person.user_id)

    async def show_tables(self, person: Person) -> None:
        """``/score`` in private: the whole table of every running game the person plays in."""
        shown = 0
        for game in await repo.games_of_user(self.store.db, person.user_id, (GameStatus.PLAYING,)):
            match = await self.store.read(game.id)
            if match is not None and match.game.status is GameStatus.PLAYING:
                self.publisher.show_table(match, person.user_id)
                shown += 1
        if not shown:
            raise ServiceError(views.Answer.NO_GAME)

    async def hint(self, game_id: int, person: Person, version: int) -> str:
        """«💡 Подсказка» in a solo game: what «мастер» would play now, and why (nothing is played)."""
        return await self.hints.hint(game_id, person, version)

    async def review(self, game_id: int, person: Person) -> None:
        """«🔍 Разбор партии»: the person's costliest moves in the finished game, sent to them privately."""
        rendered = await self.hints.review(game_id, person)
        await self.publisher.say(person.user_id, rendered.text, rendered.markup)

    async def repost(self, chat_id: int, thread_id: int) -> None:
        """``/score``: the table message again at the bottom of the chat (the old one deleted)."""
        game = await self.players.active_game_in(chat_id, thread_id)
        if game is None:
            raise ServiceError(views.Answer.NO_GAME)
        await self._show(game.id, resend_table=True)

    # ------------------------------------------------------------------------------------- chat lifecycle

    async def on_chat_closed(self, chat_id: int) -> None:
        """The bot was removed from a group (or may not post there): nothing more is sent to it."""
        for game_id in await self.chats.close(chat_id):
            await self._show(game_id, wake=True)

    async def on_chat_open(self, chat_id: int) -> None:
        """The bot is back in a group: the kept notices go out and every running game's table is posted anew."""
        games, hidden = await self.chats.open(chat_id)
        for game_id in games:
            await self._show(game_id, resend_table=True)
        for game_id in hidden:
            # The old lobby message still offers to join: it now says the lobby was cancelled.
            await self._show(game_id)
        log.info("chat %s: the bot may post again; %d games republished", chat_id, len(games))

    async def on_topic_reopened(self, chat_id: int, thread_id: int) -> None:
        """A closed forum topic opened again: the notices kept meanwhile go out, the game's table anew below."""
        game = await self.chats.topic_reopened(chat_id, thread_id)
        if game is None:
            return
        await self._show(game.id, resend_table=True)
        log.info("game %s: topic %s of chat %s reopened; the table posted anew", game.id, thread_id, chat_id)

    async def on_chat_migrated(self, old: int, new: int) -> None:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        self.languages.migrate(old, new)
        for game_id in await self.chats.migrate(old, new):
            await self._show(game_id, resend_table=True, wake=True)
