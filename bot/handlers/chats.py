"""The bot's own place in groups: removed and added back, a group upgraded to a supergroup, a topic closed."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.types import ChatMemberRestricted, ChatMemberUpdated, Message

from bot.flow import commands as cmd
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline

log = logging.getLogger(__name__)

CANNOT_POST = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.KICKED})


async def on_bot_membership(event: ChatMemberUpdated, pipeline: Pipeline, origin: Origin) -> None:
    """The bot was removed from a group, or added (back): stop or resume posting there."""
    member = event.new_chat_member
    pipeline.membership.forget_chat(event.chat.id)
    muted = isinstance(member, ChatMemberRestricted) and not member.can_send_messages
    if member.status in CANNOT_POST or muted:
        await pipeline.run(cmd.ChatClosed(event.chat.id), origin)
    else:
        await pipeline.run(cmd.ChatOpened(event.chat.id), origin)


async def on_migrate_to(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    """In the old group: it became a supergroup with another id."""
    assert message.migrate_to_chat_id is not None
    pipeline.membership.forget_chat(message.chat.id)
    await pipeline.run(cmd.ChatMoved(message.chat.id, message.migrate_to_chat_id), origin)


async def on_migrate_from(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    """In the new supergroup: it was the group with this old id (the same event, seen from the other side)."""
    assert message.migrate_from_chat_id is not None
    await pipeline.run(cmd.ChatMoved(message.migrate_from_chat_id, message.chat.id), origin)


async def on_topic_closed(message: Message) -> None:
    """Only admins write in a closed topic: the game goes on (its messages are edited in place), and what the
    bot cannot post there now is kept for when the topic reopens."""
    log.info("topic %s of chat %s closed", message.message_thread_id, message.chat.id)


async def on_topic_reopened(message: Message, pipeline: Pipeline, origin: Origin) -> None:
    await pipeline.run(cmd.TopicReopened(message.chat.id, message.message_thread_id or 0), origin)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="chats")
    router.my_chat_member.register(on_bot_membership, F.chat.type.in_({"group", "supergroup"}))
    router.message.register(on_migrate_to, F.migrate_to_chat_id)
    router.message.register(on_migrate_from, F.migrate_from_chat_id)
    router.message.register(on_topic_closed, F.forum_topic_closed)
    router.message.register(on_topic_reopened, F.forum_topic_reopened)
    return router
