"""The Mini App against the real bot: its page served by the bot's own routes, the bot in-process against the
fake Telegram. A hand in play carries the button that opens the page; a party is played to the end by presses in
the page, and after each the page shows what the chat shows; the page's stream brings every committed change; and
whoever Telegram did not vouch for, or who has no seat and is no member, is refused with nothing shown."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.callbacks import HintCb, MoveCb
from bot.i18n import Locale, translator
from bot.webapp.server import PACE, PAGE_WORDS
from tests.bot.conftest import (
    BotRunner,
    Running,
    game_row,
    has_rematch,
    plain,
    start_party,
    start_solo_konchinka,
    turn_message,
)
from tests.bot.test_e2e_review import press_review
from tests.fakebot import FakeTelegram, FakeUser
from tests.webapp.launching import PAGE, launch_of, page_of

EN, RU = translator(Locale.EN), translator(Locale.RU)


@pytest.fixture
async def started(bot_runner: BotRunner) -> Running:
    return await bot_runner(webapp_url=PAGE, default_target=1, bot_delay=0.2)


@pytest.fixture
async def client(started: Running) -> AsyncIterator[TestClient[Any, Any]]:
    assert started.app.webapp is not None
    async with TestClient(TestServer(started.app.webapp.application())) as opened:
        yield opened


def auth(
    tg: FakeTelegram, user: FakeUser, *, token: str = "", age: float = 0.0, lang: str = "ru"
) -> dict[str, str]:
    return {"Authorization": f"tma {launch_of(tg, user, token=token, age=age, lang=lang)}"}


async def screen_of(client: TestClient[Any, Any], headers: dict[str, str], game: int) -> dict[str, Any]:
    response = await client.get(f"/app/api/screen?game={game}", headers=headers)
    assert response.status == 200, await response.text()
    shown: dict[str, Any] = (await response.json())["screen"]
    return shown


async def test_a_solo_party_is_played_to_the_end_in_the_page_and_the_chat_shows_the_same(
    tg: FakeTelegram, started: Running, client: TestClient[Any, Any]
) -> None:
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.settle()
    game = page_of(anna.private_chat.bot_messages()[-1])
    headers = auth(tg, anna)
    presses = 0
    for _ in range(300):
        await tg.settle()
        shown = await screen_of(client, headers, game)
        if shown["over"]:  # the game's message (above the party's result) as the page shows it
            assert plain(shown["hand"]["html"]) in [m.text for m in anna.private_chat.bot_messages()]
            break
        chat_hand = turn_message(anna)
        if chat_hand is None:  # the bot player's move is coming
            await tg.wait_for(
                lambda: turn_message(anna) or has_rematch(anna.private_chat.visible_messages()), what="a turn"
            )
            continue
        assert plain(shown["hand"]["html"]) == chat_hand.text
        buttons = [b["data"] for row in shown["hand"]["rows"] for b in row]
        assert buttons, "Аня's turn: the page shows her moves"
        chat_moves = [b.callback_data for b in chat_hand.flat_buttons]
        assert set(buttons) <= set(chat_moves), "the page's buttons are the chat's"
        pressed = await client.post(f"/app/api/press?game={game}", json={"data": buttons[0]}, headers=headers)
        assert pressed.status == 200, await pressed.text()
        answer = await pressed.json()
        assert answer["refused"] is None and answer["screen"]["screen"]["version"] >= shown["version"]
        presses += 1
    else:
        pytest.fail("the party did not end")
    assert presses >= 3
    assert not [b for b in anna.private_chat.bot_messages()[-1].flat_buttons if b.web_app], (
        "no page once over"
    )


async def test_the_page_follows_a_group_party_live_for_a_player_and_for_a_member_without_a_seat(
    tg: FakeTelegram, started: Running, client: TestClient[Any, Any]
) -> None:
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    game = page_of(anna.private_chat.bot_messages()[-1])
    streams = {}
    for user in (anna, vera):
        data = launch_of(tg, user)
        streams[user] = await client.get("/app/api/events", params={"game": game, "auth": data})
        assert streams[user].status == 200
    first = {user: await next_screen(stream) for user, stream in streams.items()}
    assert first[vera]["hand"] is None and first[vera]["table"] is not None
    assert first[anna]["hand"] is not None
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    move = next(
        b.callback_data
        for b in message.flat_buttons
        if b.callback_data and b.callback_data[:2] in ("p:", "m:")
    )
    assert (await mover.press(message, data=move)).answered  # by the chat's button
    await tg.settle()
    for user, stream in streams.items():
        shown = await next_screen(stream)
        assert shown["version"] > first[user]["version"]
        assert shown == await screen_of(client, auth(tg, user), game), (
            "the stream brings what the game is now"
        )
    assert plain(first[vera]["table"]["html"]) != plain(shown["table"]["html"])
    group_table = group.bot_messages()
    assert any(plain(shown["table"]["html"]) == m.text for m in group_table), (
        "the member sees the group's table"
    )
    for stream in streams.values():
        stream.close()


async def next_screen(stream: Any) -> dict[str, Any]:
    """The next screen a page's stream brings (comments skipped)."""
    while True:
        line = await asyncio.wait_for(stream.content.readline(), 10)
        assert line, "the stream ended"
        if line.startswith(b"data: "):
            shown: dict[str, Any] = json.loads(line[6:])["screen"]
            return shown


async def test_whoever_telegram_did_not_vouch_for_or_may_not_see_the_game_is_refused_and_nothing_changes(
    tg: FakeTelegram, started: Running, client: TestClient[Any, Any]
) -> None:
    anna, boris, stranger = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Чужой")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    game = page_of(anna.private_chat.bot_messages()[-1])
    before = await screen_of(client, auth(tg, anna), game)
    refused = {
        "forged": {"Authorization": "tma " + as_someone_else(launch_of(tg, boris), anna.id)},
        "foreign": auth(tg, anna, token="654321:another-bots-token"),
        "expired": auth(tg, anna, age=2 * 24 * 3600),
        "missing": {},
    }
    mover = anna if turn_message(anna) else boris
    move = next(b["data"] for row in before["hand"]["rows"] for b in row) if mover is anna else "p:1:0:Kd"
    for why, headers in refused.items():
        assert (await client.get(f"/app/api/screen?game={game}", headers=headers)).status == 401, why
        pressed = await client.post(f"/app/api/press?game={game}", json={"data": move}, headers=headers)
        assert pressed.status == 401, why
    for url in (f"/app/api/screen?game={game}", f"/app/api/screen?game={game + 1000}", "/app/api/screen"):
        response = await client.get(url, headers=auth(tg, stranger))
        assert response.status == 404 and "screen" not in await response.text()
    wrong = [
        ("stranger", auth(tg, stranger), move),
        ("not a move", auth(tg, anna), f"r:k:{game}:0"),
        ("another game", auth(tg, anna), move.replace(f":{game}:", f":{game + 1}:")),
        ("garbage", auth(tg, anna), "p:" + "x" * 70),
    ]
    for why, headers, data in wrong:
        pressed = await client.post(f"/app/api/press?game={game}", json={"data": data}, headers=headers)
        assert pressed.status in (400, 404), (why, pressed.status)
    await tg.settle()
    assert await screen_of(client, auth(tg, anna), game) == before, "nothing changed"
    burst = [
        client.get(f"/app/api/screen?game={game}", headers=auth(tg, boris)) for _ in range(PACE.count + 5)
    ]
    statuses = [r.status for r in await asyncio.gather(*burst)]
    assert statuses.count(429) >= 5 and statuses.count(200) >= PACE.count - 1, statuses


async def test_a_groups_table_links_the_page_and_the_link_opens_the_game_it_names(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(webapp_url=PAGE, webapp_name="table", default_target=1)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    (table,) = [
        m for m in group.bot_messages() if any(b.url and "startapp=" in b.url for b in m.flat_buttons)
    ]
    (link,) = [b.url for b in table.flat_buttons if b.url and "startapp=" in b.url]
    assert link is not None and link.startswith(f"https://t.me/{tg.bot_username}/table?startapp=g")
    game = int(link.rsplit("=g", 1)[1])
    assert running.app.webapp is not None
    async with TestClient(TestServer(running.app.webapp.application())) as client:
        for user in (vera, anna):  # opened from the link: the game comes from the start parameter alone
            data = launch_of(tg, user, start=f"g{game}")
            response = await client.get("/app/api/screen", headers={"Authorization": f"tma {data}"})
            shown = (await response.json())["screen"]
            assert shown["game"] == game and (shown["hand"] is None) == (user is vera)


def as_someone_else(data: str, user_id: int) -> str:
    """Launch data Telegram signed for one person, its user's id changed to another's (its hash kept)."""
    fields = dict(parse_qsl(data))
    user = json.loads(fields["user"])
    fields["user"] = json.dumps({**user, "id": user_id}, ensure_ascii=False, separators=(",", ":"))
    return urlencode(fields)


async def test_a_page_without_telegram_behind_it_is_served_with_its_security_policy(
    client: TestClient[Any, Any],
) -> None:
    page = await client.get("/app")
    assert page.status == 200 and "telegram-web-app.js" in await page.text()
    assert "script-src 'self' https://telegram.org" in page.headers["Content-Security-Policy"]
    assert "img-src 'self' data: blob:;" in page.headers["Content-Security-Policy"], (
        "the sheet shown from a blob"
    )
    assert (await client.get("/app/app.js")).status == 200
    for lang, expected in (("en", EN), ("ru", RU), ("", RU)):
        said = await (await client.get("/app/api/words", params={"lang": lang})).json()
        assert said == {key: expected.t(f"webapp-{key}") for key in PAGE_WORDS} and "webapp-" not in str(said)
    assert (await client.get("/app/secrets.txt")).status == 404


async def test_a_press_the_database_cannot_serve_is_answered_503_with_the_bots_apology_and_changes_nothing(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path
) -> None:
    """The database refusing every write (as a read-only file system makes SQLite), then held by another
    process for longer than the bot waits: the page's press gets the chat's own apology, in the person's
    language, and nothing is played; once the database serves again, the same press plays."""
    running = await bot_runner(webapp_url=PAGE, default_target=1, database_busy_timeout=0.25)
    assert running.app.webapp is not None
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna), what="Аня's turn")
    game = page_of(anna.private_chat.bot_messages()[-1])
    async with TestClient(TestServer(running.app.webapp.application())) as client:
        before = await screen_of(client, auth(tg, anna), game)
        move = MoveCb(game=str(game), version=before["version"], index=0).pack()
        url = f"/app/api/press?game={game}"

        await running.app.db.all("PRAGMA query_only = 1")
        pressed = await client.post(url, json={"data": move}, headers=auth(tg, anna))
        assert pressed.status == 503
        assert await pressed.json() == {"error": "database", "text": RU.t("answer-read-only")}
        await running.app.db.all("PRAGMA query_only = 0")

        holder = sqlite3.connect(db_path, isolation_level=None)
        try:
            holder.execute("BEGIN IMMEDIATE")
            pressed = await client.post(url, json={"data": move}, headers=auth(tg, anna, lang="en"))
            assert pressed.status == 503
            assert await pressed.json() == {"error": "database", "text": EN.t("answer-busy")}
        finally:
            holder.execute("COMMIT")
            holder.close()

        await tg.settle()
        assert (await game_row(running, str(game))).version == before["version"], "nothing was played"
        assert await screen_of(client, auth(tg, anna), game) == before
        pressed = await client.post(url, json={"data": move}, headers=auth(tg, anna))
        assert pressed.status == 200, await pressed.text()
        assert (await game_row(running, str(game))).version > before["version"]


async def test_a_press_that_fails_unexpectedly_is_answered_with_the_chats_apology_and_logged_with_its_game(
    tg: FakeTelegram,
    started: Running,
    client: TestClient[Any, Any],
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The game's record broken by hand (a move no game knows): the page's press fails inside the pipeline, which
    logs it with the game and its traceback; the page is told so in the chat's words, and nothing is played."""
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna), what="Аня's turn")
    game = page_of(anna.private_chat.bot_messages()[-1])
    before = await screen_of(client, auth(tg, anna), game)
    version = (await game_row(started, str(game))).version
    broken = sqlite3.connect(db_path, isolation_level=None)
    try:
        broken.execute(
            "INSERT INTO moves (game_id, version, action, seat, actor, at) VALUES (?, ?, '??', 0, 'player', 0)",
            (game, version),
        )
        broken.execute("UPDATE games SET version = ? WHERE id = ?", (version + 1, game))
    finally:
        broken.close()
    caplog.set_level(logging.ERROR)
    move = MoveCb(game=str(game), version=before["version"], index=0).pack()
    pressed = await client.post(f"/app/api/press?game={game}", json={"data": move}, headers=auth(tg, anna))
    assert pressed.status == 500
    assert await pressed.json() == {"error": "failed", "text": RU.t("answer-failed")}
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR and f"game {game}:" in r.getMessage()]
    assert failures and failures[0].exc_info is not None
    assert (await game_row(started, str(game))).version == version + 1, "the press played nothing"


async def play_in_the_page(
    tg: FakeTelegram, client: TestClient[Any, Any], game: int, players: list[FakeUser]
) -> dict[str, Any]:
    """The party played to its end by its people's presses in the page (its first move each time); the last
    screen of the first of them."""
    for _ in range(400):
        await tg.settle()
        screens = {user: await screen_of(client, auth(tg, user), game) for user in players}
        if screens[players[0]]["over"]:
            return screens[players[0]]
        movers = [(u, s) for u, s in screens.items() if s["hand"] and s["hand"]["rows"]]
        if not movers:  # a bot player's move is coming
            await tg.sleep(1)
            continue
        user, shown = movers[0]
        data = shown["hand"]["rows"][0][0]["data"]
        pressed = await client.post(
            f"/app/api/press?game={game}", json={"data": data}, headers=auth(tg, user)
        )
        assert pressed.status == 200, await pressed.text()
    pytest.fail("the party did not end")


def looks(shown: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {extra["look"]: extra for extra in shown["extras"]}


def photos(chat: Any) -> list[bytes]:
    """The pictures the bot sent to ``chat``, as Telegram keeps them."""
    return [
        m.current.media.file.data
        for m in chat.bot_messages()
        if m.current.media and m.current.media.kind == "photo"
    ]


async def test_a_solo_player_gets_in_the_page_the_hint_the_sheet_and_the_review_the_chat_gives(
    tg: FakeTelegram, started: Running, client: TestClient[Any, Any]
) -> None:
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    await start_solo_konchinka(tg, anna, opponents=1)
    await tg.wait_for(lambda: turn_message(anna), what="Аня's turn")
    hand = turn_message(anna)
    assert hand is not None
    game = page_of(hand)
    shown = await screen_of(client, auth(tg, anna), game)
    version = shown["version"]
    assert shown["extras"] == [{"look": "hint", "text": RU.t("btn-hint"), "version": version}]
    assert shown["time_left"] is None, "no limit per turn in a game with bots, none counted down"

    hint = f"/app/api/hint?game={game}&version={version}"
    said = await (await client.get(hint, headers=auth(tg, anna))).json()
    in_chat = await anna.press(hand, data=HintCb(game=str(game), version=version).pack(), timeout=30)
    assert in_chat.show_alert and said == {"text": in_chat.text}, "the chat's hint, in the same words"
    assert await (await client.get(hint, headers=auth(tg, anna))).json() == said
    burst = [client.get(hint, headers=auth(tg, anna)) for _ in range(PACE.count + 5)]
    statuses = [r.status for r in await asyncio.gather(*burst)]
    assert statuses.count(429) >= 5 and set(statuses) == {200, 429}, "the person's pace holds for hints too"
    assert started.app.pipeline.replies.advice.made == 1, "one search, however often asked"
    await tg.sleep(PACE.seconds)
    stale = await client.get(f"/app/api/hint?game={game}&version={version + 1}", headers=auth(tg, anna))
    assert await stale.json() == {"refused": RU.t("answer-stale")}
    stranger = await client.get(hint, headers=auth(tg, boris))
    assert stranger.status == 404 and "text" not in await stranger.json()
    assert started.app.pipeline.replies.advice.made == 1
    assert (await screen_of(client, auth(tg, anna), game))["version"] == version, "a hint plays nothing"
    for look in ("review", "sheet"):  # not offered yet: the party runs, no deal has ended
        response = await client.get(f"/app/api/{look}?game={game}", headers=auth(tg, anna))
        assert response.status == 404 or "refused" in await response.json(), look

    last = await play_in_the_page(tg, client, game, [anna])
    offered = looks(last)
    assert set(offered) == {"sheet", "review"}
    assert offered["sheet"]["text"] == RU.t("btn-sheet") and offered["review"]["text"] == RU.t("btn-review")
    await tg.settle()

    picture = await client.get(
        f"/app/api/sheet?game={game}&v={offered['sheet']['version']}", headers=auth(tg, anna)
    )
    assert picture.status == 200 and picture.content_type == "image/png"
    png = await picture.read()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png == photos(anna.private_chat)[-1], "the chat's picture"
    assert picture.headers["Cache-Control"] == "private, no-cache" and picture.headers["ETag"]
    unchanged = {**auth(tg, anna), "If-None-Match": picture.headers["ETag"]}
    assert (await client.get(f"/app/api/sheet?game={game}", headers=unchanged)).status == 304
    dark = await client.get(f"/app/api/sheet?game={game}&theme=dark", headers=auth(tg, anna))
    assert dark.content_type == "image/png" and await dark.read() != png
    assert (await client.get(f"/app/api/sheet?game={game}", headers=auth(tg, boris))).status == 404

    reviewed = await client.get(f"/app/api/review?game={game}", headers=auth(tg, anna))
    html = (await reviewed.json())["html"]
    message = await press_review(tg, anna, str(game))
    assert plain(html) == message.text, "the chat's review"
    assert started.app.pipeline.replies.reviews.made == 1, "one review made, for the chat and the page"
    assert (await client.get(f"/app/api/review?game={game}", headers=auth(tg, boris))).status == 404


async def test_in_a_group_the_page_counts_down_the_turn_and_a_look_is_only_for_whom_the_chat_offers_it(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    limit = 60
    started = await bot_runner(webapp_url=PAGE, default_target=1, turn_timeout=limit)
    assert started.app.webapp is not None
    async with TestClient(TestServer(started.app.webapp.application())) as client:
        await group_looks(tg, started, client, limit)


async def group_looks(tg: FakeTelegram, started: Running, client: TestClient[Any, Any], limit: int) -> None:
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    stranger = tg.add_user("Чужой")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.settle()
    game = page_of(anna.private_chat.bot_messages()[-1])
    member = await screen_of(client, auth(tg, vera), game)
    assert RU.t("time-limit", seconds=limit) in plain(member["table"]["html"]), (
        "the group's table shows the limit"
    )
    for user in (anna, boris, vera):
        shown = await screen_of(client, auth(tg, user), game)
        assert 0 < shown["time_left"] <= started.app.clock.real(limit), "the real seconds the turn has left"
        assert shown["extras"] == [], "no hint in a group game, no sheet before a deal has ended"
    version = shown["version"]
    for look in ("hint", "review"):
        url = f"/app/api/{look}?game={game}&version={version}"
        assert (await client.get(url, headers=auth(tg, vera))).status == 403, "a member without a seat"
        assert (await client.get(url, headers=auth(tg, stranger))).status == 404
        refused = await (await client.get(url, headers=auth(tg, anna))).json()
        assert list(refused) == ["refused"], (look, refused)
    assert started.app.pipeline.replies.advice.made == 0

    last = await play_in_the_page(tg, client, game, [anna, boris])
    assert set(looks(last)) == {"sheet", "review"} and last["time_left"] is None, "the party over: no limit"
    await tg.settle()
    member = await screen_of(client, auth(tg, vera), game)
    assert set(looks(member)) == {"sheet"}
    picture = await client.get(f"/app/api/sheet?game={game}", headers=auth(tg, vera))
    assert await picture.read() == photos(group)[-1], "the group's picture"
    assert (await client.get(f"/app/api/sheet?game={game}", headers=auth(tg, stranger))).status == 404
    review = f"/app/api/review?game={game}"
    assert (await client.get(review, headers=auth(tg, vera))).status == 403, "a member's own moves? none"
    assert (await client.get(review, headers=auth(tg, stranger))).status == 404
    assert started.app.pipeline.replies.reviews.made == 0
    assert "html" in await (await client.get(review, headers=auth(tg, boris))).json(), "a player's own review"
