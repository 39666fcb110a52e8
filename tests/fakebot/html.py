"""Telegram's HTML subset: a parser that accepts what Telegram accepts and refuses the rest.

`parse_html(text)` returns the plain text and its entities, or raises `EntityParseError` whose message is the
part of Telegram's description after "Bad Request: can't parse entities: ". The grammar follows the one the Bot
API server uses (tdlib's HTML parser): the tags b, strong, i, em, u, ins, s, strike, del, tg-spoiler,
span class="tg-spoiler", a href, code (class="language-…" inside pre), pre, blockquote (expandable), tg-emoji
emoji-id; the named entities &lt; &gt; &amp; &quot; and numeric ones (&#NN; &#xHH;).

One deliberate strictness: Telegram keeps a stray "&" that starts no entity as a literal character; we refuse
it (``strict_ampersand=True``, the default) because a stray "&" in our output always means a user-supplied string
was not escaped, and the next such string may contain "<".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class EntityParseError(ValueError):
    """HTML Telegram would refuse; str(error) is the tail of Telegram's description."""


class EntityType(StrEnum):
    BOLD = "bold"
    ITALIC = "italic"
    UNDERLINE = "underline"
    STRIKETHROUGH = "strikethrough"
    SPOILER = "spoiler"
    TEXT_LINK = "text_link"
    CODE = "code"
    PRE = "pre"
    BLOCKQUOTE = "blockquote"
    EXPANDABLE_BLOCKQUOTE = "expandable_blockquote"
    CUSTOM_EMOJI = "custom_emoji"
    BOT_COMMAND = "bot_command"


_TAG_TYPES: dict[str, EntityType] = {
    "b": EntityType.BOLD,
    "strong": EntityType.BOLD,
    "i": EntityType.ITALIC,
    "em": EntityType.ITALIC,
    "u": EntityType.UNDERLINE,
    "ins": EntityType.UNDERLINE,
    "s": EntityType.STRIKETHROUGH,
    "strike": EntityType.STRIKETHROUGH,
    "del": EntityType.STRIKETHROUGH,
    "tg-spoiler": EntityType.SPOILER,
    "span": EntityType.SPOILER,
    "a": EntityType.TEXT_LINK,
    "code": EntityType.CODE,
    "pre": EntityType.PRE,
    "blockquote": EntityType.BLOCKQUOTE,
    "tg-emoji": EntityType.CUSTOM_EMOJI,
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SPACES = " \t\n\r\f\v"
_MAX_CODE_POINT = 0x10FFFF


@dataclass(frozen=True)
class Entity:
    """A formatting entity; offset and length count code points of the plain text (not UTF-16)."""

    type: EntityType
    offset: int
    length: int
    url: str | None = None
    language: str | None = None
    custom_emoji_id: str | None = None

    def to_json(self, text: str) -> dict[str, object]:
        """The Bot API form: offset and length in UTF-16 code units of `text`."""
        start = utf16_len(text[: self.offset])
        length = utf16_len(text[self.offset : self.offset + self.length])
        result: dict[str, object] = {"type": str(self.type), "offset": start, "length": length}
        if self.url is not None:
            result["url"] = self.url
        if self.language is not None:
            result["language"] = self.language
        if self.custom_emoji_id is not None:
            result["custom_emoji_id"] = self.custom_emoji_id
        return result


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit Telegram measures text in."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class _OpenTag:
    name: str
    begin: int  # position in the plain text
    argument: str = ""
    language: str = ""
    inner_language: str = field(default="")


class _Parser:
    def __init__(self, text: str, *, strict_ampersand: bool) -> None:
        self.text = text
        self.strict_ampersand = strict_ampersand
        self.pos = 0
        self.out: list[str] = []
        self.out_len = 0
        self.stack: list[_OpenTag] = []
        self.entities: list[Entity] = []

    def byte_offset(self, index: int) -> int:
        return len(self.text[:index].encode("utf-8"))

    def peek(self, index: int | None = None) -> str:
        at = self.pos if index is None else index
        return self.text[at] if at < len(self.text) else ""

    def emit(self, chunk: str) -> None:
        self.out.append(chunk)
        self.out_len += len(chunk)

    def run(self) -> tuple[str, list[Entity]]:
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "&":
                self.ampersand()
            elif char == "<":
                if self.peek(self.pos + 1) == "/":
                    self.end_tag()
                else:
                    self.start_tag()
            else:
                self.emit(char)
                self.pos += 1
        if self.stack:
            raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{self.stack[-1].name}"')
        self.entities.sort(key=lambda e: (e.offset, -e.length))
        return "".join(self.out), self.entities

    def ampersand(self) -> None:
        decoded, end = decode_entity(self.text, self.pos)
        if decoded is not None:
            self.emit(decoded)
            self.pos = end
            return
        if self.strict_ampersand:
            raise EntityParseError(f'Unescaped "&" at byte offset {self.byte_offset(self.pos)}')
        self.emit("&")
        self.pos += 1

    def start_tag(self) -> None:
        begin = self.pos
        self.pos += 1
        name_begin = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _SPACES and self.text[self.pos] != ">":
            self.pos += 1
        if self.pos >= len(self.text):
            raise EntityParseError(f"Unclosed start tag at byte offset {self.byte_offset(begin)}")
        name = _ascii_lower(self.text[name_begin : self.pos])
        if name not in _TAG_TYPES:
            raise EntityParseError(f'Unsupported start tag "{name}" at byte offset {self.byte_offset(begin)}')
        tag = _OpenTag(name=name, begin=self.out_len)
        self.attributes(tag, begin)
        self.pos += 1  # the closing ">"
        if name == "span" and tag.argument != "tg-spoiler":
            raise EntityParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {self.byte_offset(begin)}'
            )
        if name == "tg-emoji" and not tag.argument.isdigit():
            raise EntityParseError(
                f"Custom emoji identifier expected at byte offset {self.byte_offset(begin)}"
            )
        self.stack.append(tag)

    def attributes(self, tag: _OpenTag, begin: int) -> None:
        text = self.text
        while self.peek() != ">":
            while self.peek() in _SPACES and self.peek():
                self.pos += 1
            if self.peek() == ">":
                break
            if not self.peek():
                raise EntityParseError(f"Unclosed start tag at byte offset {self.byte_offset(begin)}")
            attr_begin = self.pos
            while self.peek() and self.peek() not in _SPACES and self.peek() not in "=>":
                self.pos += 1
            attr_name = _ascii_lower(text[attr_begin : self.pos])
            if not attr_name:
                raise EntityParseError(
                    f'Empty attribute name in the tag "{tag.name}" at byte offset {self.byte_offset(attr_begin)}'
                )
            while self.peek() and self.peek() in _SPACES:
                self.pos += 1
            if self.peek() != "=":
                if tag.name == "blockquote" and attr_name == "expandable":
                    tag.argument = "expandable"
                    continue
                raise EntityParseError(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag.name}" '
                    f"at byte offset {self.byte_offset(begin)}"
                )
            self.pos += 1
            while self.peek() and self.peek() in _SPACES:
                self.pos += 1
            if not self.peek():
                raise EntityParseError(
                    f'Unclosed start tag "{tag.name}" at byte offset {self.byte_offset(begin)}'
                )
            value = self.attribute_value()
            if not self.peek():
                raise EntityParseError(f"Unclosed start tag at byte offset {self.byte_offset(begin)}")
            self.apply_attribute(tag, attr_name, value)

    def attribute_value(self) -> str:
        quote = self.peek()
        if quote not in "'\"":
            token_begin = self.pos
            while self.peek() and (self.peek().isalnum() or self.peek() in ".-"):
                self.pos += 1
            if self.peek() and self.peek() not in _SPACES and self.peek() != ">":
                raise EntityParseError(
                    f"Unexpected end of name token at byte offset {self.byte_offset(token_begin)}"
                )
            return _ascii_lower(self.text[token_begin : self.pos])
        self.pos += 1
        chars: list[str] = []
        while self.peek() and self.peek() != quote:
            if self.peek() == "&":
                decoded, end = decode_entity(self.text, self.pos)
                if decoded is not None:
                    chars.append(decoded)
                    self.pos = end
                    continue
            chars.append(self.peek())
            self.pos += 1
        if self.peek() == quote:
            self.pos += 1
        return "".join(chars)

    @staticmethod
    def apply_attribute(tag: _OpenTag, name: str, value: str) -> None:
        if (tag.name == "a" and name == "href") or (tag.name == "tg-emoji" and name == "emoji-id"):
            tag.argument = value
        elif tag.name == "code" and name == "class" and value.startswith("language-"):
            tag.language = value.removeprefix("language-")
        elif tag.name == "span" and name == "class":
            tag.argument = value
        elif tag.name == "blockquote" and name == "expandable":
            tag.argument = "expandable"

    def end_tag(self) -> None:
        begin = self.pos
        if not self.stack:
            raise EntityParseError(f"Unexpected end tag at byte offset {self.byte_offset(begin)}")
        self.pos += 2
        name_begin = self.pos
        while self.peek() and self.peek() not in _SPACES and self.peek() != ">":
            self.pos += 1
        end_name = _ascii_lower(self.text[name_begin : self.pos])
        while self.peek() and self.peek() in _SPACES:
            self.pos += 1
        if self.peek() != ">":
            raise EntityParseError(f"Unclosed end tag at byte offset {self.byte_offset(begin)}")
        self.pos += 1
        tag = self.stack[-1]
        if end_name and end_name != tag.name:
            raise EntityParseError(
                f"Unmatched end tag at byte offset {self.byte_offset(begin)}, "
                f'expected "</{tag.name}>", found "</{end_name}>"'
            )
        self.stack.pop()
        self.close(tag)

    def close(self, tag: _OpenTag) -> None:
        length = self.out_len - tag.begin
        if length <= 0:
            return
        kind = _TAG_TYPES[tag.name]
        if kind is EntityType.CODE and tag.language and self.stack and self.stack[-1].name == "pre":
            self.stack[-1].inner_language = tag.language
            return
        if kind is EntityType.TEXT_LINK:
            if tag.argument:
                self.entities.append(Entity(kind, tag.begin, length, url=tag.argument))
            return
        if kind is EntityType.PRE:
            language = tag.inner_language or None
            self.entities.append(Entity(kind, tag.begin, length, language=language))
            return
        if kind is EntityType.BLOCKQUOTE and tag.argument == "expandable":
            kind = EntityType.EXPANDABLE_BLOCKQUOTE
        if kind is EntityType.CUSTOM_EMOJI:
            self.entities.append(Entity(kind, tag.begin, length, custom_emoji_id=tag.argument))
            return
        self.entities.append(Entity(kind, tag.begin, length))


def decode_entity(text: str, pos: int) -> tuple[str | None, int]:
    """Decode the character reference at text[pos] ("&"); (None, pos) when there is none. ";" is optional."""
    end = pos + 1
    value = 0
    if end < len(text) and text[end] == "#":
        end += 1
        hexadecimal = end < len(text) and text[end] == "x"
        if hexadecimal:
            end += 1
        digits = "0123456789abcdefABCDEF" if hexadecimal else "0123456789"
        start = end
        while end < len(text) and text[end] in digits:
            value = value * (16 if hexadecimal else 10) + int(text[end], 16)
            if value >= _MAX_CODE_POINT:
                return None, pos
            end += 1
        if end == start or value == 0 or 0xD800 <= value <= 0xDFFF:
            return None, pos
        decoded = chr(value)
    else:
        while end < len(text) and text[end].isascii() and text[end].isalpha():
            end += 1
        named = _NAMED_ENTITIES.get(text[pos + 1 : end])
        if named is None:
            return None, pos
        decoded = named
    if end < len(text) and text[end] == ";":
        end += 1
    return decoded, end


def parse_html(text: str, *, strict_ampersand: bool = True) -> tuple[str, list[Entity]]:
    """Parse Telegram HTML into plain text and entities; raise EntityParseError where Telegram would."""
    return _Parser(text, strict_ampersand=strict_ampersand).run()


def strip_text(text: str, entities: list[Entity]) -> tuple[str, list[Entity]]:
    """Trim surrounding whitespace as Telegram does, keeping entities on the characters they covered."""
    lead = len(text) - len(text.lstrip(_SPACES))
    stripped = text.strip(_SPACES)
    end = lead + len(stripped)
    kept: list[Entity] = []
    for entity in entities:
        start = max(entity.offset, lead)
        stop = min(entity.offset + entity.length, end)
        if stop > start:
            kept.append(
                Entity(
                    entity.type,
                    start - lead,
                    stop - start,
                    entity.url,
                    entity.language,
                    entity.custom_emoji_id,
                )
            )
    return stripped, kept
