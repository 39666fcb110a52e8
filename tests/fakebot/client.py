"""The aiogram side: a session pointed at the fake server that closes without aiogram's 250 ms SSL grace."""

from __future__ import annotations

from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer


class LocalSession(AiohttpSession):
    """AiohttpSession for a plain-HTTP local server; `close()` returns at once (no TLS to wind down)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(api=TelegramAPIServer.from_base(base_url))

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
