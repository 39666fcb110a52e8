"""The games' timers: a task per game with something that falls due by itself — a bot player's move after its
pause, a reminder shortly before a person's time runs out, the move the bot makes for a person whose time ran out,
a lobby's expiry. What is due is decided by ``bot.flow.turns`` from the game and the time; the timer runs it as a
command through the pipeline like any other change (a bot player thinks first, outside the game's lock: presses
meanwhile are answered at once).

Deadlines are stored with the game, so :meth:`Timers.resume` finds every game again after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from bot.clock import Clock
from bot.delivery.outbox.queue import REMINDERS
from bot.flow import lobby, turns
from bot.flow.commands import BotMove
from bot.flow.moves import bot_move
from bot.model.game import Game
from bot.pipeline.origin import Parts
from bot.pipeline.thinker import decision_seed
from bot.storage import Batch, repo
from engine.ai import Level

log = logging.getLogger(__name__)

SLOW_DECISION_MS: Final = 1000.0
"""A bot player's decision taking longer than this (wall time) is logged: «мастер» needs ~50 ms at the median and
~150 ms at worst on an idle machine, so a second means the workers are starved."""
RESUME_GRACE: Final = 15.0
"""Clock seconds of a turn a player is left at most after a restart (time spent down is not their fault)."""
AFTER_A_FAILURE: Final = 5.0
"""Clock seconds a timer whose step failed sleeps before it tries again."""


class Timers:
    def __init__(self, pipeline: Parts) -> None:
        self.pipeline = pipeline
        self.clock = pipeline.clock
        self.tasks = TurnTimers(self.clock, self.act)
        self.changed_at: dict[int, float] = {}
        """When each game last changed: the start of a bot player's pause. A game missing here (after a restart)
        starts its pause when its timer first looks."""

    def changed(self, game: Game) -> None:
        """A change committed that may have moved what falls due in ``game`` (see :func:`may_fall_due`): a bot
        player's pause counts from now and its timer looks again; a game that is over is forgotten."""
        if game.status.is_active:
            self.changed_at[game.id] = self.clock.now()
        else:
            self.changed_at.pop(game.id, None)
        self.tasks.poke(game.id, game)

    async def act(self, game_id: int, fresh: Game | None) -> float | None:
        """Do whatever is due in this game now; the clock seconds until the next thing is due (None: none).
        ``fresh``: the game as its last change committed it, when the timer knows it."""
        pipeline = self.pipeline
        game = fresh or await pipeline.store.load(game_id)
        if game is None:
            return None
        now = self.clock.now()
        due = turns.due(game, now, pipeline.config, self.changed_at.setdefault(game_id, now))
        if due.kind is None:
            return due.wait
        if due.kind is turns.DueKind.EXPIRE:
            await pipeline.change(game_id, lambda g: lobby.expire(g, self.clock.now()))
        elif due.kind is turns.DueKind.REMIND:
            await pipeline.change(game_id, lambda g: turns.remind(g, self.clock.now(), pipeline.config))
        else:
            turn = turns.turn(game)
            action = await self.decide(game_id, turn.view, turn.level, decision_seed(turn.seed, turn.version))
            command = BotMove(game_id, turn.version, turn.seat, action)
            await pipeline.change(game_id, lambda g: bot_move(command, g, self.clock.now(), pipeline.config))
        return 0.0

    async def decide(self, game_id: int, view: object, level: Level, seed: int) -> object:
        """A bot player's choice for ``view``, made by the thinker (its budget is work, so the choice depends on
        the view and seed only); a decision that takes far longer than usual in wall time is logged."""
        started = time.perf_counter()
        action: object = await self.pipeline.thinker.choose(view, level, seed)
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

    async def resume(self) -> list[int]:
        """After a start: every active game's deadline gets a grace; the reminders on show of games that are over
        go; their ids (to show again and time).

        Stored times are wall time, and the wall clock may have been set back between two runs: a deadline is
        bounded by what it can be (now plus the turn's limit), and a lobby's expiry by now plus a lobby's life,
        so a clock set back an hour does not leave a game an hour without its timer."""
        pipeline = self.pipeline
        config = pipeline.config
        games = await repo.active_games(pipeline.db)
        now = self.clock.now()
        graced: list[tuple[int, float | None]] = []
        expiries: list[tuple[int, float]] = []
        for game in games:
            if game.deadline is not None:
                limit = float(game.turn_timeout or config.turn_timeout)
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
            if game.expires_at is not None and game.expires_at > now + config.lobby_ttl:
                expiries.append((game.id, now + config.lobby_ttl))
        if graced or expiries:
            batch = Batch()
            repo.set_deadlines(batch, graced)
            repo.set_expiries(batch, expiries)
            await pipeline.db.write(batch)
        shown = {
            f"{REMINDERS}{game.id}:{user}:{version}"
            for game in games
            for user, version in game.screens.reminders.items()
        }
        for message in await pipeline.outbox.live_messages(REMINDERS):
            if message.slot not in shown:
                pipeline.outbox.drop(message.slot, message.chat_id)
        return [game.id for game in games]

    async def close(self) -> None:
        await self.tasks.close()


Step = Callable[[int, Game | None], Awaitable[float | None]]
"""Do what is due in a game now (given the game as its last change committed it, if known); the clock seconds
until the next thing is due, or None."""


class TurnTimers:
    """A task per game that has something due, asleep until then or until :meth:`poke` wakes it."""

    def __init__(self, clock: Clock, step: Step) -> None:
        self.clock = clock
        self._step = step
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wakes: dict[int, asyncio.Event] = {}
        self._fresh: dict[int, Game] = {}
        """The game as its last change committed it, handed over by :meth:`poke`: a step that finds nothing due
        in it needs no read of its own."""
        self._closed = False

    def __len__(self) -> int:
        return len(self._tasks)

    def poke(self, game_id: int, fresh: Game | None = None) -> None:
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
        # A context of its own: the timer outlives the update that started it.
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
