"""Looking ahead and back with «мастер»: the solo «💡 Подсказка» (what the strongest bot player would play now,
and why; nothing is played) and «🔍 Разбор партии» (a finished party's costliest moves of one player). Both are
computed by the thinker's workers; this component only reads the game and returns what to say — the handler has it sent.
"""

from __future__ import annotations

import logging

from bot import views
from bot.flow.commands import Person, ServiceError
from bot.flow.moves import turn_of
from bot.flow.store import Store
from bot.flow.thinker import Thinker, ThinkerUnavailable, decision_seed
from bot.i18n import translator_for
from bot.storage import GameMode, GameStatus

log = logging.getLogger(__name__)


class Hints:
    def __init__(self, store: Store, thinker: Thinker) -> None:
        self.store = store
        self.thinker = thinker

    async def hint(self, game_id: int, person: Person, version: int) -> str:
        """What «мастер» would play in the solo game at ``version`` and why, in one line (asked only by its
        player, on their turn). The choice is seeded by the game and the version, so asking again says the same."""
        match = await self.store.read(game_id)
        if match is None:
            raise ServiceError(views.Answer.NO_GAME)
        if match.game.mode is not GameMode.SOLO and match.seat_of(person.user_id) is not None:
            raise ServiceError(views.Answer.UNKNOWN)  # the button is drawn in solo games only: a forged press
        seat = turn_of(match, person.user_id, version)
        party = match.party
        assert party is not None
        view = party.view_of(seat.seat)
        try:
            advice = await self.thinker.advise(view, decision_seed(party.seed, version))
        except ThinkerUnavailable:
            raise ServiceError(views.Answer.THINKER_DOWN) from None
        log.info("game %s: a hint at move %d", game_id, version)
        return party.hint(seat.seat, advice, translator_for(person.lang))

    async def review(self, game_id: int, person: Person) -> views.Rendered:
        """«🔍 Разбор партии»: ``person``'s moves in the finished game where «мастер» would have gained most,
        computed by a bot players' worker (a second or two). Asked only by a person who played the game."""
        match = await self.store.read(game_id)
        if match is None:
            raise ServiceError(views.Answer.NO_GAME)
        seat = match.seat_of(person.user_id)
        party = match.party
        if seat is None:
            raise ServiceError(views.Answer.NOT_A_PLAYER)
        if match.game.status is not GameStatus.FINISHED or party is None or not party.is_terminal:
            raise ServiceError(views.Answer.STALE)
        if not party.reviewable:
            raise ServiceError(views.Answer.UNKNOWN)  # the button is drawn for games with bot players: forged
        try:
            review = await self.thinker.review(party.record(), seat.seat)
        except ThinkerUnavailable:
            raise ServiceError(views.Answer.THINKER_DOWN) from None
        log.info("game %s: a review of seat %d (%d decisions)", game_id, seat.seat, review.decisions)
        return party.render_review(review, match.frame(), translator_for(person.lang))
