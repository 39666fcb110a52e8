"""The games in play, loaded and changed: one unit of work per change.

A game in play is a :class:`Match`: its row, seats, people and party, read from the database once, when the game
is first needed, and kept in memory while it runs (:class:`GameCache`). Every change of a game follows one path,
:meth:`Store.mutate`: take the game's ``asyncio.Lock``, hand the caller a :class:`Unit` — a copy of the game to
change through the unit's methods, which note what they wrote —, then store those writes and the update's mark
in **one** transaction (one statement per table). Only once it has committed does the cache take the new game. A
refusal (:class:`ServiceError`) stores what was written before it; a refusal that wrote nothing costs no
transaction of its own (the update's mark rides along with a later one).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final

from bot.clock import Clock
from bot.flow.commands import Person, ServiceConfig, ServiceError
from bot.flow.events import GameEvent, dump_event
from bot.games import AnyPlugin, plugin_of
from bot.games.base import Party
from bot.guards.updates import CURRENT_UPDATE, ProcessedUpdates
from bot.storage import Actor, Database, GameRow, GameStatus, Notice, SeatRow, UserRow, repo
from bot.storage import repo as stored
from bot.storage.tx import Batch, GuardError, Tx
from bot.views import Answer, LobbyScreen
from bot.views.common import TableFrame, table_frame

log = logging.getLogger(__name__)

CURRENT_GAME: contextvars.ContextVar[int | None] = contextvars.ContextVar("current_game", default=None)
"""The game the update being handled last touched (the error handler names it in the log)."""


GAMES_CACHED: Final = 1000
"""At most this many games stay in memory (the most recently used)."""
GAME_IDLE: Final = 3600.0
"""A game untouched for this long (seconds of the bot's clock) leaves memory; the next change reads it again."""


@dataclass(slots=True)
class Match:
    """One game as the flow and its drawing see it: its rows, its plug-in and (once dealt) its party."""

    game: GameRow
    seats: list[SeatRow]
    users: dict[int, UserRow]
    party: Party | None

    @property
    def plugin(self) -> AnyPlugin:
        return plugin_of(self.game.kind)

    @property
    def timed(self) -> bool:
        """Whether anything in this game may fall due by itself: an open lobby's expiry, a turn's time limit, a
        bot player's move. A game that is not timed needs no timer until a change makes it so."""
        game, party = self.game, self.party
        if game.status is GameStatus.LOBBY:
            return game.expires_at is not None
        if game.status is not GameStatus.PLAYING or party is None or party.is_terminal:
            return False
        return game.deadline is not None or self.seats[party.current_player].bot_plays

    def seat_of(self, user_id: int) -> SeatRow | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def copy(self) -> Match:
        """A copy to change (rows and party are immutable: the lists that hold them are copied)."""
        return Match(self.game, list(self.seats), dict(self.users), self.party)

    def frame(self, bot_username: str = "", *, turn_seconds: int = 0, timer_move: bool = False) -> TableFrame:
        """The frame of the game's messages (see :func:`~bot.views.common.table_frame`)."""
        return table_frame(
            self.game, self.seats, self.users, bot_username, turn_seconds=turn_seconds, timer_move=timer_move
        )


@dataclass(slots=True)
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Holders and waiters: the entry goes when the last one leaves."""


class GameLocks:
    """``async with locks[game_id]:`` — one lock per game, kept only while in use."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, game_id: int) -> _Held:
        return _Held(self._entries, game_id)


class _Held:
    def __init__(self, entries: dict[int, _Entry], game_id: int) -> None:
        self._entries = entries
        self._game_id = game_id

    async def __aenter__(self) -> None:
        entry = self._entries.get(self._game_id)
        if entry is None:
            entry = self._entries[self._game_id] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry = self._entries[self._game_id]
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(self._game_id) is entry:
            del self._entries[self._game_id]


class GameCache:
    """Active games by id, as last committed: the most recently used, untouched for less than ``idle``."""

    def __init__(self, clock: Clock, limit: int = GAMES_CACHED, idle: float = GAME_IDLE) -> None:
        self._clock = clock
        self._limit = limit
        self._idle = idle
        self._games: OrderedDict[int, tuple[Match, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def get(self, game_id: int) -> Match | None:
        found = self._games.get(game_id)
        if found is None:
            return None
        self._games[game_id] = (found[0], self._clock.now())
        self._games.move_to_end(game_id)
        return found[0]

    def put(self, match: Match) -> None:
        """Keep ``match`` (an active game); a game that is over leaves."""
        game_id = match.game.id
        if not match.game.status.is_active:
            self._games.pop(game_id, None)
            return
        self._games[game_id] = (match, self._clock.now())
        self._games.move_to_end(game_id)
        oldest = self._clock.now() - self._idle
        while self._games:
            first, (_, touched) = next(iter(self._games.items()))
            if len(self._games) <= self._limit and touched > oldest:
                break
            del self._games[first]

    def pop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def matches(self) -> list[Match]:
        return [match for match, _ in self._games.values()]


class Unit:
    """The unit of work of one change: the game as the change sees it, changed through the methods below, which
    note what to store. :meth:`Store.mutate` stores it all in one transaction when the change is over."""

    def __init__(self, match: Match, now: float, db: Database) -> None:
        self.match = match
        self.now = now
        self._db = db
        self._was = match.game.version
        self._game = False
        self._seats: set[int] = set()
        self._seating = False
        self._users: dict[int, tuple[Person, bool]] = {}
        self._moves: list[tuple[int, str, int, Actor]] = []
        self._notices: list[Notice] = []

    # --- changes ---------------------------------------------------------------------------------------------

    def update_game(self, **changes: Any) -> GameRow:
        self.match.game = dataclasses.replace(self.match.game, **changes)
        self._game = True
        return self.match.game

    def close(self, status: GameStatus) -> None:
        """The game is over (finished, cancelled, expired): no deadline runs any more."""
        self.update_game(status=status, finished_at=self.now, deadline=None)

    def update_seat(self, index: int, **changes: Any) -> SeatRow:
        seat = self.match.seats[index] = dataclasses.replace(self.match.seats[index], **changes)
        self._seats.add(index)
        return seat

    def add_seat(self, user_id: int | None, name: str, level: str | None) -> SeatRow:
        seat = SeatRow(self.match.game.id, len(self.match.seats), user_id, name, level, 0, False)
        self.match.seats.append(seat)
        self._seating = True
        return seat

    def remove_seat(self, index: int) -> None:
        """A lobby seat goes; the seats after it move up, so seats stay numbered 0..n-1."""
        seats = self.match.seats
        del seats[index]
        seats[index:] = [dataclasses.replace(s, seat=s.seat - 1) for s in seats[index:]]
        self._seating = True

    async def seen(self, person: Person, *, started: bool = False) -> UserRow:
        """The person as they are now (their name, language; ``started``: they opened the private chat)."""
        user = self.match.users.get(person.user_id)
        if user is None:
            user = await repo.get_user(self._db, person.user_id) or UserRow(
                person.user_id, person.name, person.username, person.lang, False, False
            )
        user = self.match.users[person.user_id] = user.seen_as(
            person.name, person.username, person.lang, started=started
        )
        earlier = self._users.get(person.user_id)
        self._users[person.user_id] = (person, started or (earlier is not None and earlier[1]))
        return user

    def record_move(self, after: Party, code: str, seat: int, actor: Actor) -> None:
        """The party moved on to ``after`` by ``code``, played from ``seat``."""
        before = self.match.party
        assert before is not None
        self._moves.append((before.version, code, seat, actor))
        self.match.party = after
        self.update_game(record=after.record(), version=after.version)

    def tell(self, event: GameEvent) -> Notice:
        """A notice of ``event``, stored with this change and drawn once it has committed: to the game's chat, or
        to the private chat of the event's ``seat``."""
        game = self.match.game
        chat_id, thread_id = game.chat_id, game.thread_id
        if event.seat is not None:
            user_id = self.match.seats[event.seat].user_id
            assert user_id is not None, "a notice to a bot player's seat"
            chat_id, thread_id = user_id, 0
        notice = Notice(self._db.next_notice_id(), chat_id, thread_id, "", None, game.id, dump_event(event))
        self._notices.append(notice)
        return notice

    # --- storing ---------------------------------------------------------------------------------------------

    def batch(self) -> Batch:
        """What this change wrote, one statement per table."""
        batch = Batch()
        match = self.match
        for person, started in self._users.values():
            repo.upsert_user(
                batch, person.user_id, person.name, person.username, person.lang, started=started
            )
        if self._game:
            repo.save_game(batch, match.game, self._was)
        if self._seating:
            repo.replace_seats(batch, match.game.id, match.seats)
        elif self._seats:
            repo.save_seats(batch, [match.seats[i] for i in sorted(self._seats)])
        for version, code, seat, actor in self._moves:
            repo.add_move(batch, match.game.id, version, code, seat, actor, self.now)
        for notice in self._notices:
            stored.add_notice(batch, notice, self.now)
        return batch


@dataclass(slots=True)
class Change:
    """What a command changed, for the service to have drawn and delivered: the game as committed, the answer to
    the press, the notices stored with the change, whose private message is sent anew below (``resend``; the
    group's table: ``resend_table``), a reminder to show (seat, seconds left), whether the timer made the move
    for a player, and whether the game's timer must look again at what is due (``wake_timer``).

    What the messages show that is not stored goes with it too, for delivery to keep: a card picked by a first
    tap (``pick``: user, card; None for the card: forgotten), the lobby's screen, a private hand pressed that
    the bot never recorded sending (``adopt``: user, message id), the message whose button started a solo game
    (``started_in``: it becomes the game's live message), a private copy of the table to send (``table_for``), and
    the score sheet's picture or the party's history file to send to a chat (``sheet_for``, ``history_for``: chat,
    topic)."""

    match: Match
    answer: Answer | None = None
    notices: list[Notice] = field(default_factory=list)
    resend: set[int] = field(default_factory=set)
    resend_table: bool = False
    reminder: tuple[int, int] | None = None
    timer_move: bool = False
    wake_timer: bool = True
    pick: tuple[int, str | None] | None = None
    screen: LobbyScreen | None = None
    adopt: tuple[int, int] | None = None
    table_for: int | None = None
    started_in: int | None = None
    sheet_for: tuple[int, int] | None = None
    history_for: tuple[int, int] | None = None


class Store:
    def __init__(self, db: Database, clock: Clock, config: ServiceConfig) -> None:
        self.db = db
        self.clock = clock
        self.config = config
        self.locks = GameLocks()
        self.games = GameCache(clock)
        self.processed = ProcessedUpdates(db, clock)

    @asynccontextmanager
    async def tx(self, *, mark: bool = True) -> AsyncIterator[Tx]:
        """A transaction for a step outside any one game (opening one: its new id), with the update's mark when
        it writes. ``mark=False`` for a step that is not the update's change itself (remembering who pressed): a
        failure after it must leave the update to be handled again."""
        claim = CURRENT_UPDATE.get() if mark else None
        async with self.db.tx() as tx:
            yield tx
            if claim is not None and tx.writes:
                batch = Batch()
                repo.mark_processed(batch, claim.update_id, self.clock.now())
                await tx.run(batch)
        if claim is not None and tx.writes:
            self.processed.marked(claim)

    @asynccontextmanager
    async def mutate(self, game_id: int) -> AsyncIterator[Unit]:
        """Lock, load and change one game; its writes in one transaction (ServiceError NO_GAME if there is none)."""
        CURRENT_GAME.set(game_id)
        claim = CURRENT_UPDATE.get()
        async with self.locks[game_id]:
            committed = await self._load(game_id)
            if committed is None:
                raise ServiceError(Answer.NO_GAME)
            unit = Unit(committed.copy(), self.clock.now(), self.db)
            refusal: ServiceError | None = None
            try:
                yield unit
            except ServiceError as exc:
                refusal = exc
            batch = unit.batch()
            if claim is not None and batch:
                repo.mark_processed(batch, claim.update_id, unit.now)
            try:
                if batch:
                    await self.db.write(batch)
            except (GuardError, sqlite3.IntegrityError) as exc:
                # The database is not what memory says (another writer, or a write that half-happened): nothing
                # was stored, and the next change reads the game afresh.
                self.games.pop(game_id)
                raise GuardError(f"game {game_id}: the stored game differs from the one in memory") from exc
            except BaseException:
                self.games.pop(game_id)
                raise
            if claim is not None:
                if batch:
                    self.processed.marked(claim)
                else:
                    self.processed.later(claim.update_id)
                    claim.marked = True
            self._keep(unit.match)
            if refusal is not None:
                raise refusal

    async def read(self, game_id: int) -> Match | None:
        """The game as last committed (from memory, else read under its lock), for a step that changes nothing."""
        CURRENT_GAME.set(game_id)
        cached = self.games.get(game_id)
        if cached is not None:
            return cached
        async with self.locks[game_id]:
            return await self._load(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        """The game's row, read without its lock (for checks made before taking it)."""
        cached = self.games.get(game_id)
        return cached.game if cached is not None else await repo.get_game(self.db, game_id)

    async def _load(self, game_id: int) -> Match | None:
        """The game from memory, else from the database (its row, seats and people; its party from the record)."""
        cached = self.games.get(game_id)
        if cached is not None:
            return cached
        game = await repo.get_game(self.db, game_id)
        if game is None:
            return None
        seats = await repo.seats_of(self.db, game_id)
        users = await repo.users_by_id(self.db, [s.user_id for s in seats if s.user_id is not None])
        party: Party | None = None
        if game.record is not None:
            party = plugin_of(game.kind).restore(game.record)
            if party.version != game.version:
                raise RuntimeError(
                    f"game {game_id}: record has {party.version} moves, row says {game.version}"
                )
        match = Match(game, seats, users, party)
        self._keep(match)
        return match

    def _keep(self, match: Match) -> None:
        self.games.put(match)

    async def adopt(self, tx: Tx, game_id: int) -> Match:
        """A game just written in ``tx`` (a new lobby, a solo game) read back, to be kept once ``tx`` commits."""
        game = await repo.get_game(tx, game_id)
        assert game is not None
        seats = await repo.seats_of(tx, game_id)
        users = await repo.users_by_id(tx, [s.user_id for s in seats if s.user_id is not None])
        party = plugin_of(game.kind).restore(game.record) if game.record is not None else None
        return Match(game, seats, users, party)

    def keep(self, match: Match) -> None:
        """A game written outside :meth:`mutate` (see :meth:`adopt`) whose transaction committed."""
        self._keep(match)

    async def user_changed(self, user: UserRow, game_ids: list[int]) -> None:
        """A person's row changed outside their games' changes (they opened the bot again, or blocked it): the
        games in memory see it."""
        for game_id in game_ids:
            async with self.locks[game_id]:
                cached = self.games.get(game_id)
                if cached is not None and user.user_id in cached.users:
                    match = cached.copy()
                    match.users[user.user_id] = user
                    self.games.put(match)

    async def forget_games(self, game_ids: list[int]) -> None:
        """These games leave memory (their rows are about to change outside their own changes)."""
        for game_id in game_ids:
            async with self.locks[game_id]:
                self.games.pop(game_id)
