"""«💡 Подсказка» in a solo game: what the strongest bot player would play now, and why (nothing is played)."""

from __future__ import annotations

import logging
from typing import Final

from bot import views
from bot.services.config import Person
from bot.services.errors import ServiceError
from bot.services.moves import turn_of
from bot.services.store import Store
from bot.services.tables import tr_for
from bot.services.thinker import Thinker, decision_seed
from bot.storage import GameMode
from engine.ai import Level

log = logging.getLogger(__name__)

HINT_LEVEL: Final = Level.HARD
"""The hint shows what «мастер» would play."""


class Hints:
    def __init__(self, store: Store, thinker: Thinker) -> None:
        self.store = store
        self.thinker = thinker

    async def hint(self, game_id: int, person: Person, version: int) -> str:
        """What «мастер» would play in the solo game at ``version``, in one line (asked only by its player,
        on their turn). The choice is seeded by the game and the version, so asking again says the same."""
        match = await self.store.read(game_id)
        if match is None:
            raise ServiceError(views.Answer.NO_GAME)
        if match.game.mode is not GameMode.SOLO and match.seat_of(person.user_id) is not None:
            raise ServiceError(views.Answer.UNKNOWN)  # the button is drawn in solo games only: a forged press
        seat = turn_of(match, person.user_id, version)
        party = match.party
        assert party is not None
        view = party.view_of(seat.seat)
        action = await self.thinker.choose(view, HINT_LEVEL, decision_seed(party.seed, version))
        log.info("game %s: a hint at move %d", game_id, version)
        return party.hint(seat.seat, action, tr_for(person.lang))
