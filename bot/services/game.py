"""The game service: lobbies, moves, bot players, AFK timers and publishing the views.

Every change follows one path: take the game's ``asyncio.Lock``, load the game (the state is rebuilt from its
record with ``engine.core.replay`` and cached), check the press (game, seat, version), apply the action to a
clone, then write the record, the version, the moves row, the seats and any notices in **one** transaction
(``record_move`` refuses a version that moved on; ``moves`` is keyed by (game, version)). Only then is the
cached state replaced and the new views handed to the outbox, and the game's timer woken.

The timer of a game (:meth:`GameService.tick`) does what is due: a bot player's move after a short pause, the
AFK reminder and the move made for a player whose time ran out, a lobby's expiry. Deadlines live in the
database, so :meth:`GameService.resume` picks every game up again after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiogram.types import User

from bot import views
from bot.callbacks import GameKind, SettingKey
from bot.games import AnyPlugin, plugin_of
from bot.i18n import Translator, locale_for, translator
from bot.services.clock import Clock
from bot.services.errors import ServiceError
from bot.services.memory import GameLocks, StateCache
from bot.services.outbox import Outbox
from bot.services.updates import mark_current_update
from bot.storage import Actor, Database, GameMode, GameRow, GameStatus, Notice, SeatRow, Tx, UserRow, repo
from bot.storage.models import ChatRank, UserStats
from bot.storage.repo import StaleVersionError
from bot.views import Answer, LobbyInfo, LobbyScreen, LobbyStatus, Rendered, SeatInfo, TableInfo
from bot.views.models import number_bots
from engine.ai import Level, choose_action
from engine.core import CommonIllegal, GameRecord, IllegalActionError, State, make_game, replay

log = logging.getLogger(__name__)

AdminCheck = Callable[[int], Awaitable[bool]]
"""Whether the person administers the chat with this id (asked of Telegram, outside any game's lock)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Whether the person is a member of the chat with this id (likewise)."""


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    lobby_ttl: float = 1800.0
    turn_timeout: int = 60
    reminder_before: float = 15.0
    afk_strikes: int = 2
    bot_delay: float = 1.0
    game_seed: int | None = None
    default_target: int | None = None
    ai_budget_ms: float | None = None
    max_open_lobbies: int = 3
    """Lobbies one person may have open at once (across all groups)."""


@dataclass(frozen=True, slots=True)
class Person:
    """A Telegram user as the service needs them."""

    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None

    @classmethod
    def from_user(cls, user: User) -> Person:
        return cls(user.id, user.full_name, user.username, user.language_code)


@dataclass(slots=True)
class Loaded:
    game: GameRow
    seats: list[SeatRow]
    users: dict[int, UserRow]
    state: State | None

    def seat_of(self, user_id: int) -> SeatRow | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def spec(self) -> AnyPlugin:
        return plugin_of(self.game.kind)


@dataclass(slots=True)
class _Memory:
    """What the service keeps in memory only (lost on restart, harmless).

    ``changed_at``: when each game last changed, the start of a bot player's pause; a game missing here (after
    a restart) is stamped by its first tick.
    """

    screens: dict[int, LobbyScreen] = field(default_factory=dict)
    picks: dict[tuple[int, int], str] = field(default_factory=dict)
    changed_at: dict[int, float] = field(default_factory=dict)
    hidden_lobbies: dict[int, list[int]] = field(default_factory=dict)
    """Lobbies cancelled while the bot was out of their group, by chat: their messages are updated on its return."""


def group_slot(game_id: int) -> str:
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    return f"h{game_id}:{user_id}"


class GameService:
    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        clock: Clock,
        config: ServiceConfig,
        bot_username: str,
    ) -> None:
        self.db = db
        self.outbox = outbox
        self.clock = clock
        self.config = config
        self.bot_username = bot_username
        self._locks = GameLocks()
        self._states = StateCache(clock.now)
        self._mem = _Memory()
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._closed = False

    # ------------------------------------------------------------------------------------------- lifecycle

    async def resume(self) -> int:
        """After a start: republish every active game and restart its timer. Returns how many."""
        async with self.db.tx() as tx:
            games = await repo.active_games(tx)
            now = self.clock.now()
            for game in games:
                if game.deadline is not None:
                    # Time spent down is not the player's fault: leave them a short grace.
                    grace = min(float(game.turn_timeout or self.config.turn_timeout), 15.0)
                    if game.deadline < now + grace:
                        await repo.set_deadline(tx, game.id, now + grace)
        for game in games:
            async with self._locks[game.id]:
                loaded = await self._load(game.id)
                if loaded is not None:
                    self._publish(loaded)
            self._poke(game.id)
        return len(games)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._timers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ----------------------------------------------------------------------------------------------- users

    async def seen(self, person: Person, *, started: bool = False) -> None:
        """Remember a user (and, for a private /start, that the bot may write to them)."""
        if started:
            self.outbox.allow(person.user_id)
        async with self.db.tx() as tx:
            before = await repo.get_user(tx, person.user_id)
            await repo.upsert_user(
                tx, person.user_id, person.name, person.username, person.lang, started=started
            )
        if started and before is not None and before.blocked:
            await self._republish_user(person.user_id)

    async def on_forbidden(self, chat_id: int) -> None:
        """The outbox could not write to ``chat_id``: a person who never opened the bot or blocked it."""
        if chat_id < 0:
            await self.on_chat_closed(chat_id)
            return
        async with self.db.tx() as tx:
            user = await repo.get_user(tx, chat_id)
            if user is not None and user.blocked:
                return
            if user is None:
                await repo.upsert_user(tx, chat_id, "", None, None)
            await repo.set_blocked(tx, chat_id, True)
            games = await repo.games_of_user(tx, chat_id, (GameStatus.PLAYING, GameStatus.LOBBY))
            notices: list[Notice] = []
            now = self.clock.now()
            for game in games:
                if game.mode is not GameMode.GROUP:
                    continue
                seats = await repo.seats_of(tx, game.id)
                seat = next((s for s in seats if s.user_id == chat_id), None)
                if seat is None:
                    continue
                tr = self._tr(game.lang)
                info = self._seat_info(seat, {})
                info = SeatInfo(info.name, info.user_id, is_reachable=False)
                rendered = views.render_start_bot(info, game.key, self.bot_username, tr)
                notices.append(await self._notice(tx, game.chat_id, game.thread_id, rendered, now))
                if game.status is GameStatus.PLAYING and game.deadline is None:
                    await self._set_deadline_if_needed(tx, game.id)
        self.outbox.post(notices)
        for game in games:
            self._poke(game.id)

    async def _republish_user(self, user_id: int) -> None:
        async with self.db.tx() as tx:
            games = await repo.games_of_user(tx, user_id, (GameStatus.PLAYING, GameStatus.LOBBY))
        for game in games:
            async with self._locks[game.id]:
                loaded = await self._load(game.id)
                if loaded is not None:
                    self._publish(loaded, renew={user_id})

    # ----------------------------------------------------------------------------------------------- lobby

    async def open_lobby(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        kind: GameKind = GameKind.KONCHINKA,
        options: dict[str, Any] | None = None,
        *,
        turn_timeout: int | None = None,
        seats: Sequence[SeatRow] = (),
    ) -> int:
        """A new lobby in a group; the creator sits down at once if the bot may already write to them."""
        spec = plugin_of(kind)
        now = self.clock.now()
        if self.outbox.is_refused(chat_id):
            # The bot cannot post there (removed, or not allowed to write): a lobby nobody sees would block the chat.
            log.info("no lobby in chat %s: the bot cannot post there", chat_id)
            raise ServiceError(Answer.UNKNOWN)
        try:
            async with self.db.tx() as tx:
                if await repo.active_game_in_chat(tx, chat_id, thread_id) is not None:
                    raise ServiceError(Answer.GAME_RUNNING)
                if await repo.open_lobbies_of(tx, creator.user_id) >= self.config.max_open_lobbies:
                    log.info("no lobby in chat %s: %s has too many open", chat_id, creator.user_id)
                    raise ServiceError(Answer.TOO_MANY_LOBBIES)
                await repo.upsert_user(tx, creator.user_id, creator.name, creator.username, creator.lang)
                game_id = await repo.insert_game(
                    tx,
                    kind=spec.kind.value,
                    mode=GameMode.GROUP,
                    status=GameStatus.LOBBY,
                    chat_id=chat_id,
                    thread_id=thread_id,
                    creator_id=creator.user_id,
                    options=options or spec.default_options(self.config.default_target),
                    turn_timeout=self.config.turn_timeout if turn_timeout is None else turn_timeout,
                    lang=locale_for(creator.lang).value,
                    now=now,
                    expires_at=now + self.config.lobby_ttl,
                )
                if seats:
                    for seat in seats[: spec.max_players]:
                        await repo.add_seat(
                            tx, game_id, seat.user_id, seat.name, seat.level if seat.is_bot else None
                        )
                else:
                    user = await repo.get_user(tx, creator.user_id)
                    if user is not None and user.reachable:
                        await repo.add_seat(tx, game_id, creator.user_id, creator.name, None)
                await mark_current_update(tx, now)
        except sqlite3.IntegrityError:
            raise ServiceError(Answer.GAME_RUNNING) from None
        await self._after_change(game_id)
        return game_id

    async def join(self, game_id: int, person: Person, is_member: MemberCheck) -> Answer:
        """``/start j_<game>`` in private: take a seat in the lobby — only a member of the lobby's group may.

        Game ids are sequential, so a link is easy to guess: membership is asked of Telegram (outside the lock).
        """
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        if (
            game.mode is GameMode.GROUP
            and game.status is GameStatus.LOBBY
            and not await is_member(game.chat_id)
        ):
            log.info("game %s: %s is not in chat %s and may not join", game_id, person.user_id, game.chat_id)
            raise ServiceError(Answer.NOT_IN_GROUP)
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None:
                raise ServiceError(Answer.NO_GAME)
            if loaded.game.status is GameStatus.PLAYING:
                if loaded.seat_of(person.user_id) is not None:
                    return Answer.ALREADY_JOINED
                raise ServiceError(Answer.GAME_RUNNING)
            if loaded.game.status is not GameStatus.LOBBY:
                raise ServiceError(Answer.LOBBY_CLOSED)  # expired, cancelled or long over
            if loaded.seat_of(person.user_id) is not None:
                return Answer.ALREADY_JOINED
            if len(loaded.seats) >= loaded.spec.max_players:
                raise ServiceError(Answer.LOBBY_FULL)
            async with self.db.tx() as tx:
                await repo.upsert_user(
                    tx, person.user_id, person.name, person.username, person.lang, started=True
                )
                await repo.add_seat(tx, game_id, person.user_id, person.name, None)
                await mark_current_update(tx, self.clock.now())
        await self._after_change(game_id)
        return Answer.JOINED

    async def leave(self, game_id: int, person: Person) -> Answer:
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            seat = loaded.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            async with self.db.tx() as tx:
                await repo.remove_seat(tx, game_id, seat.seat)
                await mark_current_update(tx, self.clock.now())
        await self._after_change(game_id)
        return Answer.LEFT

    async def add_bot(self, game_id: int, person: Person, level: str) -> Answer:
        try:
            bot_level = Level(level)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            self._require_creator(loaded, person)
            if len(loaded.seats) >= loaded.spec.max_players:
                raise ServiceError(Answer.LOBBY_FULL)
            async with self.db.tx() as tx:
                await repo.add_seat(tx, game_id, None, "", bot_level.value)
                await mark_current_update(tx, self.clock.now())
            self._mem.screens.pop(game_id, None)
        log.info("game %s: a bot player (%s) added", game_id, bot_level.value)
        await self._after_change(game_id)
        return Answer.BOT_ADDED

    async def remove_bot(self, game_id: int, person: Person, seat: str) -> Answer:
        """The creator takes the bot player in lobby seat ``seat`` away."""
        try:
            index = int(seat)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            self._require_creator(loaded, person)
            if not 0 <= index < len(loaded.seats) or not loaded.seats[index].is_bot:
                raise ServiceError(Answer.STALE)
            async with self.db.tx() as tx:
                await repo.remove_seat(tx, game_id, index)
                await mark_current_update(tx, self.clock.now())
            if not any(s.is_bot for i, s in enumerate(loaded.seats) if i != index):
                self._mem.screens.pop(game_id, None)
        log.info("game %s: the bot player in seat %s removed", game_id, index)
        await self._after_change(game_id)
        return Answer.BOT_REMOVED

    async def show_screen(self, game_id: int, person: Person, screen: LobbyScreen) -> None:
        """Switch the lobby message between its main, settings and bot-level screens."""
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            if screen is LobbyScreen.SETTINGS and person.user_id != loaded.game.creator_id:
                raise ServiceError(Answer.NOT_CREATOR)
            if screen is LobbyScreen.BOT_LEVEL:
                self._require_creator(loaded, person)
            self._mem.screens[game_id] = screen
            self._publish(loaded)

    async def set_option(self, game_id: int, person: Person, key: str, value: str) -> Answer:
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            if person.user_id != loaded.game.creator_id:
                raise ServiceError(Answer.NOT_CREATOR)
            options = dict(loaded.game.options)
            turn_timeout = loaded.game.turn_timeout
            try:
                setting = SettingKey(key)
                if setting is SettingKey.TURN_TIME:
                    turn_timeout = int(value)
                    if not 0 <= turn_timeout <= 3600:
                        raise ValueError("turn time out of range")
                else:
                    options = loaded.spec.set_option(options, setting, value)
            except ValueError:
                raise ServiceError(Answer.UNKNOWN) from None
            async with self.db.tx() as tx:
                await repo.set_options(tx, game_id, options, turn_timeout)
                await mark_current_update(tx, self.clock.now())
        await self._after_change(game_id)
        return Answer.SETTING_SAVED

    async def start(self, game_id: int, person: Person) -> None:
        """The creator starts the party: the seats are fixed, the engine deals."""
        async with self._locks[game_id]:
            loaded = await self._lobby(game_id)
            if person.user_id != loaded.game.creator_id:
                raise ServiceError(Answer.NOT_CREATOR)
            spec = loaded.spec
            players = len(loaded.seats)
            if players < spec.min_players:
                raise ServiceError(Answer.NOT_ENOUGH_PLAYERS, count=spec.min_players)
            empty = spec.max_players - players if spec.fills_with_bots else 0
            record = self._new_record(spec, loaded.game.options, players + empty)
            async with self.db.tx() as tx:
                for _ in range(empty):
                    await repo.add_seat(tx, game_id, None, "", Level.NORMAL.value)
                await repo.start_game(tx, game_id, record)
                await self._set_deadline_if_needed(tx, game_id)
                await mark_current_update(tx, self.clock.now())
            self._mem.screens.pop(game_id, None)
        await self._after_change(game_id, renew_all=True)

    async def cancel(self, chat_id: int, thread_id: int, person: Person, is_admin: AdminCheck) -> Answer:
        """``/cancel`` in a group, or the lobby's cancel button: the creator or a chat admin."""
        async with self.db.tx() as tx:
            game = await repo.active_game_in_chat(tx, chat_id, thread_id)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        return await self.cancel_game(game.id, person, is_admin)

    async def cancel_game(self, game_id: int, person: Person, is_admin: AdminCheck) -> Answer:
        """The creator, or an admin of the game's own chat, cancels it.

        Admin rights are asked of Telegram before the game's lock is taken: a flood of presses by people who
        may not cancel must never hold up the players' moves.
        """
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
        if game is None or not game.status.is_active:
            raise ServiceError(Answer.NO_GAME)
        allowed = person.user_id == game.creator_id
        if not allowed and game.mode is GameMode.GROUP:
            allowed = await is_admin(game.chat_id)
        if not allowed:
            raise ServiceError(Answer.NOT_CREATOR_OR_ADMIN)
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None or not loaded.game.status.is_active:
                raise ServiceError(Answer.NO_GAME)
            if loaded.game.chat_id != game.chat_id and person.user_id != loaded.game.creator_id:
                # The group moved meanwhile (a migration): the rights were checked in the old chat.
                raise ServiceError(Answer.NOT_CREATOR_OR_ADMIN)
            log.info("game %s: cancelled by %s", game_id, person.user_id)
            async with self.db.tx() as tx:
                await repo.set_status(tx, game_id, GameStatus.CANCELLED, self.clock.now())
                await mark_current_update(tx, self.clock.now())
        await self._after_change(game_id)
        return Answer.GAME_CANCELLED

    async def rematch(self, game_id: int, person: Person) -> int:
        """A new game with the same players and options as a finished one (group: a lobby; solo: a game)."""
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
            seats = await repo.seats_of(tx, game_id) if game else []
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        if not any(s.user_id == person.user_id for s in seats):
            raise ServiceError(Answer.NOT_A_PLAYER)
        if game.status.is_active:
            raise ServiceError(Answer.GAME_RUNNING)
        options = dict(game.options)
        options.pop("players", None)
        if game.mode is GameMode.SOLO:
            bots = [s for s in seats if s.is_bot]
            level = Level(bots[0].level or Level.NORMAL) if bots else Level.NORMAL
            return await self.start_solo(person, GameKind(game.kind), len(bots), level, options=options)
        return await self.open_lobby(
            game.chat_id,
            game.thread_id,
            person,
            GameKind(game.kind),
            options,
            turn_timeout=game.turn_timeout,
            seats=seats,
        )

    # ------------------------------------------------------------------------------------------------ solo

    async def start_solo(
        self,
        person: Person,
        kind: GameKind,
        opponents: int,
        level: Level,
        *,
        options: dict[str, Any] | None = None,
        adopt_message: int | None = None,
    ) -> int:
        """A private game against ``opponents`` bot players, in one live message."""
        spec = plugin_of(kind)
        if not 1 <= opponents <= spec.max_players - 1:
            raise ServiceError(Answer.UNKNOWN)
        if spec.fills_with_bots and opponents != spec.max_players - 1:
            raise ServiceError(Answer.UNKNOWN)  # Кинг: always a full table
        lobby_options = options or spec.default_options(self.config.default_target)
        record = self._new_record(spec, lobby_options, opponents + 1)
        now = self.clock.now()
        try:
            async with self.db.tx() as tx:
                if await repo.active_game_in_chat(tx, person.user_id, 0) is not None:
                    raise ServiceError(Answer.GAME_RUNNING)
                await repo.upsert_user(
                    tx, person.user_id, person.name, person.username, person.lang, started=True
                )
                game_id = await repo.insert_game(
                    tx,
                    kind=spec.kind.value,
                    mode=GameMode.SOLO,
                    status=GameStatus.LOBBY,
                    chat_id=person.user_id,
                    thread_id=0,
                    creator_id=person.user_id,
                    options=lobby_options,
                    turn_timeout=0,
                    lang=locale_for(person.lang).value,
                    now=now,
                    expires_at=None,
                )
                await repo.add_seat(tx, game_id, person.user_id, person.name, None)
                for _ in range(opponents):
                    await repo.add_seat(tx, game_id, None, "", level.value)
                await repo.start_game(tx, game_id, record)
                await mark_current_update(tx, now)
        except sqlite3.IntegrityError:
            raise ServiceError(Answer.GAME_RUNNING) from None
        if adopt_message is not None:
            await self.outbox.adopt(hand_slot(game_id, person.user_id), person.user_id, adopt_message)
        await self._after_change(game_id)
        return game_id

    async def cancel_solo(self, person: Person) -> Answer:
        async with self.db.tx() as tx:
            game = await repo.active_game_in_chat(tx, person.user_id, 0)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        return await self.cancel_game(game.id, person, _no)

    # ---------------------------------------------------------------------------------------------- moves

    async def pick(self, game_id: int, person: Person, version: int, card: str) -> Answer | None:
        """The first tap on a card: show what it can do; a card with one action plays at once."""
        async with self._locks[game_id]:
            loaded, seat, state = await self._my_turn(game_id, person, version)
            indexes = loaded.spec.actions_of_card(state.view(seat.seat), card)
            if not indexes:
                refusal = loaded.spec.refusal(state, card)
                if refusal is not None:
                    raise ServiceError(refusal.reason, **refusal.params) from refusal
                raise ServiceError(CommonIllegal.NOT_LEGAL)
            if len(indexes) == 1:
                await self._play_locked(loaded, seat, state, indexes[0], Actor.PLAYER)
                return None
            self._mem.picks[(game_id, person.user_id)] = card
            self._publish(loaded)
        return None

    async def back(self, game_id: int, person: Person, version: int) -> None:
        async with self._locks[game_id]:
            loaded, _seat, _state = await self._my_turn(game_id, person, version)
            self._mem.picks.pop((game_id, person.user_id), None)
            self._publish(loaded)

    async def play(self, game_id: int, person: Person, version: int, index: int) -> None:
        """Play ``view.legal_actions[index]`` of the state at ``version``."""
        async with self._locks[game_id]:
            loaded, seat, state = await self._my_turn(game_id, person, version)
            await self._play_locked(loaded, seat, state, index, Actor.PLAYER)

    async def take_seat(self, game_id: int, person: Person) -> Answer:
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None or loaded.game.status is not GameStatus.PLAYING:
                raise ServiceError(Answer.NO_GAME)
            seat = loaded.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            if not seat.replaced:
                raise ServiceError(Answer.ALREADY_IN_GAME)
            now = self.clock.now()
            async with self.db.tx() as tx:
                await repo.set_seat_afk(tx, game_id, seat.seat, 0, False)
                await repo.upsert_user(tx, person.user_id, person.name, person.username, person.lang)
                await self._set_deadline_if_needed(tx, game_id)
                info = self._seat_info(seat, loaded.users)
                notice = await self._notice(
                    tx,
                    loaded.game.chat_id,
                    loaded.game.thread_id,
                    views.render_seat_back(info, self._tr(loaded.game.lang)),
                    now,
                )
                await mark_current_update(tx, now)
        self.outbox.post([notice])
        await self._after_change(game_id, renew={person.user_id})
        return Answer.SEAT_TAKEN_BACK

    async def show_hand(self, game_id: int, person: Person) -> None:
        """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of the chat
        (the old one may have been deleted by the player, and edits of it would go nowhere)."""
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None or not loaded.game.status.is_active:
                raise ServiceError(Answer.NO_GAME)
            if loaded.seat_of(person.user_id) is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            if loaded.game.status is GameStatus.PLAYING:
                self._publish(loaded, renew={person.user_id})

    async def repost(self, chat_id: int, thread_id: int) -> None:
        """``/score``: the table message again at the bottom of the chat (the old one deleted)."""
        async with self.db.tx() as tx:
            game = await repo.active_game_in_chat(tx, chat_id, thread_id)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        async with self._locks[game.id]:
            loaded = await self._load(game.id)
            if loaded is not None:
                self._publish(loaded, renew_group=True)

    async def stats(self, user_id: int) -> UserStats:
        async with self.db.tx() as tx:
            return await repo.user_stats(tx, user_id)

    async def top(self, chat_id: int) -> list[ChatRank]:
        async with self.db.tx() as tx:
            return await repo.chat_top(tx, chat_id)

    async def game_options(self, game_id: int) -> dict[str, Any] | None:
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
        return dict(game.options) if game else None

    async def game_for_rules(
        self, chat_id: int, thread_id: int, game_id: int | None = None
    ) -> GameRow | None:
        """Read-only: the game /rules should describe — ``game_id``, else the game open in this chat (topic)."""
        async with self.db.tx() as tx:
            if game_id is not None:
                return await repo.get_game(tx, game_id)
            return await repo.active_game_in_chat(tx, chat_id, thread_id)

    async def lang_of(self, game_id: int) -> str | None:
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
        return game.lang if game else None

    # ------------------------------------------------------------------------------------- chat lifecycle

    async def on_chat_closed(self, chat_id: int) -> None:
        """The bot was removed from a group (or may not post there): nothing more is sent to it.

        Its open lobbies are cancelled (nobody could see or join them); running games go on in the players'
        private chats, and their group messages wait for :meth:`on_chat_open`.
        """
        self.outbox.refuse(chat_id)
        async with self.db.tx() as tx:
            games = await repo.active_games_in(tx, chat_id)
        for game in games:
            if game.status is GameStatus.PLAYING:
                log.info(
                    "game %s: the bot cannot post in chat %s; the game goes on in private", game.id, chat_id
                )
                continue
            async with self._locks[game.id]:
                now = self.clock.now()
                async with self.db.tx() as tx:
                    current = await repo.get_game(tx, game.id)
                    if current is None or current.status is not GameStatus.LOBBY:
                        continue
                    await repo.set_status(tx, game.id, GameStatus.CANCELLED, now)
                    await mark_current_update(tx, now)
            log.info("game %s: lobby cancelled, the bot was removed from chat %s", game.id, chat_id)
            self._mem.hidden_lobbies.setdefault(chat_id, []).append(game.id)
            await self._after_change(game.id)

    async def on_chat_open(self, chat_id: int) -> None:
        """The bot is back in a group: the kept notices go out and every running game's table is posted anew."""
        await self.outbox.reopen(chat_id)
        async with self.db.tx() as tx:
            games = await repo.active_games_in(tx, chat_id)
        for game in games:
            async with self._locks[game.id]:
                loaded = await self._load(game.id)
                if loaded is not None:
                    self._publish(loaded, renew_group=True)
        for game_id in self._mem.hidden_lobbies.pop(chat_id, []):
            # The old lobby message still offers to join: it now says the lobby was cancelled.
            async with self._locks[game_id]:
                loaded = await self._load(game_id)
                if loaded is not None:
                    self._publish(loaded)
        log.info("chat %s: the bot may post again; %d games republished", chat_id, len(games))

    async def on_topic_reopened(self, chat_id: int, thread_id: int) -> None:
        """A closed forum topic opened again: the notices kept meanwhile go out, the game's table anew below."""
        await self.outbox.reopen(chat_id)
        async with self.db.tx() as tx:
            game = await repo.active_game_in_chat(tx, chat_id, thread_id)
        if game is None:
            return
        async with self._locks[game.id]:
            loaded = await self._load(game.id)
            if loaded is not None:
                self._publish(loaded, renew_group=True)
        log.info("game %s: topic %s of chat %s reopened; the table posted anew", game.id, thread_id, chat_id)

    async def on_chat_migrated(self, old: int, new: int) -> None:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        if old == new:
            return
        # Idempotent: both service messages and every refused call to the old id lead here.
        await self.outbox.migrate(old, new)
        async with self.db.tx() as tx:
            games = await repo.active_games_in(tx, old)
            try:
                await repo.move_chat(tx, old, new)
            except sqlite3.IntegrityError:
                # The new chat already opened a game of its own: the old chat's lobbies give way to it.
                for game in games:
                    if game.status is GameStatus.LOBBY:
                        await repo.set_status(tx, game.id, GameStatus.CANCELLED, self.clock.now())
                await repo.move_chat(tx, old, new)
        for game in games:
            log.info("game %s: chat %s was upgraded to supergroup %s; the game follows", game.id, old, new)
            async with self._locks[game.id]:
                loaded = await self._load(game.id)
                if loaded is not None:
                    self._publish(loaded, renew_group=True)
            self._poke(game.id)

    # ---------------------------------------------------------------------------------------------- timers

    async def tick(self, game_id: int) -> float | None:
        """Do whatever is due for this game now; the clock seconds until the next thing is due (None: none)."""
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None or not loaded.game.status.is_active:
                return None
            game = loaded.game
            now = self.clock.now()
            if game.status is GameStatus.LOBBY:
                if game.expires_at is None:
                    return None
                if now < game.expires_at:
                    return game.expires_at - now
                async with self.db.tx() as tx:
                    await repo.set_status(tx, game_id, GameStatus.EXPIRED, now)
                expired = await self._load(game_id)
                if expired is not None:
                    self._publish(expired)
                return None
            state = loaded.state
            assert state is not None
            if state.is_terminal:
                return None
            seat = loaded.seats[state.current_player]
            if seat.bot_plays:
                # The pause counts from the last change this run saw; a game this run has not seen change yet
                # (resumed after a restart) starts its pause now, so the due time never moves on.
                due = self._mem.changed_at.setdefault(game_id, now) + self.config.bot_delay
                if now < due:
                    return due - now
                view, level = state.view(seat.seat), self._level_of(seat)
            else:
                if game.deadline is None:
                    return None
                remind_at = game.deadline - self.config.reminder_before
                if not game.reminded and self.config.reminder_before > 0 and remind_at <= now < game.deadline:
                    await self._remind(loaded, seat, int(game.deadline - now))
                    remind_at = game.deadline
                if now < game.deadline:
                    return min(t for t in (remind_at, game.deadline) if t > now) - now
                view, level = state.view(seat.seat), Level.NORMAL
            version = state.version
            record_seed = state.seed
        # Think outside the lock: presses meanwhile are answered at once (they are not this seat's turn).
        rng = random.Random(f"{record_seed}/{version}")
        action = await asyncio.to_thread(choose_action, view, level, rng, budget_ms=self.config.ai_budget_ms)
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None or loaded.state is None or loaded.state.version != version:
                return 0.0
            seat = loaded.seats[loaded.state.current_player]
            actor = Actor.BOT if seat.bot_plays else Actor.AFK
            actions = list(view.legal_actions)
            await self._play_locked(loaded, seat, loaded.state, actions.index(action), actor, poke=False)
        return 0.0

    def _poke(self, game_id: int) -> None:
        if self._closed:
            return
        wake = self._wakes.get(game_id)
        task = self._timers.get(game_id)
        if task is not None and not task.done() and wake is not None:
            wake.set()
            return
        wake = self._wakes[game_id] = asyncio.Event()
        self._timers[game_id] = asyncio.create_task(self._timer(game_id, wake), name=f"game:{game_id}")

    async def _timer(self, game_id: int, wake: asyncio.Event) -> None:
        try:
            while not self._closed:
                wake.clear()
                try:
                    delay = await self.tick(game_id)
                except Exception:
                    log.exception("timer of game %s failed", game_id)
                    delay = 5.0
                if delay is None:
                    return
                if delay <= 0:
                    continue
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), self.clock.real(delay))
        finally:
            if self._timers.get(game_id) is asyncio.current_task():
                del self._timers[game_id]
                self._wakes.pop(game_id, None)

    async def _remind(self, loaded: Loaded, seat: SeatRow, seconds_left: int) -> None:
        game = loaded.game
        user = loaded.users.get(seat.user_id) if seat.user_id is not None else None
        async with self.db.tx() as tx:
            await repo.set_reminded(tx, game.id)
            if user is not None and user.reachable:
                rendered = views.render_turn_reminder(
                    self._seat_info(seat, loaded.users), seconds_left, self._tr(user.lang)
                )
                self.outbox.post([await self._notice(tx, user.user_id, 0, rendered, self.clock.now())])

    # ------------------------------------------------------------------------------------------- internals

    def _tr(self, lang: str | None) -> Translator:
        return translator(locale_for(lang))

    def _new_record(self, spec: AnyPlugin, options: dict[str, Any], players: int) -> GameRecord:
        seed = self.config.game_seed if self.config.game_seed is not None else secrets.randbits(48)
        game = make_game(spec.kind.value, spec.game_options(options, players))
        return GameRecord(game=game.name, options=game.options_dict(), seed=seed, actions=())

    async def _load(self, game_id: int) -> Loaded | None:
        async with self.db.tx() as tx:
            game = await repo.get_game(tx, game_id)
            if game is None:
                return None
            seats = await repo.seats_of(tx, game_id)
            users: dict[int, UserRow] = {}
            for seat in seats:
                if seat.user_id is not None:
                    user = await repo.get_user(tx, seat.user_id)
                    if user is not None:
                        users[user.user_id] = user
        if not game.status.is_active:
            self._forget(game_id)
        state: State | None = None
        if game.record is not None:
            cached = self._states.get(game_id)
            if cached is not None and cached.version == game.version:
                state = cached
            else:
                state = replay(game.record)
                if state.version != game.version:
                    raise RuntimeError(
                        f"game {game_id}: record has {state.version} moves, row says {game.version}"
                    )
                self._states[game_id] = state
        return Loaded(game, seats, users, state)

    def _forget(self, game_id: int) -> None:
        """A game that is over leaves memory (its record stays in the database)."""
        self._states.pop(game_id)
        self._mem.screens.pop(game_id, None)
        self._mem.changed_at.pop(game_id, None)
        self._mem.picks = {k: v for k, v in self._mem.picks.items() if k[0] != game_id}

    async def _lobby(self, game_id: int) -> Loaded:
        loaded = await self._load(game_id)
        if loaded is None:
            raise ServiceError(Answer.NO_GAME)
        if loaded.game.status is not GameStatus.LOBBY:
            raise ServiceError(Answer.STALE)
        return loaded

    @staticmethod
    def _require_creator(loaded: Loaded, person: Person) -> None:
        if person.user_id != loaded.game.creator_id:
            raise ServiceError(Answer.NOT_CREATOR)

    async def _my_turn(self, game_id: int, person: Person, version: int) -> tuple[Loaded, SeatRow, State]:
        loaded = await self._load(game_id)
        if loaded is None:
            raise ServiceError(Answer.NO_GAME)
        seat = loaded.seat_of(person.user_id)
        if seat is None:
            raise ServiceError(Answer.NOT_A_PLAYER)
        state = loaded.state
        if loaded.game.status is not GameStatus.PLAYING or state is None or state.is_terminal:
            raise ServiceError(Answer.STALE)
        if version != state.version:
            raise ServiceError(Answer.STALE)
        if state.current_player != seat.seat:
            current = loaded.seats[state.current_player]
            raise ServiceError(CommonIllegal.NOT_YOUR_TURN, name=self._plain_name(current, loaded.game.lang))
        if seat.replaced:
            # Playing a move takes the seat back from the bot player that stood in.
            async with self.db.tx() as tx:
                await repo.set_seat_afk(tx, game_id, seat.seat, 0, False)
            seat = SeatRow(
                seat.game_id, seat.seat, seat.user_id, seat.name, seat.level, 0, False, seat.score, seat.won
            )
            loaded.seats[seat.seat] = seat
        return loaded, seat, state

    def _plain_name(self, seat: SeatRow, lang: str) -> str:
        if seat.name:
            return seat.name
        return self._tr(lang).t("bot-default-name", level=(seat.level or Level.NORMAL))

    @staticmethod
    def _level_of(seat: SeatRow) -> Level:
        if seat.is_bot and seat.level:
            with contextlib.suppress(ValueError):
                return Level(seat.level)
        return Level.NORMAL

    async def _play_locked(
        self, loaded: Loaded, seat: SeatRow, state: State, index: int, actor: Actor, *, poke: bool = True
    ) -> None:
        """Apply one action of ``seat`` (the caller holds the game's lock) and store it with its effects."""
        game = loaded.game
        view = state.view(seat.seat)
        actions = list(view.legal_actions)
        if not 0 <= index < len(actions):
            raise ServiceError(Answer.STALE)
        action = actions[index]
        new_state = state.clone()
        try:
            new_state.apply(action)
        except IllegalActionError as exc:
            raise ServiceError(exc.reason, **exc.params) from exc
        record = new_state.record()
        now = self.clock.now()
        notices: list[Notice] = []
        tr = self._tr(game.lang)
        try:
            async with self.db.tx() as tx:
                await repo.record_move(tx, game.id, state.version, record, action.code, seat.seat, actor, now)
                misses = seat.misses
                if actor is Actor.PLAYER and seat.misses:
                    await repo.set_seat_afk(tx, game.id, seat.seat, 0, False)
                elif actor is Actor.AFK:
                    misses += 1
                    replaced = misses >= self.config.afk_strikes
                    await repo.set_seat_afk(tx, game.id, seat.seat, misses, replaced)
                    if replaced and game.mode is GameMode.GROUP:
                        info = self._seat_info(seat, loaded.users)
                        rendered = views.render_seat_replaced(info, game.key, tr)
                        notices.append(await self._notice(tx, game.chat_id, game.thread_id, rendered, now))
                seats = await repo.seats_of(tx, game.id)
                table = self._table_info(loaded, seats, new_state, 0, None)
                chat_id, thread_id = game.chat_id, game.thread_id
                for deal in range(state.deals_completed, new_state.deals_completed):
                    rendered = loaded.spec.render_deal_end(table, tr, deal + 1)
                    notices.append(await self._notice(tx, chat_id, thread_id, rendered, now))
                if new_state.is_terminal:
                    outcome = new_state.outcome
                    if outcome is not None:
                        await repo.set_results(
                            tx, game.id, outcome.scores, outcome.winners, outcome.settlement
                        )
                    await repo.set_status(tx, game.id, GameStatus.FINISHED, now)
                    rendered = loaded.spec.render_party_end(table, tr)
                    notices.append(await self._notice(tx, chat_id, thread_id, rendered, now))
                else:
                    await self._set_deadline_if_needed(tx, game.id, new_state, seats)
                await mark_current_update(tx, now)
        except StaleVersionError:
            raise ServiceError(Answer.STALE) from None
        except sqlite3.IntegrityError:
            raise ServiceError(Answer.STALE) from None
        self._states[game.id] = new_state
        self._mem.picks = {k: v for k, v in self._mem.picks.items() if k[0] != game.id}
        self._mem.changed_at[game.id] = now
        self.outbox.post(notices)
        fresh = await self._load(game.id)
        if fresh is None:
            return
        renew: set[int] = set()
        next_seat = new_state.current_player
        if game.mode is GameMode.GROUP and not new_state.is_terminal and next_seat != seat.seat:
            user_id = fresh.seats[next_seat].user_id
            if user_id is not None and not fresh.seats[next_seat].replaced:
                renew.add(user_id)
        if game.mode is GameMode.SOLO and new_state.deals_completed > state.deals_completed:
            renew.add(game.creator_id)  # the live message goes below the deal's scoring
        self._publish(fresh, renew=renew)
        if poke:
            self._poke(game.id)

    async def _set_deadline_if_needed(
        self, tx: Tx, game_id: int, state: State | None = None, seats: list[SeatRow] | None = None
    ) -> None:
        """The AFK deadline of the player to move (group games with a time limit, or an unreachable player)."""
        game = await repo.get_game(tx, game_id)
        if game is None or game.mode is not GameMode.GROUP:
            return
        if state is None:
            if game.record is None:
                return
            state = self._states.get(game_id)
            if state is None or state.version != game.version:
                state = replay(game.record)
        if seats is None:
            seats = await repo.seats_of(tx, game_id)
        if state.is_terminal:
            await repo.set_deadline(tx, game_id, None)
            return
        seat = seats[state.current_player]
        limit = float(game.turn_timeout)
        if seat.user_id is not None and not limit:
            user = await repo.get_user(tx, seat.user_id)
            if user is not None and not user.reachable:
                limit = float(self.config.turn_timeout or 60)
        if seat.bot_plays or not limit:
            await repo.set_deadline(tx, game_id, None)
        else:
            await repo.set_deadline(tx, game_id, self.clock.now() + limit)

    async def _notice(self, tx: Tx, chat_id: int, thread_id: int, rendered: Rendered, now: float) -> Notice:
        markup = rendered.markup.model_dump_json(exclude_none=True) if rendered.markup else None
        notice_id = await repo.add_notice(tx, chat_id, thread_id, rendered.text, markup, now)
        return Notice(notice_id, chat_id, thread_id, rendered.text, markup)

    async def _after_change(
        self, game_id: int, *, renew: set[int] | None = None, renew_all: bool = False
    ) -> None:
        async with self._locks[game_id]:
            loaded = await self._load(game_id)
            if loaded is None:
                return
            if loaded.game.status.is_active:
                self._mem.changed_at[game_id] = self.clock.now()
            if renew_all:
                renew = {s.user_id for s in loaded.seats if s.user_id is not None}
            self._publish(loaded, renew=renew or set())
        self._poke(game_id)

    # --------------------------------------------------------------------------------------------- views

    @staticmethod
    def _seat_info(seat: SeatRow, users: dict[int, UserRow]) -> SeatInfo:
        level: Level | None = None
        if seat.level:
            with contextlib.suppress(ValueError):
                level = Level(seat.level)
        user = users.get(seat.user_id) if seat.user_id is not None else None
        return SeatInfo(
            name=seat.name,
            user_id=seat.user_id,
            is_bot=seat.is_bot,
            level=level if seat.is_bot else None,
            is_reachable=user.reachable if user is not None else seat.is_bot,
            is_replaced=seat.replaced,
        )

    def _table_info(
        self, loaded: Loaded, seats: list[SeatRow], state: State, player: int, seconds_left: int | None
    ) -> TableInfo[Any]:
        return TableInfo(
            game_id=loaded.game.key,
            seats=number_bots(self._seat_info(s, loaded.users) for s in seats),
            view=state.view(player),
            seconds_left=seconds_left,
            bot_username=self.bot_username,
            solo=loaded.game.mode is GameMode.SOLO,
        )

    def _publish(self, loaded: Loaded, *, renew: set[int] | None = None, renew_group: bool = False) -> None:
        """Hand the current look of every message of this game to the outbox."""
        renew = renew or set()
        game = loaded.game
        tr = self._tr(game.lang)
        slot = group_slot(game.id)
        if game.mode is GameMode.GROUP and (game.status is not GameStatus.PLAYING or loaded.state is None):
            if game.status is GameStatus.FINISHED and loaded.state is not None:
                pass  # fall through to the table below
            else:
                self._publish_lobby(loaded, tr, renew_group)
                if game.status is GameStatus.CANCELLED:
                    self._publish_closed_hands(loaded)
                return
        state = loaded.state
        if state is None:
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(loaded)
            return
        seconds_left: int | None = None
        if game.deadline is not None and not state.is_terminal:
            seconds_left = max(0, int(game.deadline - self.clock.now()))
        if game.mode is GameMode.GROUP:
            table = self._table_info(loaded, loaded.seats, state, 0, seconds_left)
            if game.status is GameStatus.CANCELLED:
                rendered = views.render_game_cancelled(tr)
            else:
                rendered = loaded.spec.render_table(table, tr)
            self.outbox.show(
                slot,
                game.chat_id,
                rendered.text,
                rendered.markup,
                thread_id=game.thread_id,
                renew=renew_group,
            )
        if game.status is GameStatus.CANCELLED:
            self._publish_closed_hands(loaded)
            return
        for seat in loaded.seats:
            if seat.user_id is None:
                continue
            user = loaded.users.get(seat.user_id)
            if user is not None and user.blocked:
                continue
            utr = self._tr(user.lang if user else game.lang)
            table = self._table_info(loaded, loaded.seats, state, seat.seat, seconds_left)
            picked = self._mem.picks.get((game.id, seat.user_id))
            if game.mode is GameMode.SOLO:
                rendered = loaded.spec.render_solo(table, utr, picked)
            else:
                rendered = loaded.spec.render_hand(table, utr, picked)
            self.outbox.show(
                hand_slot(game.id, seat.user_id),
                seat.user_id,
                rendered.text,
                rendered.markup,
                renew=seat.user_id in renew,
            )

    def _publish_lobby(self, loaded: Loaded, tr: Translator, renew: bool) -> None:
        game = loaded.game
        status = {
            GameStatus.LOBBY: LobbyStatus.OPEN,
            GameStatus.PLAYING: LobbyStatus.STARTED,
            GameStatus.CANCELLED: LobbyStatus.CANCELLED,
            GameStatus.EXPIRED: LobbyStatus.EXPIRED,
            GameStatus.FINISHED: LobbyStatus.STARTED,
        }[game.status]
        creator = next((s.name for s in loaded.seats if s.user_id == game.creator_id), "")
        spec = loaded.spec
        info = LobbyInfo(
            game_id=game.key,
            kind=spec.kind,
            options=game.options,
            seats=number_bots(self._seat_info(s, loaded.users) for s in loaded.seats),
            bot_username=self.bot_username,
            creator_name=creator,
            turn_seconds=game.turn_timeout,
            min_players=spec.min_players,
            max_players=spec.max_players,
            screen=self._mem.screens.get(game.id, LobbyScreen.MAIN),
            status=status,
        )
        rendered = views.render_lobby(info, tr)
        self.outbox.show(
            group_slot(game.id),
            game.chat_id,
            rendered.text,
            rendered.markup,
            thread_id=game.thread_id,
            renew=renew,
        )

    def _publish_closed_hands(self, loaded: Loaded) -> None:
        for seat in loaded.seats:
            if seat.user_id is None:
                continue
            user = loaded.users.get(seat.user_id)
            rendered = views.render_game_cancelled(self._tr(user.lang if user else loaded.game.lang))
            self.outbox.show(
                hand_slot(loaded.game.id, seat.user_id),
                seat.user_id,
                rendered.text,
                rendered.markup,
                only_existing=True,
            )


async def _no(_chat_id: int) -> bool:
    return False
