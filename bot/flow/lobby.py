"""The lobby: opening a game (in a group, or solo against bot players), taking and leaving seats, bot players,
options and screens, the start, cancelling, and the rematch of a finished game.

Each step is one unit of work and returns a :class:`Change`; the façade makes it known.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence

from bot.callbacks import TURN_TIME_KEY
from bot.flow.config import AdminCheck, MemberCheck, Person, ServiceConfig
from bot.flow.errors import ServiceError
from bot.flow.screens import Screens
from bot.flow.store import Change, Match, Store, Unit
from bot.games import plugin_of
from bot.i18n import locale_for
from bot.storage import GameMode, GameStatus, SeatRow, repo
from bot.storage.batch import Batch
from bot.views import Answer, LobbyScreen
from engine.ai import Level
from engine.core import JSONValue

log = logging.getLogger(__name__)


ChatCheck = Callable[[int], bool]
"""Whether the bot may not post in the chat with this id (the outbox knows)."""


async def _nobody(_chat_id: int) -> bool:
    return False


class Lobby:
    def __init__(self, store: Store, screens: Screens, config: ServiceConfig, is_refused: ChatCheck) -> None:
        self.store = store
        self.screens = screens
        self.config = config
        self._is_refused = is_refused

    async def open(
        self,
        chat_id: int,
        thread_id: int,
        creator: Person,
        kind: str,
        options: dict[str, JSONValue] | None = None,
        *,
        turn_timeout: int | None = None,
        seats: Sequence[SeatRow] = (),
    ) -> Change:
        """A new lobby in a group; the creator sits down at once if the bot may already write to them."""
        plugin = plugin_of(kind)
        if self._is_refused(chat_id):
            # The bot cannot post there (removed, or not allowed to write): a lobby nobody sees would block the chat.
            log.info("no lobby in chat %s: the bot cannot post there", chat_id)
            raise ServiceError(Answer.UNKNOWN)
        now = self.store.clock.now()
        try:
            async with self.store.tx() as tx:
                if await repo.active_game_in_chat(tx, chat_id, thread_id) is not None:
                    raise ServiceError(Answer.GAME_RUNNING)
                if await repo.open_lobbies_of(tx, creator.user_id) >= self.config.max_open_lobbies:
                    log.info("no lobby in chat %s: %s has too many open", chat_id, creator.user_id)
                    raise ServiceError(Answer.TOO_MANY_LOBBIES)
                user = await repo.get_user(tx, creator.user_id)
                game_id = await repo.insert_game(
                    tx,
                    kind=plugin.kind,
                    mode=GameMode.GROUP,
                    status=GameStatus.LOBBY,
                    chat_id=chat_id,
                    thread_id=thread_id,
                    creator_id=creator.user_id,
                    options=options or plugin.default_options(self.config.default_target),
                    turn_timeout=self.config.turn_timeout if turn_timeout is None else turn_timeout,
                    lang=await repo.chat_lang(tx, chat_id) or locale_for(creator.lang).value,
                    now=now,
                    expires_at=now + self.config.lobby_ttl,
                )
                if seats:
                    taken = [
                        (s.user_id, s.name, s.level if s.is_bot else None)
                        for s in seats[: plugin.max_players]
                    ]
                elif user is not None and user.reachable:
                    taken = [(creator.user_id, creator.name, None)]
                else:
                    taken = []
                batch = Batch()
                repo.upsert_user(batch, creator.user_id, creator.name, creator.username, creator.lang)
                repo.insert_seats(
                    batch,
                    [
                        SeatRow(game_id, i, uid, name, level, 0, False)
                        for i, (uid, name, level) in enumerate(taken)
                    ],
                )
                await tx.run(batch)
                match = await self.store.adopt(tx, game_id)
        except sqlite3.IntegrityError:
            raise ServiceError(Answer.GAME_RUNNING) from None
        self.store.keep(match)
        log.info("game %s: a %s lobby opened in chat %s by %s", game_id, kind, chat_id, creator.user_id)
        return Change(match)

    async def join(self, game_id: int, person: Person, is_member: MemberCheck) -> Change:
        """``/start j_<game>`` in private: take a seat in the lobby — only a member of the lobby's group may.

        Game ids are sequential, so a link is easy to guess: membership is asked of Telegram (outside the lock).
        """
        game = await self.store.game(game_id)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        if (
            game.mode is GameMode.GROUP
            and game.status is GameStatus.LOBBY
            and not await is_member(game.chat_id)
        ):
            log.info("game %s: %s is not in chat %s and may not join", game_id, person.user_id, game.chat_id)
            raise ServiceError(Answer.NOT_IN_GROUP)
        async with self.store.mutate(game_id) as unit:
            match = unit.match
            if match.game.status is GameStatus.PLAYING:
                if match.seat_of(person.user_id) is not None:
                    return Change(match, Answer.ALREADY_JOINED, wake_timer=False)
                raise ServiceError(Answer.GAME_RUNNING)
            if match.game.status is not GameStatus.LOBBY:
                raise ServiceError(Answer.LOBBY_CLOSED)  # expired, cancelled or long over
            if match.seat_of(person.user_id) is not None:
                return Change(match, Answer.ALREADY_JOINED, wake_timer=False)
            if len(match.seats) >= match.plugin.max_players:
                raise ServiceError(Answer.LOBBY_FULL)
            await unit.seen(person, started=True)
            unit.add_seat(person.user_id, person.name, None)
        return Change(unit.match, Answer.JOINED)

    async def leave(self, game_id: int, person: Person) -> Change:
        async with self.store.mutate(game_id) as unit:
            match = _lobby(unit)
            seat = match.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            unit.remove_seat(seat.seat)
        return Change(unit.match, Answer.LEFT)

    async def add_bot(self, game_id: int, person: Person, level: str) -> Change:
        try:
            bot_level = Level(level)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            if len(match.seats) >= match.plugin.max_players:
                raise ServiceError(Answer.LOBBY_FULL)
            unit.add_seat(None, "", bot_level.value)
            self.screens.lobby.pop(game_id, None)
        log.info("game %s: a bot player (%s) added", game_id, bot_level.value)
        return Change(unit.match, Answer.BOT_ADDED)

    async def remove_bot(self, game_id: int, person: Person, seat: str) -> Change:
        """The creator takes the bot player in lobby seat ``seat`` away."""
        try:
            index = int(seat)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            if not 0 <= index < len(match.seats) or not match.seats[index].is_bot:
                raise ServiceError(Answer.STALE)
            unit.remove_seat(index)
            if not any(s.is_bot for s in match.seats):
                self.screens.lobby.pop(game_id, None)
        log.info("game %s: the bot player in seat %s removed", game_id, index)
        return Change(unit.match, Answer.BOT_REMOVED)

    async def show_screen(self, game_id: int, person: Person, screen: LobbyScreen) -> Change:
        """Switch the lobby message between its main, settings and bot-level screens."""
        async with self.store.mutate(game_id) as unit:
            _lobby(unit)
            if screen in (LobbyScreen.SETTINGS, LobbyScreen.BOT_LEVEL):
                _creators(unit, person)
            self.screens.lobby[game_id] = screen
        return Change(unit.match, wake_timer=False)

    async def set_option(self, game_id: int, person: Person, key: str, value: str) -> Change:
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            options = dict(match.game.options)
            turn_timeout = match.game.turn_timeout
            try:
                if key == TURN_TIME_KEY:
                    turn_timeout = int(value)
                    if not 0 <= turn_timeout <= 3600:
                        raise ValueError("turn time out of range")
                else:
                    options = match.plugin.set_option(options, key, value)
            except ValueError:
                raise ServiceError(Answer.UNKNOWN) from None
            unit.update_game(options=options, turn_timeout=turn_timeout)
        return Change(unit.match, Answer.SETTING_SAVED)

    async def start(self, game_id: int, person: Person) -> Change:
        """The creator starts the party: the seats are fixed, the engine deals."""
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            plugin = match.plugin
            players = len(match.seats)
            if players < plugin.min_players:
                raise ServiceError(Answer.NOT_ENOUGH_PLAYERS, count=plugin.min_players)
            empty = plugin.max_players - players if plugin.fills_with_bots else 0
            party = self.store.new_party(plugin, match.game.options, players + empty)
            for _ in range(empty):
                unit.add_seat(None, "", Level.NORMAL.value)
            unit.update_game(status=GameStatus.PLAYING, record=party.record(), version=0, expires_at=None)
            unit.match.party = party
            self.store.arm_deadline(unit)
            self.screens.lobby.pop(game_id, None)
        log.info("game %s: started with %d seats (%d bot players added)", game_id, players + empty, empty)
        everyone = {s.user_id for s in unit.match.seats if s.user_id is not None}
        return Change(unit.match, resend=everyone)

    async def cancel_in_chat(
        self, chat_id: int, thread_id: int, person: Person, is_admin: AdminCheck
    ) -> Change:
        """``/cancel`` in a group: the creator or a chat admin."""
        game = await repo.active_game_in_chat(self.store.db, chat_id, thread_id)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        return await self.cancel(game.id, person, is_admin)

    async def cancel(self, game_id: int, person: Person, is_admin: AdminCheck) -> Change:
        """The creator, or an admin of the game's own chat, cancels it.

        Admin rights are asked of Telegram before the game's lock is taken: a flood of presses by people who
        may not cancel must never hold up the players' moves.
        """
        game = await self.store.game(game_id)
        if game is None or not game.status.is_active:
            raise ServiceError(Answer.NO_GAME)
        allowed = person.user_id == game.creator_id
        if not allowed and game.mode is GameMode.GROUP:
            allowed = await is_admin(game.chat_id)
        if not allowed:
            raise ServiceError(Answer.NOT_CREATOR_OR_ADMIN)
        async with self.store.mutate(game_id) as unit:
            match = unit.match
            if not match.game.status.is_active:
                raise ServiceError(Answer.NO_GAME)
            if match.game.chat_id != game.chat_id and person.user_id != match.game.creator_id:
                # The group moved meanwhile (a migration): the rights were checked in the old chat.
                raise ServiceError(Answer.NOT_CREATOR_OR_ADMIN)
            log.info("game %s: cancelled by %s", game_id, person.user_id)
            unit.close(GameStatus.CANCELLED)
        return Change(unit.match, Answer.GAME_CANCELLED)

    async def cancel_solo(self, person: Person) -> Change:
        game = await repo.active_game_in_chat(self.store.db, person.user_id, 0)
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        return await self.cancel(game.id, person, _nobody)

    async def rematch(self, game_id: int, person: Person) -> Change:
        """A new game with the same players and options as a finished one (group: a lobby; solo: a game)."""
        game = await repo.get_game(self.store.db, game_id)
        seats = await repo.seats_of(self.store.db, game_id) if game else []
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        if not any(s.user_id == person.user_id for s in seats):
            raise ServiceError(Answer.NOT_A_PLAYER)
        if game.status.is_active:
            raise ServiceError(Answer.GAME_RUNNING)
        if game.status is not GameStatus.FINISHED:
            raise ServiceError(
                Answer.NO_GAME
            )  # a cancelled or expired game has no «Реванш»: only a forged press
        options = dict(game.options)
        options.pop("players", None)
        if game.mode is GameMode.SOLO:
            bots = [s for s in seats if s.is_bot]
            level = bots[0].plays_at if bots else Level.NORMAL
            return await self.start_solo(person, game.kind, len(bots), level, options=options)
        kind = game.kind
        return await self.open(
            game.chat_id, game.thread_id, person, kind, options, turn_timeout=game.turn_timeout, seats=seats
        )

    async def start_solo(
        self,
        person: Person,
        kind: str,
        opponents: int,
        level: Level,
        *,
        options: dict[str, JSONValue] | None = None,
    ) -> Change:
        """A private game against ``opponents`` bot players, in one live message."""
        plugin = plugin_of(kind)
        if opponents not in plugin.solo_opponents:
            raise ServiceError(Answer.UNKNOWN)
        lobby_options = options or plugin.default_options(self.config.default_target)
        party = self.store.new_party(plugin, lobby_options, opponents + 1)
        now = self.store.clock.now()
        try:
            async with self.store.tx() as tx:
                if await repo.active_game_in_chat(tx, person.user_id, 0) is not None:
                    raise ServiceError(Answer.GAME_RUNNING)
                game_id = await repo.insert_game(
                    tx,
                    kind=plugin.kind,
                    mode=GameMode.SOLO,
                    status=GameStatus.PLAYING,
                    chat_id=person.user_id,
                    thread_id=0,
                    creator_id=person.user_id,
                    options=lobby_options,
                    turn_timeout=0,
                    lang=locale_for(person.lang).value,
                    now=now,
                    expires_at=None,
                    record=party.record(),
                )
                batch = Batch()
                repo.upsert_user(
                    batch, person.user_id, person.name, person.username, person.lang, started=True
                )
                seats = [SeatRow(game_id, 0, person.user_id, person.name, None, 0, False)]
                seats += [SeatRow(game_id, i + 1, None, "", level.value, 0, False) for i in range(opponents)]
                repo.insert_seats(batch, seats)
                await tx.run(batch)
                match = await self.store.adopt(tx, game_id)
        except sqlite3.IntegrityError:
            raise ServiceError(Answer.GAME_RUNNING) from None
        self.store.keep(match)
        log.info(
            "game %s: a solo %s game started by %s against %d bot players (%s)",
            game_id,
            kind,
            person.user_id,
            opponents,
            level.value,
        )
        return Change(match)


def _lobby(unit: Unit) -> Match:
    if unit.match.game.status is not GameStatus.LOBBY:
        raise ServiceError(Answer.STALE)
    return unit.match


def _creators(unit: Unit, person: Person) -> Match:
    """The lobby, which only its creator may change."""
    match = _lobby(unit)
    if person.user_id != match.game.creator_id:
        raise ServiceError(Answer.NOT_CREATOR)
    return match
