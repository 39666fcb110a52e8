"""The Mini App in a real browser (the distribution's Chromium, driven by Playwright: tests/webapp/browser.py), the
bot in-process against the fake Telegram and its page served as the bot serves it (:func:`bot.app.serve_page`).

A solo party is played to its end by taps in the page; in a group party two people play in their pages while a
third plays by the chat's buttons, and after every move each page shows the game's newest version and the hand its
person's private message shows; a reload and a restart of the bot in the middle lose nothing (the page's stream
connects again by itself and is sent the stored game); launch data Telegram did not sign, signed for another bot,
or too old shows nothing but the page's own words."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web
from playwright.async_api import Browser

from bot.app import serve_page
from bot.delivery.web import screen
from bot.i18n import Locale, translator
from bot.model.game import Game
from tests.bot.conftest import BotRunner, Running, plain, start_party, start_solo_konchinka
from tests.bot.test_webapp import PAGE, as_someone_else, page_of
from tests.fakebot import FakeTelegram, FakeUser
from tests.fakebot.models import FakeMessage
from tests.webapp import browser as chromium
from tests.webapp.browser import Person, free_port, open_app, until
from tests.webapp.launching import launch_data

RU = translator(Locale.RU)
pytestmark = pytest.mark.timeout(240)
MOVES = 24
"""Moves of a group party played with two pages open (a reload after the 4th, a restart after the 8th)."""


@pytest.fixture
async def opened() -> AsyncIterator[Browser]:
    async with chromium.browser() as started:
        yield started


class Served:
    """The bot and its Mini App on a fixed local port (the same again after a restart, as a page knows it)."""

    def __init__(self, tg: FakeTelegram, bot_runner: BotRunner) -> None:
        self.tg, self.bot_runner, self.port = tg, bot_runner, free_port()
        self.running: Running | None = None
        self.site: web.AppRunner | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Running:
        self.running = await self.bot_runner(
            webapp_url=PAGE, webapp_host="127.0.0.1", webapp_port=self.port, default_target=1, bot_delay=0.2
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


@pytest.fixture
async def served(tg: FakeTelegram, bot_runner: BotRunner) -> AsyncIterator[Served]:
    serving = Served(tg, bot_runner)
    await serving.start()
    try:
        yield serving
    finally:
        await serving.stop()


def signed(tg: FakeTelegram, user: FakeUser, **changes: Any) -> str:
    return launch_data(
        changes.get("token", tg.token), user.id, time.time() - changes.get("age", 0.0), name=user.first_name
    )


def hand_message(user: FakeUser) -> FakeMessage:
    """The person's private message of their hand in play (the one that opens the Mini App)."""
    for message in reversed(user.private_chat.visible_messages()):
        if message.is_from_bot and any(b.web_app for b in message.flat_buttons):
            return message
    last = user.private_chat.visible_messages()[-3:]
    raise AssertionError(
        f"{user.first_name} has no hand in the chat: {[(m.text, m.flat_buttons) for m in last]}"
    )


async def test_a_solo_party_is_played_to_its_end_by_taps_in_the_mini_app(
    tg: FakeTelegram, served: Served, opened: Browser
) -> None:
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.settle()
    game = page_of(hand_message(anna))
    person = await open_app(opened, served.base, signed(tg, anna), game=game)
    taps = 0
    for _ in range(400):
        await until(tg.settle, "Аня's turn or the party's end in the page", _ready, person)
        shown = await person.shown()
        if shown["over"]:
            break
        assert hand_message(anna).text == shown["hand"], "the page shows the hand the chat shows"
        if taps == 0:  # her first turn: the master's hint, as the chat's «💡» gives it
            assert "hint" in shown["looks"]
            await person.look("hint")
            await until(tg.settle, "the hint", _shows, person, "hint")
            assert (await person.shown())["hint"].startswith("💡")
        data = shown["buttons"][0][1]
        await person.press(data)
        taps += 1
        await until(tg.settle, f"the page to take the tap {data}", _moved_on, person, shown)
    else:
        pytest.fail("the party did not end")
    assert taps >= 3 and shown["note"] == ""
    final = [m.text for m in anna.private_chat.bot_messages()]
    assert shown["hand"] in final, "the page's last screen is the chat's last word on the party"
    assert "ready" in await person.page.evaluate("() => window.Telegram.WebApp.calls")
    assert {"sheet", "review"} <= set(shown["looks"]) and "hint" not in shown["looks"]
    await person.look("sheet")  # the score sheet's picture, as the chat sends it
    await until(tg.settle, "the score sheet", _shows, person, "sheet")
    await person.look("review")
    await until(tg.settle, "the review", _shows, person, "review")
    assert (await person.shown())["sheet"] == 0, "one look at a time"


async def _shows(person: Person, look: str) -> bool:
    return bool((await person.shown())[look])


async def _ready(person: Person) -> bool:
    shown = await person.shown()
    return bool(shown["over"] or shown["buttons"])


async def _moved_on(person: Person, before: dict[str, Any]) -> bool:
    shown = await person.shown()
    return bool(
        shown["version"] > before["version"] or shown["buttons"] != before["buttons"] or shown["note"]
    )


async def test_two_people_play_a_group_party_in_their_pages_beside_a_third_in_the_chat_through_a_reload_and_a_restart(
    tg: FakeTelegram, served: Served, opened: Browser
) -> None:
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris, vera])
    await tg.settle()
    game = page_of(hand_message(anna))
    pages = {user: await open_app(opened, served.base, signed(tg, user), game=game) for user in (anna, boris)}
    moves = {anna: 0, boris: 0, vera: 0}
    for step in range(MOVES):
        assert served.running is not None
        stored = await served.running.app.pipeline.store.load(game)
        assert stored is not None and stored.party is not None
        version = stored.version
        await until(tg.settle, f"both pages at move {step}", _all_show, pages, version)
        await tg.settle()  # the chat's edits
        assert not stored.party.is_terminal, "a party of three lasts longer than this"
        for user, person in pages.items():
            shown = await person.shown()
            assert shown["hand"] == hand_message(user).text, f"{user.first_name}'s page and chat agree"
        # Вера plays in the chat: the page would show her what her chat shows
        vera_sees = screen(stored, vera.id)
        assert vera_sees is not None and vera_sees.hand is not None
        assert plain(vera_sees.hand.html) == hand_message(vera).text
        if step == 4:  # a reload: the page asks for the game anew
            await pages[anna].page.reload()
            await until(tg.settle, "the reloaded page", _all_show, pages, version)
        if step == 8:  # the bot restarts on the same database and port; the pages' streams connect again
            await served.stop()
            await served.start()
            await tg.settle()
        mover = next(user for user in (anna, boris, vera) if _offers_moves(user))
        moves[mover] += 1
        if mover is vera:
            message = hand_message(vera)
            move = next(
                b.callback_data for b in message.flat_buttons if (b.callback_data or "")[:2] in ("m:", "p:")
            )
            assert (await vera.press(message, data=move)).answered
        else:
            shown = await pages[mover].shown()
            assert shown["buttons"], f"{mover.first_name}'s turn: the page offers the moves"
            await pages[mover].press(shown["buttons"][0][1])
        await until(tg.settle, "the move to be stored", _changed, served, stored)
    assert all(count >= 2 for count in moves.values()), (step, moves)


def _offers_moves(user: FakeUser) -> bool:
    message = hand_message(user)
    return any((b.callback_data or "")[:2] in ("m:", "p:") for b in message.flat_buttons)


async def _all_show(pages: dict[FakeUser, Person], version: int) -> bool:
    return all([(await person.shown())["version"] == version for person in pages.values()])


async def _changed(served: Served, before: Game) -> bool:
    """The game as stored is no longer ``before`` (a move, or a card picked)."""
    assert served.running is not None
    return await served.running.app.pipeline.store.load(before.id) != before


async def test_launch_data_telegram_did_not_sign_for_this_person_and_bot_just_now_opens_nothing(
    tg: FakeTelegram, served: Served, opened: Browser
) -> None:
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    game = page_of(hand_message(anna))
    refused = {
        "forged": as_someone_else(signed(tg, boris), anna.id),
        "another bot's": signed(tg, anna, token="654321:another-bots-token"),
        "expired": signed(tg, anna, age=2 * 24 * 3600),
        "none (not opened from Telegram)": "",
    }
    for why, data in refused.items():
        person = await open_app(opened, served.base, data, game=game)
        await until(tg.settle, f"the page's answer to {why} launch data", _noted, person)
        shown = await person.shown()
        assert shown["note"] == RU.t("webapp-launch"), why
        assert shown["table"] is None and shown["hand"] is None and not shown["buttons"], why
        await person.close()
    honest = await open_app(
        opened, served.base, signed(tg, anna), game=game
    )  # the same page, signed: it opens
    await until(tg.settle, "Аня's page", _hand_shown, honest)
    assert (await honest.shown())["hand"] == hand_message(anna).text


async def _hand_shown(person: Person) -> bool:
    return (await person.shown())["hand"] is not None


async def _noted(person: Person) -> bool:
    return bool((await person.shown())["note"])
