"""Кончинка actions: lay a card, capture with it, or finish the party («прикончить»), with compact codes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from engine.cards import FULL_DECK, Card
from engine.core import CommonIllegal, IllegalActionError


def _malformed(code: str) -> IllegalActionError:
    return IllegalActionError(CommonIllegal.MALFORMED, f"not a Кончинка action: {code!r}", code=code)


def _parse_card(text: str, code: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise _malformed(code) from None


@dataclass(frozen=True, slots=True)
class Lay:
    """Put a card from the hand on the table («положить»). Code ``l:Td``."""

    card: Card

    PREFIX: ClassVar[str] = "l"

    @property
    def code(self) -> str:
        return "l:" + self.card.code

    @classmethod
    def parse(cls, code: str) -> Lay:
        kind, _, rest = code.partition(":")
        if kind != cls.PREFIX or len(rest) != 2:
            raise _malformed(code)
        return LAYS[_parse_card(rest, code).index]


@dataclass(frozen=True, slots=True)
class Capture:
    """Take table cards with a card from the hand. Code ``c:Td:7d3s`` (groups separated by ``.``).

    ``groups`` holds one group normally, several only with ``multi_capture``; a classic jack sweep is one group,
    the whole table. Cards inside a group are ordered by index.

    ``finish``: «взять … и прикончить» — the capture and the early finish as one action (code ``c:Td:7d3s:f``),
    offered only when the finish is valid right after the capture (see ``KonchinkaState.can_finish``).
    """

    card: Card
    groups: tuple[tuple[Card, ...], ...]
    finish: bool = False

    PREFIX: ClassVar[str] = "c"

    @property
    def taken(self) -> tuple[Card, ...]:
        """Every table card taken, flattened (group by group)."""
        return tuple(card for group in self.groups for card in group)

    @property
    def code(self) -> str:
        text = f"c:{self.card.code}:" + ".".join("".join(c.code for c in group) for group in self.groups)
        return text + ":f" if self.finish else text

    @property
    def capture(self) -> Capture:
        """The capture alone, without the finish."""
        return Capture(self.card, self.groups) if self.finish else self

    @classmethod
    def parse(cls, code: str) -> Capture:
        parts = code.split(":")
        finish = len(parts) == 4 and parts[3] == Finish.PREFIX
        if finish:
            parts.pop()
        if len(parts) != 3 or parts[0] != cls.PREFIX or len(parts[1]) != 2 or not parts[2]:
            raise _malformed(code)
        groups = []
        for text in parts[2].split("."):
            if not text or len(text) % 2:
                raise _malformed(code)
            groups.append(tuple(_parse_card(text[i : i + 2], code) for i in range(0, len(text), 2)))
        return cls(_parse_card(parts[1], code), tuple(groups), finish)


@dataclass(frozen=True, slots=True)
class Finish:
    """«Прикончить»: end the party now as its winner (offered only when the secured points allow). Code ``f``."""

    PREFIX: ClassVar[str] = "f"

    @property
    def code(self) -> str:
        return "f"

    @classmethod
    def parse(cls, code: str) -> Finish:
        if code != cls.PREFIX:
            raise _malformed(code)
        return FINISH


KonchinkaAction = Lay | Capture | Finish

LAYS: Final[tuple[Lay, ...]] = tuple(Lay(card) for card in FULL_DECK)
FINISH: Final = Finish()


def ends_party(action: KonchinkaAction) -> bool:
    """Whether ``action`` finishes the party early: «прикончить» alone, or «взять … и прикончить»."""
    return type(action) is Finish or (type(action) is Capture and action.finish)


def parse_action(code: str) -> KonchinkaAction:
    """The action with this code; IllegalActionError(MALFORMED) for anything else."""
    if not isinstance(code, str):
        raise _malformed(repr(code))
    kind = code[:1]
    if kind == Lay.PREFIX:
        return Lay.parse(code)
    if kind == Capture.PREFIX:
        return Capture.parse(code)
    if kind == Finish.PREFIX:
        return Finish.parse(code)
    raise _malformed(code)
