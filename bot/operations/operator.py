"""The operator's view of the running bot: what ``/admin`` shows, and failures reported to the operators' chat.

- :class:`Operator` remembers, in memory and bounded, each person's recent failures and refusals (``/admin
  12345``: why did this person's press fail?) and when unexpected failures happened; the people seen today and
  how long updates took are counted on the way in (``bot.guards.updates.Traffic``);
- an unexpected failure is reported to ``ADMIN_CHAT_ID`` once per :data:`REPORT_EVERY` for each place it
  happens (the exception's type and the handler's line), with its game, chat and user ids; repeats in between
  are counted and said with the next report;
- :func:`prune_live_messages` drops the live-message rows of games that ended long ago (they are never edited
  again) and of the screens turned in place (each press names its message again), at start and hourly.

Times are the bot's clock (``Clock.now``), the clock every other part uses.
"""

from __future__ import annotations

import asyncio
import collections
import html
import logging
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Protocol

from bot.clock import Buckets, Clock
from bot.delivery.outbox.queue import GAME_SLOTS, TURNED_SLOTS, game_of_slot
from bot.health import Health
from bot.storage import Batch, Database, upkeep
from bot.version import commit, version

log = logging.getLogger(__name__)

REPORT_EVERY: Final = 600.0
"""Seconds between two reports of failures from the same place to the operators' chat."""
TROUBLES_KEPT: Final = 256
"""Refusals and failures kept (the newest, of everyone): ``/admin <user id>`` picks that person's."""
HOUR: Final = 3600.0
LIVE_KEPT_FOR: Final = 7 * 24 * 3600.0
"""Seconds after its end that a game's live messages stay known (a late press on them is still understood)."""
PRUNE_EVERY: Final = 3600.0


class TrafficFigures(Protocol):
    """What the operator reads of the traffic the guards count (``bot.guards.updates.Traffic``)."""

    @property
    def seen_today(self) -> set[int]: ...
    @property
    def latency(self) -> Buckets: ...
    @property
    def last_update(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Trouble:
    """One failure or refusal a person met."""

    at: float
    """When, on the wall clock (``time.time()``)."""
    user_id: int
    what: str
    """``refused: <reason>`` or the exception's first words."""
    chat_id: int | None
    game_id: int | None


Say = Callable[[int, str], Awaitable[None]]


class Operator:
    def __init__(
        self,
        clock: Clock,
        health: Health,
        db: Database,
        admins: frozenset[int],
        admin_chat_id: int | None,
        say: Say,
        traffic: TrafficFigures,
    ) -> None:
        self.clock = clock
        self.health = health
        self.db = db
        self.admins = admins
        self.admin_chat_id = admin_chat_id
        self.say = say
        self.version = version()
        self.commit = commit()
        self.traffic = traffic
        """Who sent the bot anything today, how long updates took (counted by the outermost middlewares)."""
        self.troubles: collections.deque[Trouble] = collections.deque(maxlen=TROUBLES_KEPT)
        self.failures: collections.deque[float] = collections.deque(maxlen=10_000)
        """When the latest unexpected failures happened (for ``/admin``'s last hour) ..."""
        self.failure_count = 0
        """... and how many there were since the start (the metric: a counter never capped)."""
        self._reported: dict[str, float] = {}
        self._unreported: collections.Counter[str] = collections.Counter()
        self._sending: set[asyncio.Task[None]] = set()
        self.refusals: collections.Counter[str] = collections.Counter()
        """Presses and commands refused, by reason."""
        self.backlog: Callable[[], tuple[int, float]] = lambda: (0, 0.0)
        self.end_abandoned: Callable[[], Awaitable[int]] | None = None
        """Ends the games nobody plays any more (the game service's, wired at start)."""
        """The outbox's calls waiting and the oldest one's wait (set by the wiring)."""

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.admins

    # --- what happens -------------------------------------------------------------------------------------

    def refused(self, reason: str, user_id: int | None, chat_id: int | None, game_id: int | None) -> None:
        self.refusals[reason] += 1
        if user_id is not None:
            self.note(user_id, reason, chat_id, game_id)

    def note(self, user_id: int, what: str, chat_id: int | None, game_id: int | None) -> None:
        """A press or command of ``user_id`` refused (``what``: the reason) or failed: kept for ``/admin``."""
        self.troubles.append(Trouble(time.time(), user_id, what, chat_id, game_id))

    def troubles_of(self, user_id: int) -> list[Trouble]:
        """The person's refusals and failures still kept, newest first."""
        return [t for t in reversed(self.troubles) if t.user_id == user_id]

    def failed(
        self, exc: BaseException, user_id: int | None, chat_id: int | None, game_id: int | None
    ) -> None:
        """An unexpected failure: counted, kept for the person, and reported to the operators' chat unless the
        same place was reported less than :data:`REPORT_EVERY` ago."""
        now = self.clock.now()
        self.failures.append(now)
        self.failure_count += 1
        what = f"{type(exc).__name__}: {exc}"[:300]
        if user_id is not None:
            self.note(user_id, what, chat_id, game_id)
        if self.admin_chat_id is None:
            return
        place = f"{type(exc).__name__} in {_handler(exc)}"
        last = self._reported.get(place)
        if last is not None and now - last < REPORT_EVERY:
            self._unreported[place] += 1
            return
        self._reported[place] = now
        repeats = self._unreported.pop(place, 0)
        text = (
            f"⚠️ {html.escape(what)}\nat {html.escape(_handler(exc))}\ngame {game_id}, chat {chat_id}, user {user_id}"
            + (f"\n(+{repeats} more from the same place since the last report)" if repeats else "")
        )
        task = asyncio.get_running_loop().create_task(self._report(text))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _report(self, text: str) -> None:
        assert self.admin_chat_id is not None
        try:
            await self.say(self.admin_chat_id, text)
        except Exception as exc:
            log.warning("cannot report to the operators' chat %s: %s", self.admin_chat_id, exc)

    # --- what /admin shows ----------------------------------------------------------------------------------

    def failures_within(self, seconds: float) -> int:
        since = self.clock.now() - seconds
        return sum(1 for at in self.failures if at >= since)

    def calls_per_second(self, window: float = 60.0) -> float:
        """Successful Bot API calls a second over the last ``window`` real seconds."""
        return self.health.calls_per_second(window)

    def uptime(self) -> float:
        return time.monotonic() - self.health.started

    async def games_running(self) -> dict[str, int]:
        """Active games by kind (lobbies and parties)."""
        counts: collections.Counter[str] = collections.Counter()
        for (kind, _status), n in (await upkeep.games_running(self.db)).items():
            counts[kind] += n
        return dict(counts)

    async def prune_live_messages(self) -> int:
        """Forget the live messages of games that ended :data:`LIVE_KEPT_FOR` ago, and the screens turned in
        place (their next press names them again: ``TURNED_SLOTS``); how many rows went."""
        ended = await upkeep.finished_live_slots(
            self.db, self.clock.now() - LIVE_KEPT_FOR, GAME_SLOTS, game_of_slot
        )
        turned = await upkeep.live_slots_of_kinds(self.db, TURNED_SLOTS)
        if ended or turned:
            batch = Batch()
            upkeep.drop_live(batch, [*ended, *turned])
            await self.db.write(batch)
            log.info(
                "forgot %d live messages of games that ended long ago and %d of screens turned in place",
                len(ended),
                len(turned),
            )
        return len(ended) + len(turned)

    async def keep_pruning(self) -> None:
        """Every :data:`PRUNE_EVERY`: games nobody plays ended, live messages of games long over forgotten, the
        WAL checkpointed and cut back to nothing — so the database and its WAL do not grow without bound."""
        while True:
            try:
                if self.end_abandoned is not None:
                    await self.end_abandoned()
                await self.prune_live_messages()
                await self.db.truncate_wal()
            except Exception as exc:
                log.warning("could not forget old live messages (tried again later): %s", exc)
            await asyncio.sleep(PRUNE_EVERY)


OUR_CODE: Final = ("/bot/", "/engine/")
CALLERS_OF_TELEGRAM: Final = ("/bot/delivery/outbox/serving.py", "/bot/health.py")
"""Our wrappers around the Bot API: every failed call passes them, so they name no place of their own."""
HANDLERS: Final = ("/bot/handlers/", "/bot/games/")


def _place(exc: BaseException) -> str:
    """Where an exception was raised: the innermost frame of our own code (``bot``/``engine``, the Bot API
    wrapper aside), else the last."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [
        f
        for f in frames
        if any(p in f.filename for p in OUR_CODE) and not f.filename.endswith(CALLERS_OF_TELEGRAM)
    ]
    if not (ours or frames):
        return "an unknown place"
    frame = (ours or frames)[-1]
    return f"{frame.filename.rsplit('/', 1)[-1]}, {frame.name}, line {frame.lineno}"


def _handler(exc: BaseException) -> str:
    """What failures are grouped by: the handler the update went to (its innermost frame in ``bot/handlers``
    or a game's plug-in) with the place it failed at, so two handlers' failures inside one Bot API call are
    reported apart."""
    frames = traceback.extract_tb(exc.__traceback__)
    handler = next((f for f in reversed(frames) if any(p in f.filename for p in HANDLERS)), None)
    place = _place(exc)
    if handler is None:
        return place
    name = f"{handler.filename.rsplit('/', 1)[-1]}, {handler.name}"
    return place if place.startswith(name) else f"{name} → {place}"
