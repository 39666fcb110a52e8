"""The games in play as the flow and its drawing see them: one game (:class:`Match`: its row, seats, people and
party), the per-game locks, the cache of games as last committed, and what the views get from a game (each
seat as the views see it, a seat's name in an answer, the frame of a party's messages)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Final

from bot.clock import Clock
from bot.games import AnyPlugin, plugin_of
from bot.games.base import Frame, Party
from bot.i18n import Translator, locale_for, translator
from bot.storage import GameMode, GameRow, GameStatus, SeatRow, UserRow
from bot.views import SeatInfo
from bot.views.common import bot_name, isolated, number_bots
from engine.ai import Level

GAMES_CACHED: Final = 1000
"""At most this many games stay in memory (the most recently used)."""
GAME_IDLE: Final = 3600.0
"""A game untouched for this long (seconds of the bot's clock) leaves memory; the next change reads it again."""


@dataclass(slots=True)
class Match:
    """One game as the flow and its drawing see it: its rows, its plug-in and (once dealt) its party."""

    game: GameRow
    seats: list[SeatRow]
    users: dict[int, UserRow]
    party: Party | None

    @property
    def plugin(self) -> AnyPlugin:
        return plugin_of(self.game.kind)

    @property
    def timed(self) -> bool:
        """Whether anything in this game may fall due by itself: an open lobby's expiry, a turn's time limit, a
        bot player's move. A game that is not timed needs no timer until a change makes it so."""
        game, party = self.game, self.party
        if game.status is GameStatus.LOBBY:
            return game.expires_at is not None
        if game.status is not GameStatus.PLAYING or party is None or party.is_terminal:
            return False
        return game.deadline is not None or self.seats[party.current_player].bot_plays

    def seat_of(self, user_id: int) -> SeatRow | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def copy(self) -> Match:
        """A copy to change (rows and party are immutable: the lists that hold them are copied)."""
        return Match(self.game, list(self.seats), dict(self.users), self.party)


@dataclass(slots=True)
class _Entry:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """Holders and waiters: the entry goes when the last one leaves."""


class GameLocks:
    """``async with locks[game_id]:`` — one lock per game, kept only while in use."""

    def __init__(self) -> None:
        self._entries: dict[int, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, game_id: int) -> _Held:
        return _Held(self._entries, game_id)


class _Held:
    def __init__(self, entries: dict[int, _Entry], game_id: int) -> None:
        self._entries = entries
        self._game_id = game_id

    async def __aenter__(self) -> None:
        entry = self._entries.get(self._game_id)
        if entry is None:
            entry = self._entries[self._game_id] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        entry = self._entries[self._game_id]
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0 and self._entries.get(self._game_id) is entry:
            del self._entries[self._game_id]


class GameCache:
    """Active games by id, as last committed: the most recently used, untouched for less than ``idle``."""

    def __init__(self, clock: Clock, limit: int = GAMES_CACHED, idle: float = GAME_IDLE) -> None:
        self._clock = clock
        self._limit = limit
        self._idle = idle
        self._games: OrderedDict[int, tuple[Match, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def get(self, game_id: int) -> Match | None:
        found = self._games.get(game_id)
        if found is None:
            return None
        self._games[game_id] = (found[0], self._clock.now())
        self._games.move_to_end(game_id)
        return found[0]

    def put(self, match: Match) -> None:
        """Keep ``match`` (an active game); a game that is over leaves."""
        game_id = match.game.id
        if not match.game.status.is_active:
            self._games.pop(game_id, None)
            return
        self._games[game_id] = (match, self._clock.now())
        self._games.move_to_end(game_id)
        oldest = self._clock.now() - self._idle
        while self._games:
            first, (_, touched) = next(iter(self._games.items()))
            if len(self._games) <= self._limit and touched > oldest:
                break
            del self._games[first]

    def pop(self, game_id: int) -> None:
        self._games.pop(game_id, None)

    def matches(self) -> list[Match]:
        return [match for match, _ in self._games.values()]


# --- what the views get from a game ---------------------------------------------------------------------------


def tr_for(lang: str | None) -> Translator:
    return translator(locale_for(lang))


def seat_info(seat: SeatRow, users: Mapping[int, UserRow]) -> SeatInfo:
    user = users.get(seat.user_id) if seat.user_id is not None else None
    return SeatInfo(
        name=seat.name,
        user_id=seat.user_id,
        is_bot=seat.is_bot,
        level=seat.bot_level,
        is_reachable=user.reachable if user is not None else seat.is_bot,
        is_replaced=seat.replaced,
    )


def plain_name(seat: SeatRow, lang: str, seats: Iterable[SeatRow] = ()) -> str:
    """A seat's name as an answer names it (an unnamed bot player: its level's name, numbered as at the table
    when ``seats`` are given)."""
    if seat.name:
        return isolated(seat.name)
    numbered = number_bots(seat_info(s, {}) for s in seats)
    number = numbered[seat.seat].number if seat.seat < len(numbered) else 0
    return bot_name(seat.bot_level or Level.NORMAL, number, tr_for(lang))


def frame_of(match: Match, bot_username: str, *, turn_seconds: int = 0, timer_move: bool = False) -> Frame:
    """The frame of the game's messages: its seats numbered, the limit per turn, whether the timer made the last
    move (``bot_username`` empty: no «🃏 Мои карты» link, for a look from the private chat itself)."""
    return Frame(
        game_id=match.game.key,
        seats=number_bots(seat_info(s, match.users) for s in match.seats),
        bot_username=bot_username,
        solo=match.game.mode is GameMode.SOLO,
        turn_seconds=turn_seconds,
        auto_move=timer_move,
    )
