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

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeAlias

from engine.ai.deal import MASK64, Dealer, deal_table, splitmix64
from engine.ai.kernel import load
from engine.cards import FULL_DECK, PIQUET_DECK, Card, Suit
from engine.core import IllegalActionError, Player
from engine.king.actions import PLAYS, Play
from engine.king.ai.policy import Table, pick_card, played_cards, policy_action
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

_C: Final = load("engine.king.ai._kernel")
"""The compiled kernel, which counts and draws the deals (None: pure Python; :mod:`engine.king.ai.kernel`)."""
_UNIT: Final = 1.0 / (1 << 53)
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
    tables: dict[tuple[object, ...], Dealer] = field(default_factory=dict, compare=False)
    """The counted deals of the hidden cards, by path and hand sizes (filled by :func:`deal_hidden`)."""


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


def deal_hidden(
    cards: Sequence[Card],
    sizes: Mapping[Player, int],
    knowledge: Knowledge,
    rng: random.Random,
    *,
    pure: bool = False,
) -> Hands:
    """Deal ``cards`` into hands of the given sizes, respecting voids, banned and fixed cards, each such deal
    drawn with its exact odds (:mod:`engine.ai.deal`): uniformly, but that a card the play makes unlikely at a
    seat counts ``UNLIKELY_ODDS`` there.

    The deals are counted once per view (the search deals many worlds from one view's knowledge), by the
    compiled kernel where it is built (``pure``: in Python whatever the backend; the same deals either way).
    One 64-bit draw of ``rng`` makes a world. If the constraints cannot be met (they always can for a true
    history, so this only guards against surprises), the banned cards and then the voids are relaxed.
    """
    fixed = {p: list(knowledge.fixed.get(p, ())) for p in sizes}
    table = _table(cards, sizes, knowledge, pure)
    dealt = table.deal(rng.getrandbits(64))
    if dealt is None:
        raise ValueError("cannot deal the hidden cards into hands of these sizes")
    return {p: fixed[p] + cards_of(mask) for p, mask in zip(sizes, dealt, strict=True)}


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in index order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(FULL_DECK[low.bit_length() - 1])
        mask ^= low
    return cards


def _table(cards: Sequence[Card], sizes: Mapping[Player, int], k: Knowledge, pure: bool) -> Dealer:
    """The counted deals of ``cards`` at the first level of relaxation where any fits (worked out once per view
    and path)."""
    key = (pure, tuple(sizes.items()), tuple(cards))
    known = k.tables.get(key)
    if known is not None:
        return known
    fixed = {c for cs in k.fixed.values() for c in cs}
    free = sum(1 << c.index for c in cards if c not in fixed)
    room = [sizes[p] - len(k.fixed.get(p, ())) for p in sizes]
    if min(room, default=0) < 0:
        raise ValueError("more cards known in a hand than it holds")
    unlikely = [sum(1 << c.index for c in k.unlikely.get(p, ())) & free for p in sizes]
    kernel = None if pure else _C
    for relax in (0, 1, 2):
        allowed = [
            sum(
                1 << c.index
                for c in cards
                if (relax >= 2 or c.suit not in k.voids[p]) and (relax >= 1 or c not in k.banned[p])
            )
            & free
            for p in sizes
        ]
        found = deal_table(free, room, allowed, unlikely, UNLIKELY_ODDS, kernel)
        if found.total > 0:
            break
    k.tables[key] = found  # none fits even so: deal_hidden refuses to deal
    return found


def hidden_problem(
    view: KingView, knowledge: Knowledge, *, pure: bool = False
) -> tuple[Dealer, list[Player]]:
    """The counted deals of the others' hidden cards in the play phase (:func:`deal_hidden`'s table) and the seats
    they are dealt to, in the table's order."""
    me = view.player
    gone = set(view.hand) | set(played_cards(view))
    unseen = [c for c in PIQUET_DECK if c not in gone]
    sizes = {p: view.hand_sizes[p] for p in range(NUM_PLAYERS) if p != me}
    return _table(unseen, sizes, knowledge, pure), list(sizes)


def deal_world(
    view: KingView, rng: random.Random, knowledge: Knowledge | None = None, *, pure: bool = False
) -> Hands:
    """The hidden hands of a world consistent with ``view``: the others' hands dealt under the inferences (and,
    before trump is named, the chooser's own five unseen cards too; nothing constrains them yet, so a shuffle
    deals them uniformly)."""
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
    return deal_hidden(unseen, sizes, knowledge, rng, pure=pure)


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


# ------------------------------------------------------------------------------ reading the play of the deal


def _deal_plays(view: KingView) -> list[PlayedCard]:
    plays = [pc for t in view.tricks_this_deal for pc in t.plays]
    plays.extend(view.trick)
    return plays


def play_rank(state: KingState, card: Card) -> int:
    """Where the legal ``card`` comes in the normal player's order of preference at ``state`` (its turn in the play
    phase): 0 for the card the policy plays, each next place the policy's choice with the cards already placed
    taken from its hand (a choice it could not play there ends the order: the cards left share its place)."""
    me = state.current_player
    hands = state.hands
    hand = list(hands[me])
    legal = [a.card for a in state.legal_actions() if isinstance(a, Play)]
    outstanding = [c for p in range(NUM_PLAYERS) if p != me for c in hands[p]]
    rank = 0
    while len(legal) > 1:
        table = Table(hand, legal, state.trick, state.contract, state.trump, outstanding, state.tricks_done)
        pick = pick_card(table)
        if pick is card or pick not in legal:
            return rank
        legal = [c for c in legal if c is not pick]
        hand = [c for c in hand if c is not pick]
        rank += 1
    return rank


def log_norms(temperature: float) -> list[float]:
    """``log(sum(exp(-k / temperature), k < n))`` for n = 0..8 (0 for n = 0): the softmax's normalisers."""
    beta = 1.0 / temperature
    out = [0.0]
    for n in range(1, 9):
        total = 0.0
        for k in range(n):
            total += math.exp(-k * beta)
        out.append(math.log(total))
    return out


def play_loglik(view: KingView, hands: Mapping[Player, Sequence[Card]], temperature: float) -> float:
    """The log-likelihood of this deal's plays by the other players in the world of ``view`` with the hidden hands
    ``hands``, under the normal policy made stochastic: a player with n legal cards plays the one in place r of
    its order of preference (:func:`play_rank`) with odds ``exp(-r / T) / sum(exp(-k / T), k < n)``.

    At a low temperature a world where the policy makes every play outweighs any other by at least ``exp(1 / T)``
    a surprise (the strict reading); at a high one every world counts alike (the lenient reading). ``-inf`` where
    a play is not legal in the world."""
    replay = deal_start(view, hands)
    if replay is None:
        return 0.0
    beta = 1.0 / temperature
    norms = log_norms(temperature)
    loglik = 0.0
    me = view.player
    for p, c in _deal_plays(view):
        legal = replay.legal_actions()
        action = PLAYS[c]
        if action not in legal:
            return -math.inf
        if p != me and len(legal) > 1:
            loglik += -play_rank(replay, c) * beta - norms[len(legal)]
        replay.apply(action)
    return loglik


def _strict_score(view: KingView, hands: Hands) -> float:
    try:
        return float(surprises_in(view, hands))
    except IllegalActionError:
        return math.inf


def screen(
    view: KingView,
    knowledge: Knowledge,
    seed: int,
    candidates: int,
    temperature: float,
    *,
    pure: bool = False,
) -> Hands:
    """One world of the play phase read against the deal's play (the compiled kernel's ``king_screen`` is its
    twin: the same world from the same seed): ``candidates`` worlds are dealt (:func:`deal_hidden`), the k-th from
    the k-th SplitMix64 value of ``seed``.

    Temperature 0 (the strict reading) keeps the first in which the normal policy makes every play of the
    others, else the first of the fewest surprises; a temperature T > 0 (the graded reading) keeps one with odds
    proportional to its likelihood (:func:`play_loglik`), drawn with the next value of ``seed``.
    """
    table, seats = hidden_problem(view, knowledge, pure=pure)
    state = seed & MASK64
    dealt: list[Hands] = []
    scores: list[float] = []
    for _ in range(candidates):
        state, world_seed = splitmix64(state)
        masks = table.deal(world_seed)
        if masks is None:
            raise ValueError("cannot deal the hidden cards into hands of these sizes")
        hands = {p: list(knowledge.fixed.get(p, ())) + cards_of(m) for p, m in zip(seats, masks, strict=True)}
        dealt.append(hands)
        if temperature == 0.0:
            scores.append(_strict_score(view, hands))
            if scores[-1] == 0.0:
                break
        else:
            scores.append(play_loglik(view, hands, temperature))
    if temperature == 0.0:
        return dealt[scores.index(min(scores))]
    top = max(scores)
    if top == -math.inf:
        return dealt[0]
    weights = [math.exp(x - top) for x in scores]
    total = 0.0
    for w in weights:
        total += w
    state, bits = splitmix64(state)
    pick = (bits >> 11) * _UNIT * total
    kept = 0
    for k, w in enumerate(weights):
        if w > 0.0:
            kept = k
            pick -= w
            if pick < 0.0:
                break
    return dealt[kept]
