"""Answers to presses: sent beside the update's handling, each with a deadline of a few seconds.

Telegram shows a spinner on a pressed button until the bot answers the query, and drops the query after 15 s.
An answer is worth a few seconds at most, and it must never hold anything up: the update that asked for it has
one of the places among the updates handled at once (``trouble.InFlightLimit``), and a network that hangs would
keep that place taken for aiogram's default 60 s — with enough hung answers no press of anyone is handled.

So an answer is a task of its own, started when the handler has done its work, with ``ANSWER_TIMEOUT`` real
seconds to go through; the handler returns at once. A failed or late answer is only logged: the move it
answered is applied either way, and the person sees the result in the messages.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Final

from aiogram import Bot
from aiogram.types import CallbackQuery

log = logging.getLogger(__name__)

ANSWER_TIMEOUT: Final = 3
"""Real seconds an answer to a press may take (aiogram wants an int); later, the spinner has gone anyway."""


class PressAnswers:
    """The answers on their way, so none is collected as garbage before it is sent and shut-down can wait."""

    def __init__(self, timeout: int = ANSWER_TIMEOUT) -> None:
        self.timeout = timeout
        self._pending: set[asyncio.Task[None]] = set()
        self.sent = 0
        self.failed = 0

    def answer(
        self,
        query: CallbackQuery,
        text: str | None = None,
        *,
        show_alert: bool = False,
        url: str | None = None,
    ) -> None:
        """Answer ``query`` in the background (``url``: a link Telegram opens, such as the private chat)."""
        bot = query.bot
        if bot is None:
            return
        task = asyncio.create_task(self._send(bot, query.id, text, show_alert, url))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self, timeout: float) -> None:
        """Wait until the answers on their way are through, at most ``timeout`` real seconds."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout)

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def _send(
        self, bot: Bot, query_id: str, text: str | None, show_alert: bool, url: str | None
    ) -> None:
        try:
            await bot.answer_callback_query(
                query_id, text=text, show_alert=show_alert, url=url, request_timeout=self.timeout
            )
        except Exception as exc:  # a query too old, a network that hangs: the move stands either way
            self.failed += 1
            log.debug("a press was not answered: %s", exc)
        else:
            self.sent += 1


PRESS_ANSWERS: Final = PressAnswers()
"""The process's answers on their way (tasks of the running event loop; the app waits for them at shut-down)."""


def answer_press(
    query: CallbackQuery, text: str | None = None, *, show_alert: bool = False, url: str | None = None
) -> None:
    """Answer a press in the background, within ``ANSWER_TIMEOUT`` seconds; never raises, never waits."""
    PRESS_ANSWERS.answer(query, text, show_alert=show_alert, url=url)
