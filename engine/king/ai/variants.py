"""Кинг: variants of «любитель» for the arena's panel (:mod:`engine.ai.variants`), each one rule of the normal
policy (:mod:`engine.king.ai.policy`) changed the way people play; every other position is played by it."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.ai.variants import Variant
from engine.cards import Card
from engine.king.actions import PLAYS, KingAction
from engine.king.ai.policy import Table, normal_action, pick_card, table_from_view
from engine.king.rules import Phase, beats, winning_play
from engine.king.state import KingView


def _cautious(t: Table) -> Card | None:
    """Negative deals: when every card it can follow with beats the trick, it plays its lowest, hoping a later
    card beats it (the normal player, last or when the trick costs nothing, wins with the card it least wants)."""
    if t.contract is None or not t.trick:
        return None
    led = t.trick[0][1].suit
    best = winning_play(t.trick, None)[1]
    follow = [c for c in t.legal if c.suit is led]
    if follow and all(c.rank > best.rank for c in follow):
        return min(follow, key=lambda c: c.rank)
    return None


def _greedy(t: Table) -> Card | None:
    """Trump deals: takes every trick it can, with its cheapest winning card, even when a later player may
    beat it (the normal player wins only safely, last, or by ruffing)."""
    if t.contract is not None or not t.trick:
        return None
    best = winning_play(t.trick, t.trump)[1]
    winners = [c for c in t.legal if beats(c, best, t.trump)]
    if winners:
        return min(winners, key=lambda c: (c.suit is t.trump, c.rank))
    return None


def _high_first(t: Table) -> Card | None:
    """Leads its highest card, in every deal (the normal player leads low in the negative deals and cashes only
    sure winners in the trump deals)."""
    if t.trick:
        return None
    return max(t.legal, key=lambda c: (c.rank, -c.index))


def _trump_keeper(t: Table) -> Card | None:
    """Trump deals: keeps its trumps — it neither leads nor ruffs with one while it holds another card it may
    play: where the normal player would, it plays the lowest card of its shortest side suit instead."""
    if t.contract is not None or t.trump is None:
        return None
    side = [c for c in t.legal if c.suit is not t.trump]
    if not side or pick_card(t).suit is not t.trump:
        return None
    return min(side, key=lambda c: (sum(1 for x in t.hand if x.suit is c.suit), c.rank))


def _variant(name: str, rule: Callable[[Table], Card | None]) -> Variant:

    def choose(view: KingView, rng: random.Random) -> KingAction:
        if view.phase is Phase.CHOOSE_TRUMP:
            return normal_action(view)
        table = table_from_view(view)
        card = rule(table) if len(table.legal) > 1 else None
        return PLAYS[card] if card is not None else PLAYS[pick_card(table)]

    return Variant(name, " ".join((rule.__doc__ or "").split()), choose)


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _variant("cautious", _cautious),
        _variant("greedy", _greedy),
        _variant("high-first", _high_first),
        _variant("trump-keeper", _trump_keeper),
    )
}
"""Кинг's variants of «любитель», by arena name."""
