"""Inline mode for the fake Bot API: a person types «@bot words» (an inline_query update) and the bot answers
with answerInlineQuery, checked as Telegram checks it.

What Telegram refuses and this module refuses too (descriptions as Telegram words them):
- an unknown or already answered query id, or an answer later than the query's time to live;
- more than 50 results (RESULTS_TOO_MUCH); a result id that is empty or longer than 64 bytes (RESULT_ID_INVALID),
  or the same id twice in one answer (RESULT_ID_DUPLICATE); an unknown result type (RESULT_TYPE_INVALID);
  an article without a title (RESULT_TITLE_EMPTY) or without input_message_content;
- a message text that is empty (MESSAGE_EMPTY), longer than 4096 characters after parsing (MESSAGE_TOO_LONG),
  or whose HTML does not parse ("can't parse entities: ...");
- a reply_markup Telegram would refuse on a message; a next_offset longer than 64 bytes (NEXT_OFFSET_INVALID).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakebot.html import Entity

MAX_INLINE_RESULTS = 50
MAX_RESULT_ID_BYTES = 64
MAX_NEXT_OFFSET_BYTES = 64
RESULT_TYPES = frozenset(
    {
        "article", "photo", "gif", "mpeg4_gif", "video", "audio", "voice", "document", "location", "venue",
        "contact", "game", "sticker",
    }
)  # fmt: skip


class InlineRefusal(Exception):
    """What answerInlineQuery is refused with (the server turns it into a 400 with this description)."""


@dataclass(frozen=True)
class InlineResult:
    """One result as the person sees it in the list, and the message it would post (parsed like a message)."""

    id: str
    type: str
    title: str
    description: str
    text: str
    entities: tuple[Entity, ...]
    reply_markup: dict[str, Any] | None


@dataclass
class InlineAnswer:
    """The bot's answer to one inline query (answered=False: none came in time)."""

    answered: bool
    results: list[InlineResult] = field(default_factory=list)
    cache_time: int | None = None
    is_personal: bool = False
    next_offset: str = ""
    button: dict[str, Any] | None = None

    def result(self, result_id: str) -> InlineResult:
        for result in self.results:
            if result.id == result_id:
                return result
        raise LookupError(f"no result {result_id!r} among {[r.id for r in self.results]}")


@dataclass
class PendingInlineQuery:
    query_id: str
    created: float
    answer: asyncio.Future[InlineAnswer]
    is_answered: bool = False


ComposeText = Callable[[dict[str, Any]], tuple[str, tuple[Entity, ...]]]
ComposeMarkup = Callable[[dict[str, Any]], dict[str, Any] | None]


def check_answer(
    raw: dict[str, Any], compose_text: ComposeText, compose_markup: ComposeMarkup
) -> InlineAnswer:
    """An answerInlineQuery call's parameters as an InlineAnswer; InlineRefusal where Telegram refuses.

    ``compose_text`` / ``compose_markup`` are the server's own checks of a message's text and keyboard (from a
    dict of sendMessage-like parameters), so a result's message is held to the rules of any message.
    """
    results = raw.get("results")
    if not isinstance(results, list):
        raise InlineRefusal("Bad Request: can't parse results JSON object")
    if len(results) > MAX_INLINE_RESULTS:
        raise InlineRefusal("Bad Request: RESULTS_TOO_MUCH")
    seen: set[str] = set()
    out: list[InlineResult] = []
    for item in results:
        if not isinstance(item, dict):
            raise InlineRefusal("Bad Request: can't parse results JSON object")
        result_id = str(item.get("id") or "")
        if not 1 <= len(result_id.encode("utf-8")) <= MAX_RESULT_ID_BYTES:
            raise InlineRefusal("Bad Request: RESULT_ID_INVALID")
        if result_id in seen:
            raise InlineRefusal("Bad Request: RESULT_ID_DUPLICATE")
        seen.add(result_id)
        kind = str(item.get("type") or "")
        if kind not in RESULT_TYPES:
            raise InlineRefusal("Bad Request: RESULT_TYPE_INVALID")
        title = str(item.get("title") or "")
        if kind == "article" and not title.strip():
            raise InlineRefusal("Bad Request: RESULT_TITLE_EMPTY")
        content = item.get("input_message_content")
        if kind == "article" and not isinstance(content, dict):
            raise InlineRefusal("Bad Request: MESSAGE_EMPTY")
        text: str = ""
        entities: tuple[Entity, ...] = ()
        if isinstance(content, dict):
            if not str(content.get("message_text") or "").strip():
                raise InlineRefusal("Bad Request: MESSAGE_EMPTY")
            text, entities = compose_text(
                {
                    "text": content.get("message_text"),
                    "parse_mode": content.get("parse_mode"),
                    "entities": content.get("entities"),
                }
            )
        markup = item.get("reply_markup")
        if markup is not None:
            if not isinstance(markup, dict) or "inline_keyboard" not in markup:
                raise InlineRefusal("Bad Request: REPLY_MARKUP_INVALID")
            markup = compose_markup({"reply_markup": markup})
        out.append(
            InlineResult(result_id, kind, title, str(item.get("description") or ""), text, entities, markup)
        )
    next_offset = str(raw.get("next_offset") or "")
    if len(next_offset.encode("utf-8")) > MAX_NEXT_OFFSET_BYTES:
        raise InlineRefusal("Bad Request: NEXT_OFFSET_INVALID")
    cache_time = raw.get("cache_time")
    button = raw.get("button")
    return InlineAnswer(
        answered=True,
        results=out,
        cache_time=int(cache_time) if cache_time not in (None, "") else None,
        is_personal=raw.get("is_personal") in (True, "true", "True", 1, "1"),
        next_offset=next_offset,
        button=button if isinstance(button, dict) else None,
    )
