"""The bot's own place in groups: removed and added back, a group upgraded to a supergroup, a topic closed."""

from __future__ import annotations

import logging

from aiogram import F, Router
from aiogram.enums import ChatMemberStatus
from aiogram.types import ChatMemberRestricted, ChatMemberUpdated, Message

from bot.flow.service import GameService, Membership, cmd

log = logging.getLogger(__name__)

CANNOT_POST = frozenset({ChatMemberStatus.LEFT, ChatMemberStatus.KICKED})


async def on_bot_membership(event: ChatMemberUpdated, service: GameService, membership: Membership) -> None:
    """The bot was removed from a group, or added (back): stop or resume posting there."""
    member = event.new_chat_member
    membership.forget_chat(event.chat.id)
    muted = isinstance(member, ChatMemberRestricted) and not member.can_send_messages
    if member.status in CANNOT_POST or muted:
        await service.run(cmd.ChatClosed(event.chat.id))
    else:
        await service.run(cmd.ChatOpened(event.chat.id))


async def on_migrate_to(message: Message, service: GameService, membership: Membership) -> None:
    """In the old group: it became a supergroup with another id."""
    assert message.migrate_to_chat_id is not None
    membership.forget_chat(message.chat.id)
    await service.run(cmd.ChatMoved(message.chat.id, message.migrate_to_chat_id))


async def on_migrate_from(message: Message, service: GameService) -> None:
    """In the new supergroup: it was the group with this old id (the same event, seen from the other side)."""
    assert message.migrate_from_chat_id is not None
    await service.run(cmd.ChatMoved(message.migrate_from_chat_id, message.chat.id))


async def on_topic_closed(message: Message) -> None:
    """Only admins write in a closed topic: the game goes on (its messages are edited in place), and what the
    bot cannot post there now is kept for when the topic reopens."""
    log.info("topic %s of chat %s closed", message.message_thread_id, message.chat.id)


async def on_topic_reopened(message: Message, service: GameService) -> None:
    await service.run(cmd.TopicReopened(message.chat.id, message.message_thread_id or 0))


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="chats")
    router.my_chat_member.register(on_bot_membership, F.chat.type.in_({"group", "supergroup"}))
    router.message.register(on_migrate_to, F.migrate_to_chat_id)
    router.message.register(on_migrate_from, F.migrate_from_chat_id)
    router.message.register(on_topic_closed, F.forum_topic_closed)
    router.message.register(on_topic_reopened, F.forum_topic_reopened)
    return router
