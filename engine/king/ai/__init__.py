"""Кинг's bot players: «новичок» and «любитель» by rule (:mod:`~engine.king.ai.policy`), «мастер» by search
over dealt worlds (:mod:`~engine.king.ai.players`, :mod:`~engine.king.ai.worlds`), its rollouts compiled where
possible (:mod:`~engine.king.ai.kernel`). :data:`PLAYERS` is what the game registers with its engine entry."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.advice import Advice
from engine.ai.levels import Level
from engine.ai.search import SearchModel
from engine.ai.variants import Variant
from engine.king.actions import KingAction
from engine.king.ai import advice, kernel, players, policy
from engine.king.ai.variants import VARIANTS
from engine.king.state import KingView


class KingPlayers:
    """Кинг's bot players (an :class:`engine.ai.players.BotPlayers`)."""

    view_type = KingView

    backend = kernel.BACKEND

    variants: dict[str, Variant] = VARIANTS

    def choose(
        self,
        view: KingView,
        level: Level,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> KingAction:
        if level is Level.EASY:
            return policy.easy_action(view, rng)
        if level is Level.NORMAL:
            return policy.normal_action(view)
        return players.hard_action(view, rng, budget_ms, iterations, steps)

    def choose_baseline(
        self,
        view: KingView,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> KingAction:
        return players.hard_action(view, rng, budget_ms, iterations, steps, master=players.REFERENCE)

    def describe(self, view: KingView, action: KingAction) -> str:
        return players.describe(view, action)

    def advise(self, view: KingView, rng: random.Random) -> Advice:
        return advice.advise(view, rng)

    def review_search(self, view: KingView) -> tuple[Sequence[object], SearchModel]:
        return players.candidates(view), players.KingModel(view)


PLAYERS = KingPlayers()
