"""Looking without moving: the whole table in a player's private chat («📋 Стол», /score there), the solo
hint («💡 Подсказка»: what the strongest bot player would play now, and why; nothing is played) and the review
of a finished party («🔍 Разбор партии»: one's own costliest moves, privately).
"""

from __future__ import annotations

import logging

from bot import views  # first: its lobby view imports the plug-ins
from bot.games.base import Frame
from bot.services.config import Person
from bot.services.errors import ServiceError
from bot.services.publisher import plain_name, seat_info, tr_for
from bot.services.store import Match, Store
from bot.services.thinker import Thinker, decision_seed
from bot.storage import GameMode, GameStatus, repo
from bot.views.models import number_bots
from engine.core import CommonIllegal

log = logging.getLogger(__name__)

SHOWN = (GameStatus.PLAYING, GameStatus.FINISHED)
"""A game whose table can be looked at (a lobby has none; a cancelled game is gone)."""


def table_slot(game_id: int, user_id: int) -> str:
    """The one private copy of a game's whole table a player keeps: sent anew below on each look."""
    return f"v{game_id}:{user_id}"


def frame_of(match: Match) -> Frame:
    """The frame of a private look at the table: no «🃏 Мои карты» link (the reader is in that chat)."""
    return Frame(
        game_id=match.game.key,
        seats=number_bots(seat_info(s, match.users) for s in match.seats),
        bot_username="",
        solo=match.game.mode is GameMode.SOLO,
    )


def _table(match: Match, user_id: int) -> views.Rendered:
    seat = match.seat_of(user_id)
    party = match.party
    if seat is None:
        raise ServiceError(views.Answer.NOT_A_PLAYER)
    if party is None or match.game.status not in SHOWN:
        raise ServiceError(views.Answer.NO_GAME)
    user = match.users.get(user_id)
    tr = tr_for(user.lang if user is not None else match.game.lang)
    return party.render_table(frame_of(match), tr, seat.seat)


class Peeks:
    def __init__(self, store: Store, thinker: Thinker) -> None:
        self.store = store
        self.thinker = thinker

    async def table(self, game_id: int, person: Person) -> views.Rendered:
        """The whole table of ``game_id`` as its player ``person`` sees it (others are refused)."""
        async with self.store.mutate(game_id) as unit:
            match = unit.match
        return _table(match, person.user_id)

    async def tables_of(self, person: Person) -> list[tuple[int, views.Rendered]]:
        """Every running game ``person`` plays in (group games and their solo game), with its whole table."""
        async with self.store.db.tx() as tx:
            games = await repo.games_of_user(tx, person.user_id, (GameStatus.PLAYING,))
        tables: list[tuple[int, views.Rendered]] = []
        for game in games:
            try:
                tables.append((game.id, await self.table(game.id, person)))
            except ServiceError:
                continue  # it ended meanwhile
        return tables

    async def hint(self, game_id: int, person: Person, version: int) -> str:
        """What «мастер» would play in the solo game at ``version``, in one line (asked only by its player,
        on their turn). The choice is seeded by the game and the version, so asking again says the same."""
        async with self.store.mutate(game_id) as unit:
            match = unit.match
        seat = match.seat_of(person.user_id)
        party = match.party
        if seat is None:
            raise ServiceError(views.Answer.NOT_A_PLAYER)
        if match.game.mode is not GameMode.SOLO:
            raise ServiceError(views.Answer.UNKNOWN)  # the button is drawn in solo games only: a forged press
        if match.game.status is not GameStatus.PLAYING or party is None or party.is_terminal:
            raise ServiceError(views.Answer.STALE)
        if party.version != version:
            raise ServiceError(views.Answer.STALE)
        if party.current_player != seat.seat:
            current = match.seats[party.current_player]
            raise ServiceError(CommonIllegal.NOT_YOUR_TURN, name=plain_name(current, match.game.lang))
        view = party.view_of(seat.seat)
        advice = await self.thinker.advise(view, decision_seed(party.seed, version))
        log.info("game %s: a hint at move %d", game_id, version)
        return party.hint(seat.seat, advice, tr_for(person.lang))

    async def review(self, game_id: int, person: Person) -> views.Rendered:
        """«🔍 Разбор партии»: ``person``'s moves in the finished game where «мастер» would have gained most,
        computed by a bot players' worker (a second or two). Asked only by a person who played the game."""
        async with self.store.mutate(game_id) as unit:
            match = unit.match
        seat = match.seat_of(person.user_id)
        party = match.party
        if seat is None:
            raise ServiceError(views.Answer.NOT_A_PLAYER)
        if match.game.status is not GameStatus.FINISHED or party is None or not party.is_terminal:
            raise ServiceError(views.Answer.STALE)
        review = await self.thinker.review(party.record(), seat.seat)
        log.info("game %s: a review of seat %d (%d decisions)", game_id, seat.seat, review.decisions)
        return party.render_review(review, frame_of(match), tr_for(person.lang))
