"""An aiogram session that builds each ``Response[...]`` class once.

aiogram's ``check_response`` looks up ``Response[method.__returning__]`` on every answer. pydantic keeps the
classes it builds for such lookups only by weak reference, and each has reference cycles, so the garbage
collector frees them every few moments and the next answer builds the class again: about 3 ms of the event
loop each time. Holding a strong reference to each class once built keeps pydantic's cache warm.
"""

from __future__ import annotations

from typing import Any

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType


class KeptResponsesSession(AiohttpSession):
    """:class:`AiohttpSession` whose response classes, once built, live as long as the session."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.response_types: dict[Any, type[Response[Any]]] = {}
        """Each method's ``Response[...]`` class, by the type the method returns."""

    def check_response(
        self, bot: Bot, method: TelegramMethod[TelegramType], status_code: int, content: str
    ) -> Response[TelegramType]:
        returning = method.__returning__
        if returning not in self.response_types:
            self.response_types[returning] = Response[returning]  # type: ignore[valid-type]
        return super().check_response(bot, method, status_code, content)
