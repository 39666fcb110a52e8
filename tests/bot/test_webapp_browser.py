"""The Mini App in a real browser (the distribution's Chromium, driven by Playwright: tests/webapp/browser.py), the
bot in-process against the fake Telegram and its page served as the bot serves it (:func:`bot.app.serve_page`).

A solo party is played to its end by taps in the page; in a group party two people play in their pages while a
third plays by the chat's buttons, and after every move each page shows the game's newest version and the hand its
person's private message shows; a reload and a restart of the bot in the middle lose nothing (the page's stream
connects again by itself and is sent the stored game); launch data Telegram did not sign, signed for another bot,
or too old shows nothing but the page's own words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import Browser

from bot.delivery.web import screen
from bot.i18n import Locale, translator
from bot.model.game import Game
from tests.bot.conftest import BotRunner, move_buttons, plain, start_party, start_solo_konchinka, turn_message
from tests.bot.test_webapp import as_someone_else
from tests.fakebot import FakeTelegram, FakeUser
from tests.webapp import browser as chromium
from tests.webapp.browser import Person, Served, hand_message, open_app, shows, until
from tests.webapp.launching import launch_of, page_of

RU = translator(Locale.RU)
pytestmark = pytest.mark.timeout(240)
MOVES = 24
"""Moves of a group party played with two pages open (a reload after the 4th, a restart after the 8th)."""


@pytest.fixture
async def opened() -> AsyncIterator[Browser]:
    async with chromium.browser() as started:
        yield started


@pytest.fixture
async def served(bot_runner: BotRunner) -> AsyncIterator[Served]:
    serving = Served(bot_runner, default_target=1, bot_delay=0.2)
    await serving.start()
    try:
        yield serving
    finally:
        await serving.stop()


async def test_a_solo_party_is_played_to_its_end_by_taps_in_the_mini_app(
    tg: FakeTelegram, served: Served, opened: Browser
) -> None:
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.settle()
    game = page_of(hand_message(anna))
    person = await open_app(opened, served.base, launch_of(tg, anna), game=game)
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
            await until(tg.settle, "the hint", shows, person, "hint")
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
    await until(tg.settle, "the score sheet", shows, person, "sheet")
    await person.look("review")
    await until(tg.settle, "the review", shows, person, "review")
    assert (await person.shown())["sheet"] == 0, "one look at a time"


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
    pages = {
        user: await open_app(opened, served.base, launch_of(tg, user), game=game) for user in (anna, boris)
    }
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
        mover = next(user for user in (anna, boris, vera) if turn_message(user) is not None)
        moves[mover] += 1
        if mover is vera:
            message = hand_message(vera)
            assert (await vera.press(message, data=move_buttons(message)[0])).answered
        else:
            shown = await pages[mover].shown()
            assert shown["buttons"], f"{mover.first_name}'s turn: the page offers the moves"
            await pages[mover].press(shown["buttons"][0][1])
        await until(tg.settle, "the move to be stored", _changed, served, stored)
    assert all(count >= 2 for count in moves.values()), (step, moves)


async def _all_show(pages: dict[FakeUser, Person], version: int) -> bool:
    return all([(await person.shown())["version"] == version for person in pages.values()])


async def _changed(served: Served, before: Game) -> bool:
    """The game as stored has moved on from ``before``: a move, or a card picked (not what a restart rewrites
    when it takes the game up again: its turn's deadline, say)."""
    assert served.running is not None
    now = await served.running.app.pipeline.store.load(before.id)
    assert now is not None
    return (now.version, now.screens.picks) != (before.version, before.screens.picks)


async def test_launch_data_telegram_did_not_sign_for_this_person_and_bot_just_now_opens_nothing(
    tg: FakeTelegram, served: Served, opened: Browser
) -> None:
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    game = page_of(hand_message(anna))
    refused = {
        "forged": as_someone_else(launch_of(tg, boris), anna.id),
        "another bot's": launch_of(tg, anna, token="654321:another-bots-token"),
        "expired": launch_of(tg, anna, age=2 * 24 * 3600),
        "none (not opened from Telegram)": "",
    }
    for why, data in refused.items():
        person = await open_app(opened, served.base, data, game=game)
        await until(tg.settle, f"the page's answer to {why} launch data", shows, person, "note")
        shown = await person.shown()
        assert shown["note"] == RU.t("webapp-launch"), why
        assert shown["table"] is None and shown["hand"] is None and not shown["buttons"], why
        await person.close()
    honest = await open_app(
        opened, served.base, launch_of(tg, anna), game=game
    )  # the same page, signed: it opens
    await until(tg.settle, "Аня's page", shows, honest, "hand")
    assert (await honest.shown())["hand"] == hand_message(anna).text
