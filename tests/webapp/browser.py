"""The Mini App in a real browser: the distribution's Chromium (``apt-get install chromium``, which
``scripts/test.sh`` does where it is missing), driven by Playwright, each person in a browser context of their own
on a phone's screen, opened the way Telegram opens a Mini App (the launch data and the theme in the URL's
fragment; Telegram's script served from ``telegram_client.js``, the client's side as the page uses it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from aiohttp import web
from playwright.async_api import Browser, BrowserContext, Page, Route, ViewportSize, async_playwright

from bot.app import serve_page
from tests.bot.conftest import BotRunner, Running
from tests.fakebot import FakeUser
from tests.fakebot.models import FakeMessage
from tests.webapp.launching import PAGE

TELEGRAM_SCRIPT: Final = "https://telegram.org/js/telegram-web-app.js"
CLIENT: Final = (Path(__file__).with_name("telegram_client.js")).read_text(encoding="utf-8")
FLAGS: Final = (
    "--no-sandbox",  # root in CI
    "--disable-gpu",
    "--disable-background-networking",  # this machine's network is closed: no calls home
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
PHONE: Final = ViewportSize(width=390, height=844)
"""A phone in portrait, in CSS pixels."""

LIGHT: Final = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
}
DARK: Final = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
}
"""Telegram's theme parameters as its Android client sends them (light, and dark)."""


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        raise AssertionError(
            "no chromium: `apt-get install chromium` (scripts/test.sh does it where it is missing)"
        )
    return found


@contextlib.asynccontextmanager
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        opened = await playwright.chromium.launch(executable_path=chromium(), args=list(FLAGS))
        try:
            yield opened
        finally:
            await opened.close()


def free_port() -> int:
    """A port nothing listens on now (for a server that must come back on the same one after a restart)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served:
    """The bot (``start``: a :data:`~tests.bot.conftest.BotRunner`, with ``settings``) and its Mini App served as the
    bot serves it (:func:`bot.app.serve_page`) on a fixed local port: the same again after a restart, as a page
    knows it."""

    def __init__(self, start: BotRunner, **settings: Any) -> None:
        self.start_bot, self.settings, self.port = start, settings, free_port()
        self.running: Running | None = None
        self.site: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Running:
        self.running = await self.start_bot(
            webapp_url=PAGE, webapp_host="127.0.0.1", webapp_port=self.port, **self.settings
        )
        assert self.running.app.webapp is not None
        self.site = await serve_page(self.running.app.webapp, self.running.app.settings)
        return self.running

    async def stop(self) -> None:
        if self.site is not None:
            await self.site.cleanup()
            self.site = None
        if self.running is not None:
            await self.running.stop()
            self.running = None


def hand_message(user: FakeUser) -> FakeMessage:
    """The person's private message of their hand in play (the one that opens the Mini App)."""
    for message in reversed(user.private_chat.visible_messages()):
        if message.is_from_bot and any(b.web_app for b in message.flat_buttons):
            return message
    last = user.private_chat.visible_messages()[-3:]
    raise AssertionError(
        f"{user.first_name} has no hand in the chat: {[(m.text, m.flat_buttons) for m in last]}"
    )


@dataclass
class Person:
    """One person's Mini App: their browser context and its page."""

    context: BrowserContext
    page: Page

    async def shown(self) -> dict[str, Any]:
        """What the page shows: its game's version (-1: none yet), whether it is over, the table's and the hand's
        text (None: not shown), the move buttons (text and the data they press), the note under them, the looks
        offered (``hint``, ``sheet``, ``review``), the hint's and the review's text and the sheet picture's width in
        pixels (0: none shown)."""
        state: dict[str, Any] = await self.page.evaluate(
            """() => {
              const text = (id) => (document.getElementById(id).hidden ? null : document.getElementById(id).textContent);
              return {
                version: Number(document.body.dataset.version ?? -1),
                over: document.body.dataset.over === "true",
                table: text("table"),
                hand: text("hand"),
                buttons: [...document.querySelectorAll("#buttons button")].map((b) => [b.textContent, b.dataset.press]),
                note: document.getElementById("note").textContent,
                looks: [...document.querySelectorAll("#extras button")].map((b) => b.dataset.look),
                hint: text("hint"),
                review: text("review"),
                sheet: document.getElementById("sheet").hidden ? 0 : document.getElementById("sheet").naturalWidth,
              };
            }"""
        )
        return state

    async def press(self, data: str) -> None:
        await self.page.click(f'#buttons button[data-press="{data}"]')

    async def look(self, name: str) -> None:
        """Open one of the looks offered (a hint, the score sheet, the review)."""
        await self.page.click(f'#extras button[data-look="{name}"]')

    async def close(self) -> None:
        await self.context.close()


async def shows(person: Person, part: str) -> bool:
    """The page shows ``part`` of :meth:`Person.shown` (the hand, the buttons, a note, the hint ...)."""
    return bool((await person.shown())[part])


async def open_app(
    opened: Browser, base: str, launch_data: str, *, game: int | None = None, dark: bool = False
) -> Person:
    """The Mini App at ``base`` (``http://host:port``) as Telegram's client opens it for the person ``launch_data``
    names (a hand's button: ``?game=``; a group's direct link: the game in the launch data's start parameter)."""
    context = await opened.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme="dark" if dark else "light",
        locale="ru-RU",
    )

    async def telegram_script(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=CLIENT)

    await context.route(TELEGRAM_SCRIPT, telegram_script)
    page = await context.new_page()
    fragment = "&".join(
        (
            f"tgWebAppData={quote(launch_data, safe='')}",
            "tgWebAppVersion=8.0",
            "tgWebAppPlatform=android",
            f"tgWebAppThemeParams={quote(json.dumps(DARK if dark else LIGHT), safe='')}",
        )
    )
    query = f"?game={game}" if game is not None else ""
    await page.goto(f"{base}/app{query}#{fragment}")
    return Person(context, page)


async def until(
    settle: Callable[[], Awaitable[None]],
    what: str,
    check: Callable[..., Awaitable[bool]],
    *args: Any,
    timeout: float = 15.0,
) -> None:
    """Wait, in real time, until ``check(*args)`` holds, letting the bot run (``settle``: the manual clock's loop
    drained) between two looks: the browser works in real time beside the bot's clock."""
    deadline = time.monotonic() + timeout
    while not await check(*args):
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await settle()
        await asyncio.sleep(0.02)
