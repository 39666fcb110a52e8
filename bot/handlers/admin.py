"""``/admin``: the operators' look at the running bot (``ADMIN_IDS``): the games running by kind, the people seen
today, Bot API calls a second, the outbox's queue, the unexpected failures of the last hour, the version, the uptime
and which «мастер» each game plays here; ``/admin <user id>``: that person's latest refusals and failures. For
anyone else ``/admin`` does not exist: it is answered as any unknown command is (in private, the short menu)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def on_admin(message: Message, command: CommandObject, pipeline: Pipeline, origin: Origin) -> None:
    if await pipeline.replies.admin(origin, (command.args or "").strip()):
        return
    if origin.chat_id > 0:
        await pipeline.replies.menu(origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="admin")
    router.message.register(on_admin, Command("admin"))
    return router
