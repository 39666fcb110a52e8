"""The scheduler: each active game's timer — bot players' moves, AFK reminders and moves made for a player whose
time ran out, a lobby's expiry.

A game's timer (:meth:`Scheduler.tick`) does what is due and sleeps until the next thing is, or until poked.
Deadlines live in the database, so :meth:`Scheduler.resume` picks every game up again after a restart. A bot
player thinks outside the game's lock (presses meanwhile are answered at once); its decision is the one method
:meth:`Scheduler.decide`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from dataclasses import dataclass

from bot.services.clock import Clock
from bot.services.config import ServiceConfig
from bot.services.errors import ServiceError
from bot.services.moves import Moves
from bot.services.publisher import Publisher
from bot.services.store import Match, Store, Unit, level_of
from bot.services.thinker import Thinker, decision_seed
from bot.storage import Actor, GameStatus, repo
from bot.storage.db import Batch
from bot.views import Answer
from engine.ai import Level

log = logging.getLogger(__name__)

SLOW_DECISION_MS = 1000.0
"""A bot player's decision taking longer than this (wall time) is logged: «мастер» needs ~50 ms at the median and
~150 ms at worst on an idle machine, so a second means the workers are starved."""


class Scheduler:
    def __init__(
        self,
        store: Store,
        moves: Moves,
        publisher: Publisher,
        clock: Clock,
        config: ServiceConfig,
        thinker: Thinker,
    ) -> None:
        self.thinker = thinker
        self.store = store
        self.moves = moves
        self.publisher = publisher
        self.clock = clock
        self.config = config
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._fresh: dict[int, Match] = {}
        """The game as its last change committed it, handed over by :meth:`poke`: a tick that finds nothing due
        in it needs no transaction of its own."""
        self._closed = False

    async def resume(self) -> list[int]:
        """After a start: every active game's deadline gets a grace; their ids (to republish and poke)."""
        games = await repo.active_games(self.store.db)
        now = self.clock.now()
        graced: list[tuple[int, float | None]] = []
        for game in games:
            if game.deadline is not None:
                # Time spent down is not the player's fault: leave them a short grace.
                grace = min(float(game.turn_timeout or self.config.turn_timeout), 15.0)
                if game.deadline < now + grace:
                    graced.append((game.id, now + grace))
        if graced:
            batch = Batch()
            repo.set_deadlines(batch, graced)
            await self.store.db.write(batch)
        return [game.id for game in games]

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._timers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def poke(self, game_id: int, fresh: Match | None = None) -> None:
        """Something changed in this game (``fresh``: the game as that change committed it, if known): its timer
        looks again at what is due."""
        if self._closed:
            return
        if fresh is not None:
            self._fresh[game_id] = fresh
        else:
            self._fresh.pop(game_id, None)
        wake = self._wakes.get(game_id)
        task = self._timers.get(game_id)
        if task is not None and not task.done() and wake is not None:
            wake.set()
            return
        wake = self._wakes[game_id] = asyncio.Event()
        # A context of its own: the timer outlives the update that started it and must not mark it processed.
        self._timers[game_id] = asyncio.create_task(
            self._timer(game_id, wake), name=f"game:{game_id}", context=contextvars.Context()
        )

    async def _timer(self, game_id: int, wake: asyncio.Event) -> None:
        try:
            while not self._closed:
                wake.clear()
                try:
                    delay = await self.tick(game_id)
                except Exception:
                    log.exception("game %s: its timer failed", game_id)
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

    async def tick(self, game_id: int) -> float | None:
        """Do whatever is due for this game now; the clock seconds until the next thing is due (None: none)."""
        fresh = self._fresh.pop(game_id, None)
        if fresh is not None:
            wait = self._wait(fresh, self.clock.now())
            if wait is None or wait > 0:
                return wait
        try:
            async with self.store.mutate(game_id) as unit:
                due = await self._due(unit)
        except ServiceError as exc:
            if exc.reason is Answer.NO_GAME:
                return None
            raise
        if due.reminder is not None:
            reminded, seconds_left = due.reminder
            self.publisher.remind(unit.match, unit.match.seats[reminded], seconds_left)
        if due.expired:
            self.publisher.publish(unit.match)
        if due.turn is None:
            return due.delay
        view, level, seed, version, player = due.turn
        # Think outside the lock: presses meanwhile are answered at once (they are not this seat's turn).
        action = await self.decide(game_id, view, level, decision_seed(seed, version))
        async with self.store.mutate(game_id) as unit:
            party = unit.match.party
            if party is None or party.version != version or party.current_player != player:
                return 0.0
            seat = unit.match.seats[player]
            actor = Actor.BOT if seat.bot_plays else Actor.AFK
            change = await self.moves.apply(unit, seat, party.index_of(action), actor)
        change.match = unit.match
        if actor is Actor.AFK and change.match.party is not None:
            self.store.mem.auto_moved[game_id] = change.match.party.version
        self.store.mem.changed_at[game_id] = self.clock.now()
        self.publisher.post(change.notices)
        self.publisher.publish(change.match, renew=change.renew, after=change.notices)
        self._fresh[game_id] = change.match
        return 0.0

    def _wait(self, match: Match, now: float) -> float | None:
        """Read-only: the clock seconds until something is due in ``match`` (0: now; None: nothing ever).

        A bot player's pause counts from the last change this run saw; a game this run has not seen change yet
        (resumed after a restart) starts its pause now, so the due time never moves on.
        """
        game = match.game
        if not game.status.is_active:
            return None
        if game.status is GameStatus.LOBBY:
            return None if game.expires_at is None else max(0.0, game.expires_at - now)
        party = match.party
        if party is None or party.is_terminal:
            return None
        if match.seats[party.current_player].bot_plays:
            due = self.store.mem.changed_at.setdefault(game.id, now) + self.config.bot_delay
            return max(0.0, due - now)
        if game.deadline is None:
            return None
        remind_at = game.deadline - self.config.reminder_before
        if now >= game.deadline or (
            not game.reminded and self.config.reminder_before > 0 and remind_at <= now
        ):
            return 0.0
        return min(t for t in (remind_at, game.deadline) if t > now) - now

    async def _due(self, unit: Unit) -> _Due:
        """What this game's timer must do now (the reminder, the expiry are written in ``unit``)."""
        match = unit.match
        game, now = match.game, unit.now
        wait = self._wait(match, now)
        if wait is None or wait > 0:
            return _Due(wait)
        if game.status is GameStatus.LOBBY:
            unit.close(GameStatus.EXPIRED)
            log.info("game %s: the lobby expired", game.id)
            return _Due(None, expired=True)
        party = match.party
        assert party is not None  # a turn is due: a bot player's, or a human's whose time is (nearly) up
        seat = match.seats[party.current_player]
        turn = (party.view_of(seat.seat), level_of(seat), party.seed, party.version, seat.seat)
        if seat.bot_plays or game.deadline is None:
            return _Due(0.0, turn=turn)
        reminder: tuple[int, int] | None = None
        remind_at = game.deadline - self.config.reminder_before
        if not game.reminded and self.config.reminder_before > 0 and remind_at <= now < game.deadline:
            unit.update_game(reminded=True)
            reminder = (seat.seat, int(game.deadline - now))
            remind_at = game.deadline
        if now < game.deadline:
            return _Due(min(t for t in (remind_at, game.deadline) if t > now) - now, reminder)
        # Time ran out: the bot moves for the player, as a normal-level player would.
        return _Due(0.0, reminder, turn=(turn[0], Level.NORMAL, *turn[2:]))

    async def decide(self, game_id: int, view: object, level: Level, seed: int) -> object:
        """A bot player's choice for ``view``, made by the thinker (its budget is work, so the choice depends on
        the view and seed only); a decision that takes far longer than usual in wall time is logged."""
        started = time.perf_counter()
        action: object = await self.thinker.choose(view, level, seed)
        spent = (time.perf_counter() - started) * 1000
        if spent > SLOW_DECISION_MS:
            log.warning(
                "game %s: a bot player (%s) took %.0f ms to decide, over the usual %.0f ms",
                game_id,
                level.value,
                spent,
                SLOW_DECISION_MS,
            )
        return action


@dataclass(frozen=True, slots=True)
class _Due:
    """What a timer found due: the delay until the next thing, a reminder to show (seat, seconds left), an
    expired lobby to show, and a turn for the bot to play (view, level, seed, version, seat)."""

    delay: float | None
    reminder: tuple[int, int] | None = None
    expired: bool = False
    turn: tuple[object, Level, int, int, int] | None = None
