"""Кинг: what the hard player infers about the hidden hands, and the worlds it samples from a view.

It samples the hidden hands consistently with everything it has seen — each card played, each void shown by
not following suit (and by not trumping in a positive deal), a heart led where hearts may not be led while
holding another suit (so the leader held hearts only), and the K♥ inferences: a player who had to drop K♥
(void in the led suit, or A♥ already in a hearts trick when that rule is on) and did not, does not hold it.
Softer evidence makes cards unlikely rather than impossible: a follower who played over the winner in a
negative deal had nothing to duck with, one who ducked kept no better duck, a losing follower in a positive
deal played its lowest card of the suit, and a last player who let the trick go held nothing higher.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from engine.cards import PIQUET_DECK, Card, Suit
from engine.core import Player
from engine.king.actions import PLAYS
from engine.king.ai.policy import played_cards, policy_action
from engine.king.rules import (
    ACE_OF_HEARTS,
    CARD_PENALTY,
    KING_OF_HEARTS,
    NUM_PLAYERS,
    Contract,
    KingOptions,
    Phase,
    PlayedCard,
    beats,
    winning_play,
)
from engine.king.state import KingState, KingView

UNLIKELY_ODDS = 0.1
"""How much less often the sampler gives a player a card their play so far suggests they do not hold."""


@dataclass(slots=True)
class Knowledge:
    """What the viewer can infer about the other hands from play so far."""

    voids: dict[Player, set[Suit]]
    banned: dict[Player, set[Card]]
    fixed: dict[Player, list[Card]]
    unlikely: dict[Player, set[Card]] = field(default_factory=dict)
    """Cards a sensible player would probably have played instead of what they did (soft evidence)."""
    choices: dict[tuple[object, ...], _Choices] = field(default_factory=dict, compare=False)
    """Where each hidden card may go, by relaxation (filled by :func:`deal_hidden`)."""


def infer(view: KingView) -> Knowledge:
    """Voids and card exclusions shown by the play of this deal (the viewer's own seat included)."""
    voids: dict[Player, set[Suit]] = {p: set() for p in range(NUM_PLAYERS)}
    banned: dict[Player, set[Card]] = {p: set() for p in range(NUM_PLAYERS)}
    fixed: dict[Player, list[Card]] = {p: [] for p in range(NUM_PLAYERS)}
    contract, trump = view.contract, view.trump
    options: KingOptions = view.options
    no_heart_lead = contract is not None and contract.forbids_heart_lead
    king_forced = contract is not None and contract.forces_king_of_hearts
    tricks = [t.plays for t in view.tricks_this_deal]
    if view.trick:
        tricks.append(view.trick)
    unlikely: dict[Player, set[Card]] = {p: set() for p in range(NUM_PLAYERS)}
    for plays in tricks:
        leader, lead_card = plays[0]
        led = lead_card.suit
        if no_heart_lead and led is Suit.HEARTS:
            voids[leader].update(s for s in Suit if s is not Suit.HEARTS)
        ace_in = lead_card is ACE_OF_HEARTS
        for i, (p, c) in enumerate(plays[1:], start=1):
            if c.suit is led:
                unlikely[p].update(_follow_evidence(plays[:i], c, contract, trump))
            if c.suit is not led:
                voids[p].add(led)
                if trump is not None and c.suit is not trump:
                    voids[p].add(trump)
                if king_forced and c is not KING_OF_HEARTS:
                    banned[p].add(KING_OF_HEARTS)
            elif (
                king_forced
                and led is Suit.HEARTS
                and ace_in
                and options.king_forced_on_heart_lead
                and c is not KING_OF_HEARTS
            ):
                banned[p].add(KING_OF_HEARTS)
            if c is ACE_OF_HEARTS:
                ace_in = True
    shown = view.trump_card_shown
    chooser = view.chooser
    if (
        shown is not None
        and chooser is not None
        and chooser != view.player
        and shown not in played_cards(view)
    ):
        fixed[chooser].append(shown)
    return Knowledge(voids, banned, fixed, unlikely)


def _follow_evidence(
    before: Sequence[PlayedCard], card: Card, contract: Contract | None, trump: Suit | None
) -> list[Card]:
    """Cards of the led suit a sensible player following suit with ``card`` after ``before`` would not hold.

    Negative deals: a card under the winner shows there was no card under it to duck with (when ``card``
    beats the trick), or that it was the best card to duck with (the most penalty, then the highest).
    Positive deals: a losing card of the led suit is the lowest one held, and the last player who lets the
    trick go holds nothing that beats it.
    """
    best = winning_play(before, trump)[1]
    led = before[0][1].suit
    suit_cards = [x for x in PIQUET_DECK if x.suit is led and x is not card]
    if contract is not None:
        pen = CARD_PENALTY[contract]
        if card.rank > best.rank:
            return [x for x in suit_cards if x.rank < best.rank]
        return [
            x
            for x in suit_cards
            if x.rank < best.rank and (pen[x.index], x.rank) > (pen[card.index], card.rank)
        ]
    if beats(card, best, trump):
        return []
    out = [x for x in suit_cards if x.rank < card.rank]
    if len(before) == NUM_PLAYERS - 1 and best.suit is led:
        out.extend(x for x in suit_cards if x.rank > best.rank)
    return out


Hands: TypeAlias = dict[Player, list[Card]]
"""The hidden hands of a world: every seat whose cards the viewer does not fully see."""
_Choices: TypeAlias = dict[Card, tuple[tuple[Player, float], ...]]
"""Per card, the seats it may go to and the odds factor of each (``UNLIKELY_ODDS`` where play doubts it)."""


def deal_hidden(
    cards: Sequence[Card],
    sizes: Mapping[Player, int],
    knowledge: Knowledge,
    rng: random.Random,
    tries: int = 40,
) -> Hands:
    """Deal ``cards`` into hands of the given sizes, respecting voids, banned and fixed cards.

    Most constrained cards go first, each to a random allowed player weighted by the room left in their hand;
    a dead end restarts. If the constraints cannot be met (they are always satisfiable for a true history, so
    this only guards against surprises), the banned cards and then the voids are relaxed.
    """
    for relax in (0, 1, 2):
        choices = _choices(cards, sizes, knowledge, relax)
        for _ in range(tries):
            hands = _try_deal(cards, sizes, knowledge, rng, choices)
            if hands is not None:
                return hands
    raise ValueError("cannot deal the hidden cards into hands of these sizes")


def _choices(cards: Sequence[Card], sizes: Mapping[Player, int], k: Knowledge, relax: int) -> _Choices:
    """Where each card may go at this level of relaxation (worked out once per view: the search deals many
    worlds from one view's knowledge)."""
    key = (relax, tuple(sizes.items()), tuple(cards))
    found = k.choices.get(key)
    if found is None:
        found = k.choices[key] = {
            c: tuple(
                (p, UNLIKELY_ODDS if c in k.unlikely.get(p, ()) else 1.0)
                for p in sizes
                if (relax >= 2 or c.suit not in k.voids[p]) and (relax >= 1 or c not in k.banned[p])
            )
            for c in cards
        }
    return found


def _try_deal(
    cards: Sequence[Card],
    sizes: Mapping[Player, int],
    k: Knowledge,
    rng: random.Random,
    choices: _Choices,
) -> Hands | None:
    hands: Hands = {p: list(k.fixed.get(p, ())) for p in sizes}
    room = {p: sizes[p] - len(hands[p]) for p in sizes}
    fixed_cards = {c for cs in k.fixed.values() for c in cs}
    free = [c for c in cards if c not in fixed_cards]
    rng.shuffle(free)
    options = [(c, choices[c]) for c in free]
    options.sort(key=lambda item: len(item[1]))
    for c, allowed in options:
        seats: list[Player] = []
        odds: list[float] = []
        for p, factor in allowed:
            left = room[p]
            if left > 0:
                seats.append(p)
                odds.append(left * factor)
        if not seats:
            return None
        pick = rng.random() * sum(odds)
        chosen = len(seats) - 1
        for i, w in enumerate(odds):
            pick -= w
            if pick < 0:
                chosen = i
                break
        p = seats[chosen]
        hands[p].append(c)
        room[p] -= 1
    if any(room.values()):
        return None
    return hands


def deal_world(view: KingView, rng: random.Random, knowledge: Knowledge | None = None) -> Hands:
    """The hidden hands of a world consistent with ``view``: the others' hands dealt under the inferences (and,
    before trump is named, the chooser's own five unseen cards too)."""
    knowledge = knowledge if knowledge is not None else infer(view)
    me = view.player
    if view.phase is Phase.CHOOSE_TRUMP:
        seen = set(view.hand)
        unseen = [c for c in PIQUET_DECK if c not in seen]
        rng.shuffle(unseen)
        own = list(view.hand) + unseen[: 8 - len(view.hand)]
        rest = unseen[8 - len(view.hand) :]
        hands: Hands = {me: own}
        others = [p for p in range(NUM_PLAYERS) if p != me]
        for i, p in enumerate(others):
            hands[p] = rest[8 * i : 8 * i + 8]
        return hands
    gone = set(view.hand) | set(played_cards(view))
    unseen = [c for c in PIQUET_DECK if c not in gone]
    sizes = {p: view.hand_sizes[p] for p in range(NUM_PLAYERS) if p != me}
    return deal_hidden(unseen, sizes, knowledge, rng)


def sample_world(view: KingView, rng: random.Random, knowledge: Knowledge | None = None) -> KingState:
    """A full state consistent with ``view`` (the viewer's cards kept, the others dealt under the inferences)."""
    return KingState.from_view(view, deal_world(view, rng, knowledge))


def surprises(view: KingView, world: KingState) -> int:
    """How many of this deal's plays by the other players the normal player would not have made in ``world``.

    The deal is replayed from its start with the hands of ``world`` (plus the cards played since); a play
    where the player had a choice and the normal policy picks another card counts as one surprise.
    """
    return surprises_in(view, dict(enumerate(world.hands)))


def deal_start(view: KingView, hands: Mapping[Player, Sequence[Card]]) -> KingState | None:
    """The deal of ``view`` at its first play, the hidden cards as in ``hands`` (None: nothing played yet)."""
    plays = [pc for t in view.tricks_this_deal for pc in t.plays]
    plays.extend(view.trick)
    if not plays:
        return None
    start = [list(hands.get(p, view.hand if p == view.player else ())) for p in range(NUM_PLAYERS)]
    for p, c in plays:
        start[p].append(c)
    first_leader = view.tricks_this_deal[0].leader if view.tricks_this_deal else view.leader
    return KingState.from_position(
        start,
        deal_index=view.deal_index,
        dealer=view.dealer,
        leader=first_leader,
        trump=view.trump,
        options=view.options,
    )


def surprises_in(view: KingView, hands: Mapping[Player, Sequence[Card]]) -> int:
    """:func:`surprises` for a world given by its hidden hands (:func:`deal_world`)."""
    replay = deal_start(view, hands)
    if replay is None:
        return 0
    plays = [pc for t in view.tricks_this_deal for pc in t.plays]
    plays.extend(view.trick)
    count = 0
    me = view.player
    for p, c in plays:
        action = PLAYS[c]
        if p != me and len(replay.legal_actions()) > 1 and policy_action(replay) != action:
            count += 1
        replay.apply(action)
    return count
