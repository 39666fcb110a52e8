"""Кончинка: the worlds the hard player samples, and how well each explains the others' plays of this round.

A world deals the cards the viewer has not seen into the other hands and the deck. Every such deal fits what
the viewer saw, but not every one explains how the others played this round: a player who laid a card where
the normal player would have captured probably held nothing to capture with. So the round is replayed in a
candidate world from where it began — each hand as dealt (what it holds now and what it has played since),
the table and the piles as they were — and each play of another seat that the normal player's policy would not
have made there counts as a surprise (:func:`surprises_in`; the compiled kernel's twin in
:func:`engine.konchinka.ai.kernel.konchinka_surprises`). The hard player keeps the worlds with few surprises
more often (:class:`engine.konchinka.ai.players.KonchinkaModel`).

Earlier rounds tell nothing of the hands now held: every card of them has been played since.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.cards import FULL_DECK, Card
from engine.core import Player
from engine.konchinka.actions import Capture, KonchinkaAction, Lay
from engine.konchinka.ai.policy import playout_action
from engine.konchinka.rules import HAND_SIZE
from engine.konchinka.state import KonchinkaGame, KonchinkaState
from engine.konchinka.views import Event, EventKind, KonchinkaView

Hands = dict[Player, list[Card]]

_PLAYS = (EventKind.LAY, EventKind.CAPTURE, EventKind.SWEEP)
_CAPTURES = (EventKind.CAPTURE, EventKind.SWEEP)


@dataclass(frozen=True, slots=True)
class RoundStart:
    """How this round began, as the viewer saw it, and its plays so far (oldest first)."""

    first: Player
    """The seat that played first in the round."""
    last_capturer: Player
    """The last seat to capture in this deal before the round (-1: nobody yet)."""
    table: tuple[Card, ...]
    """The table as the round began: the cards taken during it are put back after the others (where they lay
    among them no view keeps; the normal player's choice depends on it only between two captures of equal
    worth)."""
    piles: tuple[tuple[Card, ...], ...]
    """Each seat's pile of this deal as the round began."""
    played: tuple[tuple[Card, ...], ...]
    """The cards each seat has played in the round."""
    plays: tuple[Event, ...]
    earlier: tuple[Event, ...]
    """This deal's events before the round."""


def round_start(view: KonchinkaView) -> RoundStart | None:
    """This round's beginning and plays, or None when no other seat has played in it yet (nothing to learn)."""
    n = view.options.players
    count = sum(HAND_SIZE - size for size in view.hand_sizes)
    events = view.recent_events
    at = len(events)
    for _ in range(count):
        at -= 1
        if at < 0 or events[at].kind not in _PLAYS:
            return None
    plays = events[at:]
    if all(e.player == view.player for e in plays):
        return None
    earlier = events[:at]
    last_capturer = -1
    for e in earlier:
        if e.kind in _CAPTURES:
            last_capturer = e.player
    table = list(view.table)
    piles = [list(p) for p in view.captured]
    played: list[list[Card]] = [[] for _ in range(n)]
    for e in reversed(plays):
        assert e.card is not None
        played[e.player].append(e.card)
        if e.kind is EventKind.LAY:
            table.remove(e.card)
        else:
            del piles[e.player][-(len(e.taken) + 1) :]  # a capture adds its taken cards, then the card
            table.extend(e.taken)
    return RoundStart(
        first=plays[0].player,
        last_capturer=last_capturer,
        table=tuple(table),
        piles=tuple(tuple(p) for p in piles),
        played=tuple(tuple(reversed(p)) for p in played),
        plays=plays,
        earlier=earlier,
    )


def unseen_cards(view: KonchinkaView) -> list[Card]:
    """The cards the viewer has not seen (in the other hands and the deck), in the deck's order of suits and
    ranks."""
    seen = set(view.hand) | set(view.table)
    for pile in view.captured:
        seen.update(pile)
    return [c for c in FULL_DECK if c not in seen]


def deal_unseen(view: KonchinkaView, rng: random.Random) -> tuple[Hands, list[Card]]:
    """The cards the viewer has not seen, dealt at random: the other hands, and the deck (top first)."""
    unseen = unseen_cards(view)
    rng.shuffle(unseen)
    hands, at = _split(view, unseen)
    return hands, unseen[at : at + view.deck_size]  # (a hand-built position may leave some cards out of play)


def deal_hands(view: KonchinkaView, unseen: Sequence[Card], rng: random.Random) -> Hands:
    """The other hands alone, drawn at random from ``unseen`` (a candidate world's deck order matters only once
    it is kept: :func:`rest_of`)."""
    return _split(view, rng.sample(unseen, sum(view.hand_sizes) - len(view.hand)))[0]


def _split(view: KonchinkaView, cards: Sequence[Card]) -> tuple[Hands, int]:
    """The other hands, dealt from the top of ``cards`` seat by seat; how many cards that took."""
    hands: Hands = {}
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat != view.player:
            hands[seat] = list(cards[at : at + size])
            at += size
    return hands, at


def rest_of(unseen: Sequence[Card], hands: Mapping[Player, Sequence[Card]]) -> list[Card]:
    """The unseen cards the others do not hold in the world of ``hands`` (the deck, and in a hand-built position
    any left out of play), in ``unseen``'s order."""
    held = {c for hand in hands.values() for c in hand}
    return [c for c in unseen if c not in held]


def start_hands(
    view: KonchinkaView, start: RoundStart, hands: Mapping[Player, Sequence[Card]]
) -> list[list[Card]]:
    """Each seat's hand as the round began, in the world where the others now hold ``hands``."""
    now = [
        list(view.hand) if seat == view.player else list(hands[seat]) for seat in range(view.options.players)
    ]
    return [now[seat] + list(start.played[seat]) for seat in range(len(now))]


def start_state(
    view: KonchinkaView, start: RoundStart, hands: Mapping[Player, Sequence[Card]], deck: Sequence[Card]
) -> KonchinkaState:
    """The state as the round began, in the world of ``hands`` and ``deck``."""
    return KonchinkaState.from_position(
        KonchinkaGame(view.options),
        hands=start_hands(view, start, hands),
        table=start.table,
        deck=deck,
        current_player=start.first,
        dealer=view.dealer,
        deal_number=view.deal_number,
        captured=start.piles,
        tally=view.tally,
        deal_scores=view.deal_scores,
        last_capturer=start.last_capturer,
        events=start.earlier,
    )


def surprises_in(
    view: KonchinkaView, start: RoundStart, hands: Mapping[Player, Sequence[Card]], deck: Sequence[Card]
) -> int:
    """How many plays of the others this round the normal policy would not have made in the world of ``hands``
    and ``deck`` (a play that could not have been made there counts as every play of the round)."""
    state = start_state(view, start, hands, deck)
    count = 0
    for e in start.plays:
        legal = state.legal_actions()
        action = next((a for a in legal if same_play(a, e)), None)
        if action is None:
            return len(start.plays)
        if e.player != view.player and len(legal) > 1 and playout_action(state) != action:
            count += 1
        state.apply(action)
    return count


def same_play(action: KonchinkaAction, event: Event) -> bool:
    """Whether ``action`` is the play ``event`` tells of (a card laid, or a card and the cards it took)."""
    if event.kind is EventKind.LAY:
        return isinstance(action, Lay) and action.card == event.card
    return (
        isinstance(action, Capture)
        and not action.finish
        and action.card == event.card
        and set(action.taken) == set(event.taken)
    )
