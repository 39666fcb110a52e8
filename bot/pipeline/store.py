"""The games in play, loaded and committed; the updates already applied; the languages chats chose.

A game in play is read from the database once, when it is first needed (its row, seats, people and moves; its
party replayed from its start and its moves), and kept in memory while it runs (:class:`GameCache`). A change of a
game holds the game's ``asyncio.Lock`` (:class:`GameLocks`) from its load to its drawing, and stores everything it
did in **one** transaction (:meth:`Store.commit`: one statement per table — the game's row, its seats, its new
moves, the people seen, the notices to tell, the update's mark); only once that has committed does the cache take
the new game. Which updates were applied is :class:`ProcessedUpdates`' to say."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Final

from bot.clock import Clock
from bot.delivery.notices import addressed
from bot.games import plugin_of
from bot.i18n import Locale
from bot.model.game import Blocked, Cancelled, Event, Game, PartyEnded, Screens, Seat, Seen, User, dump_told
from bot.ratings import seasons, skill
from bot.storage import Database, GameRow, Notice, players, repo, standings
from bot.storage.tx import Batch, Deferred, GuardError, Journal
from engine.core import GameRecord, JSONValue

GAMES_CACHED: Final = 1000
"""At most this many games stay in memory (the most recently used)."""
GAME_IDLE: Final = 3600.0
"""A game untouched for this long (seconds of the bot's clock) leaves memory; the next change reads it again."""


@dataclass(slots=True)
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Holders and waiters: the entry goes when the last one leaves."""


class GameLocks:
    """``async with locks[key]:`` — one lock per game (or per person opening one), kept only while in use."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, key: int) -> _Held:
        return _Held(self._entries, key)


class _Held:
    def __init__(self, entries: dict[int, _Entry], key: int) -> None:
        self._entries = entries
        self._key = key

    async def __aenter__(self) -> None:
        entry = self._entries.get(self._key)
        if entry is None:
            entry = self._entries[self._key] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry = self._entries[self._key]
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(self._key) is entry:
            del self._entries[self._key]


class GameCache:
    """Active games by id, as last committed: the most recently used, untouched for less than ``idle``."""

    def __init__(self, clock: Clock, limit: int = GAMES_CACHED, idle: float = GAME_IDLE) -> None:
        self._clock = clock
        self._limit = limit
        self._idle = idle
        self._games: OrderedDict[int, tuple[Game, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def get(self, game_id: int) -> Game | None:
        found = self._games.get(game_id)
        if found is None:
            return None
        self._games[game_id] = (found[0], self._clock.now())
        self._games.move_to_end(game_id)
        return found[0]

    def put(self, game: Game) -> None:
        """Keep ``game`` (an active game); a game that is over leaves."""
        if not game.status.is_active:
            self._games.pop(game.id, None)
            return
        self._games[game.id] = (game, self._clock.now())
        self._games.move_to_end(game.id)
        oldest = self._clock.now() - self._idle
        while self._games:
            first, (_, touched) = next(iter(self._games.items()))
            if len(self._games) <= self._limit and touched > oldest:
                break
            del self._games[first]

    def pop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def games(self) -> list[Game]:
        return [game for game, _ in self._games.values()]


class Store:
    """The games in play: read once, kept in memory, each change stored in one transaction."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.locks = GameLocks()
        self.openings = GameLocks()
        """One lock per person opening a game (their open lobbies are counted before the new one is stored)."""
        self.games = GameCache(clock)
        self.rating = asyncio.Lock()
        """Held from reading a finished party's people's ratings to storing their new ones (one party at a time)."""
        self.processed = ProcessedUpdates(db, clock)
        self.languages = ChatLanguages(db)
        self.screens: Deferred[int, tuple[int, str | None]] = Deferred(
            db, repo.save_screens, Journal(Path(f"{db.path}-screens"), _dumped, _shown)
        )
        """What a game's messages show, changed by a press that changes nothing else (a card picked, a lobby's
        page turned): written to a journal beside the database at once — a kill loses none — and stored with the
        next transaction (game id → the party's version then and the screens' JSON). Such a press is answered
        without waiting for the database."""

    async def load(self, game_id: int) -> Game | None:
        """The game as last committed: from memory, else from the database (None: there is no such game)."""
        cached = self.games.get(game_id)
        if cached is not None:
            return cached
        row = await repo.get_game(self.db, game_id)
        if row is None:
            return None
        game = await self._assemble(row)
        waiting = self.screens.get(game_id)
        if waiting is not None and waiting[0][0] == game.version:  # a kill came before it was stored
            game = dataclasses.replace(game, screens=Screens.from_json(waiting[0][1]))
        self.games.put(game)
        return game

    async def _assemble(self, row: GameRow) -> Game:
        seats = await repo.seats_of(self.db, row.id)
        users = await repo.users_by_id(self.db, [s.user_id for s in seats if s.user_id is not None])
        moves = await repo.moves_of(self.db, row.id)
        party = None
        if row.record is not None:
            if len(moves) != row.version:
                raise RuntimeError(f"game {row.id}: {len(moves)} moves stored, the row says {row.version}")
            record = GameRecord(
                row.record.game, row.record.options, row.record.seed, tuple(m.code for m in moves)
            )
            party = plugin_of(row.kind).restore(record)
        return Game(
            id=row.id,
            kind=row.kind,
            mode=row.mode,
            status=row.status,
            chat_id=row.chat_id,
            thread_id=row.thread_id,
            creator_id=row.creator_id,
            options=row.options,
            turn_timeout=row.turn_timeout,
            lang=row.lang,
            created_at=row.created_at,
            expires_at=row.expires_at,
            deadline=row.deadline,
            reminded=row.reminded,
            finished_at=row.finished_at,
            seats=tuple(seats),
            users=users,
            party=party,
            moves=tuple(moves),
            screens=row.screens,
        )

    async def commit(
        self,
        before: Game | None,
        after: Game,
        events: Sequence[Event],
        notices: Sequence[Notice],
        mark: int | None,
    ) -> bool:
        """Store what a change did — a new game, or what differs from ``before`` — with the people it saw, its
        ``notices`` and the update's ``mark``, in one transaction; the cache takes ``after`` once it committed.
        False when there was nothing to store (a look at a game)."""
        batch = Batch()
        now = self.clock.now()
        for event in events:
            if isinstance(event, Seen):
                repo.upsert_user(batch, event.person, started=event.started)
            elif isinstance(event, Blocked):
                repo.set_blocked(batch, event.user_id)
            elif isinstance(event, PartyEnded) and event.earned:
                people = [(after.seats[seat].user_id, code) for seat, code in event.earned]
                players.add_achievements(
                    batch, after.kind, after.id, [(u, c) for u, c in people if u is not None], now
                )
        if before is None:
            repo.insert_game(batch, after)
        elif not batch and not notices and _only_screens(before, after):
            self.screens.put(after.id, (after.version, after.screens.to_json()))
            self.games.put(after)
            return False
        else:
            _changes(batch, before, after)
        for event in events:
            if isinstance(event, PartyEnded | Cancelled) and event.rated:
                _rated(batch, after, event)
        for notice in notices:
            repo.add_notice(batch, notice, now)
        if batch and mark is not None and not self.processed.is_marked(mark):
            repo.mark_processed(batch, mark, now)
        if batch:
            try:
                await self.db.write(batch)
            except (GuardError, sqlite3.IntegrityError) as exc:
                # The database is not what memory says (another writer, or a write that half-happened): nothing
                # was stored, and the next change reads the game afresh.
                self.games.pop(after.id)
                if before is None:
                    raise
                raise GuardError(f"game {after.id}: the stored game differs from the one in memory") from exc
            except BaseException:
                self.games.pop(after.id)
                raise
            if mark is not None:
                self.processed.done(mark)
            self.screens.discard(after.id)  # stored with the game's row, if it waited
        self.games.put(after)
        return bool(batch)

    def notices(self, game: Game, events: Sequence[Event]) -> list[Notice]:
        """The notices of the events people are told of, each to whom it is for (stored with the change)."""
        if not any(event.kind for event in events):
            return []
        return [
            Notice(
                self.db.next_notice_id(),
                a.chat_id,
                a.thread_id,
                "",
                None,
                game.id,
                dump_told(a.event, a.seat),
            )
            for a in addressed(game, events)
        ]

    def new_id(self) -> int:
        return self.db.next_game_id()

    def refresh_user(self, user: User, game_ids: Sequence[int]) -> None:
        """A person's row changed outside their games' changes (they opened the bot again): the games in memory
        see it (the database has it already)."""
        for game_id in game_ids:
            cached = self.games.get(game_id)
            if cached is not None and user.user_id in cached.users:
                self.games.put(dataclasses.replace(cached, users={**cached.users, user.user_id: user}))

    def forget(self, game_ids: Sequence[int]) -> None:
        """These games leave memory (their rows are about to change outside their own changes)."""
        for game_id in game_ids:
            self.games.pop(game_id)


def _rated(batch: Batch, game: Game, end: PartyEnded | Cancelled) -> None:
    """A party's people's new ratings, and their changes kept as the party's (its chat and season); a party
    cancelled by one of its players names them (the rebuild rates it again as their loss)."""
    if isinstance(end, Cancelled):
        standings.mark_cancelled_by(batch, game.id, end.by)
    rows = [
        standings.RatedRow(r.user_id, r.place, r.before.mu, r.before.sigma, r.after.mu, r.after.sigma)
        for r in skill.changes_of(end, game)
    ]
    at = game.finished_at or end.at
    standings.save_rated(batch, game.id, game.kind, game.chat_id, seasons.season_of(at), at, rows)


def _row(game: Game) -> tuple[object, ...]:
    """What the game's row holds, but what its messages show."""
    return (
        game.status,
        game.options,
        game.turn_timeout,
        game.version,
        game.expires_at,
        game.deadline,
        game.reminded,
        game.finished_at,
        game.chat_id,
    )


def _only_screens(before: Game, after: Game) -> bool:
    """Whether all that differs is what the messages show (a card picked, a lobby's page)."""
    unchanged = _row(before) == _row(after) and before.seats == after.seats and before.moves == after.moves
    return unchanged and before.screens != after.screens


def _dumped(shown: tuple[int, str | None]) -> JSONValue:
    return list(shown)


def _shown(_game_id: int, value: JSONValue) -> tuple[int, str | None]:
    """A journal's line read back: the party's version and the screens' JSON."""
    assert isinstance(value, list) and len(value) == 2
    version, screens = value
    return int(str(version)), screens if isinstance(screens, str) else None


def _seating(seat: Seat) -> tuple[object, ...]:
    return seat.user_id, seat.name, seat.level


def _changes(batch: Batch, before: Game, after: Game) -> None:
    """What differs from ``before`` in ``after``: the row, the seats, the moves made since."""
    if _row(before) != _row(after) or before.screens != after.screens:
        repo.save_game(batch, after, before.version, dealt=before.party is None and after.party is not None)
    if [_seating(s) for s in before.seats] != [_seating(s) for s in after.seats]:
        repo.replace_seats(batch, after.id, after.seats)
    else:
        changed = [new for old, new in zip(before.seats, after.seats, strict=True) if old != new]
        repo.save_seats(batch, after.id, changed)
    for version, move in enumerate(after.moves[len(before.moves) :], start=len(before.moves)):
        repo.add_move(batch, after.id, version, move)


# --- the updates applied ------------------------------------------------------------------------------------------

UPDATES_KEPT_FOR: Final = 3 * 24 * 3600.0
"""Real seconds a processed update id is remembered in the database (Telegram re-sends only recent ones)."""
REMEMBERED_FOR: Final = 600.0
"""Real seconds a processed update id is remembered in memory (the database knows it too, so forgetting it here
only costs a lookup if it ever comes again)..."""
REMEMBERED_MAX: Final = 256
"""…and at most this many ids: a busy bot's memory stays bounded by a number, not by its traffic."""
PRUNE_EVERY: Final = 60.0
"""Clock seconds between two prunings of the older ids from the database."""


class ProcessedUpdates:
    """Which updates were applied: the recent ones in memory, the older ones in ``processed_updates``. A change
    stores its update's mark in its own transaction (:meth:`Store.commit`); an update that changed nothing is marked
    afterwards (:meth:`settle`), its mark riding along with a later transaction.

    Every id above the highest one stored when the bot started, or pruned from memory since, is new unless
    remembered; only an older id (a copy Telegram sends again after a restart) is looked up in the database."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._recent: OrderedDict[int, float] = OrderedDict()
        """Update id → monotonic time it was applied, oldest first."""
        self._known_from: int | None = None
        """Ids from here up are processed exactly when remembered (None: not loaded yet)."""
        self._marks: Deferred[int, float] = Deferred(db, repo.mark_processed)
        self._prunes: Deferred[str, float] = Deferred(
            db, lambda batch, _key, when: repo.forget_updates_before(batch, when)
        )
        self._pruned_at = float("-inf")

    async def load(self) -> None:
        """At start: ids up to the highest stored may be copies of processed ones (looked up when they come)."""
        row = await self.db.one("SELECT COALESCE(MAX(update_id), -1) AS last FROM processed_updates")
        self._known_from = int(row["last"]) + 1 if row else 0

    async def is_processed(self, update_id: int) -> bool:
        if update_id in self._recent:
            return True
        if self._known_from is None:
            await self.load()
        assert self._known_from is not None
        if update_id >= self._known_from:
            return False
        return self._marks.get(update_id) is not None or await repo.is_processed(self.db, update_id)

    def is_marked(self, update_id: int) -> bool:
        """A committed change (or :meth:`settle`) stored this update as applied, during this run."""
        return update_id in self._recent

    def done(self, update_id: int) -> None:
        """``update_id`` was stored as applied (by a committed change)."""
        now = time.monotonic()
        self._recent[update_id] = now
        self._recent.move_to_end(update_id)
        while self._recent:
            oldest, at = next(iter(self._recent.items()))
            if at > now - REMEMBERED_FOR and len(self._recent) <= REMEMBERED_MAX:
                break
            del self._recent[oldest]
            if self._known_from is not None and oldest >= self._known_from:
                self._known_from = oldest + 1
        if now - self._pruned_at >= self.clock.real(PRUNE_EVERY):
            self._pruned_at = now
            self._prunes.put("prune", self.clock.now() - UPDATES_KEPT_FOR * self.clock.speed)

    def settle(self, update_id: int) -> None:
        """The update has been handled: unless a change stored its mark, the mark rides with the next
        transaction."""
        if update_id not in self._recent:
            self._marks.put(update_id, self.clock.now())
            self.done(update_id)


# --- the languages chats chose ----------------------------------------------------------------------------


class ChatLanguages:
    """The languages chats chose with /lang (a group's, kept in the database; a person's for their private chat):
    few rows, all kept in memory once read."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._chosen: dict[int, Locale] | None = None
        self._loading = asyncio.Lock()

    async def load(self) -> None:
        """Read every choice (at start: the updates that come find them in memory)."""
        await self._all()

    async def _all(self) -> dict[int, Locale]:
        if self._chosen is None:
            async with self._loading:  # updates that come at once wait for one read
                if self._chosen is None:
                    chosen: dict[int, Locale] = {}
                    for chat_id, lang in await repo.chat_langs(self.db):
                        if lang in Locale.__members__.values():
                            chosen[chat_id] = Locale(lang)
                    self._chosen = chosen
        return self._chosen

    async def of(self, chat_id: int) -> Locale | None:
        return (await self._all()).get(chat_id)

    async def choose(self, chat_id: int, locale: Locale | None) -> None:
        """``chat_id`` speaks ``locale`` from now on (None: each person's Telegram language again)."""
        batch = Batch()
        repo.set_chat_lang(batch, chat_id, locale.value if locale is not None else None)
        await self.db.write(batch)
        chosen = await self._all()
        if locale is None:
            chosen.pop(chat_id, None)
        else:
            chosen[chat_id] = locale

    def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: its choice goes with it (the database row moves with its games)."""
        if self._chosen is not None and old in self._chosen:
            self._chosen[new] = self._chosen.pop(old)
