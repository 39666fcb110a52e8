"""Кончинка's bot players: «новичок» and «любитель» by rule (:mod:`~engine.konchinka.ai.policy`), «мастер» by search
over dealt worlds (:mod:`~engine.konchinka.ai.players`), its rollouts compiled where
possible (:mod:`~engine.konchinka.ai.kernel`). :data:`PLAYERS` is what the game registers with its engine entry."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai.advice import Advice
from engine.ai.levels import Level
from engine.ai.search import SearchModel
from engine.ai.variants import Variant
from engine.konchinka.actions import KonchinkaAction
from engine.konchinka.ai import advice, kernel, players, policy
from engine.konchinka.ai.variants import VARIANTS
from engine.konchinka.views import KonchinkaView


class KonchinkaPlayers:
    """Кончинка's bot players (an :class:`engine.ai.players.BotPlayers`)."""

    view_type = KonchinkaView

    backend = kernel.BACKEND

    variants: dict[str, Variant] = VARIANTS

    def choose(
        self,
        view: KonchinkaView,
        level: Level,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> KonchinkaAction:
        if level is Level.EASY:
            return policy.easy_action(view, rng)
        if level is Level.NORMAL:
            return policy.normal_action(view)
        return players.hard_action(view, rng, budget_ms, iterations, steps)

    def choose_baseline(
        self,
        view: KonchinkaView,
        rng: random.Random,
        *,
        budget_ms: float | None,
        iterations: int | None,
        steps: int | None,
    ) -> KonchinkaAction:
        return players.hard_action(view, rng, budget_ms, iterations, steps, master=players.BASELINE)

    def describe(self, view: KonchinkaView, action: KonchinkaAction) -> str:
        return players.describe(view, action)

    def advise(self, view: KonchinkaView, rng: random.Random) -> Advice:
        return advice.advise(view, rng)

    def review_search(self, view: KonchinkaView) -> tuple[Sequence[object], SearchModel]:
        return players.candidates(view), players.KonchinkaModel(view)


PLAYERS = KonchinkaPlayers()
