"""Кончинка: the worlds the hard player samples, and what the others' plays this round say about their hands.

Every card the viewer has not seen (the others' hands, the deck) is dealt at random into a world. The others'
plays since their hands were last dealt are evidence: a normal player takes a кончинка when it can, does not
leave an easy sum behind, keeps its jack for a rich table. :func:`surprises` replays the round in progress in a
world — from its start, rebuilt by taking back this round's plays — and counts the plays of the others that
the normal policy (:mod:`engine.ai.konchinka_policy`) would not have made with the hands of that world; the
search keeps worlds with odds falling with each surprise, so its worlds explain the play it has seen.

Taking a capture back puts its cards at the end of the table: the table's order (which only breaks ties between
equally scored actions) may differ from the true one, so a rare surprise is an artefact — the odds are soft.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.ai import konchinka_policy
from engine.cards import FULL_DECK, Card
from engine.core import Player
from engine.konchinka import (
    Capture,
    Event,
    EventKind,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaState,
    KonchinkaView,
    Lay,
)
from engine.konchinka.rules import HAND_SIZE

Hands = dict[Player, list[Card]]
"""The hidden cards of a world: the other players' hands (the deck is the rest)."""
_PLAYS = (EventKind.LAY, EventKind.CAPTURE, EventKind.SWEEP)


def unseen_cards(view: KonchinkaView) -> list[Card]:
    """The cards ``view``'s player has not seen: the others' hands and the deck, in the deck's order."""
    seen = set(view.hand) | set(view.table)
    for pile in view.captured:
        seen.update(pile)
    return [c for c in FULL_DECK if c not in seen]


def deal_hands(view: KonchinkaView, rng: random.Random) -> tuple[Hands, list[Card]]:
    """The unseen cards dealt at random into the other hands; (those hands, the deck in order)."""
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    hands: Hands = {}
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.player:
            continue
        hands[seat] = unseen[at : at + size]
        at += size
    return hands, unseen[at : at + view.deck_size]  # (a hand-built position may leave cards out of play)


def world_of(view: KonchinkaView, hands: Hands, deck: Sequence[Card], seed: int = 0) -> KonchinkaState:
    return KonchinkaState.from_view(view, hands, deck, seed=seed)


def sample_world(view: KonchinkaView, rng: random.Random) -> KonchinkaState:
    """A full state consistent with ``view``: the unseen cards dealt at random into the other hands and deck."""
    hands, deck = deal_hands(view, rng)
    return world_of(view, hands, deck, seed=rng.getrandbits(32))


def round_plays(view: KonchinkaView) -> list[Event]:
    """The plays of the round in progress (since the hands were last dealt), in order."""
    plays = [e for e in view.recent_events if e.kind in _PLAYS]
    per_round = HAND_SIZE * view.options.players
    made = len(plays) % per_round
    return plays[len(plays) - made :] if made else []


def round_start(view: KonchinkaView, hands: Mapping[Player, Sequence[Card]]) -> KonchinkaState | None:
    """The position at the start of the round in progress in the world of ``view`` with the other hands
    ``hands`` (the round's plays taken back); None when nobody has played in this round yet."""
    plays = round_plays(view)
    if not plays:
        return None
    held = [list(view.hand) if p == view.player else list(hands[p]) for p in range(view.options.players)]
    table = list(view.table)
    piles = [list(p) for p in view.captured]
    for event in reversed(plays):
        assert event.card is not None
        if event.kind is EventKind.LAY:
            table.remove(event.card)
        else:
            for c in (*event.taken, event.card):
                piles[event.player].remove(c)
            table.extend(event.taken)
        held[event.player].append(event.card)
    placed = {c for part in (*held, table, *piles) for c in part}
    deck = [c for c in FULL_DECK if c not in placed]
    return KonchinkaState.from_position(
        KonchinkaGame(view.options),
        hands=held,
        table=table,
        deck=deck[: view.deck_size],
        current_player=plays[0].player,
        dealer=view.dealer,
        deal_number=view.deal_number,
        captured=piles,
        tally=view.tally,
        deal_scores=view.deal_scores,
    )


def _action_of(state: KonchinkaState, event: Event) -> KonchinkaAction | None:
    """The legal action of ``state`` that made ``event`` (None if none does)."""
    for action in state.legal_actions():
        if isinstance(action, Lay):
            if event.kind is EventKind.LAY and action.card == event.card:
                return action
        elif (
            isinstance(action, Capture)
            and event.kind is not EventKind.LAY
            and action.card == event.card
            and set(action.taken) == set(event.taken)
        ):
            return action
    return None


def surprises(view: KonchinkaView, hands: Mapping[Player, Sequence[Card]]) -> int:
    """How many plays of the others in this round the normal policy would not have made with ``hands``."""
    state = round_start(view, hands)
    if state is None:
        return 0
    count = 0
    for event in round_plays(view):
        action = _action_of(state, event)
        if action is None:
            return count + 1  # (the world cannot have made this play: only a relaxed deal gets here)
        if event.player != view.player and len(state.legal_actions()) > 1:
            count += konchinka_policy.playout_action(state) != action
        state.apply(action)
    return count
