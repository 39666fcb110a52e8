"""What the views get from a stored game: each seat as the views see it, a seat's name in an answer, the
frame of a party's messages, the translator for a language."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.flow.store import Match
from bot.games.base import Frame
from bot.i18n import Translator, locale_for, translator
from bot.storage import GameMode, SeatRow, UserRow
from bot.views import SeatInfo
from bot.views.common import bot_name
from bot.views.models import number_bots
from engine.ai import Level


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
        return seat.name
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
