"""Drawing a game's notices: a stored event (:mod:`bot.flow.events`) becomes the text its chat reads, from the
game as committed. The one place a notice is rendered — right after the change that caused it, or after a
restart from the stored row."""

from __future__ import annotations

from bot import views
from bot.flow.events import (
    Abandoned,
    DealEnded,
    GameEvent,
    PartyEnded,
    RematchCalled,
    SeatBack,
    SeatLeft,
    SeatReplaced,
    TimedOut,
)
from bot.flow.store import Match
from bot.i18n import Translator, translator_for
from bot.storage import GameMode
from bot.views import Rendered
from bot.views.chats import render_left, render_left_private
from bot.views.common import seat_info, with_history_button, with_review_button, with_sheet_button


def _reader(match: Match, seat: int | None) -> Translator:
    """The language of whom the notice is for: the game's chat, or the person of ``seat``."""
    if seat is None:
        return translator_for(match.game.lang)
    user_id = match.seats[seat].user_id
    user = match.users.get(user_id) if user_id is not None else None
    return translator_for(user.lang if user is not None else match.game.lang)


def _solo_seat(match: Match) -> int:
    """The person's seat in a game against bot players (whose notices read as theirs); 0 in a group's."""
    if match.game.mode is not GameMode.SOLO:
        return 0
    return next((s.seat for s in match.seats if s.user_id is not None and not s.is_bot), 0)


def draw(event: GameEvent, match: Match, bot_username: str) -> Rendered:
    """What ``event`` says to whom it is for, in the game ``match`` as committed."""
    game, party = match.game, match.party
    tr = _reader(match, event.seat)
    if isinstance(event, Abandoned):
        return Rendered(tr.t("notice-abandoned", days=event.days), None)
    if isinstance(event, DealEnded | PartyEnded):
        assert party is not None
        frame = match.frame(bot_username)
        personal = event.seat is not None
        player = event.seat if event.seat is not None else _solo_seat(match)
        if isinstance(event, DealEnded):
            # In short in a player's own chat, with the deal's last moves: the hand of the next deal starts afresh.
            rendered = party.render_deal_end(frame, tr, event.deal, player=player, personal=personal)
            return with_sheet_button(rendered, tr, game.key) if party.has_sheet else rendered
        # Every player of a finished group party may start a rematch, and ask for the review of their own moves;
        # a solo game's chat is the player's own.
        rendered = party.render_party_end(frame, tr, player=player, personal=personal)
        if party.reviewable and (personal or game.mode is not GameMode.GROUP):
            rendered = with_review_button(rendered, tr, game.key)
        return with_history_button(rendered, tr, game.key)  # the final sheet goes out with it
    seat = match.seats[event.player]
    info = seat_info(seat, match.users)
    if isinstance(event, RematchCalled):
        called = [
            (s.user_id, seat_info(s, match.users))
            for s in match.seats
            if s.user_id not in (None, seat.user_id)
        ]
        host = next((seat_info(s, match.users) for s in match.seats if s.user_id == game.creator_id), info)
        return views.render_rematch_called(info, called, host, tr)
    if isinstance(event, TimedOut | SeatReplaced) and event.seat is not None:
        assert party is not None
        played = party.played(event.code, tr)
        if isinstance(event, TimedOut):
            return views.render_timed_out_you(played, tr)
        return views.render_replaced_you(played, game.key, tr)
    if isinstance(event, TimedOut):
        return views.render_timed_out(info, tr)
    if isinstance(event, SeatReplaced):
        return views.render_seat_replaced(info, game.key, tr)
    if isinstance(event, SeatBack) and event.seat is not None:
        assert party is not None
        return views.render_seat_back_you([party.played(code, tr) for code in event.codes], tr)
    if isinstance(event, SeatBack):
        return views.render_seat_back(info, tr)
    if isinstance(event, SeatLeft):
        return (
            render_left_private(game.key, tr) if event.seat is not None else render_left(info, game.key, tr)
        )
    unreachable = views.SeatInfo(seat.name, seat.user_id, is_reachable=False)
    return views.render_start_bot(unreachable, game.key, bot_username, tr)
