"""Кинг's own achievements, read from a finished party: the negative deals got through without a penalty."""

from __future__ import annotations

from typing import Final

from engine.core import Player, State
from engine.king import NEGATIVE_DEALS, Contract, KingAction, KingView

CLEAN_ERALASH: Final = "king-clean-eralash"
"""«Ералаш» — every penalty at once, 96 points — taken without a single one: not one trick."""
CLEAN_NEGATIVES: Final = "king-clean-negatives"
"""All seven negative deals of the party without a penalty trick or card."""

FEATS: Final = (CLEAN_ERALASH, CLEAN_NEGATIVES)


def feats_in(state: State[KingAction, KingView], player: Player) -> tuple[str, ...]:
    """Which of :data:`FEATS` ``player`` earned in the finished party ``state``."""
    view = state.view(player)
    negatives = view.score_sheet[:NEGATIVE_DEALS]
    if len(negatives) < NEGATIVE_DEALS:
        return ()
    found: list[str] = []
    eralash = view.options.order.index(Contract.ERALASH)
    if negatives[eralash][player] == 0:
        found.append(CLEAN_ERALASH)
    if all(row[player] == 0 for row in negatives):
        found.append(CLEAN_NEGATIVES)
    return tuple(found)
