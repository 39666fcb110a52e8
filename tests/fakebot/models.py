"""The fake Telegram's world: users, chats, messages, buttons, callback answers and call counters."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from tests.fakebot.html import Entity

if TYPE_CHECKING:
    from tests.fakebot.media import Media
    from tests.fakebot.server import FakeTelegram

JSON = dict[str, Any]


class ChatType(StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class UpdateType(StrEnum):
    MESSAGE = "message"
    EDITED_MESSAGE = "edited_message"
    CALLBACK_QUERY = "callback_query"
    INLINE_QUERY = "inline_query"
    MY_CHAT_MEMBER = "my_chat_member"
    CHAT_MEMBER = "chat_member"
    MESSAGE_REACTION = "message_reaction"
    MESSAGE_REACTION_COUNT = "message_reaction_count"


# What Telegram sends when the bot never said (or said an empty list for) allowed_updates.
DEFAULT_UPDATE_TYPES = frozenset(UpdateType) - {
    UpdateType.CHAT_MEMBER,
    UpdateType.MESSAGE_REACTION,
    UpdateType.MESSAGE_REACTION_COUNT,
}


@dataclass(frozen=True)
class Button:
    """One inline keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app: str | None = None
    """The Mini App page the button opens."""

    @classmethod
    def from_json(cls, raw: JSON) -> Button:
        web_app = raw.get("web_app")
        return cls(
            text=str(raw.get("text", "")),
            callback_data=raw.get("callback_data"),
            url=raw.get("url"),
            web_app=web_app.get("url") if isinstance(web_app, dict) else None,
        )


@dataclass(frozen=True)
class MessageVersion:
    """The content of a message at one moment; a message's history is a list of these."""

    text: str
    entities: tuple[Entity, ...]
    reply_markup: JSON | None
    media: Media | None = None
    """A photo or a document (``text`` and ``entities`` are then its caption)."""


class FakeUser:
    """A simulated person: sends messages, presses buttons, starts or blocks the bot."""

    def __init__(
        self,
        tg: FakeTelegram,
        user_id: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = "ru",
    ) -> None:
        self.tg = tg
        self.id = user_id
        self.first_name = first_name
        self.last_name = last_name
        self.username = username
        self.language_code = language_code
        self.has_started = False
        self.has_blocked = False

    def __repr__(self) -> str:
        return f"FakeUser({self.id}, {self.first_name!r})"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_json(self) -> JSON:
        result: JSON = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            result["last_name"] = self.last_name
        if self.username:
            result["username"] = self.username
        if self.language_code:
            result["language_code"] = self.language_code
        return result

    @property
    def private_chat(self) -> FakeChat:
        return self.tg.private_chat(self)

    async def send(self, chat: FakeChat, text: str, *, thread_id: int | None = None) -> FakeMessage:
        """Write `text` in `chat` (a group, or this user's private chat); the bot gets it as an update."""
        return self.tg.user_sends(self, chat, text, thread_id=thread_id)

    async def send_private(self, text: str) -> FakeMessage:
        """Write to the bot in private; from then on the bot may write to this user (unblocks too)."""
        return self.tg.user_sends(self, self.private_chat, text)

    def delete(self, message: FakeMessage) -> None:
        """Delete a message for everyone, as a user may in their private chat with the bot (any message there)
        or in a group (their own). Telegram tells the bot nothing; its edits of it get «message to edit not
        found»."""
        self.tg.user_deletes(self, message)

    def block_bot(self) -> None:
        self.tg.set_blocked(self, blocked=True)

    def unblock_bot(self) -> None:
        self.tg.set_blocked(self, blocked=False)

    async def press(
        self,
        message: FakeMessage,
        text: str | None = None,
        *,
        data: str | None = None,
        timeout: float = 5.0,
        force: bool = False,
    ) -> CallbackAnswer:
        """Press a button of `message` (by its text, or by its callback data) and wait for the bot's answer.

        The button must be on the message's current keyboard unless `force=True` (pressing a button the user
        still saw on an older version). Returns when the bot calls answerCallbackQuery, or after `timeout`
        seconds with `answered=False`.
        """
        return await self.tg.user_presses(self, message, text=text, data=data, timeout=timeout, force=force)


class FakeChat:
    """A private chat (id = the user's id) or a supergroup (negative id) with its messages."""

    def __init__(
        self,
        chat_id: int,
        chat_type: ChatType,
        *,
        title: str | None = None,
        user: FakeUser | None = None,
        is_forum: bool = False,
    ) -> None:
        self.id = chat_id
        self.type = chat_type
        self.title = title
        self.user = user
        self.is_forum = is_forum
        self.members: list[FakeUser] = []
        self.admin_ids: list[int] = []  # the first is the owner
        self.bot_is_admin = False
        self.topics: dict[int, str] = {}
        # Chat lifecycle (see FakeTelegram.remove_bot / add_bot / migrate / close_topic):
        self.bot_status = "member"
        """The bot's own status here: member (or administrator), left or kicked."""
        self.migrated_to: int | None = None
        """A basic group upgraded to a supergroup: the new chat's id; every call to this id is refused."""
        self.closed_topics: set[int] = set()
        self.available_reactions: frozenset[str] | None = None
        """The emoji its admins allow as reactions (None: every standard one; empty: reactions off)."""
        self.messages: dict[int, FakeMessage] = {}
        self._next_message_id = 1

    def __repr__(self) -> str:
        return f"FakeChat({self.id}, {self.type}, {self.title or self.user!r})"

    @property
    def is_group(self) -> bool:
        return self.type is not ChatType.PRIVATE

    @property
    def has_bot(self) -> bool:
        return self.bot_status not in ("left", "kicked")

    def next_message_id(self) -> int:
        value = self._next_message_id
        self._next_message_id += 1
        return value

    def to_json(self) -> JSON:
        result: JSON = {"id": self.id, "type": str(self.type)}
        if self.user is not None:
            result.update(
                {k: v for k, v in self.user.to_json().items() if k in ("first_name", "last_name", "username")}
            )
        else:
            result["title"] = self.title
            if self.is_forum:
                result["is_forum"] = True
        return result

    def add_topic(self, name: str) -> int:
        """Open a forum topic; returns its message_thread_id."""
        self.is_forum = True
        thread_id = self.next_message_id()
        self.topics[thread_id] = name
        return thread_id

    # --- reading the chat, for tests ---------------------------------------------------------------------
    def visible_messages(self) -> list[FakeMessage]:
        """Messages not deleted, oldest first."""
        return [m for m in self.messages.values() if not m.is_deleted]

    def bot_messages(self) -> list[FakeMessage]:
        """The bot's messages not deleted, oldest first."""
        return [m for m in self.visible_messages() if m.is_from_bot]

    def last_message(self) -> FakeMessage | None:
        """The newest visible message from anyone."""
        visible = self.visible_messages()
        return visible[-1] if visible else None

    def last_bot_message(self) -> FakeMessage | None:
        """The newest visible message from the bot."""
        mine = self.bot_messages()
        return mine[-1] if mine else None

    def bot_message_count(self, *, include_deleted: bool = False) -> int:
        return sum(
            1 for m in self.messages.values() if m.is_from_bot and (include_deleted or not m.is_deleted)
        )


class FakeMessage:
    """A message in a chat; the bot's ones keep their edit history."""

    def __init__(
        self,
        chat: FakeChat,
        message_id: int,
        sender: FakeUser | None,
        bot_json: JSON,
        version: MessageVersion,
        *,
        thread_id: int | None = None,
    ) -> None:
        self.chat = chat
        self.message_id = message_id
        self.sender = sender  # None: the bot
        self.bot_json = bot_json
        self.date = int(time.time())
        self.history: list[MessageVersion] = [version]
        self.thread_id = thread_id
        self.edit_date: int | None = None
        self.is_deleted = False
        self.reactions: list[tuple[str, ...]] = []
        """The bot's reaction to this message as each call set it (an empty one: taken back)."""

    def __repr__(self) -> str:
        who = "bot" if self.sender is None else self.sender.first_name
        return f"FakeMessage({self.chat.id}/{self.message_id} by {who}: {self.text[:40]!r})"

    @property
    def is_from_bot(self) -> bool:
        return self.sender is None

    @property
    def current(self) -> MessageVersion:
        return self.history[-1]

    @property
    def text(self) -> str:
        return self.current.text

    @property
    def entities(self) -> tuple[Entity, ...]:
        return self.current.entities

    @property
    def reply_markup(self) -> JSON | None:
        return self.current.reply_markup

    @property
    def edit_count(self) -> int:
        return len(self.history) - 1

    @property
    def buttons(self) -> list[list[Button]]:
        """The inline keyboard, row by row (empty when there is none)."""
        markup = self.reply_markup or {}
        rows = markup.get("inline_keyboard") or []
        return [[Button.from_json(b) for b in row] for row in rows]

    @property
    def flat_buttons(self) -> list[Button]:
        return [b for row in self.buttons for b in row]

    @property
    def url_buttons(self) -> list[Button]:
        return [b for b in self.flat_buttons if b.url is not None]

    @property
    def has_keyboard(self) -> bool:
        return bool(self.flat_buttons)

    def button(self, text: str) -> Button:
        """The button whose text is `text`, or the only one containing it; LookupError otherwise."""
        exact = [b for b in self.flat_buttons if b.text == text]
        if len(exact) == 1:
            return exact[0]
        partial = [b for b in self.flat_buttons if text in b.text]
        if len(exact) > 1 or len(partial) != 1:
            found = [b.text for b in self.flat_buttons]
            raise LookupError(f"no single button {text!r} in {self!r}; buttons: {found}")
        return partial[0]

    def has_button(self, text: str) -> bool:
        try:
            self.button(text)
        except LookupError:
            return False
        return True

    def to_json(self) -> JSON:
        result: JSON = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat.to_json(),
            "from": self.bot_json if self.sender is None else self.sender.to_json(),
        }
        media = self.current.media
        if media is None:
            result["text"] = self.text
            if self.entities:
                result["entities"] = [e.to_json(self.text) for e in self.entities]
        else:
            result[media.kind] = media.file.to_json()
            if self.text:
                result["caption"] = self.text
            if self.entities:
                result["caption_entities"] = [e.to_json(self.text) for e in self.entities]
        if self.thread_id is not None:
            result["message_thread_id"] = self.thread_id
            result["is_topic_message"] = True
        if self.edit_date is not None:
            result["edit_date"] = self.edit_date
        markup = self.reply_markup
        if markup is not None and "inline_keyboard" in markup:
            result["reply_markup"] = markup
        return result


@dataclass
class CallbackAnswer:
    """What the bot answered to a button press (answered=False: it did not answer in time)."""

    answered: bool
    text: str | None = None
    show_alert: bool = False
    url: str | None = None


@dataclass
class ApiStats:
    """Counts of Bot API calls: per method and per chat; `errors` are keyed by (method, error_code)."""

    calls: Counter[str] = field(default_factory=Counter)
    successes: Counter[str] = field(default_factory=Counter)
    errors: Counter[tuple[str, int]] = field(default_factory=Counter)
    chat_calls: Counter[int] = field(default_factory=Counter)
    chat_successes: Counter[int] = field(default_factory=Counter)
    chat_errors: Counter[tuple[int, int]] = field(default_factory=Counter)
    not_modified: int = 0
    """Edits refused with «message is not modified» (the message already showed that content)."""

    def record(self, method: str, chat_id: int | None, error_code: int | None) -> None:
        self.calls[method] += 1
        if chat_id is not None:
            self.chat_calls[chat_id] += 1
        if error_code is None:
            self.successes[method] += 1
            if chat_id is not None:
                self.chat_successes[chat_id] += 1
        else:
            self.errors[(method, error_code)] += 1
            if chat_id is not None:
                self.chat_errors[(chat_id, error_code)] += 1

    def total_calls(self, *, exclude: tuple[str, ...] = ("getUpdates",)) -> int:
        """All calls except the polling ones (by default)."""
        return sum(n for method, n in self.calls.items() if method not in exclude)

    def error_count(self, code: int, method: str | None = None) -> int:
        return sum(n for (m, c), n in self.errors.items() if c == code and (method is None or m == method))

    @property
    def too_many_requests(self) -> int:
        """How many 429 answers the bot received."""
        return self.error_count(429)

    def copy(self) -> ApiStats:
        return ApiStats(
            Counter(self.calls),
            Counter(self.successes),
            Counter(self.errors),
            Counter(self.chat_calls),
            Counter(self.chat_successes),
            Counter(self.chat_errors),
            self.not_modified,
        )

    def reset(self) -> None:
        for counter in (self.calls, self.successes, self.errors, self.chat_calls, self.chat_successes):
            counter.clear()
        self.chat_errors.clear()
        self.not_modified = 0
