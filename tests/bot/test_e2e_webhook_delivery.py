"""Webhook mode when Telegram cannot deliver: a TLS proxy in front of the bot that answers 502 (its backend, or
its certificate, broken). The bot hears nothing — only Telegram's ``getWebhookInfo`` knows that updates wait and
why their deliveries fail; the bot asks it every ``WEBHOOK_CHECK_EVERY`` seconds and says so in ``/healthz``
(``webhook``), in its metrics (the updates waiting, the last error's time) and in one ``WARNING`` line, and is
healthy again once the proxy delivers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode
from aiohttp import web

from bot import metrics
from bot.app import build_app, run_webhook
from tests.bot.conftest import make_settings
from tests.bot.test_e2e_webhook import SECRET, _free_port
from tests.bot.test_running import _figure
from tests.fakebot import FakeTelegram

pytestmark = pytest.mark.over_http("webhook mode: Telegram POSTs the updates through a proxy to the bot")

FORWARDED = ("Content-Type", "X-Telegram-Bot-Api-Secret-Token")


class Proxy:
    """The HTTPS proxy in front of the bot (plain HTTP here): forwards Telegram's POSTs, or answers 502."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.is_broken = True

    async def handle(self, request: web.Request) -> web.Response:
        if self.is_broken:
            return web.Response(status=502, text="Bad Gateway")
        headers = {name: request.headers[name] for name in FORWARDED if name in request.headers}
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session,
            session.post(self.backend + request.path, data=await request.read(), headers=headers) as answer,
        ):
            return web.Response(
                status=answer.status, body=await answer.read(), content_type=answer.content_type
            )


async def test_updates_telegram_cannot_deliver_make_the_webhook_unhealthy_until_the_proxy_delivers(
    tg: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bot_port, public_port = _free_port(), _free_port()
    proxy = Proxy(f"http://127.0.0.1:{bot_port}")
    front = web.Application()
    front.router.add_post("/{path:.*}", proxy.handle)
    runner = web.AppRunner(front, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", public_port).start()
    settings = make_settings(
        tg,
        db_path,
        webhook_url=f"http://127.0.0.1:{public_port}",
        webhook_host="127.0.0.1",
        webhook_port=bot_port,
        webhook_secret=SECRET,
        webhook_check_every=0.2,
        health_api_limit=1.0,
    )
    bot = Bot(tg.token, session=tg.session(), default=DefaultBotProperties(parse_mode=ParseMode.HTML))
    app = await build_app(settings, bot)
    task = asyncio.create_task(run_webhook(app))
    scrape = metrics.scraper(app)
    caplog.set_level(logging.INFO, logger="bot.webhook")
    try:
        await tg.wait_for(lambda: tg.webhook_url is not None, timeout=10, what="start-up in webhook mode")
        await tg.wait_for(lambda: not app.health.problems(), timeout=10, what="the webhook set")
        anna = tg.add_user("Аня")
        await anna.send_private("/help")
        await tg.wait_for(
            lambda: any(check == "webhook" for check, _ in app.health.failing()),
            timeout=15,
            what="the webhook reported failing",
        )
        [said] = app.health.problems()
        print(f"/healthz: {said}")
        assert said.startswith("1 updates wait at Telegram, whose deliveries to the webhook have failed for ")
        assert said.endswith("Wrong response from the webhook: 502 Bad Gateway)")
        figures = (await scrape())[0].decode()
        assert _figure(figures, "cardbot_webhook_pending_updates") == 1
        assert _figure(figures, "cardbot_webhook_last_error_timestamp_seconds") > 0
        assert _figure(figures, 'cardbot_unhealthy{check="webhook"}') == 1
        assert not anna.private_chat.bot_messages()  # nothing came through

        proxy.is_broken = False
        await tg.wait_for(lambda: anna.private_chat.bot_messages(), timeout=10, what="the help, delivered")
        await tg.wait_for(lambda: not app.health.problems(), timeout=10, what="the webhook healthy again")
        figures = (await scrape())[0].decode()
        assert _figure(figures, "cardbot_webhook_pending_updates") == 0
        assert _figure(figures, 'cardbot_unhealthy{check="webhook"}') == 0
        lines = [r for r in caplog.records if r.name == "bot.webhook"]
        assert [r.levelno for r in lines] == [logging.WARNING, logging.INFO], caplog.text
        assert "Telegram cannot deliver updates to http://127.0.0.1:" in lines[0].getMessage()
        assert "502 Bad Gateway" in lines[0].getMessage()
        assert "Telegram delivers updates again" in lines[1].getMessage()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await bot.session.close()
        await runner.cleanup()
