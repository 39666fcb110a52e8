"""The lobby: opening a game (in a group, or solo against bot players), taking and leaving seats, bot players,
options and screens, the start, cancelling, and the rematch of a finished game.

Each step is one unit of work and returns a :class:`Change`; the service has it drawn.
"""

from __future__ import annotations

import logging
import secrets
import sqlite3
from collections.abc import Callable, Sequence

from bot.callbacks import TURN_TIME_KEY
from bot.flow.commands import (
    AddBot,
    Cancel,
    EndAbandoned,
    Join,
    LeaveLobby,
    OpenLobby,
    Person,
    Rematch,
    RemoveBot,
    ServiceConfig,
    ServiceError,
    SetOption,
    ShowScreen,
    Start,
    StartSolo,
)
from bot.flow.events import Abandoned, RematchCalled
from bot.flow.moves import arm_deadline
from bot.flow.store import Change, Match, Store, Unit
from bot.games import AnyPlugin, plugin_of
from bot.games.base import Options, Party
from bot.i18n import locale_for
from bot.storage import GameMode, GameRow, GameStatus, SeatRow, repo, upkeep
from bot.storage.tx import Batch
from bot.views import Answer, LobbyScreen
from engine.ai import Level

log = logging.getLogger(__name__)


ChatCheck = Callable[[int], bool]
"""Whether the bot may not post in the chat with this id (the outbox knows)."""


class Lobby:
    def __init__(self, store: Store, config: ServiceConfig, is_refused: ChatCheck) -> None:
        self.store = store
        self.config = config
        self._is_refused = is_refused

    async def open(
        self,
        command: OpenLobby,
        *,
        turn_timeout: int | None = None,
        seats: Sequence[SeatRow] = (),
        host: int | None = None,
    ) -> Change:
        """A new lobby in a group; the creator sits down at once if the bot may already write to them
        (``seats``: a rematch's, all seated; ``host``: who runs the lobby, if not the one who opened it)."""
        chat_id, thread_id, creator, kind = command.chat_id, command.thread_id, command.creator, command.kind
        host = creator.user_id if host is None else host
        options = command.options
        plugin = plugin_of(kind)
        if self._is_refused(chat_id):
            # The bot cannot post there (removed, or not allowed to write): a lobby nobody sees would block the chat.
            log.info("no lobby in chat %s: the bot cannot post there", chat_id)
            raise ServiceError(Answer.UNKNOWN)
        now = self.store.clock.now()
        try:
            async with self.store.tx() as tx:
                running = await repo.active_game_in_chat(tx, chat_id, thread_id)
                if running is not None:
                    raise ServiceError(lobby_or_game(running))
                if await repo.open_lobbies_of(tx, host) >= self.config.max_open_lobbies:
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
                    creator_id=host,
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

    async def join(self, command: Join) -> Change:
        """``/start j_<game>`` in private: take a seat in the lobby — only a member of the lobby's group may.

        Game ids are sequential, so a link is easy to guess: membership is asked of Telegram (outside the lock).
        """
        game_id, person, is_member = command.game_id, command.person, command.is_member
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

    async def leave(self, command: LeaveLobby) -> Change:
        game_id, person = command.game_id, command.person
        async with self.store.mutate(game_id) as unit:
            match = _lobby(unit)
            seat = match.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            unit.remove_seat(seat.seat)
        return Change(unit.match, Answer.LEFT)

    async def add_bot(self, command: AddBot) -> Change:
        game_id, person = command.game_id, command.person
        try:
            bot_level = Level(command.level)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            if len(match.seats) >= match.plugin.max_players:
                raise ServiceError(Answer.LOBBY_FULL)
            unit.add_seat(None, "", bot_level.value)
        log.info("game %s: a bot player (%s) added", game_id, bot_level.value)
        return Change(unit.match, Answer.BOT_ADDED, screen=LobbyScreen.MAIN)

    async def remove_bot(self, command: RemoveBot) -> Change:
        """The creator takes the bot player in lobby seat ``seat`` away."""
        game_id, person = command.game_id, command.person
        try:
            index = int(command.seat)
        except ValueError:
            raise ServiceError(Answer.UNKNOWN) from None
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, person)
            if not 0 <= index < len(match.seats) or not match.seats[index].is_bot:
                raise ServiceError(Answer.STALE)
            unit.remove_seat(index)
        log.info("game %s: the bot player in seat %s removed", game_id, index)
        screen = None if any(s.is_bot for s in unit.match.seats) else LobbyScreen.MAIN
        return Change(unit.match, Answer.BOT_REMOVED, screen=screen)

    async def show_screen(self, command: ShowScreen) -> Change:
        """Switch the lobby message between its main, settings and bot-level screens."""
        async with self.store.mutate(command.game_id) as unit:
            _lobby(unit)
            if command.screen in (LobbyScreen.SETTINGS, LobbyScreen.BOT_LEVEL):
                _creators(unit, command.person)
        return Change(unit.match, wake_timer=False, screen=command.screen)

    async def set_option(self, command: SetOption) -> Change:
        key, value = command.key, command.value
        async with self.store.mutate(command.game_id) as unit:
            match = _creators(unit, command.person)
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

    def _new_party(self, plugin: AnyPlugin, options: Options, players: int) -> Party:
        """A new party dealt from the configured seed (tests) or a fresh random one."""
        seed = self.config.game_seed if self.config.game_seed is not None else secrets.randbits(48)
        return plugin.new_party(options, players, seed)

    async def start(self, command: Start) -> Change:
        """The creator starts the party: the seats are fixed, the engine deals."""
        game_id = command.game_id
        async with self.store.mutate(game_id) as unit:
            match = _creators(unit, command.person)
            plugin = match.plugin
            players = len(match.seats)
            if players < plugin.min_players:
                raise ServiceError(Answer.NOT_ENOUGH_PLAYERS, count=plugin.min_players)
            empty = plugin.max_players - players if plugin.fills_with_bots else 0
            party = self._new_party(plugin, match.game.options, players + empty)
            for _ in range(empty):
                unit.add_seat(None, "", Level.NORMAL.value)
            unit.update_game(status=GameStatus.PLAYING, record=party.record(), version=0, expires_at=None)
            unit.match.party = party
            arm_deadline(unit, self.config)
        log.info("game %s: started with %d seats (%d bot players added)", game_id, players + empty, empty)
        everyone = {s.user_id for s in unit.match.seats if s.user_id is not None}
        return Change(unit.match, resend=everyone, screen=LobbyScreen.MAIN)

    async def cancel(self, command: Cancel) -> Change:
        """The creator, or an admin of the game's own chat, cancels it: the lobby's button names the game,
        ``/cancel`` the chat (in a group: its game; in private: the solo game).

        Admin rights are asked of Telegram before the game's lock is taken: a flood of presses by people who
        may not cancel must never hold up the players' moves.
        """
        person, is_admin, game_id = command.person, command.is_admin, command.game_id
        if game_id is None:
            found = await repo.active_game_in_chat(self.store.db, command.chat_id, command.thread_id)
            if found is None:
                raise ServiceError(Answer.NO_GAME)
            game_id = found.id
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
        # Said once: a button's message changes in place; ``/cancel`` gets the game's message anew below it (the
        # group's, or a solo game's hand).
        below = command.game_id is None
        group = unit.match.game.mode is GameMode.GROUP
        resend = {person.user_id} if below and not group else set()
        return Change(unit.match, Answer.GAME_CANCELLED, resend=resend, resend_table=below and group)

    async def rematch(self, command: Rematch) -> Change:
        """A new game with the same players and options as a finished one (group: a lobby; solo: a game)."""
        game_id, person = command.game_id, command.person
        game = await repo.get_game(self.store.db, game_id)
        seats = await repo.seats_of(self.store.db, game_id) if game else []
        if game is None:
            raise ServiceError(Answer.NO_GAME)
        if not any(s.user_id == person.user_id for s in seats):
            raise ServiceError(Answer.NOT_A_PLAYER)
        if game.status.is_active:
            raise ServiceError(lobby_or_game(game))
        if game.status is not GameStatus.FINISHED:
            raise ServiceError(
                Answer.NO_GAME
            )  # a cancelled or expired game has no «Реванш»: only a forged press
        options = dict(game.options)
        options.pop("players", None)
        if game.mode is GameMode.SOLO:
            bots = [s for s in seats if s.is_bot]
            level = bots[0].plays_at if bots else Level.NORMAL
            return await self.start_solo(StartSolo(person, game.kind, len(bots), level, options))
        # The party's host runs the rematch too, whoever taps «🔁 Реванш» first (if they played in it).
        host = game.creator_id if any(s.user_id == game.creator_id for s in seats) else person.user_id
        reopened = OpenLobby(game.chat_id, game.thread_id, person, game.kind, options)
        opened = await self.open(reopened, turn_timeout=game.turn_timeout, seats=seats, host=host)
        lobby = opened.match
        if not any(s.user_id not in (None, person.user_id) for s in lobby.seats):
            return opened  # nobody else to call
        async with self.store.mutate(lobby.game.id) as unit:  # the others called, by name, in the group
            caller = unit.match.seat_of(person.user_id)
            notices = [unit.tell(RematchCalled(caller.seat))] if caller is not None else []
        return Change(unit.match, notices=notices)

    async def start_solo(self, command: StartSolo) -> Change:
        """A private game against ``opponents`` bot players, in one live message (the message whose button
        started it, if any)."""
        person, kind, opponents, level = command.person, command.kind, command.opponents, command.level
        options = command.options
        plugin = plugin_of(kind)
        if opponents not in plugin.solo_opponents:
            raise ServiceError(Answer.UNKNOWN)
        lobby_options = options or plugin.default_options(self.config.default_target)
        party = self._new_party(plugin, lobby_options, opponents + 1)
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
        return Change(match, started_in=command.adopt_message)


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


async def end_abandoned(store: Store, command: EndAbandoned) -> list[Change]:
    """Games nobody plays any more: a party without a move for ``idle_for`` — a solo game its player never came
    back to, a group game everyone left — is closed as cancelled (no result counts), so its timers, screens and
    stored live messages do not stay forever; its chat is told why."""
    days = max(1, round(command.idle_for / 86400))
    changes: list[Change] = []
    for game_id in await upkeep.abandoned_games(store.db, store.clock.now() - command.idle_for):
        try:
            async with store.mutate(game_id) as unit:
                if unit.match.game.status is not GameStatus.PLAYING:
                    continue
                unit.close(GameStatus.CANCELLED)
                notice = unit.tell(Abandoned(days))
        except ServiceError:
            continue  # gone meanwhile
        log.info("game %s: no move since long ago; ended as abandoned", game_id)
        changes.append(Change(unit.match, notices=[notice]))
    return changes


def lobby_or_game(game: GameRow) -> Answer:
    """Why nothing new opens in a chat where ``game`` is active: its lobby is open, or its party is on."""
    return Answer.LOBBY_OPEN if game.status is GameStatus.LOBBY else Answer.GAME_RUNNING
