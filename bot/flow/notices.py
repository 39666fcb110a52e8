"""Who is told what a change did: the game's events (:mod:`bot.flow.events`) addressed to the group and to each
player concerned, stored with the change (:meth:`Unit.tell`). Nothing is drawn here: delivery draws a notice
once the change has committed (:mod:`bot.delivery.notices`)."""

from __future__ import annotations

from bot.flow.events import DealEnded, PartyEnded, SeatReplaced, TimedOut
from bot.flow.store import Match, Unit
from bot.games.base import Party
from bot.storage import GameMode, Notice


def reachable(match: Match, seat: int) -> bool:
    """Whether the person of ``seat`` can be written to (a bot player's seat: no)."""
    user_id = match.seats[seat].user_id
    user = match.users.get(user_id) if user_id is not None else None
    return user is not None and user.reachable


def tell_results(unit: Unit, before: Party, after: Party) -> list[Notice]:
    """The scoring of every deal that ended with this move, and the party's end if it did (the last deal's
    scoring folded into it: one message for one event); in a group each player's own chat gets them too."""
    match = unit.match
    group = match.game.mode is GameMode.GROUP
    players = [s.seat for s in match.seats if reachable(match, s.seat)] if group else []
    notices: list[Notice] = []
    last = after.deals_completed - 1 if after.is_terminal else after.deals_completed
    for deal in range(before.deals_completed + 1, last + 1):
        notices.append(unit.tell(DealEnded(deal)))
        notices += [unit.tell(DealEnded(deal, seat)) for seat in players]
    if after.is_terminal:
        notices.append(unit.tell(PartyEnded()))
        notices += [unit.tell(PartyEnded(seat)) for seat in players]
    return notices


def tell_missed_turn(unit: Unit, seat: int, code: str, *, replaced: bool) -> list[Notice]:
    """The group hears that the timer played for ``seat`` (and whether a bot player took the seat over); the
    player's own chat hears which card, with the button that takes the seat back."""
    event = SeatReplaced if replaced else TimedOut
    notices = [unit.tell(event(seat, code))]
    if reachable(unit.match, seat):
        notices.append(unit.tell(event(seat, code, seat)))
    return notices
