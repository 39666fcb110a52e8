"""The webhook's endpoint: Telegram's POSTs checked for the secret, parsed, and fed to the dispatcher.

aiogram's own handler answers a body that is not JSON with 500 and a traceback, and one that is JSON but not an
update with 200, failing later in a task nobody awaits («Task exception was never retrieved»). Here both are
refused with 400 and one ``WARNING`` line, as is JSON nested too deep to parse and an update holding a number no
Telegram sends (:func:`bot.guards.updates.out_of_range`: it could not be stored); an update is handled in the
background (Telegram gets its 200 at once, as with aiogram's) and a failure there is logged, never left
unretrieved. A POST without the right secret is refused with 401, as aiogram does, and said in one ``WARNING`` line
at most once a minute (how many, the latest sender's address; never a secret): a proxy that drops the header, or a
changed ``WEBHOOK_SECRET``, shows in the log instead of as updates that silently stop.

Whether Telegram can deliver to it is another matter (a broken proxy, a certificate it refuses): only Telegram
knows, and :func:`watch_webhook` asks it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from pydantic import ValidationError

from bot.guards.updates import out_of_range
from bot.health import WebhookState
from bot.telegram import TELEGRAM_TIMEOUT

log = logging.getLogger(__name__)

MAX_BODY = 1 << 20
"""Bytes an update may take (Telegram's are a few kilobytes)."""
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
REFUSALS_SAID_EVERY = 60.0
"""Real seconds between two lines about POSTs refused for their secret (a scan must not flood the log)."""


class WebhookHandler(SimpleRequestHandler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._refused = 0
        """POSTs refused for their secret since the last line about them."""
        self._refusals_said: float | None = None
        """When (monotonic) that line was written."""

    async def handle(self, request: web.Request) -> web.Response:
        bot = await self.resolve_bot(request)
        if not self.verify_secret(request.headers.get(SECRET_HEADER, ""), bot):
            self._refused_for_secret(request)
            return web.Response(body="Unauthorized", status=401)
        try:
            body = await request.read()
            if len(body) > MAX_BODY:
                raise ValueError(f"{len(body)} bytes")
            update = Update.model_validate(json.loads(body), context={"bot": bot})
        except (ValueError, ValidationError, RecursionError) as exc:  # json's errors are ValueErrors
            log.warning("webhook: refused a body that is not an update (400): %s", _short(exc))
            return web.Response(text="not an update", status=400)
        problem = out_of_range(update)
        if problem:
            log.warning("webhook: refused an update with a number no Telegram sends (400): %s", problem)
            return web.Response(text="a number out of range", status=400)
        task = asyncio.create_task(self._feed(bot, update), name=f"update-{update.update_id}")
        self._background_feed_update_tasks.add(task)
        task.add_done_callback(self._background_feed_update_tasks.discard)
        return web.json_response({})

    def _refused_for_secret(self, request: web.Request) -> None:
        self._refused += 1
        now = time.monotonic()
        if self._refusals_said is not None and now - self._refusals_said < REFUSALS_SAID_EVERY:
            return
        given = "a wrong secret" if SECRET_HEADER in request.headers else "no secret"
        log.warning(
            "webhook: refused %d POST(s) without the right secret (401) since the last such line, the latest from %s "
            "with %s: if updates stopped, check WEBHOOK_SECRET and that the proxy passes the %s header",
            self._refused,
            request.remote,
            given,
            SECRET_HEADER,
        )
        self._refused, self._refusals_said = 0, now

    async def _feed(self, bot: Bot, update: Update) -> None:
        try:
            result: Any = await self.dispatcher.feed_update(bot, update, **self.data)
            if isinstance(result, TelegramMethod):  # a handler's answer as a method, as aiogram does
                await self.dispatcher.silent_call_request(bot=bot, result=result)
        except Exception as exc:
            log.error("webhook: update %s failed outside its handlers: %r", update.update_id, exc)


def _short(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:160]}"


RETRY_AFTER = 5.0
"""Seconds before ``getWebhookInfo`` is asked again after a failure (its interval, where that is shorter)."""


async def watch_webhook(
    bot: Bot, state: WebhookState, last_update: Callable[[], float], every: float
) -> None:
    """Until cancelled: every ``every`` seconds, Telegram's ``getWebhookInfo`` (within
    :data:`bot.telegram.TELEGRAM_TIMEOUT`) into ``state`` — the URL it delivers to, the updates waiting, its last
    delivery error —, ``/healthz``'s ``webhook`` check and the metrics. ``last_update``: when the bot last received
    an update (Unix time). A ``WARNING`` line when deliveries begin to fail, an ``INFO`` line when they work again,
    and one when ``getWebhookInfo`` itself failed twice in a row."""
    failures = 0
    while True:
        try:
            info = await asyncio.wait_for(bot.get_webhook_info(), TELEGRAM_TIMEOUT)
        except Exception as exc:  # the figures stay as Telegram last said them; asked again soon
            # One failure may be a kept-alive connection the server had just closed: said when it happens twice.
            failures += 1
            if failures == 2:
                log.warning(
                    "webhook: getWebhookInfo failed twice (asked again every %g s): %s",
                    min(every, RETRY_AFTER),
                    _short(exc),
                )
            await asyncio.sleep(min(every, RETRY_AFTER))
            continue
        failures = 0
        was_failing = state.failing_since is not None
        error_at = info.last_error_date.timestamp() if info.last_error_date is not None else 0.0
        state.told(
            info.url,
            info.pending_update_count,
            info.last_error_message or "",
            error_at,
            last_update(),
            time.monotonic(),
        )
        if state.failing_since is not None and not was_failing:
            log.warning(
                "webhook: Telegram cannot deliver updates to %s: %d wait; its last error: %s",
                info.url or "(no webhook set)",
                state.pending,
                state.error,
            )
        elif was_failing and state.failing_since is None:
            log.info("webhook: Telegram delivers updates again (%d wait)", state.pending)
        await asyncio.sleep(every)
