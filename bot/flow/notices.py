"""The one-off messages a change stores in its own transaction — a deal's scoring, the party's end, a seat a bot
player took over or its player took back, «start the bot» —, posted by the façade once the change committed.
The rooms write them here; only the façade talks to the publisher."""

from __future__ import annotations

from bot import views
from bot.flow.store import Match, Unit
from bot.flow.tables import frame_of, seat_info, tr_for
from bot.games.base import Party
from bot.storage import GameMode, GameRow, Notice, SeatRow, UserRow
from bot.views import Rendered, SeatInfo
from bot.views.common import with_review_button


class Notices:
    def __init__(self, bot_username: str) -> None:
        self.bot_username = bot_username

    @staticmethod
    def _store(unit: Unit, game: GameRow, rendered: Rendered, *, private_to: int | None = None) -> Notice:
        """A notice to the game's chat (or to one person's private chat), stored with ``unit``'s change."""
        if private_to is not None:
            return unit.notice(rendered, private_to)
        return unit.notice(rendered, game.chat_id, game.thread_id)

    def start_bot(self, unit: Unit, game: GameRow, seat: SeatRow) -> Notice:
        """In the group: this person must open the bot before the game can write to them."""
        info = SeatInfo(seat.name, seat.user_id, is_reachable=False)
        rendered = views.render_start_bot(info, game.key, self.bot_username, tr_for(game.lang))
        return self._store(unit, game, rendered)

    def replaced(self, unit: Unit, match: Match, seat: SeatRow, after: Party, code: str) -> list[Notice]:
        """The group hears that a bot player took the seat over; the player's own chat too, with the card the
        timer played and the button that takes the seat back."""
        rendered = views.render_seat_replaced(
            seat_info(seat, match.users), match.game.key, tr_for(match.game.lang)
        )
        notices = [self._store(unit, match.game, rendered)]
        user = match.users.get(seat.user_id) if seat.user_id is not None else None
        if user is not None and user.reachable:
            tr = tr_for(user.lang)
            mine = views.render_replaced_you(after.played(code, tr), match.game.key, tr)
            notices.append(self._store(unit, match.game, mine, private_to=user.user_id))
        return notices

    def timed_out(self, unit: Unit, match: Match, seat: SeatRow, after: Party, code: str) -> list[Notice]:
        """The group hears that the timer played for this seat; the player's own chat hears which card."""
        rendered = views.render_timed_out(seat_info(seat, match.users), tr_for(match.game.lang))
        notices = [self._store(unit, match.game, rendered)]
        user = match.users.get(seat.user_id) if seat.user_id is not None else None
        if user is not None and user.reachable:
            tr = tr_for(user.lang)
            mine = views.render_timed_out_you(after.played(code, tr), tr)
            notices.append(self._store(unit, match.game, mine, private_to=user.user_id))
        return notices

    def seat_back(self, unit: Unit, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_seat_back(seat_info(seat, match.users), tr_for(match.game.lang))
        return self._store(unit, match.game, rendered)

    @staticmethod
    def _players(match: Match) -> list[tuple[SeatRow, UserRow]]:
        """The seats of people the bot can write to, with their users."""
        found = []
        for seat in match.seats:
            user = match.users.get(seat.user_id) if seat.user_id is not None else None
            if user is not None and user.reachable:
                found.append((seat, user))
        return found

    def results(self, unit: Unit, match: Match, before: Party, after: Party) -> list[Notice]:
        """The scoring of every deal that ended with this move, and the party's end if it did (the last deal's
        scoring in it); each player's own chat gets their place with the party's end."""
        game = match.game
        tr = tr_for(game.lang)
        frame = frame_of(match, self.bot_username)
        notices: list[Notice] = []
        # The last deal's result is folded into the party's end: one message for one event.
        last = after.deals_completed - 1 if after.is_terminal else after.deals_completed
        for deal in range(before.deals_completed, last):
            notices.append(self._store(unit, game, after.render_deal_end(frame, tr, deal + 1)))
            if game.mode is GameMode.GROUP:
                for seat, user in self._players(match):
                    # In short, with the deal's last moves: the hand of the next deal starts afresh.
                    rendered = after.render_deal_end(
                        frame, tr_for(user.lang), deal + 1, player=seat.seat, personal=True
                    )
                    notices.append(self._store(unit, game, rendered, private_to=user.user_id))
        if not after.is_terminal:
            return notices
        if game.mode is not GameMode.GROUP:
            # A solo game's chat is the player's: the end is theirs, with their moves' review on request.
            rendered = after.render_party_end(frame, tr)
            if after.reviewable:
                rendered = with_review_button(rendered, tr, game.key)
            notices.append(self._store(unit, game, rendered))
            return notices
        notices.append(self._store(unit, game, after.render_party_end(frame, tr)))
        for seat, user in self._players(match):
            # Every player of a finished party may start a rematch (the rule of ``Lobby.rematch``), and ask
            # for the review of their own moves.
            user_tr = tr_for(user.lang)
            rendered = after.render_party_end(frame, user_tr, player=seat.seat, rematch=True, personal=True)
            if after.reviewable:
                rendered = with_review_button(rendered, user_tr, game.key)
            notices.append(self._store(unit, game, rendered, private_to=user.user_id))
        return notices
