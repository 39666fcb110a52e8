"""Loading games and changing them: one unit of work, the state cache, the per-game locks.

Every change of a game follows one path, :meth:`Store.mutate`: take the game's ``asyncio.Lock``, open **one**
transaction, read the game's rows (its party comes from the cache, rebuilt from the record only when missing),
let the caller change what it must, read the rows again if anything was written, store the update being handled
as processed, and commit. Only then does the cache take the new party. A refusal (:class:`ServiceError`) commits
what was written before it together with the update's mark, so a refused press costs no extra transaction.
"""

from __future__ import annotations

import contextvars
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.games import AnyPlugin, plugin_of
from bot.games.base import Options, Party
from bot.services.clock import Clock
from bot.services.config import ServiceConfig
from bot.services.errors import ServiceError
from bot.services.memory import GameLocks, StateCache
from bot.services.updates import CURRENT_UPDATE
from bot.storage import Database, GameMode, GameRow, Notice, SeatRow, Tx, UserRow, repo
from bot.views import Answer, LobbyScreen
from engine.ai import Level

log = logging.getLogger(__name__)

CURRENT_GAME: contextvars.ContextVar[int | None] = contextvars.ContextVar("current_game", default=None)
"""The game the update being handled last touched (the error handler names it in the log)."""


@dataclass(slots=True)
class Match:
    """One game as the rooms see it: its rows, its plug-in and (once dealt) its party."""

    game: GameRow
    seats: list[SeatRow]
    users: dict[int, UserRow]
    party: Party | None

    @property
    def plugin(self) -> AnyPlugin:
        return plugin_of(self.game.kind)

    def seat_of(self, user_id: int) -> SeatRow | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None


@dataclass(slots=True)
class Unit:
    """The unit of work of one change: its transaction and the game as read in it.

    A room that moves the party sets ``party``; the cache takes it once the transaction has committed.
    """

    tx: Tx
    match: Match
    now: float
    party: Party | None = None


@dataclass(slots=True)
class Change:
    """What a room changed, for the façade to make known: the game as committed, the answer to the press,
    notices stored with the change, whose private message goes out anew, and whether the game's timer and
    bot-pause clock must hear of it (``touched``)."""

    match: Match
    answer: Answer | None = None
    notices: list[Notice] = field(default_factory=list)
    renew: set[int] = field(default_factory=set)
    renew_group: bool = False
    touched: bool = True


@dataclass(slots=True)
class Memory:
    """What the service keeps in memory only (lost on restart, harmless).

    ``changed_at``: when each game last changed, the start of a bot player's pause; a game missing here (after
    a restart) is stamped by its first tick.
    """

    screens: dict[int, LobbyScreen] = field(default_factory=dict)
    picks: dict[tuple[int, int], str] = field(default_factory=dict)
    changed_at: dict[int, float] = field(default_factory=dict)
    hidden_lobbies: dict[int, list[int]] = field(default_factory=dict)
    """Lobbies cancelled while the bot was out of their group, by chat: their messages are updated on its return."""
    auto_moved: dict[int, int] = field(default_factory=dict)
    """Games whose last move the timer made for a player, with the party's version after it."""
    reminders: dict[int, dict[int, tuple[str, int]]] = field(default_factory=dict)
    """Each game's reminders on show: user → (slot, the party's version it reminds of). Kept past the game's end
    (:meth:`forget` leaves them) until the publisher has them deleted."""

    def forget(self, game_id: int) -> None:
        self.screens.pop(game_id, None)
        self.changed_at.pop(game_id, None)
        self.auto_moved.pop(game_id, None)
        self.drop_picks(game_id)

    def drop_picks(self, game_id: int) -> None:
        if self.picks:
            self.picks = {k: v for k, v in self.picks.items() if k[0] != game_id}


class Store:
    def __init__(self, db: Database, clock: Clock, config: ServiceConfig) -> None:
        self.db = db
        self.clock = clock
        self.config = config
        self.locks = GameLocks()
        self.states: StateCache[Party] = StateCache(clock.now)
        self.mem = Memory()

    @asynccontextmanager
    async def tx(self, *, mark: bool = True) -> AsyncIterator[Tx]:
        """A transaction that also stores the update being handled as processed (when it writes).

        ``mark=False`` for a step that is not the update's change itself (remembering who pressed): a failure
        after it must leave the update to be handled again.
        """
        claim = CURRENT_UPDATE.get() if mark else None
        async with self.db.tx() as tx:
            yield tx
            if claim is not None and tx.writes:
                await repo.mark_processed(tx, claim.update_id, self.clock.now())
        if claim is not None and tx.writes:
            claim.marked = True

    @asynccontextmanager
    async def mutate(self, game_id: int) -> AsyncIterator[Unit]:
        """Lock, read and change one game in one transaction (ServiceError NO_GAME if there is none)."""
        CURRENT_GAME.set(game_id)
        async with self.locks[game_id]:
            claim = CURRENT_UPDATE.get()
            refusal: ServiceError | None = None
            async with self.db.tx() as tx:
                match = await self.read(tx, game_id)
                if match is None:
                    refusal = ServiceError(Answer.NO_GAME)
                    unit = None
                else:
                    unit = Unit(tx, match, self.clock.now())
                    try:
                        yield unit
                    except ServiceError as exc:
                        refusal = exc
                    else:
                        if tx.writes:
                            fresh = await self.read(tx, game_id, unit.party)
                            if fresh is not None:
                                unit.match = fresh
                if claim is not None:
                    await repo.mark_processed(tx, claim.update_id, self.clock.now())
            if claim is not None:
                claim.marked = True
            if refusal is not None:
                raise refusal
            assert unit is not None
            if unit.party is not None:
                if unit.match.game.status.is_active:
                    self.states[game_id] = unit.party
                else:
                    self.states.pop(game_id)

    async def game(self, game_id: int) -> GameRow | None:
        """The game's row, read without its lock (for checks made before taking it)."""
        async with self.db.tx() as tx:
            return await repo.get_game(tx, game_id)

    async def read(self, tx: Tx, game_id: int, moved: Party | None = None) -> Match | None:
        """The game's rows as of ``tx``; its party from the cache (or ``moved``), else rebuilt from the record."""
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
            self.forget(game_id)
        party: Party | None = None
        if game.record is not None:
            cached = moved if moved is not None else self.states.get(game_id)
            if cached is not None and cached.version == game.version:
                party = cached
            else:
                party = plugin_of(game.kind).restore(game.record)
                if party.version != game.version:
                    raise RuntimeError(
                        f"game {game_id}: record has {party.version} moves, row says {game.version}"
                    )
                if game.status.is_active:
                    self.states[game_id] = party
        return Match(game, seats, users, party)

    def forget(self, game_id: int) -> None:
        """A game that is over leaves memory (its record stays in the database)."""
        self.states.pop(game_id)
        self.mem.forget(game_id)

    def new_party(self, plugin: AnyPlugin, options: Options, players: int) -> Party:
        """A new party dealt from the configured seed (tests) or a fresh random one."""
        seed = self.config.game_seed if self.config.game_seed is not None else secrets.randbits(48)
        return plugin.new_party(options, players, seed)

    async def arm_deadline(
        self, tx: Tx, game_id: int, party: Party | None = None, seats: list[SeatRow] | None = None
    ) -> None:
        """The AFK deadline of the player to move (group games with a time limit, or an unreachable player)."""
        game = await repo.get_game(tx, game_id)
        if game is None or game.mode is not GameMode.GROUP:
            return
        if party is None:
            if game.record is None:
                return
            party = self.states.get(game_id)
            if party is None or party.version != game.version:
                party = plugin_of(game.kind).restore(game.record)
        if seats is None:
            seats = await repo.seats_of(tx, game_id)
        if party.is_terminal:
            await repo.set_deadline(tx, game_id, None)
            return
        seat = seats[party.current_player]
        limit = float(game.turn_timeout)
        if seat.user_id is not None and not limit:
            user = await repo.get_user(tx, seat.user_id)
            if user is not None and not user.reachable:
                limit = float(self.config.turn_timeout or 60)
        if seat.bot_plays or not limit:
            await repo.set_deadline(tx, game_id, None)
        else:
            await repo.set_deadline(tx, game_id, self.clock.now() + limit)


def level_of(seat: SeatRow) -> Level:
    """The level a bot player plays at (a human's seat played by the bot: the normal one)."""
    if seat.is_bot and seat.level:
        try:
            return Level(seat.level)
        except ValueError:
            pass
    return Level.NORMAL
