"""The aiogram side: production's session pointed at the fake server, closing without aiogram's 250 ms SSL grace."""

from __future__ import annotations

from aiogram.client.telegram import TelegramAPIServer

from bot.delivery.outbox.serving import KeptResponsesSession


class LocalSession(KeptResponsesSession):
    """The bot's own :class:`KeptResponsesSession` (so tests parse answers as the bot does, at its cost) for a
    plain-HTTP local server; `close()` returns at once (no TLS to wind down)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(api=TelegramAPIServer.from_base(base_url))

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
