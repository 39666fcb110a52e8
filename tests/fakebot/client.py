"""The aiogram side: production's session pointed at the fake server over HTTP, or handing the fake its calls
in-process.

Both are the bot's own :class:`KeptResponsesSession` (so answers are parsed as the bot parses them, at its cost,
and turned into the same exceptions by aiogram's ``check_response``). :class:`InProcessSession` replaces only the
trip over the network: it lays a method out as aiogram's multipart form would (``prepare_value``: strings, JSON,
files as uploads), calls :meth:`FakeTelegram.call <tests.fakebot.server.FakeTelegram.call>` and gives up after the
request's timeout on the test's clock, raising what aiohttp's timeout raises.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from aiogram import Bot, Dispatcher
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InputFile

from bot.delivery.outbox.serving import KeptResponsesSession
from tests.fakebot.media import MAX_DOCUMENT_BYTES, MediaError, Upload

if TYPE_CHECKING:
    from tests.fakebot.manual import ManualClock
    from tests.fakebot.server import FakeTelegram

IN_PROCESS_URL = "http://telegram.in-process"
"""What an in-process bot believes its Bot API server's address is (nothing listens there)."""
MAX_REQUEST_BYTES = MAX_DOCUMENT_BYTES + 64 * 1024
"""The largest request the fake takes (its HTTP server's ``client_max_size``): a document's 50 MB and the rest."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The fake's answer to a request: an HTTP status and a body (JSON, or a proxy's HTML page, or a garbled one)."""

    status: int
    text: str
    content_type: str = "application/json"

    @classmethod
    def json(cls, body: object, status: int = 200) -> Reply:
        return cls(status, json.dumps(body))


class LocalSession(KeptResponsesSession):
    """The bot's own :class:`KeptResponsesSession` (so tests parse answers as the bot does, at its cost) for a
    plain-HTTP local server; `close()` returns at once (no TLS to wind down)."""

    def __init__(self, base_url: str) -> None:
        super().__init__(api=TelegramAPIServer.from_base(base_url))

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()


class InProcessSession(KeptResponsesSession):
    """Calls ``tg``'s Bot API in-process; a request's timeout (aiogram's real seconds) runs on ``clock`` at its
    nominal speed, as it would against a server ``speed`` times faster than real time."""

    def __init__(self, tg: FakeTelegram, clock: ManualClock) -> None:
        super().__init__(api=TelegramAPIServer.from_base(IN_PROCESS_URL))
        self.tg = tg
        self.clock = clock

    async def close(self) -> None:
        return None  # no connection to close

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        raw = await self.form(bot, method)
        size = sum(len(v.data) if isinstance(v, Upload) else len(str(v)) for v in raw.values())
        if size > MAX_REQUEST_BYTES:
            reply: Reply | None = Reply.json(
                {"ok": False, "error_code": 413, "description": MediaError.TOO_LARGE}, 413
            )
        else:
            reply = await self._call(bot, method, raw, self.timeout if timeout is None else timeout)
        if reply is None:  # never answered, and the fake stopped: the connection closed under the request
            raise TelegramNetworkError(method=method, message="ServerDisconnectedError: Server disconnected")
        response = self.check_response(bot=bot, method=method, status_code=reply.status, content=reply.text)
        return cast(TelegramType, response.result)

    async def _call(
        self, bot: Bot, method: TelegramMethod[TelegramType], raw: dict[str, Any], timeout: float
    ) -> Reply | None:
        gone = asyncio.Event()
        call = asyncio.ensure_future(self.tg.call(bot.token, method.__api_method__, raw, gone))
        timer = self.clock.timer(timeout * self.clock.speed)
        either: set[asyncio.Future[Any]] = {call, timer}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            gone.set()  # the caller gave up: the connection closes (the fake may go on with the call, as over HTTP)
            raise
        finally:
            timer.cancel()
        if not call.done():
            gone.set()
            raise TelegramNetworkError(method=method, message="Request timeout error")
        return call.result()

    async def form(self, bot: Bot, method: TelegramMethod[TelegramType]) -> dict[str, Any]:
        """The request's fields as aiogram's form carries them (``AiohttpSession.build_form_data``); files read
        whole, as the fake's HTTP side receives them."""
        files: dict[str, InputFile] = {}
        raw: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files)
            if prepared:
                # the text the form carries (a str enum, ParseMode.HTML, is its value: "HTML")
                raw[key] = str.__str__(prepared) if isinstance(prepared, str) else prepared
        for key, file in files.items():
            data = b"".join([chunk async for chunk in file.read(bot)])
            raw[key] = Upload(file.filename or key, "application/octet-stream", data)
        return raw


UPDATE_TRIP = 0.005
"""Real seconds an update takes to reach an in-process bot (a long poll's answer on localhost): at 60× a third of a
clock second, so a test that presses again and again without waiting sees the bot's clock move as it would."""


class DispatcherFeed:
    """Hands ``tg``'s updates to an aiogram dispatcher in-process, each as a task of its own — what aiogram's polling
    does with ``handle_as_tasks`` (the default): the start-up emitted first, then the updates queued handed over in
    one batch ``trip`` real seconds (on Telegram's clock) after the first of them was queued, as a long poll returns
    them; the same data given to every update, a failure logged and the next update handled anyway. Copies of an
    update (``tg.copies``, ``tg.inject_duplicate``) reach the dispatcher as often as they were queued."""

    def __init__(self, tg: FakeTelegram, dispatcher: Dispatcher, bot: Bot, trip: float = UPDATE_TRIP) -> None:
        self.tg = tg
        self.trip = trip
        self._on_the_way: asyncio.Task[None] | None = None
        self.dispatcher = dispatcher
        self.bot = bot
        self.workflow: dict[str, Any] = {"dispatcher": dispatcher, "bots": [bot], **dispatcher.workflow_data}
        self.workflow.pop("bot", None)
        self.fed = 0
        """Updates handed to the dispatcher so far."""

    async def start(self) -> None:
        """The dispatcher's start-up handlers, then every update queued (and every later one) handed over."""
        await self.dispatcher.emit_startup(bot=self.bot, **self.workflow)
        self.tg.ask_for(self.dispatcher.resolve_used_update_types())
        self.tg.consumer = self.deliver
        self.deliver()

    async def stop(self) -> None:
        """No more updates (those later stay queued for the next bot), then the shut-down handlers; the updates
        in hand go on, as after aiogram's polling stops."""
        if self.tg.consumer == self.deliver:
            self.tg.consumer = None
        if self._on_the_way is not None:
            self._on_the_way.cancel()  # those updates stay queued: the next bot gets them
        await self.dispatcher.emit_shutdown(bot=self.bot, **self.workflow)

    def deliver(self) -> None:
        """Updates are queued: a batch sets off, unless one is on its way (it takes them too)."""
        if self._on_the_way is None or self._on_the_way.done():
            self._on_the_way = asyncio.get_running_loop().create_task(self._travel(), name="updates")

    async def _travel(self) -> None:
        await self.tg.clock.sleep(self.trip * self.tg.clock.speed)
        for update in self.tg.hand_over():
            task = asyncio.get_running_loop().create_task(
                self._handle(update), name=f"update:{update['update_id']}"
            )
            self.fed += 1
            if self.tg.driver is not None:
                self.tg.driver.track(task)

    async def _handle(self, update: dict[str, Any]) -> None:
        try:
            result = await self.dispatcher.feed_raw_update(self.bot, update, **self.workflow)
        except Exception:  # logged by aiogram (as polling logs it); the bot goes on with the next update
            return
        if isinstance(result, TelegramMethod):  # a handler's answer as a method: made as polling makes it
            await self.dispatcher.silent_call_request(self.bot, result)
