"""People who play in the Mini App: each party set up in the chat as the chat's people set it up, then played
in the page.

Once a party has started, each person finds it in their hand's button that opens the page
(``<WEBAPP_URL>?game=<id>``), opens the page's stream of it (``/app/api/events``) and keeps the newest screen that
the stream, or a press's answer, brought. On their turn — their screen offers moves — they think as the chat's
people do, look at the newest screen again and press one of its buttons (``POST /app/api/press``), chosen as the
chat's people choose (:func:`tests.load.people.choose`): a card, then, where it opened a choice, one of its moves.
The answer is their screen after the press. A party ends for a person when their screen says it is over; the
host then sets the next one up in the chat. The bot keeps the chat's messages up to date all the while; nobody
presses them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any, Final

import aiohttp

from tests.fakebot import FakeUser
from tests.load.page_recorder import PagePress, PageRecorder
from tests.load.people import (
    PRESS_TIMEOUT,
    STAGGER,
    GameSpec,
    Person,
    Sim,
    choose,
    people_for,
    version_of,
)
from tests.load.recorder import PICK_PREFIX, Mode
from tests.webapp.launching import PAGE, launch_data

# PAGE: the page's public address, as the bot's buttons name it (Telegram opens only https); the people reach the
# page's server directly, over plain HTTP on this machine, as the proxy in front of it would.
REOPEN_AFTER: Final = 1.0
"""Real seconds before a person opens their stream again after it dropped, or was refused."""
LAST_SCREEN: Final = 5.0
"""Real seconds a person whose press ended the party keeps their stream open for the screen it brings (the
answer may come first)."""


@dataclass
class Site:
    """The Mini App as the people reach it: the page's address on this machine (``http://host:port/app``), the
    bot's token (Telegram signs launch data with it), one HTTP client for all, and what is timed."""

    base: str
    token: str
    session: aiohttp.ClientSession
    rec: PageRecorder


def page_game(user: FakeUser, seen: set[int]) -> int | None:
    """The game a button in ``user``'s private chat opens in the page, the newest not in ``seen``."""
    for message in reversed(user.private_chat.visible_messages()):
        for button in message.flat_buttons:
            if button.web_app and button.web_app.startswith(f"{PAGE}?game="):
                game = int(button.web_app.rsplit("=", 1)[1])
                if game not in seen:
                    return game
    return None


class Visitor:
    """One person's page of one game: its stream followed, the newest screen kept, presses made."""

    def __init__(self, person: Person, site: Site, game: int) -> None:
        self.person = person
        self.site = site
        self.game = game
        user = person.user
        self.init_data = launch_data(site.token, user.id, time.time(), name=user.first_name)
        """What Telegram hands the page the person opened (signed now, by the wall clock, as Telegram does)."""
        self.screen: dict[str, Any] | None = None
        self.version = -1
        self.streamed = -1
        """The newest version the stream brought."""
        self._changed = asyncio.Event()

    @property
    def is_over(self) -> bool:
        return self.screen is not None and bool(self.screen["over"])

    def buttons(self) -> list[str]:
        hand = self.screen["hand"] if self.screen is not None else None
        return [b["data"] for row in hand["rows"] for b in row] if hand else []

    def show(self, screen: dict[str, Any] | None) -> None:
        """A screen the stream or an answer brought: kept unless an older one than the screen kept."""
        if screen is not None and int(screen["version"]) >= self.version:
            self.screen, self.version = screen, int(screen["version"])
        self._changed.set()

    async def changed(self, timeout: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)
        self._changed.clear()

    async def follow(self) -> None:
        """The page's stream of the game, read until cancelled; opened again if it drops or is refused."""
        rec, sim = self.site.rec, self.person.sim
        params = {"game": str(self.game), "auth": self.init_data}
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=10.0)
        while not sim.stopping:
            try:
                async with self.site.session.get(
                    f"{self.site.base}/api/events", params=params, timeout=timeout
                ) as response:
                    if response.status != 200:
                        rec.stream_refusals[f"{response.status} {await response.text()}"] += 1
                    else:
                        rec.opened(self.person.user.id, self.game)
                        async for line in response.content:
                            if line.startswith(b"data: "):
                                self._arrived(json.loads(line[6:])["screen"], time.monotonic())
                        if not sim.stopping:
                            rec.streams_dropped += 1
            except (aiohttp.ClientError, ValueError):
                if not sim.stopping:
                    rec.streams_dropped += 1
            finally:
                rec.closed(self.person.user.id, self.game)
            await asyncio.sleep(REOPEN_AFTER)

    def _arrived(self, screen: dict[str, Any] | None, at: float) -> None:
        if screen is not None:
            self.site.rec.arrived(self.person.user.id, self.game, int(screen["version"]), at)
            self.streamed = max(self.streamed, int(screen["version"]))
        self.show(screen)

    async def press(self, data: str) -> PagePress:
        """``data`` pressed in the page; the answer's screen shown."""
        rec = self.site.rec
        press = rec.pressed(self.person.user.id, self.game, data, self.person.mode, time.monotonic())
        try:
            async with self.site.session.post(
                f"{self.site.base}/api/press",
                params={"game": str(self.game)},
                json={"data": data},
                headers={"Authorization": f"tma {self.init_data}"},
                timeout=aiohttp.ClientTimeout(total=PRESS_TIMEOUT),
            ) as response:
                status = response.status
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            rec.answered(press, time.monotonic(), None, type(exc).__name__, None)
            return press
        at = time.monotonic()
        if status != 200:
            rec.answered(press, at, status, str(body.get("error")), None)
            return press
        shown = body["screen"]["screen"]
        rec.answered(press, at, status, body["refused"], int(shown["version"]) if shown else None)
        self.show(shown)
        return press

    async def play(self) -> None:
        """Take turns until the party is over or the run stops (:meth:`follow` runs beside)."""
        sim = self.person.sim
        picked: int | None = None
        """The version at which this person's last card's tap was taken (its moves offered, if it opened a
        choice)."""
        while not sim.stopping and not self.is_over:
            if not self.buttons():
                await self.changed(1.0)
                continue
            await self.person.think()
            buttons = self.buttons()
            if sim.stopping or not buttons:
                continue
            data = choose(self.person.kind, self.person.rng, buttons, picked == version_of(buttons[0]))
            if data is None:
                await self.changed(1.0)
                continue
            press = await self.press(data)
            if press.is_accepted and data.startswith(PICK_PREFIX):
                picked = press.version


async def visit(person: Person, site: Site, spec: GameSpec, seen: set[int]) -> None:
    """One person's party in the page: its game found in their chat, followed and played until it is over."""
    sim = person.sim
    person.step = "the page's button"
    try:
        await sim.until(person.user.private_chat, lambda: page_game(person.user, seen) is not None)
    except TimeoutError:
        if not sim.stopping:
            sim.setup_failures[f"{spec.label}: {person.step}"] += 1
        return
    game = page_game(person.user, seen)
    assert game is not None
    seen.add(game)
    visitor = Visitor(person, site, game)
    following = asyncio.create_task(visitor.follow())
    try:
        await visitor.play()
        deadline = time.monotonic() + LAST_SCREEN
        while visitor.streamed < visitor.version and time.monotonic() < deadline and not sim.stopping:
            await visitor.changed(deadline - time.monotonic())
    finally:
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following


async def run_page_game(sim: Sim, site: Site, index: int, spec: GameSpec) -> None:
    """One game of ours played in the page, party after party, until the run stops; a set-up that times out
    ends the game."""
    await asyncio.sleep(index * STAGGER)
    people = people_for(sim, index, spec, spec.mode)
    group = sim.tg.add_group(f"Стол {index}", [p.user for p in people]) if spec.mode is Mode.GROUP else None
    host = people[0]
    seen: list[set[int]] = [set() for _ in people]
    while not sim.stopping:
        if not await host.set_up(spec, group, people):
            return
        sim.started.add(index)
        sim.parties += 1
        await asyncio.gather(*(visit(person, site, spec, seen[n]) for n, person in enumerate(people)))
