"""Per-chat language: a group chooses its own with /lang (kept in the database), and a person may choose one for
their private chat; without a choice each person's Telegram language is followed, as before.

:class:`LanguageMiddleware` looks both up for every message and press and puts them in context variables, so the
handlers' one helper for texts (``tr_of``) and for the person (``person``) follow the choice without each handler
asking. The choices are few (a row per chat that chose), so all of them stay in memory once read.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import CallbackQuery, Message, TelegramObject

from bot.i18n import Locale
from bot.storage import Database, repo
from bot.storage.tx import Batch

CHAT_LOCALE: contextvars.ContextVar[Locale | None] = contextvars.ContextVar("chat_locale", default=None)
"""The language the chat of the update being handled chose (None: none chosen)."""
USER_LOCALE: contextvars.ContextVar[Locale | None] = contextvars.ContextVar("user_locale", default=None)
"""The language the person of the update chose for their private chat (None: their Telegram's)."""


class ChatLanguages:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._chosen: dict[int, Locale] | None = None

    async def _all(self) -> dict[int, Locale]:
        if self._chosen is None:
            chosen: dict[int, Locale] = {}
            for chat_id, lang in await repo.chat_langs(self.db):
                if lang in Locale.__members__.values():
                    chosen[chat_id] = Locale(lang)
            self._chosen = chosen
        return self._chosen

    async def of(self, chat_id: int) -> Locale | None:
        return (await self._all()).get(chat_id)

    async def choose(self, chat_id: int, locale: Locale | None) -> None:
        """``chat_id`` speaks ``locale`` from now on (None: each person's Telegram language again)."""
        batch = Batch()
        repo.set_chat_lang(batch, chat_id, locale.value if locale is not None else None)
        await self.db.write(batch)
        chosen = await self._all()
        if locale is None:
            chosen.pop(chat_id, None)
        else:
            chosen[chat_id] = locale

    def migrate(self, old: int, new: int) -> None:
        """A group became a supergroup: its choice goes with it (the database row moves with its games)."""
        if self._chosen is not None and old in self._chosen:
            self._chosen[new] = self._chosen.pop(old)


class LanguageMiddleware(BaseMiddleware):
    """An outer middleware for ``message`` and ``callback_query``: the chat's and the person's chosen language."""

    def __init__(self, languages: ChatLanguages) -> None:
        self.languages = languages

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        chat_id: int | None = None
        user_id: int | None = None
        if isinstance(event, Message):
            chat_id = event.chat.id
            user_id = event.from_user.id if event.from_user else None
        elif isinstance(event, CallbackQuery):
            chat_id = event.message.chat.id if event.message else None
            user_id = event.from_user.id
        chat = await self.languages.of(chat_id) if chat_id is not None else None
        user = await self.languages.of(user_id) if user_id is not None else None
        chat_token = CHAT_LOCALE.set(chat)
        user_token = USER_LOCALE.set(user)
        try:
            return await handler(event, data)
        finally:
            CHAT_LOCALE.reset(chat_token)
            USER_LOCALE.reset(user_token)
