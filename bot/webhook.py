"""The webhook's endpoint: Telegram's POSTs checked for the secret, parsed, and fed to the dispatcher.

aiogram's own handler answers a body that is not JSON with 500 and a traceback, and one that is JSON but not an
update with 200, failing later in a task nobody awaits («Task exception was never retrieved»). Here both are
refused with 400 and one ``WARNING`` line, as is JSON nested too deep to parse and an update holding a number no
Telegram sends (:func:`bot.guards.updates.out_of_range`: it could not be stored); an update is handled in the background (Telegram gets its 200 at
once, as with aiogram's) and a failure there is logged, never left unretrieved.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from aiogram import Bot
from aiogram.methods import TelegramMethod
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from pydantic import ValidationError

from bot.guards.updates import out_of_range

log = logging.getLogger(__name__)

MAX_BODY = 1 << 20
"""Bytes an update may take (Telegram's are a few kilobytes)."""


class WebhookHandler(SimpleRequestHandler):
    async def handle(self, request: web.Request) -> web.Response:
        bot = await self.resolve_bot(request)
        if not self.verify_secret(request.headers.get("X-Telegram-Bot-Api-Secret-Token", ""), bot):
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
