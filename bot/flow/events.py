"""What a change of a game did that people are told of once (a deal scored, the party over, a seat taken over by
a bot player or taken back, a player who left, «open the bot first»): typed, stored with the change in its one
transaction, and drawn only once it has committed (:mod:`bot.delivery.notices`) — after a crash, from the row.

Each event names whom it is for: the game's chat (``seat`` None) or one seat's private chat."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class DealEnded:
    """Deal number ``deal`` (from 1) was scored (``seat``: that player's own short summary)."""

    kind: ClassVar[str] = "deal_ended"
    deal: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class PartyEnded:
    """The party is over (``seat``: that player's own result, with their place and the rematch)."""

    kind: ClassVar[str] = "party_ended"
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The turn's time ran out and the bot played ``code`` for ``player`` (``seat``: told to that player)."""

    kind: ClassVar[str] = "timed_out"
    player: int
    code: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatReplaced:
    """After missed turns a bot player took over ``player``'s seat, having played ``code`` for them."""

    kind: ClassVar[str] = "seat_replaced"
    player: int
    code: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatBack:
    """``player`` took their seat back from the bot player (``seat``: told to that player, with ``codes``, the moves
    the bot player made for them while they were away)."""

    kind: ClassVar[str] = "seat_back"
    player: int
    seat: int | None = None
    codes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """``player`` left with /leave: a bot player plays for them until they come back."""

    kind: ClassVar[str] = "seat_left"
    player: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class StartBotFirst:
    """The bot cannot write to ``player``: the group is asked to have them open the bot."""

    kind: ClassVar[str] = "start_bot_first"
    player: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class RematchCalled:
    """``player`` asked for a rematch: its lobby opened with the last party's players seated, who are called."""

    kind: ClassVar[str] = "rematch_called"
    player: int
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Abandoned:
    """Nobody moved for ``days`` days: the game was closed (as cancelled: no result counts)."""

    kind: ClassVar[str] = "abandoned"
    days: int
    seat: int | None = None


GameEvent = (
    DealEnded
    | PartyEnded
    | TimedOut
    | SeatReplaced
    | SeatBack
    | SeatLeft
    | StartBotFirst
    | RematchCalled
    | Abandoned
)
KINDS: dict[str, type[GameEvent]] = {
    cls.kind: cls
    for cls in (
        DealEnded,
        PartyEnded,
        TimedOut,
        SeatReplaced,
        SeatBack,
        SeatLeft,
        StartBotFirst,
        RematchCalled,
        Abandoned,
    )
}


def dump_event(event: GameEvent) -> str:
    return json.dumps({"kind": event.kind, **dataclasses.asdict(event)}, separators=(",", ":"))


def load_event(text: str) -> GameEvent:
    """The event of a stored row (ValueError on a row this code cannot read)."""
    data: dict[str, Any] = json.loads(text)
    cls = KINDS.get(data.pop("kind", None))
    if cls is None:
        raise ValueError(f"an unknown event: {text!r}")
    return cls(**data)
