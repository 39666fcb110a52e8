"""The one-off messages a change stores in its own transaction — a deal's scoring, the party's end, a seat a bot
player took over or its player took back, «start the bot» —, posted by the façade once the change committed.
The rooms write them here; only the façade talks to the publisher."""

from __future__ import annotations

from bot import views
from bot.games.base import Party
from bot.services.store import Match, Unit
from bot.services.tables import frame_of, seat_info, tr_for
from bot.storage import GameMode, GameRow, Notice, SeatRow
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

    def replaced(self, unit: Unit, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_seat_replaced(
            seat_info(seat, match.users), match.game.key, tr_for(match.game.lang)
        )
        return self._store(unit, match.game, rendered)

    def timed_out(self, unit: Unit, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_timed_out(seat_info(seat, match.users), tr_for(match.game.lang))
        return self._store(unit, match.game, rendered)

    def seat_back(self, unit: Unit, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_seat_back(seat_info(seat, match.users), tr_for(match.game.lang))
        return self._store(unit, match.game, rendered)

    def results(self, unit: Unit, match: Match, before: Party, after: Party) -> list[Notice]:
        """The scoring of every deal that ended with this move, and the party's end if it did."""
        game = match.game
        tr = tr_for(game.lang)
        frame = frame_of(match, self.bot_username)
        notices: list[Notice] = []
        for deal in range(before.deals_completed, after.deals_completed):
            notices.append(self._store(unit, game, after.render_deal_end(frame, tr, deal + 1)))
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
        for seat in match.seats:
            user = match.users.get(seat.user_id) if seat.user_id is not None else None
            if user is None or not user.reachable:
                continue
            # Every player of a finished party may start a rematch (the rule of ``Lobby.rematch``), and ask
            # for the review of their own moves.
            user_tr = tr_for(user.lang)
            rendered = after.render_party_end(frame, user_tr, player=seat.seat, rematch=True)
            if after.reviewable:
                rendered = with_review_button(rendered, user_tr, game.key)
            notices.append(self._store(unit, game, rendered, private_to=user.user_id))
        return notices
