"""Who may do what in a group: membership and admin rights, asked of Telegram and remembered for a while.

``getChatMember`` is a network call. It is never awaited under a game's lock (a stranger pressing «Отменить»
twenty times a second must not hold up a move), and its answers are cached per (chat, user) for ``ttl`` seconds
of the bot's clock; concurrent questions about the same pair share one call. So a flood of presses costs at
most one call per person and chat and ``ttl``.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Final

from aiogram import Bot
from aiogram.enums import ChatMemberStatus
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import ChatMemberRestricted

from bot.clock import Clock

log = logging.getLogger(__name__)

MEMBER_TTL: Final = 60.0
"""Seconds (bot's clock) an answer of getChatMember stays good."""
MEMBER_TIMEOUT: Final = 3
"""Real seconds to wait for getChatMember or getChat: the update waiting for it holds one of the places among
the updates handled at once, and its press must be answered within Telegram's 15 s whatever happens."""
MAX_CACHED: Final = 10_000
"""More entries than this and the oldest half is forgotten (memory stays bounded)."""

ADMINS: Final = frozenset({ChatMemberStatus.CREATOR, ChatMemberStatus.ADMINISTRATOR})
MEMBERS: Final = ADMINS | {ChatMemberStatus.MEMBER}


@dataclass(frozen=True, slots=True)
class Standing:
    """What Telegram said about a user in a chat."""

    is_member: bool
    is_admin: bool
    is_known: bool = True
    """False when Telegram could not be asked (network, 5xx, a proxy's HTML page): no rights, for now."""


NOBODY: Final = Standing(is_member=False, is_admin=False)
UNKNOWN: Final = Standing(is_member=False, is_admin=False, is_known=False)


class Membership:
    def __init__(
        self, bot: Bot, clock: Clock, ttl: float = MEMBER_TTL, timeout: int = MEMBER_TIMEOUT
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.ttl = ttl
        self.timeout = timeout
        self.calls = 0
        """getChatMember calls made (for tests and the log)."""
        self._cache: dict[tuple[int, int], tuple[float, Standing]] = {}
        self._asking: dict[tuple[int, int], asyncio.Future[Standing]] = {}
        self._titles: dict[int, tuple[float, str]] = {}

    async def standing(self, chat_id: int, user_id: int) -> Standing:
        key = (chat_id, user_id)
        cached = self._cache.get(key)
        if cached is not None and self.clock.now() - cached[0] < self.ttl:
            return cached[1]
        pending = self._asking.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Standing] = asyncio.get_running_loop().create_future()
        self._asking[key] = future
        try:
            standing = await self._ask(chat_id, user_id)
            future.set_result(standing)
        finally:
            del self._asking[key]
            if not future.done():
                future.set_result(UNKNOWN)
        return standing

    async def is_admin(self, chat_id: int, user_id: int) -> bool:
        return (await self.standing(chat_id, user_id)).is_admin

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        return (await self.standing(chat_id, user_id)).is_member

    def forget_chat(self, chat_id: int) -> None:
        """The chat changed (migrated, the bot left): its answers are no longer good."""
        self._cache = {k: v for k, v in self._cache.items() if k[0] != chat_id}
        self._titles.pop(chat_id, None)

    async def title(self, chat_id: int) -> str:
        """The group's title (getChat, remembered for ``ttl``); "" when Telegram does not say."""
        cached = self._titles.get(chat_id)
        if cached is not None and self.clock.now() - cached[0] < self.ttl:
            return cached[1]
        try:
            chat = await self.bot.get_chat(chat_id, request_timeout=self.timeout)
        except Exception as exc:  # refused, or no answer a client can read (timeout, a proxy's HTML page)
            log.info("getChat(%s) failed: %s", chat_id, exc)
            return ""
        if len(self._titles) >= MAX_CACHED:
            self._titles.clear()
        self._titles[chat_id] = (self.clock.now(), chat.title or "")
        return chat.title or ""

    @staticmethod
    def _unknown(chat_id: int, user_id: int, exc: Exception) -> Standing:
        """A passing failure: no rights for now, not remembered (asked again next time)."""
        log.warning("getChatMember(%s, %s) failed (%s): treated as no rights for now", chat_id, user_id, exc)
        return UNKNOWN

    async def _ask(self, chat_id: int, user_id: int) -> Standing:
        self.calls += 1
        try:
            member = await self.bot.get_chat_member(chat_id, user_id, request_timeout=self.timeout)
        except TelegramAPIError as exc:
            if isinstance(exc, (TelegramNetworkError, TelegramServerError, TelegramRetryAfter)):
                return self._unknown(chat_id, user_id, exc)
            log.info("getChatMember(%s, %s) refused: %s", chat_id, user_id, exc.message)
            standing = NOBODY
        except ClientDecodeError as exc:
            # JSON the library's model refuses (a field it requires missing: an older or another Bot API
            # server): the status is all the bot needs, and it is read from the answer as it came
            read = standing_of_answer(exc.data)
            if read is None:
                return self._unknown(chat_id, user_id, exc)
            log.info(
                "getChatMember(%s, %s): the answer does not fit the library's model: %s",
                chat_id,
                user_id,
                exc.original,
            )
            standing = read
        except Exception as exc:  # an answer no client can read: a proxy's HTML 502 page, a cut-off body
            return self._unknown(chat_id, user_id, exc)
        else:
            status = ChatMemberStatus(member.status)
            restricted_member = isinstance(member, ChatMemberRestricted) and member.is_member
            standing = Standing(status in MEMBERS or restricted_member, status in ADMINS)
        if len(self._cache) >= MAX_CACHED:
            oldest = sorted(self._cache.items(), key=lambda item: item[1][0])[: MAX_CACHED // 2]
            for key, _ in oldest:
                del self._cache[key]
        self._cache[(chat_id, user_id)] = (self.clock.now(), standing)
        return standing


def standing_of_answer(data: object) -> Standing | None:
    """The standing a raw getChatMember answer (``{"ok": true, "result": {"status": …}}``) gives, read by its
    status alone; None when it has no status the bot knows."""
    if not isinstance(data, dict) or data.get("ok") is not True:
        return None
    result = data.get("result")
    if not isinstance(result, dict):
        return None
    try:
        status = ChatMemberStatus(result.get("status"))
    except ValueError:
        return None
    restricted_member = status is ChatMemberStatus.RESTRICTED and result.get("is_member") is True
    return Standing(status in MEMBERS or restricted_member, status in ADMINS)
