"""What each game's timer finds due: a bot player's move after its pause, a reminder shortly before a player's
time runs out, the move the bot makes for a player whose time ran out, a lobby's expiry.

Deadlines live in the database, so :meth:`Turns.resume` finds every game again after a restart. A bot player
thinks outside the game's lock (presses meanwhile are answered at once); its decision is the one method
:meth:`Turns.decide`. Like every component of the flow, this one returns what it changed; the service has it drawn.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from bot.clock import Clock
from bot.flow.commands import ServiceConfig, ServiceError
from bot.flow.moves import Moves
from bot.flow.store import Change, Match, Store, Unit
from bot.flow.thinker import Thinker, decision_seed
from bot.storage import Actor, Batch, GameStatus, repo
from bot.views import Answer
from engine.ai import Level

Picked = Callable[[int, int, int], str | None]
"""(game, user, the party's version) → the code of the card the player picked with a first tap then, if any."""

log = logging.getLogger(__name__)

SLOW_DECISION_MS: Final = 1000.0
"""A bot player's decision taking longer than this (wall time) is logged: «мастер» needs ~50 ms at the median and
~150 ms at worst on an idle machine, so a second means the workers are starved."""
RESUME_GRACE: Final = 15.0
"""Clock seconds of a turn a player is left at most after a restart (time spent down is not their fault)."""


@dataclass(frozen=True, slots=True)
class Due:
    """What is due in a game now: the clock seconds until the next thing (None: nothing ever), a reminder to show
    (seat, seconds left), whether the lobby expired, and a turn for the bot to play (view, level, seed, version,
    seat)."""

    delay: float | None
    reminder: tuple[int, int] | None = None
    expired: bool = False
    turn: tuple[object, Level, int, int, int] | None = None


class Turns:
    def __init__(
        self,
        store: Store,
        moves: Moves,
        clock: Clock,
        config: ServiceConfig,
        thinker: Thinker,
        picked: Picked,
    ) -> None:
        self.store = store
        self.moves = moves
        self.clock = clock
        self.config = config
        self.thinker = thinker
        self.picked = picked
        """The card a player picked with a first tap at a version (the hand shows its moves), if any: when their
        time runs out the timer plays that card."""
        self.changed_at: dict[int, float] = {}
        """When each game last changed: the start of a bot player's pause. A game missing here (after a restart)
        starts its pause when its timer first looks."""

    async def resume(self) -> list[int]:
        """After a start: every active game's deadline gets a grace; their ids (to show again and time).

        Stored times are wall time, and the wall clock may have been set back between two runs: a deadline is
        bounded by what it can be (now plus the turn's limit), and a lobby's expiry by now plus a lobby's life,
        so a clock set back an hour does not leave a game an hour without its timer."""
        games = await repo.active_games(self.store.db)
        now = self.clock.now()
        graced: list[tuple[int, float | None]] = []
        expiries: list[tuple[int, float]] = []
        for game in games:
            if game.deadline is not None:
                limit = float(game.turn_timeout or self.config.turn_timeout)
                grace = min(limit, RESUME_GRACE)
                if game.deadline < now + grace:
                    graced.append((game.id, now + grace))
                elif limit > 0 and game.deadline > now + limit:
                    log.warning(
                        "game %s: its stored turn deadline lay %.0f s ahead (the clock was set back?): "
                        "the turn gets its limit from now",
                        game.id,
                        game.deadline - now,
                    )
                    graced.append((game.id, now + limit))
            if game.expires_at is not None and game.expires_at > now + self.config.lobby_ttl:
                expiries.append((game.id, now + self.config.lobby_ttl))
        if graced or expiries:
            batch = Batch()
            repo.set_deadlines(batch, graced)
            repo.set_expiries(batch, expiries)
            await self.store.db.write(batch)
        return [game.id for game in games]

    def changed(self, game_id: int, match: Match) -> None:
        """A change committed: a bot player's pause counts from now; a game that is over is forgotten."""
        if match.game.status.is_active:
            self.changed_at[game_id] = self.clock.now()
        else:
            self.changed_at.pop(game_id, None)

    async def act(self, game_id: int, fresh: Match | None) -> tuple[Change | None, float | None]:
        """Do whatever is due in this game now: the change made (if any) and the clock seconds until the next
        thing is due (None: none). ``fresh``: the game as its last change committed it, when the timer knows it."""
        if fresh is not None:
            wait = self._wait(fresh, self.clock.now())
            if wait is None or wait > 0:
                return None, wait
        try:
            async with self.store.mutate(game_id) as unit:
                due = self._due(unit)
        except ServiceError as exc:
            if exc.reason is Answer.NO_GAME:
                return None, None
            raise
        if due.reminder is not None:
            return Change(unit.match, reminder=due.reminder, wake_timer=False), due.delay
        if due.expired:
            return Change(unit.match, wake_timer=False), None
        if due.turn is None:
            return None, due.delay
        view, level, seed, version, player = due.turn
        # Think outside the lock: presses meanwhile are answered at once (they are not this seat's turn).
        action = await self.decide(game_id, view, level, decision_seed(seed, version))
        async with self.store.mutate(game_id) as unit:
            party = unit.match.party
            if party is None or party.version != version or party.current_player != player:
                return None, 0.0
            seat = unit.match.seats[player]
            actor = Actor.BOT if seat.bot_plays else Actor.AFK
            index = party.index_of(action)
            card = (
                None
                if seat.user_id is None or seat.bot_plays
                else self.picked(game_id, seat.user_id, version)
            )
            moves = party.actions_of_card(player, card) if card is not None else []
            if moves and index not in moves:
                index = moves[0]  # the card the player had picked, its best move
            change = self.moves.apply(unit, seat, index, actor)
        change.timer_move = actor is Actor.AFK
        return change, 0.0

    def _wait(self, match: Match, now: float) -> float | None:
        """Read-only: the clock seconds until something is due in ``match`` (0: now; None: nothing ever).

        A bot player's pause counts from the last change this run saw; a game this run has not seen change yet
        (resumed after a restart) starts its pause now, so the due time never moves on.
        """
        game, party = match.game, match.party
        if not match.timed:
            return None
        if game.status is GameStatus.LOBBY:
            assert game.expires_at is not None
            return max(0.0, game.expires_at - now)
        assert party is not None
        if match.seats[party.current_player].bot_plays:
            due = self.changed_at.setdefault(game.id, now) + self.config.bot_delay
            return max(0.0, due - now)
        assert game.deadline is not None
        remind_at = game.deadline - self.config.reminder_before
        if now >= game.deadline or (
            not game.reminded and self.config.reminder_before > 0 and remind_at <= now
        ):
            return 0.0
        return min(t for t in (remind_at, game.deadline) if t > now) - now

    def _due(self, unit: Unit) -> Due:
        """What this game's timer must do now (the reminder, the expiry are written in ``unit``)."""
        match = unit.match
        game, now = match.game, unit.now
        wait = self._wait(match, now)
        if wait is None or wait > 0:
            return Due(wait)
        if game.status is GameStatus.LOBBY:
            unit.close(GameStatus.EXPIRED)
            log.info("game %s: the lobby expired", game.id)
            return Due(None, expired=True)
        party = match.party
        assert party is not None  # a turn is due: a bot player's, or a human's whose time is (nearly) up
        seat = match.seats[party.current_player]
        turn = (party.view_of(seat.seat), seat.plays_at, party.seed, party.version, seat.seat)
        if seat.bot_plays or game.deadline is None:
            return Due(0.0, turn=turn)
        remind_at = game.deadline - self.config.reminder_before
        if not game.reminded and self.config.reminder_before > 0 and remind_at <= now < game.deadline:
            unit.update_game(reminded=True)
            return Due(game.deadline - now, (seat.seat, int(game.deadline - now)))
        if now < game.deadline:
            return Due(min(t for t in (remind_at, game.deadline) if t > now) - now)
        # Time ran out: the bot moves for the player, as «любитель» would.
        return Due(0.0, turn=turn)

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


AFTER_A_FAILURE: Final = 5.0
"""Clock seconds a timer whose step failed sleeps before it tries again."""

Step = Callable[[int, Match | None], Awaitable[float | None]]
"""Do what is due in a game now (given the game as its last change committed it, if known); the clock seconds
until the next thing is due, or None."""


class TurnTimers:
    def __init__(self, clock: Clock, step: Step) -> None:
        self.clock = clock
        self._step = step
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._fresh: dict[int, Match] = {}
        """The game as its last change committed it, handed over by :meth:`poke`: a step that finds nothing due
        in it needs no read of its own."""
        self._closed = False

    def __len__(self) -> int:
        return len(self._tasks)

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
        task = self._tasks.get(game_id)
        if task is not None and not task.done() and wake is not None:
            wake.set()
            return
        wake = self._wakes[game_id] = asyncio.Event()
        # A context of its own: the timer outlives the update that started it and must not mark it processed.
        self._tasks[game_id] = asyncio.create_task(
            self._run(game_id, wake), name=f"game:{game_id}", context=contextvars.Context()
        )

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self, game_id: int, wake: asyncio.Event) -> None:
        try:
            while not self._closed:
                wake.clear()
                try:
                    delay = await self._step(game_id, self._fresh.pop(game_id, None))
                except Exception:
                    log.exception("game %s: its timer failed", game_id)
                    delay = AFTER_A_FAILURE
                if delay is None:
                    return
                if delay <= 0:
                    continue
                await self.clock.wait(wake, delay)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]
                self._wakes.pop(game_id, None)
