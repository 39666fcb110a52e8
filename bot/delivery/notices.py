"""A game's notices: who is told of each event people are told of (:func:`addressed`, worked out with the change
and stored in its transaction), and what each reads (:func:`draw_notice`, drawn from the game as committed —
right after the change, or after a restart from the stored row)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from bot import views
from bot.games.base import drawn
from bot.i18n import Translator, translator_for
from bot.model.game import (
    Abandoned,
    DealEnded,
    Event,
    Game,
    GameMode,
    PartyEnded,
    RematchCalled,
    SeatBack,
    SeatLeft,
    SeatReplaced,
    StartBotFirst,
    TimedOut,
    Told,
    is_told,
)
from bot.ratings import skill
from bot.views import Rendered, SeatInfo, ratings
from bot.views.chats import render_left, render_left_private
from bot.views.common import (
    seat_info,
    table_frame,
    with_history_button,
    with_player_page_button,
    with_review_button,
    with_sheet_button,
)


@dataclass(frozen=True, slots=True)
class Addressed:
    """An event to tell one chat: the game's (``seat`` None), or the private chat of ``seat``'s person."""

    chat_id: int
    thread_id: int
    event: Told
    seat: int | None


def addressed(game: Game, events: Iterable[Event]) -> list[Addressed]:
    """Whom each told event of a change goes to, in the game as the change left it: a group's chat and each of its
    players the bot may write to (a deal's scoring, the party's end), the player a seat is about (a missed turn, a
    seat taken back or left), or the game's own chat (a solo game: its player's)."""
    found: list[Addressed] = []
    group = game.mode is GameMode.GROUP

    def to_chat(event: Told) -> None:
        found.append(Addressed(game.chat_id, game.thread_id, event, None))

    def to_seat(event: Told, seat: int) -> None:
        user_id = game.seats[seat].user_id
        assert user_id is not None, "a notice to a bot player's seat"
        found.append(Addressed(user_id, 0, event, seat))

    for event in events:
        if not is_told(event):
            continue
        assert isinstance(event, Told)
        if isinstance(event, DealEnded | PartyEnded):
            to_chat(event)
            if group:
                for seat in game.seats:
                    if game.reachable(seat):
                        to_seat(event, seat.seat)
        elif isinstance(event, TimedOut | SeatReplaced):
            if group:  # said once in the group, where the paced table may never show the marked move
                to_chat(event)
                if game.reachable(game.seats[event.player]):
                    to_seat(event, event.player)
        elif isinstance(event, SeatBack):
            if group:
                to_chat(event)
            to_seat(event, event.player)
        elif isinstance(event, SeatLeft):
            to_chat(event)
            to_seat(event, event.player)
        else:
            to_chat(event)
    return found


def _reader(game: Game, seat: int | None) -> Translator:
    """The language of whom the notice is for: the game's chat, or the person of ``seat``."""
    if seat is None:
        return translator_for(game.lang)
    user = game.user_of(game.seats[seat])
    return translator_for(user.lang if user is not None else game.lang)


def _solo_seat(game: Game) -> int:
    """The person's seat in a game against bot players (whose notices read as theirs); 0 in a group's."""
    if game.mode is not GameMode.SOLO:
        return 0
    return next((s.seat for s in game.seats if s.user_id is not None), 0)


def _feats(event: PartyEnded, seat: int | None, game: Game) -> list[tuple[SeatInfo | None, str]]:
    """The achievements a party's end tells in a chat: a person's own in their chat (a solo game's is its
    player's), everyone's in the group's, by name."""
    mine = seat if seat is not None else (_solo_seat(game) if game.mode is GameMode.SOLO else None)
    if mine is not None:
        return [(None, code) for earner, code in event.earned if earner == mine]
    return [(seat_info(game.seats[earner], game.users), code) for earner, code in event.earned]


def _rated(end: PartyEnded, game: Game, seat: int | None, tr: Translator) -> str:
    """The ratings under a party's result: the reader's own in their chat (a solo game's too), everyone's in a
    group's (empty: the party was not rated)."""
    changes = skill.changes_of(end, game)
    own = seat if seat is not None else (_solo_seat(game) if game.mode is GameMode.SOLO else None)
    if own is not None:
        changes = [r for r in changes if r.seat == own]
    if not changes:
        return ""
    shown = [ratings.Change(game.seats[r.seat].name, r.after.mu, r.after.sigma, r.change) for r in changes]
    return ratings.render_changes(shown, tr, yours=own is not None)


def draw_notice(event: Told, seat: int | None, game: Game, bot_username: str) -> Rendered:
    """What ``event`` says to whom it is for (``seat``'s person, or the game's chat), in ``game`` as committed."""
    party = drawn(game.party) if game.party is not None else None
    tr = _reader(game, seat)
    if isinstance(event, Abandoned):
        return Rendered(tr.t("notice-abandoned", days=event.days), None)
    if isinstance(event, DealEnded | PartyEnded):
        assert party is not None
        frame = table_frame(game, bot_username)
        personal = seat is not None
        player = seat if seat is not None else _solo_seat(game)
        if isinstance(event, DealEnded):
            # In short in a player's own chat, with the deal's last moves: the hand of the next deal starts afresh.
            rendered = party.render_deal_end(frame, tr, event.deal, player=player, personal=personal)
            return with_sheet_button(rendered, tr, game.key) if party.has_sheet else rendered
        # Every player of a finished group party may start a rematch, and ask for the review of their own moves;
        # a solo game's chat is the player's own.
        rendered = party.render_party_end(frame, tr, player=player, personal=personal)
        rated = _rated(event, game, seat, tr)
        if rated:
            rendered = dataclasses.replace(rendered, text=f"{rendered.text}\n\n{rated}")
        rendered = views.with_feats(rendered, _feats(event, seat, game), tr)
        if personal or game.mode is GameMode.SOLO:  # the player's own chat: their page is a tap away
            rendered = with_player_page_button(rendered, tr)
        if party.reviewable and (personal or game.mode is not GameMode.GROUP):
            rendered = with_review_button(rendered, tr, game.key)
        return with_history_button(rendered, tr, game.key)  # the final sheet goes out with it
    about = game.seats[event.player]
    info = seat_info(about, game.users)
    if isinstance(event, RematchCalled):
        called = [
            (s.user_id, seat_info(s, game.users))
            for s in game.seats
            if s.user_id not in (None, about.user_id)
        ]
        host = next((seat_info(s, game.users) for s in game.seats if s.user_id == game.creator_id), info)
        return views.render_rematch_called(info, called, host, tr)
    if isinstance(event, TimedOut | SeatReplaced) and seat is not None:
        assert party is not None
        played = party.played(event.code, tr)
        if isinstance(event, TimedOut):
            return views.render_timed_out_you(played, tr)
        return views.render_replaced_you(played, game.key, tr)
    if isinstance(event, TimedOut):
        return views.render_timed_out(info, tr)
    if isinstance(event, SeatReplaced):
        return views.render_seat_replaced(info, game.key, tr)
    if isinstance(event, SeatBack) and seat is not None:
        assert party is not None
        return views.render_seat_back_you([party.played(code, tr) for code in event.codes], tr)
    if isinstance(event, SeatBack):
        return views.render_seat_back(info, tr)
    if isinstance(event, SeatLeft):
        return render_left_private(game.key, tr) if seat is not None else render_left(info, game.key, tr)
    assert isinstance(event, StartBotFirst)
    unreachable = views.SeatInfo(about.name, about.user_id, is_reachable=False)
    return views.render_start_bot(unreachable, game.key, bot_username, tr)
