"""The fake Bot API server: answers like api.telegram.org, over HTTP (an aiohttp app on localhost) or in-process.

Both ways share one path (:meth:`FakeTelegram.call`: the stats, the observer, the faults): over HTTP a request's
parameters come from its query, form or JSON body; in-process (``FakeTelegram(clock=ManualClock(...))``, never
started) the bot's session (:class:`~tests.fakebot.client.InProcessSession`) hands them over directly, and
updates go to the bot's dispatcher as they happen (:meth:`FakeTelegram.hand_over`, see ``tests/bot/inprocess.py``)
instead of waiting for getUpdates.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

import aiohttp
from aiogram.client.session.aiohttp import AiohttpSession
from aiohttp import web

from tests.fakebot.client import InProcessSession, LocalSession, Reply
from tests.fakebot.faults import GATEWAY_PAGE, REASONS, Fault, FaultKind, Faults
from tests.fakebot.html import Entity, EntityParseError, EntityType, parse_html, strip_text, utf16_len
from tests.fakebot.inline import InlineAnswer, InlineRefusal, PendingInlineQuery, check_answer
from tests.fakebot.limits import Limits, RateLimiter, ScaledClock, TelegramClock
from tests.fakebot.manual import Driver, ManualClock, Waiter
from tests.fakebot.media import (
    MAX_CAPTION_LENGTH,
    MAX_DOCUMENT_BYTES,
    Media,
    MediaError,
    MediaRefusal,
    MediaStore,
    Upload,
)
from tests.fakebot.models import (
    DEFAULT_UPDATE_TYPES,
    JSON,
    ApiStats,
    CallbackAnswer,
    ChatType,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageVersion,
    UpdateType,
)

T = TypeVar("T")

DEFAULT_TOKEN = "7000000001:AAFakeTokenForTestsOnly_konchinka_0000"
MAX_TEXT_LENGTH = 4096
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_BUTTONS = 100
MAX_BUTTONS_PER_ROW = 8
# Sends and edits: what Telegram's flood control counts.
RATE_LIMITED_METHODS = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "sendPhoto",
        "sendDocument",
        "editMessageMedia",
    }
)
_REACTIONS = (
    "❤ 👍 👎 🔥 🥰 👏 😁 🤔 🤯 😱 🤬 😢 🎉 🤩 🤮 💩 🙏 👌 🕊 🤡 🥱 🥴 😍 🐳 ❤\u200d🔥 🌚 🌭 💯 🤣 ⚡ 🍌 🏆 💔 🤨 😐 🍓 🍾"
    " 💋 🖕 😈 😴 😭 🤓 👻 👨\u200d💻 👀 🎃 🙈 😇 😨 🤝 ✍ 🤗 🫡 🎅 🎄 ☃ 💅 🤪 🗿 🆒 💘 🙉 🦄 😘 💊 🙊 😎 👾"
    " 🤷\u200d♂ 🤷 🤷\u200d♀ 😡"
)
REACTION_EMOJI = frozenset(_REACTIONS.split())
"""The emoji a bot may react with (the Bot API's ``ReactionTypeEmoji``); a chat's admins may allow fewer."""
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
    "web_app",
)
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)


class Description(StrEnum):
    """Telegram's descriptions for the refusals this server reproduces."""

    UNAUTHORIZED = "Unauthorized"
    NOT_FOUND = "Not Found"
    CHAT_NOT_FOUND = "Bad Request: chat not found"
    USER_NOT_FOUND = "Bad Request: user not found"
    CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
    BLOCKED = "Forbidden: bot was blocked by the user"
    TEXT_EMPTY = "Bad Request: message text is empty"
    TEXT_TOO_LONG = "Bad Request: message is too long"
    CANT_PARSE_ENTITIES = "Bad Request: can't parse entities: "
    UNSUPPORTED_PARSE_MODE = "Bad Request: unsupported parse_mode"
    BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
    BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
    BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
    WEB_APP_URL_INVALID = (
        "Bad Request: inline keyboard button Web App URL is invalid: Only HTTPS links are allowed"
    )
    TEXT_BUTTONS_UNALLOWED = (
        "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
    )
    BAD_MARKUP = "Bad Request: can't parse reply keyboard markup JSON object"
    TOO_MANY_BUTTONS = "Bad Request: too many buttons"
    NOT_MODIFIED = (
        "Bad Request: message is not modified: specified new message content and reply markup are exactly "
        "the same as a current content and reply markup of the message"
    )
    EDIT_NOT_FOUND = "Bad Request: message to edit not found"
    DELETE_NOT_FOUND = "Bad Request: message to delete not found"
    REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
    CANT_EDIT = "Bad Request: message can't be edited"
    CANT_DELETE = "Bad Request: message can't be deleted"
    THREAD_NOT_FOUND = "Bad Request: message thread not found"
    QUERY_INVALID = "Bad Request: query is too old and response timeout expired or query ID is invalid"
    ANSWER_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
    NO_ADMINS_IN_PRIVATE = "Bad Request: there are no administrators in the private chat"
    BAD_CHAT_ACTION = "Bad Request: wrong type of action"
    REACT_NOT_FOUND = "Bad Request: message to react not found"
    REACTION_INVALID = "Bad Request: REACTION_INVALID"
    REACTIONS_TOO_MANY = "Bad Request: REACTIONS_TOO_MANY"
    COMMAND_INVALID = "Bad Request: BOT_COMMAND_INVALID"
    COMMAND_DESCRIPTION_INVALID = "Bad Request: command description is empty"
    INLINE_UNSUPPORTED = "Bad Request: MESSAGE_ID_INVALID"
    POLLING_CONFLICT = (
        "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
    )
    TOO_MANY_REQUESTS = "Too Many Requests: retry after "
    WEBHOOK_ACTIVE = (
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook"
        " first"
    )
    WEBHOOK_NOT_HTTPS = "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"
    SECRET_INVALID = "Bad Request: secret token contains unallowed characters"
    MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"
    KICKED_SUPERGROUP = "Forbidden: bot was kicked from the supergroup chat"
    KICKED_GROUP = "Forbidden: bot was kicked from the group chat"
    NOT_MEMBER = "Forbidden: bot is not a member of the supergroup chat"
    TOPIC_CLOSED = "Bad Request: TOPIC_CLOSED"


class ApiError(Exception):
    """A refusal: becomes {"ok": false, "error_code": code, "description": ...}."""

    def __init__(
        self,
        code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def to_json(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            body["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return body


def bad_request(description: str) -> ApiError:
    return ApiError(400, description)


class Params:
    """A request's parameters (query string, form, multipart or JSON), as Telegram reads them."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.chat_id: int | None = None  # set once the target chat is known, for the counters

    def has(self, name: str) -> bool:
        return self.raw.get(name) not in (None, "")

    def str_(self, name: str) -> str | None:
        value = self.raw.get(name)
        if value is None:
            return None
        if isinstance(value, dict | list):
            return json.dumps(value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def int_(self, name: str) -> int | None:
        value = self.raw.get(name)
        if value in (None, ""):
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad_request(f"Bad Request: invalid {name} specified") from None

    def require_int(self, name: str) -> int:
        value = self.int_(name)
        if value is None:
            raise bad_request(f"Bad Request: {name} is empty")
        return value

    def bool_(self, name: str) -> bool:
        return self.raw.get(name) in (True, 1, "true", "True", "1")

    def json_(self, name: str) -> Any:
        value = self.raw.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise bad_request(f"Bad Request: can't parse {name} JSON object") from None
        return value


@dataclass
class _PendingUpdate:
    update_id: int
    kind: UpdateType
    payload: JSON
    is_forced: bool = False  # an injected duplicate: delivered once, whatever the offset

    def to_json(self) -> JSON:
        return {"update_id": self.update_id, str(self.kind): self.payload}


@dataclass
class _Webhook:
    url: str
    secret: str | None
    last_error: str | None = None
    last_error_date: int | None = None


WEBHOOK_RETRY = 0.05
"""Real seconds before a refused webhook delivery is tried again (Telegram backs off longer)."""
WEBHOOK_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass
class _CallbackQuery:
    query_id: str
    user: FakeUser
    created: float
    answer: asyncio.Future[CallbackAnswer]
    is_answered: bool = False


Handler = Callable[[Params], Awaitable[Any]]
Gone = Callable[[], bool] | asyncio.Event
"""Whether the client of a request gave up on it: an HTTP connection closed (asked), or an in-process request's
timeout run out (an event)."""


class Observer(Protocol):
    """Told of every Bot API call and of every update handed to the bot (e.g. for a load benchmark's timings).

    Times are ``time.monotonic()``. ``on_call`` comes after the call is decided: ``result`` is its result, or
    None with ``error`` set when it was refused.
    """

    def on_call(
        self, method: str, params: Params, result: Any, error: ApiError | None, at: float
    ) -> None: ...

    def on_update(self, update: JSON, at: float) -> None: ...


@dataclass
class _Activity:
    in_flight: int = 0
    last: float = field(default_factory=time.monotonic)
    last_at: float = 0.0
    """Telegram time of the last call (in-process settling counts quiet time on the test's clock)."""


class FakeTelegram:
    """The fake Bot API server plus the simulated users; see the package docstring for a tour."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "konchinka_test_bot",
        bot_name: str = "Кончинка",
        speed: float = 1.0,
        clock: ManualClock | None = None,
        limits: Limits | None = None,
        callback_ttl: float = 15.0,
        privacy_mode: bool = True,
        inline_mode: bool = True,
        strict_html: bool = True,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.bot_username = bot_username
        self.bot_name = bot_name
        self.clock: TelegramClock = clock if clock is not None else ScaledClock(speed)
        self.driver = Driver(clock) if clock is not None else None
        """In-process (a manual clock): runs the loop until idle and waits by moving the clock; None over HTTP."""
        self.consumer: Callable[[], None] | None = None
        """In-process: told of every new update (it takes them with :meth:`hand_over`); None while no bot runs."""
        self.limiter = RateLimiter(limits or Limits(), self.clock)
        self.callback_ttl = callback_ttl
        self.privacy_mode = privacy_mode
        self.inline_mode = inline_mode  # switched on with @BotFather's /setinline
        self.strict_html = strict_html
        self.host = host
        self.port = port
        self.stats = ApiStats()
        self.media = MediaStore()
        """The photos and documents sent, by file_id (uploads and reuses counted)."""
        self.faults = Faults(self.clock)
        self.observer: Observer | None = None
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self._user_ids = itertools.count(100_001)
        self._group_ids = itertools.count(1_000_000_001)
        self._update_ids = itertools.count(500_000_001)
        self._query_ids = itertools.count(4_200_000_000_000_000_001)
        self._updates: list[_PendingUpdate] = []
        self.copies = 1
        """Each new update is queued this many times in a row (so its copies come in one getUpdates batch)."""
        self._history: dict[int, _PendingUpdate] = {}
        self._allowed: frozenset[str] = frozenset(DEFAULT_UPDATE_TYPES)
        self._wakeup = asyncio.Event()
        self._poll_generation = 0
        self.waiting_polls = 0  # getUpdates calls now waiting for updates (long polling)
        self.polls = 0
        """getUpdates calls received so far (aiogram polls only once its start-up handlers are done)."""
        self._webhook: _Webhook | None = None
        self._delivery: asyncio.Task[None] | None = None
        self.webhook_deliveries = 0  # updates the bot's webhook accepted (HTTP 200)
        self._closing = False
        self._queries: dict[str, _CallbackQuery] = {}
        self._inline_queries: dict[str, PendingInlineQuery] = {}
        self._activity = _Activity(last_at=self.clock.now())
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self.member_delay = 0.0
        """Real seconds getChatMember takes to answer (Telegram is sometimes slow; ``× speed`` of Telegram time)."""
        self.member_calls = 0
        """getChatMember calls answered."""
        self.member_fields_left_out: set[str] = set()
        """Fields getChatMember leaves out of its answers (as an older or another Bot API server would)."""
        self._methods: dict[str, tuple[str, Handler]] = {}
        for name, handler in self._handlers().items():
            self._methods[name.lower()] = (name, handler)

    # --- lifecycle -----------------------------------------------------------------------------------------
    async def start(self) -> str:
        """Start listening; returns the base URL for `TelegramAPIServer.from_base`."""
        # Uploads up to a document's 50 MB and the request around it; past that Telegram refuses the request.
        app = web.Application(client_max_size=MAX_DOCUMENT_BYTES + 64 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        return self.base_url

    async def stop(self) -> None:
        self._closing = True
        self.faults.stop()
        self._notify()
        if self._delivery is not None:
            self._delivery.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._delivery
            self._delivery = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def scaled_clock(self) -> ScaledClock:
        """Telegram's clock over HTTP, to freeze and advance by hand for exact limit tests (in-process, the test's
        :class:`ManualClock` is the only time there is)."""
        if not isinstance(self.clock, ScaledClock):
            raise TypeError(
                "an in-process FakeTelegram runs on the test's ManualClock: wait (tg.sleep) to move it"
            )
        return self.clock

    def session(self) -> AiohttpSession:
        """A fresh aiogram session for this server: `Bot(tg.token, session=tg.session())` — over HTTP once
        started, else (a manual clock) in-process."""
        if not self.base_url:
            if self.driver is not None:
                return InProcessSession(self, self.driver.clock)
            raise RuntimeError("start() the server first")
        return LocalSession(self.base_url)

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- the world -----------------------------------------------------------------------------------------
    @property
    def bot_user_json(self) -> JSON:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_name, "username": self.bot_username}

    def add_user(
        self,
        first_name: str,
        last_name: str | None = None,
        *,
        username: str | None = None,
        language_code: str | None = "ru",
    ) -> FakeUser:
        user = FakeUser(self, next(self._user_ids), first_name, last_name, username, language_code)
        self.users[user.id] = user
        return user

    def add_group(
        self,
        title: str,
        members: Iterable[FakeUser],
        admins: Iterable[FakeUser] = (),
        *,
        forum: bool = False,
        bot_is_admin: bool = False,
    ) -> FakeChat:
        """A supergroup with the bot in it; the first admin (or else the first member) is the owner.

        The bot is a plain member unless `bot_is_admin` (then it may delete anyone's messages).
        """
        chat = FakeChat(-next(self._group_ids), ChatType.SUPERGROUP, title=title, is_forum=forum)
        chat.bot_is_admin = bot_is_admin
        chat.members = list(members)
        admin_list = list(admins) or chat.members[:1]
        chat.admin_ids = [u.id for u in admin_list]
        for admin in admin_list:
            if admin not in chat.members:
                chat.members.append(admin)
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = FakeChat(user.id, ChatType.PRIVATE, user=user)
        return chat

    def deep_link(self, payload: str) -> str:
        return f"https://t.me/{self.bot_username}?start={payload}"

    # --- simulated users' actions --------------------------------------------------------------------------
    def user_sends(
        self, user: FakeUser, chat: FakeChat, text: str, *, thread_id: int | None = None
    ) -> FakeMessage:
        if chat.type is ChatType.PRIVATE:
            if chat.user is not user:
                raise ValueError(f"{user!r} cannot write in {chat!r}")
            if user.has_blocked:
                self.set_blocked(user, blocked=False)
            user.has_started = True
        elif user not in chat.members or chat.migrated_to is not None:
            raise ValueError(f"{user!r} is not a member of {chat!r} (or it was upgraded)")
        entities: list[Entity] = []
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            entities.append(Entity(EntityType.BOT_COMMAND, 0, len(command)))
        version = MessageVersion(text, tuple(entities), None)
        message = FakeMessage(
            chat, chat.next_message_id(), user, self.bot_user_json, version, thread_id=thread_id
        )
        chat.messages[message.message_id] = message
        if self._bot_sees(chat, text):
            self.push_update(UpdateType.MESSAGE, message.to_json())
        return message

    def user_deletes(self, user: FakeUser, message: FakeMessage) -> None:
        chat = message.chat
        if message.is_deleted:
            raise LookupError(f"{message!r} is already deleted")
        if chat.type is ChatType.PRIVATE and chat.user is not user:
            raise LookupError(f"{user!r} cannot see {message!r}")
        if chat.is_group and message.sender is not user and user.id not in chat.admin_ids:
            raise LookupError(f"{user!r} may not delete {message!r} in a group")
        message.is_deleted = True

    def _bot_sees(self, chat: FakeChat, text: str) -> bool:
        if chat.is_group and not chat.has_bot:
            return False
        if chat.type is ChatType.PRIVATE or not self.privacy_mode:
            return True
        if not text.startswith("/"):
            return False
        command = text.split(maxsplit=1)[0]
        _, at, addressee = command.partition("@")
        return not at or addressee.lower() == self.bot_username.lower()

    def set_blocked(self, user: FakeUser, *, blocked: bool) -> None:
        """Block or unblock the bot; the bot gets a my_chat_member update as from Telegram."""
        if user.has_blocked == blocked:
            return
        user.has_blocked = blocked
        old, new = ("member", "kicked") if blocked else ("kicked", "member")
        payload = {
            "chat": self.private_chat(user).to_json(),
            "from": user.to_json(),
            "date": int(time.time()),
            "old_chat_member": self._member_status_json(old),
            "new_chat_member": self._member_status_json(new),
        }
        self.push_update(UpdateType.MY_CHAT_MEMBER, payload)

    def _member_status_json(self, status: str) -> JSON:
        result: JSON = {"status": status, "user": self.bot_user_json}
        if status == "kicked":
            result["until_date"] = 0
        return result

    async def user_presses(
        self,
        user: FakeUser,
        message: FakeMessage,
        *,
        text: str | None,
        data: str | None,
        timeout: float,
        force: bool,
    ) -> CallbackAnswer:
        chat = message.chat
        if message.is_deleted or not message.is_from_bot:
            raise LookupError(f"{message!r} cannot be pressed (deleted, or not the bot's)")
        if (chat.type is ChatType.PRIVATE and chat.user is not user) or (
            chat.is_group and user not in chat.members
        ):
            raise LookupError(f"{user!r} cannot see {message!r}")
        if text is not None:
            button = message.button(text)
            if button.callback_data is None:
                raise LookupError(f"{button!r} has no callback data (a URL button?)")
            data = button.callback_data
        if data is None:
            raise ValueError("press() needs a button text or callback data")
        if not force and data not in {b.callback_data for b in message.flat_buttons}:
            raise LookupError(f"no button with data {data!r} on {message!r}")
        query, payload = self._callback_query(user, message, data)
        self.push_update(UpdateType.CALLBACK_QUERY, payload)
        return await self._answer_within(query.answer, timeout, CallbackAnswer(answered=False))

    async def _answer_within(self, answer: asyncio.Future[T], timeout: float, otherwise: T) -> T:
        """The bot's answer to a press or an inline query, or ``otherwise`` when none came within ``timeout``
        (real seconds; in-process, ``timeout × speed`` on the test's clock)."""
        if self.driver is None:
            try:
                return await asyncio.wait_for(asyncio.shield(answer), timeout)
            except TimeoutError:
                return otherwise
        try:
            await self.driver.wait_for(answer.done, timeout, what="the bot's answer")
        except TimeoutError:
            return otherwise
        return answer.result()

    def _callback_query(self, user: FakeUser, message: FakeMessage, data: str) -> tuple[_CallbackQuery, JSON]:
        """A press registered as awaiting its answerCallbackQuery, and its update's ``callback_query`` object."""
        query = _CallbackQuery(
            query_id=str(next(self._query_ids)),
            user=user,
            created=self.clock.now(),
            answer=asyncio.get_running_loop().create_future(),
        )
        self._queries[query.query_id] = query
        payload = {
            "id": query.query_id,
            "from": user.to_json(),
            "message": message.to_json(),
            "chat_instance": str(abs(message.chat.id) * 31 + 7),
            "data": data,
        }
        return query, payload

    async def user_types_inline(
        self, user: FakeUser, query: str, *, chat_type: str = "supergroup", timeout: float = 5.0
    ) -> InlineAnswer:
        """The person types «@bot <query>» in a chat of ``chat_type``; the bot's answer (answered=False if none
        came within ``timeout`` real seconds). Telegram sends the query whether or not the person started the bot;
        with inline mode off (never switched on in @BotFather) the app does not even offer it."""
        if not self.inline_mode:
            raise RuntimeError("inline mode is off for this bot (@BotFather: /setinline)")
        pending = PendingInlineQuery(
            query_id=str(next(self._query_ids)),
            created=self.clock.now(),
            answer=asyncio.get_running_loop().create_future(),
        )
        self._inline_queries[pending.query_id] = pending
        payload = {
            "id": pending.query_id,
            "from": user.to_json(),
            "query": query,
            "offset": "",
            "chat_type": chat_type,
        }
        self.push_update(UpdateType.INLINE_QUERY, payload)
        return await self._answer_within(pending.answer, timeout, InlineAnswer(answered=False))

    def _is_too_old(self, created: float) -> bool:
        """A query made at Telegram time ``created`` can no longer be answered (``callback_ttl`` real seconds)."""
        return self.clock.to_real(self.clock.now() - created) > self.callback_ttl

    def expire_callback_queries(self) -> None:
        """Make every open callback query too old to answer (as if Telegram's timeout passed)."""
        for query in self._queries.values():
            query.created = float("-inf")

    # --- updates -------------------------------------------------------------------------------------------
    def push_update(self, kind: UpdateType, payload: JSON) -> int:
        update = _PendingUpdate(next(self._update_ids), kind, payload)
        self._updates.append(update)
        for _ in range(self.copies - 1):
            self._updates.append(_PendingUpdate(update.update_id, kind, payload))
        self._history[update.update_id] = update
        self._notify()
        return update.update_id

    def inject_duplicate(self, update_id: int) -> None:
        """Deliver update `update_id` (already sent once) again with the next getUpdates, whatever the offset."""
        original = self._history[update_id]
        self._updates.insert(0, _PendingUpdate(original.update_id, original.kind, original.payload, True))
        self._notify()

    @property
    def last_update_id(self) -> int | None:
        return max(self._history) if self._history else None

    @property
    def calls_in_flight(self) -> int:
        """The bot's requests (other than getUpdates) being handled now: a hung or lost one until its client
        gives up."""
        return self._activity.in_flight

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot."""
        return len(self._updates)

    def _notify(self) -> None:
        self._wakeup.set()
        self._wakeup = asyncio.Event()
        if self.consumer is not None:
            self.consumer()

    def hand_over(self) -> list[JSON]:
        """Every queued update (of the types the bot asked for), taken and confirmed at once: an in-process bot's
        getUpdates. Copies (``copies``, ``inject_duplicate``) come as often as they were queued."""
        batch = self._take(len(self._updates))
        self._updates = []
        return batch

    def ask_for(self, update_types: Iterable[str]) -> None:
        """The update types an in-process bot asked for (what getUpdates' ``allowed_updates`` says over HTTP)."""
        self._allowed = frozenset(update_types) or frozenset(DEFAULT_UPDATE_TYPES)

    def _confirm(self, offset: int) -> None:
        if offset < 0:
            regular = [u for u in self._updates if not u.is_forced]
            keep = regular[offset:]
            self._updates = [u for u in self._updates if u.is_forced or u in keep]
        else:
            self._updates = [u for u in self._updates if u.is_forced or u.update_id >= offset]

    def _read_allowed(self, params: Params) -> None:
        """The update types the bot asked for (getUpdates or setWebhook); the last request's list stands."""
        allowed = params.json_("allowed_updates")
        if isinstance(allowed, list):
            self._allowed = frozenset(str(a) for a in allowed) or frozenset(DEFAULT_UPDATE_TYPES)

    def _drop_unwanted(self) -> None:
        """Updates of types the bot did not ask for are dropped, as Telegram does."""
        self._updates = [u for u in self._updates if str(u.kind) in self._allowed]

    def _take(self, limit: int) -> list[JSON]:
        self._drop_unwanted()
        batch = self._updates[:limit]
        self._updates = [u for u in self._updates if not (u.is_forced and u in batch)]
        handed = [u.to_json() for u in batch]
        if self.observer is not None:
            now = time.monotonic()
            for update in handed:
                self.observer.on_update(update, now)
        return handed

    # --- waiting, for tests --------------------------------------------------------------------------------
    async def wait_for(
        self, predicate: Callable[[], object], *, timeout: float = 5.0, interval: float = 0.01, what: str = ""
    ) -> None:
        """Until `predicate` is true; TimeoutError (saying `what`) after `timeout` real seconds.

        Over HTTP it polls every `interval` real seconds. In-process it runs the loop until idle, looks, and moves
        the clock to the next sleeper's wake-up, `timeout × speed` clock seconds at most; it fails at once when
        nothing sleeps that could change anything (see :meth:`Driver.wait_for`)."""
        if self.driver is not None:
            await self.driver.wait_for(predicate, timeout, what)
            return
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout} s: {what or predicate}")
            await asyncio.sleep(interval)

    async def settle(self, *, quiet: float = 0.2, timeout: float = 10.0) -> None:
        """Wait until every update is confirmed and no API call (except polling) happened for `quiet` s (in-process:
        `quiet × speed` seconds of the clock, moved on only as far as that when nothing wakes before)."""
        if self.driver is not None:
            await self._settle_in_process(self.driver, quiet, timeout)
            return

        def is_quiet() -> bool:
            activity = self._activity
            return not self._updates and activity.in_flight == 0 and time.monotonic() - activity.last >= quiet

        await self.wait_for(is_quiet, timeout=timeout, what="the bot to go quiet")

    async def _settle_in_process(self, driver: Driver, quiet: float, timeout: float) -> None:
        clock = driver.clock
        activity = self._activity

        def is_busy() -> bool:
            return bool(self._updates) or activity.in_flight > 0

        def quiet_from() -> float | None:
            return None if is_busy() else activity.last_at + quiet * clock.speed

        def is_quiet() -> bool:
            since = quiet_from()
            return since is not None and clock.now() >= since

        if not await driver.wait(Waiter(is_quiet, clock.now() + timeout * clock.speed, quiet_from)):
            raise TimeoutError(
                f"the bot did not go quiet within {timeout} s ({len(self._updates)} updates queued, "
                f"{activity.in_flight} calls in flight); {driver.describe()}"
            )

    async def sleep(self, seconds: float) -> None:
        """A test's pause of `seconds` real seconds (in-process: the clock moves `seconds × speed`, waking what
        sleeps on the way)."""
        if self.driver is not None:
            await self.driver.sleep(seconds)
        else:
            await asyncio.sleep(seconds)

    async def finish(self, awaitable: Awaitable[T], *, timeout: float = 30.0, what: str = "") -> T:
        """``awaitable``'s result, once done — a bot's coroutine that needs time to pass (``outbox.drain()``): over
        HTTP it is awaited (``timeout`` real seconds at most); in-process it runs as a task while the clock moves
        (a test's own ``await`` would wait forever: nothing moves the clock meanwhile)."""
        task = asyncio.ensure_future(awaitable)
        if self.driver is None:
            return await asyncio.wait_for(task, timeout)
        try:
            await self.driver.wait_for(task.done, timeout, what or f"{awaitable!r} to finish")
        except TimeoutError:
            task.cancel()
            raise
        return task.result()

    def monotonic(self) -> float:
        """What a test's deadlines count: real seconds (``time.monotonic()``), in-process the clock's seconds over
        its speed (real seconds at that speed)."""
        if self.driver is not None:
            return self.driver.clock.now() / self.driver.clock.speed
        return time.monotonic()

    # --- a request: over HTTP or in-process, one path -------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        """An HTTP request: its parameters read, then :meth:`call`."""
        try:
            raw = await self._read_params(request)
        except web.HTTPRequestEntityTooLarge:
            body = {"ok": False, "error_code": 413, "description": MediaError.TOO_LARGE}
            return web.json_response(body, status=413)
        reply = await self.call(
            request.match_info["token"], request.match_info["method"], raw, _gone(request)
        )
        if reply is None:
            return web.Response(status=504)  # nobody reads it: the client gave up, or the server stops
        return web.Response(text=reply.text, status=reply.status, content_type=reply.content_type)

    async def call(self, token: str, method_raw: str, raw: dict[str, Any], gone: Gone) -> Reply | None:
        """A Bot API request (``raw``: its parameters as strings, JSON or :class:`Upload`), answered as Telegram
        answers it, or as a fault switched on makes it; None when it is never answered (a hung or lost call,
        once its client gave up or the server stopped)."""
        known = self._methods.get(method_raw.lower())
        method = known[0] if known else method_raw
        params = Params(raw)
        is_polling = method == "getUpdates"
        if not is_polling:
            self._activity.in_flight += 1
        try:
            if token != self.token:
                raise ApiError(401, Description.UNAUTHORIZED)
            if known is None:
                raise ApiError(404, Description.NOT_FOUND)
            fault = self.faults.find(method)
            if fault is not None:
                faulty = await self._meet_fault(method, fault, gone)
                if faulty is not None or fault.kind is FaultKind.HANG:
                    return faulty
            result = await known[1](params)
            if fault is not None and fault.kind is FaultKind.LOSE:
                self.stats.record(method, params.chat_id, None)
                if self.observer is not None:
                    self.observer.on_call(method, params, result, None, time.monotonic())
                self.faults.lost += 1
                await self.faults.hang(gone)  # executed; the answer never comes back
                return None
        except ApiError as error:
            self.stats.record(method, params.chat_id, error.code)
            if self.observer is not None:
                self.observer.on_call(method, params, None, error, time.monotonic())
            return Reply.json(error.to_json(), error.code)
        finally:
            if not is_polling:
                self._activity.in_flight -= 1
                self._activity.last = time.monotonic()
                self._activity.last_at = self.clock.now()
        self.stats.record(method, params.chat_id, None)
        if self.observer is not None:
            self.observer.on_call(method, params, result, None, time.monotonic())
        return Reply.json({"ok": True, "result": result})

    async def _meet_fault(self, method: str, fault: Fault, gone: Gone) -> Reply | None:
        """What a faulty network does to this call: an answer instead of the call's, or None to go on (a hung
        call: None once its client gave up)."""
        if fault.kind is FaultKind.SLOW:
            await self.faults.delay(fault)
            return None
        if fault.kind is FaultKind.LOSE:
            return None
        if fault.kind is FaultKind.GARBLE:
            self.faults.garbled += 1
            self.stats.record(method, None, 200)
            return Reply(200, '{"ok": true, "resu')
        if fault.kind is FaultKind.HANG:
            self.faults.hangs += 1
            await self.faults.hang(gone)
            return None
        self.faults.errors += 1
        self.stats.record(method, None, fault.code)
        reason = REASONS.get(fault.code, "Server Error")
        if fault.is_html:
            return Reply(fault.code, GATEWAY_PAGE, "text/html")
        return Reply.json({"ok": False, "error_code": fault.code, "description": reason}, fault.code)

    # --- network faults, for tests -------------------------------------------------------------------------
    def fail(self, seconds: float, *methods: str, code: int = 502, html: bool = False) -> None:
        """For ``seconds`` of Telegram time, answer calls of ``methods`` (default: all but getUpdates) ``code``."""
        self.faults.add(FaultKind.ERROR, seconds, methods, code=code, is_html=html)

    def hang(self, seconds: float, *methods: str) -> None:
        """For ``seconds`` of Telegram time, leave calls of ``methods`` unanswered (and not executed)."""
        self.faults.add(FaultKind.HANG, seconds, methods)

    def slow(self, seconds: float, delay: float, *methods: str) -> None:
        """For ``seconds`` of Telegram time, execute calls of ``methods`` only after ``delay`` Telegram seconds."""
        self.faults.add(FaultKind.SLOW, seconds, methods, delay=delay)

    def garble(self, seconds: float, *methods: str) -> None:
        """For ``seconds`` of Telegram time, answer calls of ``methods`` 200 with a body that is not JSON (and do
        not execute them)."""
        self.faults.add(FaultKind.GARBLE, seconds, methods)

    def lose(self, seconds: float, *methods: str) -> None:
        """For ``seconds`` of Telegram time, execute calls of ``methods`` but never answer them."""
        self.faults.add(FaultKind.LOSE, seconds, methods)

    def heal(self) -> None:
        """End every fault now (requests already hanging stay hung)."""
        self.faults.clear()

    @staticmethod
    async def _read_params(request: web.Request) -> dict[str, Any]:
        raw: dict[str, Any] = dict(request.query)
        if request.method != "POST" or not request.can_read_body:
            return raw
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                raw.update(body)
            return raw
        form = await request.post()
        for key, value in form.items():
            if isinstance(value, str):
                raw[key] = value
            elif isinstance(value, web.FileField):  # an uploaded file (multipart), kept whole
                raw[key] = Upload(value.filename, value.content_type, value.file.read())
        return raw

    def _handlers(self) -> dict[str, Handler]:
        return {
            "getMe": self._get_me,
            "getUpdates": self._get_updates,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setMyDescription": self._accept,
            "setMyShortDescription": self._accept,
            "setChatMenuButton": self._accept,
            "close": self._accept,
            "logOut": self._accept,
            "sendMessage": self._send_message,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "sendPhoto": self._send_photo,
            "sendDocument": self._send_document,
            "editMessageMedia": self._edit_message_media,
            "deleteMessage": self._delete_message,
            "deleteMessages": self._delete_messages,
            "answerCallbackQuery": self._answer_callback_query,
            "answerInlineQuery": self._answer_inline_query,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatMemberCount": self._get_chat_member_count,
            "getChatAdministrators": self._get_chat_administrators,
            "sendChatAction": self._send_chat_action,
            "setMessageReaction": self._set_message_reaction,
        }

    # --- methods: the bot itself ---------------------------------------------------------------------------
    async def _get_me(self, params: Params) -> JSON:
        return {
            **self.bot_user_json,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": self.inline_mode,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _accept(self, params: Params) -> bool:
        return True

    async def _set_webhook(self, params: Params) -> bool:
        url = params.str_("url") or ""
        if not url:
            return await self._delete_webhook(params)
        if not url.startswith(("https://", "http://127.0.0.1", "http://localhost")):
            raise bad_request(Description.WEBHOOK_NOT_HTTPS)
        secret = params.str_("secret_token")
        if secret is not None and not (1 <= len(secret) <= 256 and set(secret) <= WEBHOOK_SECRET_CHARS):
            raise bad_request(Description.SECRET_INVALID)
        self._read_allowed(params)
        if params.bool_("drop_pending_updates"):
            self._updates.clear()
        self._webhook = _Webhook(url, secret)
        if self._delivery is None or self._delivery.done():
            self._delivery = asyncio.create_task(self._deliver())
        self._notify()
        return True

    async def _delete_webhook(self, params: Params) -> bool:
        if params.bool_("drop_pending_updates"):
            self._updates.clear()
        self._webhook = None
        self._notify()
        return True

    async def _get_webhook_info(self, params: Params) -> JSON:
        info: JSON = {"url": "", "has_custom_certificate": False, "pending_update_count": len(self._updates)}
        hook = self._webhook
        if hook is not None:
            info["url"] = hook.url
            info["allowed_updates"] = sorted(self._allowed)
            if hook.last_error is not None:
                info["last_error_message"] = hook.last_error
                info["last_error_date"] = hook.last_error_date
        return info

    @property
    def webhook_url(self) -> str | None:
        """The URL set by setWebhook (None while the bot polls)."""
        return self._webhook.url if self._webhook is not None else None

    async def _deliver(self) -> None:
        """Push the queued updates to the webhook one at a time, in order; a refused one is tried again."""
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
            while self._webhook is not None and not self._closing:
                hook = self._webhook
                wakeup = self._wakeup
                self._drop_unwanted()
                if not self._updates:
                    await wakeup.wait()
                    continue
                pending = self._updates[0]
                headers = {"X-Telegram-Bot-Api-Secret-Token": hook.secret} if hook.secret else {}
                reply: Any = None
                try:
                    async with session.post(hook.url, json=pending.to_json(), headers=headers) as response:
                        error = (
                            None
                            if response.status == 200
                            else f"Wrong response from the webhook: {response.status} {response.reason}"
                        )
                        if error is None and response.content_type == "application/json":
                            reply = await response.json()
                except (aiohttp.ClientError, TimeoutError) as exc:
                    error = f"Connection failed: {exc.__class__.__name__}"
                if error is not None:
                    hook.last_error, hook.last_error_date = error, int(time.time())
                    await asyncio.sleep(WEBHOOK_RETRY)
                    continue
                self.webhook_deliveries += 1
                self._updates = [u for u in self._updates if u is not pending]
                if isinstance(reply, dict) and isinstance(reply.get("method"), str):
                    await self._webhook_reply(reply)

    async def _webhook_reply(self, reply: dict[str, Any]) -> None:
        """A method call sent back in the webhook's answer: executed like a request, its result not reported."""
        known = self._methods.get(str(reply["method"]).lower())
        params = Params({k: v for k, v in reply.items() if k != "method"})
        if known is None:
            return
        try:
            await known[1](params)
        except ApiError as error:
            self.stats.record(known[0], params.chat_id, error.code)
        else:
            self.stats.record(known[0], params.chat_id, None)

    @staticmethod
    def _commands_key(params: Params) -> tuple[str, str]:
        scope = params.json_("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.str_("language_code") or ""

    async def _set_my_commands(self, params: Params) -> bool:
        commands = params.json_("commands")
        if not isinstance(commands, list) or len(commands) > MAX_BUTTONS:
            raise bad_request(Description.COMMAND_INVALID)
        for command in commands:
            name = str(command.get("command", "")) if isinstance(command, dict) else ""
            description = str(command.get("description", "")) if isinstance(command, dict) else ""
            is_valid = 1 <= len(name) <= 32 and all(c.isascii() and (c.isalnum() or c == "_") for c in name)
            if not is_valid or name != name.lower():
                raise bad_request(Description.COMMAND_INVALID)
            if not 1 <= len(description) <= 256:
                raise bad_request(Description.COMMAND_DESCRIPTION_INVALID)
        self.commands[self._commands_key(params)] = commands
        return True

    async def _get_my_commands(self, params: Params) -> list[JSON]:
        return self.commands.get(self._commands_key(params), [])

    async def _delete_my_commands(self, params: Params) -> bool:
        self.commands.pop(self._commands_key(params), None)
        return True

    # --- methods: updates ----------------------------------------------------------------------------------
    async def _get_updates(self, params: Params) -> list[JSON]:
        self.polls += 1
        if self._webhook is not None:
            raise ApiError(409, Description.WEBHOOK_ACTIVE)
        self._read_allowed(params)
        offset = params.int_("offset")
        if offset is not None:
            self._confirm(offset)
        limit = min(max(params.int_("limit") or 100, 1), 100)
        timeout = max(params.int_("timeout") or 0, 0)
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # an older long poll still waiting now ends with 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            wakeup = self._wakeup
            batch = self._take(limit)
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self._closing:
                return batch
            self.waiting_polls += 1
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wakeup.wait(), remaining)
            finally:
                self.waiting_polls -= 1
            if generation != self._poll_generation:
                raise ApiError(409, Description.POLLING_CONFLICT)

    # --- methods: chats and members ------------------------------------------------------------------------
    def _target_chat(self, params: Params) -> FakeChat:
        raw = params.raw.get("chat_id")
        try:
            chat_id = int(raw) if raw not in (None, "") else None
        except (TypeError, ValueError):
            chat_id = None
        if chat_id is None:
            raise bad_request(Description.CHAT_NOT_FOUND)
        params.chat_id = chat_id
        chat = self.chats.get(chat_id)
        if chat is None:
            user = self.users.get(chat_id)
            if user is None:
                raise bad_request(Description.CHAT_NOT_FOUND)
            chat = self.private_chat(user)
        self._check_chat_alive(chat)
        return chat

    @staticmethod
    def _check_can_write(chat: FakeChat) -> None:
        user = chat.user
        if user is None:
            return
        if user.has_blocked:
            raise ApiError(403, Description.BLOCKED)
        if not user.has_started:
            raise ApiError(403, Description.CANT_INITIATE)

    async def _get_chat(self, params: Params) -> JSON:
        chat = self._target_chat(params)
        return {
            **chat.to_json(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }

    @staticmethod
    def _admin_json(user_json: JSON) -> JSON:
        rights = (
            "can_manage_chat can_delete_messages can_manage_video_chats can_restrict_members "
            "can_promote_members can_change_info can_invite_users can_post_stories can_edit_stories "
            "can_delete_stories can_send_welcome_messages"
        )
        return {
            "status": "administrator",
            "user": user_json,
            "can_be_edited": False,
            "is_anonymous": False,
            **{right: True for right in rights.split()},
        }

    def _member_json(self, chat: FakeChat, user_id: int) -> JSON:
        if user_id == self.bot_id:
            if chat.is_group and not chat.has_bot:
                return self._member_status_json(chat.bot_status)
            if chat.bot_is_admin:
                return self._admin_json(self.bot_user_json)
            return {"status": "member", "user": self.bot_user_json}
        user = self.users.get(user_id)
        if user is None:
            raise bad_request(Description.USER_NOT_FOUND)
        if chat.type is ChatType.PRIVATE:
            return {"status": "member", "user": user.to_json()}
        if chat.admin_ids and chat.admin_ids[0] == user_id:
            return {"status": "creator", "user": user.to_json(), "is_anonymous": False}
        if user_id in chat.admin_ids:
            return self._admin_json(user.to_json())
        if user in chat.members:
            return {"status": "member", "user": user.to_json()}
        return {"status": "left", "user": user.to_json()}

    async def _get_chat_member(self, params: Params) -> JSON:
        chat = self._target_chat(params)
        if self.member_delay:
            await self.clock.sleep(self.member_delay * self.clock.speed)
        self.member_calls += 1
        answer = self._member_json(chat, params.require_int("user_id"))
        return {k: v for k, v in answer.items() if k not in self.member_fields_left_out}

    async def _get_chat_member_count(self, params: Params) -> int:
        chat = self._target_chat(params)
        return 2 if chat.type is ChatType.PRIVATE else len(chat.members) + 1

    async def _get_chat_administrators(self, params: Params) -> list[JSON]:
        chat = self._target_chat(params)
        if chat.type is ChatType.PRIVATE:
            raise bad_request(Description.NO_ADMINS_IN_PRIVATE)
        admins = [self._member_json(chat, user_id) for user_id in chat.admin_ids]
        if chat.bot_is_admin:
            admins.append(self._member_json(chat, self.bot_id))
        return admins

    async def _set_message_reaction(self, params: Params) -> bool:
        """setMessageReaction: a bot sets one reaction at most (none: takes its reaction back), a standard emoji
        the chat allows. It sends no message: no flood window counts it (see ``RATE_LIMITED_METHODS``)."""
        chat = self._target_chat(params)
        self._check_can_write(chat)
        message = chat.messages.get(params.require_int("message_id"))
        if message is None or message.is_deleted:
            raise bad_request(Description.REACT_NOT_FOUND)
        reaction = params.json_("reaction") or []
        if not isinstance(reaction, list):
            raise bad_request(Description.REACTION_INVALID)
        if len(reaction) > 1:
            raise bad_request(Description.REACTIONS_TOO_MANY)
        allowed = REACTION_EMOJI if chat.available_reactions is None else chat.available_reactions
        emoji = [
            r.get("emoji") if isinstance(r, dict) and r.get("type") == "emoji" else None for r in reaction
        ]
        if any(e not in allowed for e in emoji):
            raise bad_request(Description.REACTION_INVALID)
        message.reactions.append(tuple(str(e) for e in emoji))
        return True

    async def _send_chat_action(self, params: Params) -> bool:
        chat = self._target_chat(params)
        self._check_can_write(chat)
        if params.str_("action") not in _CHAT_ACTIONS:
            raise bad_request(Description.BAD_CHAT_ACTION)
        return True

    # --- methods: messages ---------------------------------------------------------------------------------
    def _compose_text(
        self, params: Params, field: str = "text", entities_field: str = "entities"
    ) -> tuple[str, tuple[Entity, ...]]:
        text = params.str_(field) or ""
        explicit = params.json_(entities_field)
        parse_mode = (params.str_("parse_mode") or "").lower()
        entities: list[Entity] = []
        if isinstance(explicit, list):
            entities = _entities_from_json(text, explicit)
        elif parse_mode == "html":
            try:
                text, entities = parse_html(text, strict_ampersand=self.strict_html)
            except EntityParseError as error:
                raise bad_request(f"{Description.CANT_PARSE_ENTITIES}{error}") from None
        elif parse_mode not in ("", "markdown", "markdownv2"):
            raise bad_request(Description.UNSUPPORTED_PARSE_MODE)
        text, entities = strip_text(text, entities)
        if field != "text":
            if len(text) > MAX_CAPTION_LENGTH:
                raise bad_request(MediaError.CAPTION_TOO_LONG)
            return text, tuple(entities)
        if not text:
            raise bad_request(Description.TEXT_EMPTY)
        if utf16_len(text) > MAX_TEXT_LENGTH:
            raise bad_request(Description.TEXT_TOO_LONG)
        return text, tuple(entities)

    @staticmethod
    def _compose_markup(params: Params) -> JSON | None:
        raw = params.json_("reply_markup")
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise bad_request(Description.BAD_MARKUP)
        if "inline_keyboard" not in raw:
            return raw  # reply keyboards and their removal: kept, never shown in Message JSON
        rows = raw["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request(Description.BAD_MARKUP)
        if sum(len(row) for row in rows) > MAX_BUTTONS or any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
            raise bad_request(Description.TOO_MANY_BUTTONS)
        for button in itertools.chain.from_iterable(rows):
            _check_button(button)
        return {"inline_keyboard": [row for row in rows if row]}

    def _rate(self, chat: FakeChat) -> None:
        retry_after = self.limiter.acquire(chat.id, is_group=chat.is_group)
        if retry_after is not None:
            raise ApiError(429, f"{Description.TOO_MANY_REQUESTS}{retry_after}", retry_after=retry_after)

    def _thread_of(self, chat: FakeChat, params: Params) -> int | None:
        thread_id = params.int_("message_thread_id")
        if thread_id is None or not chat.is_forum:
            return None
        if thread_id not in chat.topics:
            raise bad_request(Description.THREAD_NOT_FOUND)
        if thread_id in chat.closed_topics and not chat.bot_is_admin:
            raise bad_request(Description.TOPIC_CLOSED)
        return thread_id

    def _check_reply(self, chat: FakeChat, params: Params) -> None:
        reply = params.json_("reply_parameters")
        reply_to = reply.get("message_id") if isinstance(reply, dict) else params.int_("reply_to_message_id")
        if reply_to is None:
            return
        allowed = isinstance(reply, dict) and bool(reply.get("allow_sending_without_reply"))
        target = chat.messages.get(int(reply_to))
        if (target is None or target.is_deleted) and not allowed:
            raise bad_request(Description.REPLY_NOT_FOUND)

    async def _send_message(self, params: Params) -> JSON:
        chat = self._target_chat(params)
        self._check_can_write(chat)
        thread_id = self._thread_of(chat, params)
        self._check_reply(chat, params)
        text, entities = self._compose_text(params)
        version = MessageVersion(text, entities, self._compose_markup(params))
        _check_web_apps(chat, version.reply_markup)
        self._rate(chat)
        message = FakeMessage(
            chat, chat.next_message_id(), None, self.bot_user_json, version, thread_id=thread_id
        )
        chat.messages[message.message_id] = message
        return message.to_json()

    # --- methods: photos and documents (the checks are in ``media.py``) ------------------------------------
    def _media_file(self, value: Any, params: Params, kind: str) -> Media:
        try:
            stored = self.media.resolve(value, params.raw, kind)
        except MediaRefusal as refusal:
            raise ApiError(refusal.code, refusal.description) from None
        return Media(kind, stored.file_unique_id, stored)

    async def _send_media(self, params: Params, kind: str) -> JSON:
        chat = self._target_chat(params)
        self._check_can_write(chat)
        thread_id = self._thread_of(chat, params)
        self._check_reply(chat, params)
        caption, entities = self._compose_text(params, "caption", "caption_entities")
        media = self._media_file(params.raw.get(kind), params, kind)
        version = MessageVersion(caption, entities, self._compose_markup(params), media)
        self._rate(chat)
        message = FakeMessage(
            chat, chat.next_message_id(), None, self.bot_user_json, version, thread_id=thread_id
        )
        chat.messages[message.message_id] = message
        return message.to_json()

    async def _send_photo(self, params: Params) -> JSON:
        return await self._send_media(params, "photo")

    async def _send_document(self, params: Params) -> JSON:
        return await self._send_media(params, "document")

    async def _edit_message_media(self, params: Params) -> JSON:
        """A message's photo or document replaced (a text message gets one), its caption with it; the same
        file, caption and keyboard again is «message is not modified»."""
        message = self._message_to_edit(params)
        spec = params.json_("media")
        if not isinstance(spec, dict) or spec.get("type") not in ("photo", "document"):
            raise bad_request(MediaError.BAD_MEDIA)
        kind = str(spec["type"])
        media = self._media_file(spec.get("media"), params, kind)
        inner = Params(
            {
                "caption": spec.get("caption"),
                "parse_mode": spec.get("parse_mode"),
                "caption_entities": spec.get("caption_entities"),
            }
        )
        caption, entities = self._compose_text(inner, "caption", "caption_entities")
        version = MessageVersion(caption, entities, self._compose_markup(params), media)
        return self._apply_edit(message, version)

    def lost_send(self, message: FakeMessage) -> FakeMessage:
        """A copy of the bot's ``message`` that the bot sent but never heard back about (it crashed, or the
        answer was lost on the way): Telegram shows it below, the bot does not know its id."""
        chat = message.chat
        copy = FakeMessage(
            chat,
            chat.next_message_id(),
            None,
            self.bot_user_json,
            message.current,
            thread_id=message.thread_id,
        )
        chat.messages[copy.message_id] = copy
        return copy

    def _message_to_edit(self, params: Params) -> FakeMessage:
        if params.has("inline_message_id"):
            raise bad_request(Description.INLINE_UNSUPPORTED)
        chat = self._target_chat(params)
        message = chat.messages.get(params.require_int("message_id"))
        if message is None or message.is_deleted:
            raise bad_request(Description.EDIT_NOT_FOUND)
        if not message.is_from_bot:
            raise bad_request(Description.CANT_EDIT)
        self._check_can_write(chat)
        return message

    def _apply_edit(self, message: FakeMessage, version: MessageVersion) -> JSON:
        _check_web_apps(message.chat, version.reply_markup)
        if version == message.current:
            self.stats.not_modified += 1
            raise bad_request(Description.NOT_MODIFIED)
        self._rate(message.chat)
        message.history.append(version)
        message.edit_date = int(time.time())
        return message.to_json()

    async def _edit_message_text(self, params: Params) -> JSON:
        message = self._message_to_edit(params)
        text, entities = self._compose_text(params)
        return self._apply_edit(message, MessageVersion(text, entities, self._compose_markup(params)))

    async def _edit_message_reply_markup(self, params: Params) -> JSON:
        message = self._message_to_edit(params)
        current = message.current
        markup = self._compose_markup(params)
        return self._apply_edit(message, MessageVersion(current.text, current.entities, markup))

    def _delete_one(self, chat: FakeChat, message_id: int) -> None:
        message = chat.messages.get(message_id)
        if message is None or message.is_deleted:
            raise bad_request(Description.DELETE_NOT_FOUND)
        if chat.is_group and not message.is_from_bot and not chat.bot_is_admin:
            raise bad_request(Description.CANT_DELETE)
        message.is_deleted = True

    async def _delete_message(self, params: Params) -> bool:
        chat = self._target_chat(params)
        self._delete_one(chat, params.require_int("message_id"))
        return True

    async def _delete_messages(self, params: Params) -> bool:
        chat = self._target_chat(params)
        ids = params.json_("message_ids")
        if not isinstance(ids, list) or not all(isinstance(i, int) and i > 0 for i in ids):
            raise bad_request("Bad Request: message identifiers are invalid")
        if not ids:
            raise bad_request("Bad Request: message identifiers are not specified")
        if len(ids) > 100:
            raise bad_request("Bad Request: too many message identifiers specified")
        # Messages not found are skipped; one that may not be deleted refuses the whole call, deleting none.
        found = [m for m in (chat.messages.get(i) for i in ids) if m is not None and not m.is_deleted]
        if any(chat.is_group and not m.is_from_bot and not chat.bot_is_admin for m in found):
            raise bad_request(Description.CANT_DELETE)
        for message in found:
            message.is_deleted = True
        return True

    async def _answer_inline_query(self, params: Params) -> bool:
        """answerInlineQuery: the checks are in ``inline.py``."""
        query = self._inline_queries.get(params.str_("inline_query_id") or "")
        if query is None or query.is_answered or self._is_too_old(query.created):
            raise bad_request(Description.QUERY_INVALID)

        def compose_text(raw: dict[str, Any]) -> tuple[str, tuple[Entity, ...]]:
            try:
                return self._compose_text(Params(raw))
            except ApiError as error:
                if error.description == Description.TEXT_TOO_LONG:
                    raise InlineRefusal("Bad Request: MESSAGE_TOO_LONG") from None
                raise

        def compose_markup(raw: dict[str, Any]) -> JSON | None:
            return self._compose_markup(Params(raw))

        raw = {
            "results": params.json_("results"),
            "cache_time": params.int_("cache_time"),
            "is_personal": params.bool_("is_personal"),
            "next_offset": params.str_("next_offset"),
            "button": params.json_("button"),
        }
        try:
            answer = check_answer(raw, compose_text, compose_markup)
        except InlineRefusal as refusal:
            raise bad_request(str(refusal)) from None
        query.is_answered = True
        if not query.answer.done():
            query.answer.set_result(answer)
        return True

    async def _answer_callback_query(self, params: Params) -> bool:
        query = self._queries.get(params.str_("callback_query_id") or "")
        if query is None or query.is_answered or self._is_too_old(query.created):
            raise bad_request(Description.QUERY_INVALID)
        text = params.str_("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request(Description.ANSWER_TOO_LONG)
        query.is_answered = True
        answer = CallbackAnswer(
            answered=True, text=text, show_alert=params.bool_("show_alert"), url=params.str_("url")
        )
        if not query.answer.done():
            query.answer.set_result(answer)
        return True

    # --- chat lifecycle: the bot removed and re-added, a group migrated, a topic closed (faults-b) -----------
    def _check_chat_alive(self, chat: FakeChat) -> None:
        """Calls to an upgraded group or a group the bot is no longer in are refused, as Telegram does."""
        if chat.migrated_to is not None:
            raise ApiError(400, Description.MIGRATED, migrate_to_chat_id=chat.migrated_to)
        if chat.is_group and not chat.has_bot:
            if chat.bot_status == "kicked":
                kicked = (
                    Description.KICKED_GROUP if chat.type is ChatType.GROUP else Description.KICKED_SUPERGROUP
                )
                raise ApiError(403, kicked)
            raise ApiError(403, Description.NOT_MEMBER)

    def _bot_member_update(self, chat: FakeChat, by: FakeUser, old: str, new: str) -> None:
        payload = {
            "chat": chat.to_json(),
            "from": by.to_json(),
            "date": int(time.time()),
            "old_chat_member": self._member_status_json(old),
            "new_chat_member": self._member_status_json(new),
        }
        self.push_update(UpdateType.MY_CHAT_MEMBER, payload)

    def remove_bot(self, chat: FakeChat, by: FakeUser, *, kicked: bool = True) -> None:
        """`by` removes (bans, when `kicked`) the bot from the group: every later call there is refused."""
        old = "administrator" if chat.bot_is_admin else "member"
        chat.bot_status = "kicked" if kicked else "left"
        chat.bot_is_admin = False
        self._bot_member_update(chat, by, old, chat.bot_status)

    def add_bot(self, chat: FakeChat, by: FakeUser) -> None:
        """`by` adds the bot to the group again."""
        old = chat.bot_status
        chat.bot_status = "member"
        self._bot_member_update(chat, by, old, "member")

    def _service_message(self, chat: FakeChat, by: FakeUser, thread_id: int | None, **fields: Any) -> JSON:
        """A service message (no text) in `chat`, as Telegram delivers it to the bot."""
        payload: JSON = {
            "message_id": chat.next_message_id(),
            "date": int(time.time()),
            "chat": chat.to_json(),
            "from": by.to_json(),
            **fields,
        }
        if thread_id is not None:
            payload["message_thread_id"] = thread_id
            payload["is_topic_message"] = True
        return payload

    def add_basic_group(
        self, title: str, members: Iterable[FakeUser], admins: Iterable[FakeUser] = ()
    ) -> FakeChat:
        """A basic (non-super) group with the bot in it; see :meth:`migrate`."""
        chat = self.add_group(title, members, admins)
        del self.chats[chat.id]
        chat.id = -(abs(chat.id) % 1_000_000_000) - 1  # basic groups have short negative ids
        chat.type = ChatType.GROUP
        self.chats[chat.id] = chat
        return chat

    def migrate(self, chat: FakeChat, by: FakeUser, *, notify: bool = True) -> FakeChat:
        """Upgrade a basic group to a supergroup: a new chat id, the old one refuses every call from now on.

        The bot gets both service messages: `migrate_to_chat_id` in the old chat, `migrate_from_chat_id` in the
        new one. The old messages stay in the old chat (they do not move).
        """
        new = self.add_group(chat.title or "", chat.members)
        new.admin_ids = list(chat.admin_ids)
        new.bot_is_admin = chat.bot_is_admin
        chat.migrated_to = new.id
        if not notify:  # as if the bot missed both service messages: only refused calls tell it
            return new
        self.push_update(UpdateType.MESSAGE, self._service_message(chat, by, None, migrate_to_chat_id=new.id))
        self.push_update(
            UpdateType.MESSAGE, self._service_message(new, by, None, migrate_from_chat_id=chat.id)
        )
        return new

    def close_topic(self, chat: FakeChat, thread_id: int, by: FakeUser) -> None:
        """Close a forum topic: only admins may write there now (the bot, unless an admin, gets TOPIC_CLOSED)."""
        chat.closed_topics.add(thread_id)
        self.push_update(
            UpdateType.MESSAGE, self._service_message(chat, by, thread_id, forum_topic_closed={})
        )

    def reopen_topic(self, chat: FakeChat, thread_id: int, by: FakeUser) -> None:
        chat.closed_topics.discard(thread_id)
        self.push_update(
            UpdateType.MESSAGE, self._service_message(chat, by, thread_id, forum_topic_reopened={})
        )

    # --- updates fed to the dispatcher directly (fuzzing), not through getUpdates (faults-b) -----------------
    def forged_press(
        self, user: FakeUser, message: FakeMessage, data: str
    ) -> tuple[JSON, asyncio.Future[CallbackAnswer]]:
        """A press of `message` carrying any `data`, as an update the test feeds to the dispatcher itself.

        The query is registered, so answerCallbackQuery works as for a real press; the future resolves with
        the answer.
        """
        query, payload = self._callback_query(user, message, data)
        return {"update_id": next(self._update_ids), "callback_query": payload}, query.answer

    def forged_message(self, user: FakeUser, chat: FakeChat, text: str) -> JSON:
        """`user` writes `text` in `chat`, as an update the test feeds to the dispatcher itself."""
        entities: list[Entity] = []
        if text.startswith("/"):
            entities.append(Entity(EntityType.BOT_COMMAND, 0, len(text.split(maxsplit=1)[0])))
        version = MessageVersion(text, tuple(entities), None)
        message = FakeMessage(chat, chat.next_message_id(), user, self.bot_user_json, version)
        chat.messages[message.message_id] = message
        return {"update_id": next(self._update_ids), "message": message.to_json()}


def _gone(request: web.Request) -> Callable[[], bool]:
    """Whether the client of ``request`` closed its connection (gave up waiting for the answer)."""

    def gone() -> bool:
        transport = request.transport
        return transport is None or transport.is_closing()

    return gone


def _check_button(button: object) -> None:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request(Description.BAD_MARKUP)
    if not any(key in button for key in _BUTTON_ACTIONS):
        raise bad_request(Description.TEXT_BUTTONS_UNALLOWED)
    data = button.get("callback_data")
    if data is not None and not 1 <= len(str(data).encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES:
        raise bad_request(Description.BUTTON_DATA_INVALID)
    url = button.get("url")
    if url is not None and not _is_button_url(str(url)):
        raise bad_request(Description.BUTTON_URL_INVALID)
    web_app = button.get("web_app")
    if web_app is not None:
        page = web_app.get("url") if isinstance(web_app, dict) else None
        if not isinstance(page, str) or not page.startswith("https://") or not _is_button_url(page):
            raise bad_request(Description.WEB_APP_URL_INVALID)


def _check_web_apps(chat: FakeChat, markup: JSON | None) -> None:
    """Telegram opens a Mini App from an inline button in a private chat only."""
    rows = markup.get("inline_keyboard", []) if markup is not None else []
    if chat.is_group and any("web_app" in button for row in rows for button in row):
        raise bad_request(Description.BUTTON_TYPE_INVALID)


def _is_button_url(url: str) -> bool:
    if not url or any(c.isspace() for c in url):
        return False
    scheme, sep, rest = url.partition("://")
    if sep:
        return scheme.lower() in ("http", "https", "tg") and bool(rest)
    return "." in url.split("/", 1)[0]


def _entities_from_json(text: str, raw: list[Any]) -> list[Entity]:
    """Entities given explicitly (UTF-16 offsets) as code point offsets."""
    starts: dict[int, int] = {}
    units = 0
    for index, char in enumerate(text):
        starts[units] = index
        units += utf16_len(char)
    starts[units] = len(text)
    result: list[Entity] = []
    for item in raw:
        if not isinstance(item, dict):
            raise bad_request("Bad Request: can't parse entities JSON object")
        try:
            kind = EntityType(str(item.get("type")))
            start = starts[int(item["offset"])]
            stop = starts[int(item["offset"]) + int(item["length"])]
        except (KeyError, ValueError, TypeError):
            raise bad_request("Bad Request: can't parse entities JSON object") from None
        result.append(
            Entity(
                kind, start, stop - start, item.get("url"), item.get("language"), item.get("custom_emoji_id")
            )
        )
    return result
