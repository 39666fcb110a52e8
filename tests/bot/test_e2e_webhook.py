"""Webhook mode: Telegram pushes each update to the bot's endpoint with the secret token, and nothing polls.

The whole application runs as ``bot.app.run_webhook`` runs it in production (aiohttp serving the webhook path,
``setWebhook`` with the secret and the update types); the fake Telegram delivers updates by HTTP POST, as
Telegram does, and refuses ``getUpdates`` while the webhook is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode

from bot.app import build_app, run_webhook
from tests.bot.conftest import make_settings, move_buttons, play_until, start_solo_konchinka, turn_message
from tests.fakebot import FakeChat, FakeTelegram

pytestmark = pytest.mark.over_http("webhook mode: Telegram POSTs the updates to the bot's HTTP endpoint")

SECRET = "s3cret_Token-1"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _snapshot(chat: FakeChat) -> list[tuple[int, str, list[str | None]]]:
    return [
        (m.message_id, m.text, [b.callback_data for b in m.flat_buttons]) for m in chat.visible_messages()
    ]


async def test_in_webhook_mode_updates_arrive_with_the_secret_and_a_post_without_it_changes_nothing(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with webhook_bot(tg, db_path) as (endpoint, bot):
        assert tg.webhook_url == endpoint

        anna = tg.add_user("Аня")
        chat = anna.private_chat
        await start_solo_konchinka(tg, anna, opponents=1)
        assert await play_until(tg, [anna], lambda: False, moves=4, timeout=30) == 4
        await tg.wait_for(lambda: turn_message(anna) is not None, what="her next turn")
        await tg.settle()
        assert tg.stats.calls["getUpdates"] == 0
        assert tg.webhook_deliveries >= 7  # /play, two setup presses, four moves (and their card picks)
        assert tg.pending_updates == 0

        # Someone who knows the URL but not the secret posts her press: refused, and nothing moves.
        hand = turn_message(anna)
        assert hand is not None
        forged = {
            "update_id": 999_999_999,
            "callback_query": {
                "id": "777",
                "from": anna.to_json(),
                "message": hand.to_json(),
                "chat_instance": "1",
                "data": move_buttons(hand)[0],
            },
        }
        before, calls = _snapshot(chat), tg.stats.total_calls()
        caplog.set_level(logging.WARNING, logger="bot.webhook")
        async with aiohttp.ClientSession() as session:
            for headers in ({}, {"X-Telegram-Bot-Api-Secret-Token": "wrong-guess"}) * 3:
                async with session.post(endpoint, json=forged, headers=headers) as response:
                    assert response.status == 401
        await tg.settle()
        assert _snapshot(chat) == before
        assert tg.stats.total_calls() == calls
        # The operator sees it, once a while (not a line per forged POST), and no secret in it.
        said = [r.getMessage() for r in caplog.records if r.name == "bot.webhook"]
        assert len(said) == 1, said
        assert "401" in said[0] and "WEBHOOK_SECRET" in said[0] and "127.0.0.1" in said[0], said
        assert SECRET not in said[0] and "wrong-guess" not in said[0]

        # Her own press still plays; Telegram reports no delivery error.
        assert await play_until(tg, [anna], lambda: False, moves=1, timeout=30) == 1
        info = await bot.get_webhook_info()
        assert info.url == endpoint
        assert info.last_error_message is None


async def test_a_body_that_is_not_an_update_is_refused_with_400_and_one_line(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Malformed JSON, or JSON that is no update, with the right secret: 400 and one WARNING line — no 500, no
    traceback, no task left with its exception unretrieved — and the bot goes on serving real updates."""
    unretrieved: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
    try:
        async with webhook_bot(tg, db_path) as (endpoint, _bot):
            headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
            caplog.clear()
            async with aiohttp.ClientSession() as session:
                for body in (b'{"update_id": 1, "message": ', b"[1, 2, 3]", b'{"hello": "world"}', b'"text"'):
                    async with session.post(endpoint, data=body, headers=headers) as response:
                        assert response.status == 400, body
            await asyncio.sleep(0.2)
            gc.collect()  # an unretrieved task exception is reported when its task is collected
            await asyncio.sleep(0.1)
            refused = [r for r in caplog.records if "refused a body that is not an update" in r.getMessage()]
            assert len(refused) == 4 and all(r.levelno == logging.WARNING for r in refused)
            assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], caplog.text
            assert unretrieved == []
            assert not [r for r in caplog.records if r.name == "aiohttp.access"]  # no line per request
            # a real update still plays
            anna = tg.add_user("Аня")
            await anna.send_private("/help")
            await tg.wait_for(lambda: anna.private_chat.bot_messages(), timeout=10, what="the help")
    finally:
        loop.set_exception_handler(None)


@contextlib.asynccontextmanager
async def webhook_bot(tg: FakeTelegram, db_path: Path) -> AsyncIterator[tuple[str, Bot]]:
    """The bot in webhook mode (as production runs it), started (its webhook set, its commands too), until the
    block ends: its endpoint's address, and its Bot API client."""
    port = _free_port()
    public = f"http://127.0.0.1:{port}"
    settings = make_settings(
        tg, db_path, webhook_url=public, webhook_host="127.0.0.1", webhook_port=port, webhook_secret=SECRET
    )
    bot = Bot(tg.token, session=tg.session(), default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    app = await build_app(settings, bot)
    task = asyncio.create_task(run_webhook(app))
    try:
        await tg.wait_for(
            lambda: tg.webhook_url is not None and tg.commands != {},
            timeout=10,
            what="start-up in webhook mode",
        )
        yield public + settings.webhook_path, bot
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await bot.session.close()


HEADERS = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
PEOPLE = 20
"""People who each send /start after a poisoned update."""


async def test_deeply_nested_json_is_refused_with_400_and_one_line(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """JSON nested deeper than the parser's recursion allows is no update: 400 and one WARNING line, not a 500
    with a traceback."""
    async with webhook_bot(tg, db_path) as (endpoint, _bot):
        caplog.clear()
        body = b'{"update_id": 1, "message": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        async with (
            aiohttp.ClientSession() as session,
            session.post(endpoint, data=body, headers=HEADERS) as r,
        ):
            assert r.status == 400
        refused = [r for r in caplog.records if "refused a body that is not an update" in r.getMessage()]
        assert len(refused) == 1 and refused[0].levelno == logging.WARNING, caplog.text
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR], caplog.text


async def test_an_update_with_a_number_sqlite_cannot_store_is_refused_and_every_later_one_answered(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An update_id (or any id) beyond what Telegram sends and SQLite stores: 400 and one line, and it stops
    nothing — every /start after it is answered (before: its mark rode with every later transaction, failing
    each, and none was)."""
    async with webhook_bot(tg, db_path) as (endpoint, _bot):
        anna = tg.add_user("Аня")
        poisoned = {
            "update_id": 10**30,
            "message": {
                "message_id": 1,
                "date": 1_700_000_000,
                "chat": anna.private_chat.to_json(),
                "from": anna.to_json(),
                "text": "/start",
            },
        }
        caplog.clear()
        async with aiohttp.ClientSession() as session:
            async with session.post(endpoint, data=json.dumps(poisoned), headers=HEADERS) as response:
                assert response.status == 400
            big_id = json.loads(json.dumps(poisoned)) | {"update_id": 7}
            big_id["message"]["from"]["id"] = 2**64
            async with session.post(endpoint, data=json.dumps(big_id), headers=HEADERS) as response:
                assert response.status == 400
        people = [tg.add_user(f"Гость {n}") for n in range(PEOPLE)]
        for person in people:
            await person.send_private("/start")
        with contextlib.suppress(TimeoutError):
            await tg.wait_for(
                lambda: all(p.private_chat.bot_messages() for p in people), timeout=10, what="the greetings"
            )
        answered = sum(1 for p in people if p.private_chat.bot_messages())
        assert answered == PEOPLE, f"{answered} of {PEOPLE} answered"
        refused = [r for r in caplog.records if "refused" in r.getMessage()]
        assert len(refused) == 2 and all(r.levelno == logging.WARNING for r in refused), caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
