"""Bot players for Кинг.

- The **normal** player («любитель») is a rule-based card player. In the negative deals it ducks under the
  card that is winning the trick, sheds its high cards while taking a trick costs nothing, dumps penalty cards
  (and K♥) on other players' tricks when void, and leads low cards of suits where the others still hold higher
  ones. In the positive deals it wins tricks cheaply, cashes sure winners, draws trumps when it holds the top
  ones, ruffs, and leads short side suits to make voids. It names trump from its three visible cards.
- The **easy** player («новичок») plays like the normal one but makes a random legal move now and then.
- The **hard** player («мастер») runs determinized Monte Carlo search (:mod:`engine.ai.search`): it samples
  the hidden hands consistently with everything it has seen — each card played, each void shown by not
  following suit (and by not trumping in a positive deal), a heart led where hearts may not be led while
  holding another suit (so the leader held hearts only), and the K♥ inferences: a player who had to drop K♥
  (void in the led suit, or A♥ already in a hearts trick when that rule is on) and did not, does not hold
  it. Softer evidence makes cards unlikely rather than impossible: a follower who played over the winner in a
  negative deal had nothing to duck with, one who ducked kept no better duck, a losing follower in a positive
  deal played its lowest card of the suit, and a last player who let the trick go held nothing higher. Of a
  few worlds so dealt, one is kept with odds that fall with each play a normal player would not have made
  there. Then it plays each candidate followed by the normal policy to the end of the deal, scoring its own
  deal result. The trump choice is searched the same way over the five unseen cards of its hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.ai.search import SearchBudget, pimc
from engine.cards import PIQUET_DECK, Card, Rank, Suit
from engine.core import Player, State
from engine.king import (
    CHOOSE_TRUMP_ACTIONS,
    ChooseTrump,
    Contract,
    KingOptions,
    KingState,
    KingView,
    Phase,
    Play,
)
from engine.king.actions import PLAYS, KingAction
from engine.king.rules import (
    ACE_OF_HEARTS,
    CARD_PENALTY,
    KING_OF_HEARTS,
    NUM_PLAYERS,
    TRICK_PENALTY,
    PlayedCard,
    beats,
    winning_play,
)

_NO_PENALTY: tuple[int, ...] = (0,) * 52
_NO_TRICK_PENALTY: tuple[int, ...] = (0,) * 8
_HONOUR = {Rank.ACE: 1.0, Rank.KING: 0.6, Rank.QUEEN: 0.3, Rank.JACK: 0.1}

EASY_BLUNDER_RATE = 0.3
"""How often the easy player makes a random legal move instead of a considered one."""


# ----------------------------------------------------------------------------------------------- the policy


@dataclass(slots=True)
class Table:
    """What the player to move knows for one decision (cheap to build from a view or a sampled world)."""

    hand: Sequence[Card]
    legal: Sequence[Card]
    trick: Sequence[PlayedCard]
    contract: Contract | None
    trump: Suit | None
    outstanding: Sequence[Card]
    """Cards still held by the other players (known to everybody as a set: neither played nor in my hand)."""
    tricks_done: int
    out_by_suit: dict[Suit, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        by_suit: dict[Suit, list[int]] = {s: [] for s in Suit}
        for c in self.outstanding:
            by_suit[c.suit].append(c.rank)
        self.out_by_suit = by_suit

    def higher_out(self, card: Card) -> int:
        return sum(1 for r in self.out_by_suit[card.suit] if r > card.rank)

    def lower_out(self, card: Card) -> int:
        return sum(1 for r in self.out_by_suit[card.suit] if r < card.rank)


def pick_card(t: Table) -> Card:
    """The normal player's card for the position ``t``."""
    if len(t.legal) == 1:
        return t.legal[0]
    if t.contract is None:
        return _pick_positive(t)
    return _pick_negative(t)


def _suit_count(hand: Sequence[Card], suit: Suit) -> int:
    return sum(1 for c in hand if c.suit is suit)


def _keep_danger(t: Table, card: Card, pen: Sequence[int]) -> float:
    """How much trouble keeping ``card`` may bring later in a negative deal (high cards win tricks)."""
    lower = t.lower_out(card)
    higher = t.higher_out(card)
    danger = 3.0 * pen[card.index]
    if lower:
        danger += (card.rank - 6) * (1.0 if higher == 0 else 0.6) + 0.4 * lower
    else:
        danger += 0.1 * (card.rank - 6)
    return danger - 0.3 * _suit_count(t.hand, card.suit)


def _pick_negative(t: Table) -> Card:
    assert t.contract is not None
    pen = CARD_PENALTY[t.contract]
    tpen = TRICK_PENALTY[t.contract][t.tricks_done] if t.tricks_done < 8 else 0
    future = sum(TRICK_PENALTY[t.contract][t.tricks_done :]) + sum(pen[c.index] for c in t.outstanding)
    pen_out = sum(pen[c.index] for c in t.outstanding)
    legal = t.legal
    if t.trick:
        led = t.trick[0][1].suit
        best = winning_play(t.trick, None)[1]
        after = NUM_PLAYERS - 1 - len(t.trick)
        trick_cost = tpen + sum(pen[c.index] for _, c in t.trick)
        follow = [c for c in legal if c.suit is led]
        if not follow:
            # Void: throw the most troublesome card (penalty cards first) onto someone else's trick.
            return max(legal, key=lambda c: (_keep_danger(t, c, pen), c.rank, -c.index))
        under = [c for c in follow if c.rank < best.rank]
        if under:
            return max(under, key=lambda c: (pen[c.index], c.rank))
        # Every card of mine beats the trick so far.
        dump_risk = pen_out * 0.15 * after if after else 0.0
        if after == 0 or trick_cost + dump_risk < 0.5:
            # The trick is mine (or costs nothing): win it with the card I least want to keep.
            return max(follow, key=lambda c: (-pen[c.index], c.rank))
        return min(follow, key=lambda c: (pen[c.index], c.rank))
    # Leading.
    best_card = legal[0]
    best_score = float("inf")
    shed_weight = 0.15 if future else 0.0
    for c in legal:
        higher = t.higher_out(c)
        lower = t.lower_out(c)
        if higher + lower == 0:
            p_win, dump = 1.0, pen_out * 0.5
        elif higher == 0:
            p_win, dump = 1.0, pen_out * 0.1
        elif lower == 0:
            p_win, dump = 0.0, 0.0
        else:
            p_win, dump = lower / (higher + lower) * 0.6, pen_out * 0.05
        own = pen[c.index]
        score = p_win * (tpen + own + dump) - (1.0 - p_win) * own * 0.5
        score -= shed_weight * (c.rank - 7) * (1.0 if p_win == 0.0 else 0.2)
        score += 0.05 * _suit_count(t.hand, c.suit)
        if score < best_score:
            best_card, best_score = c, score
    return best_card


def _pick_positive(t: Table) -> Card:
    trump = t.trump
    legal = t.legal
    if t.trick:
        best = winning_play(t.trick, trump)[1]
        after = NUM_PLAYERS - 1 - len(t.trick)
        winners = [c for c in legal if beats(c, best, trump)]
        if winners:
            if after == 0:
                return min(winners, key=lambda c: (c.suit is trump, c.rank))
            safe = [c for c in winners if t.higher_out(c) == 0]
            if safe:
                return min(safe, key=lambda c: (c.suit is trump, c.rank))
            ruffs = [c for c in winners if c.suit is trump and best.suit is not trump]
            if ruffs:
                return min(ruffs, key=lambda c: c.rank)
        # Cannot win (or would win only to be beaten): give away the least useful card.
        return min(legal, key=lambda c: (c.suit is trump, t.higher_out(c) == 0, c.rank))
    # Leading.
    trumps = [c for c in t.hand if c.suit is trump]
    trumps_out = len(t.out_by_suit[trump]) if trump is not None else 0
    bosses = [c for c in legal if t.higher_out(c) == 0]
    trump_bosses = [c for c in bosses if c.suit is trump]
    if trump_bosses and trumps_out:
        return max(trump_bosses, key=lambda c: c.rank)
    side_bosses = [c for c in bosses if c.suit is not trump and t.out_by_suit[c.suit]]
    if side_bosses:
        return max(side_bosses, key=lambda c: (len(t.out_by_suit[c.suit]), c.rank))
    if trumps and trumps_out and len(trumps) > trumps_out:
        return min(trumps, key=lambda c: c.rank)
    side = [c for c in legal if c.suit is not trump]
    if side:
        return min(side, key=lambda c: (_suit_count(t.hand, c.suit), c.rank))
    return min(legal, key=lambda c: c.rank)


def pick_trump(seen: Sequence[Card]) -> ChooseTrump:
    """The normal player's trump from the three cards it sees: its strongest suit, else «по последней»."""
    scores = {s: 0.0 for s in Suit}
    for c in seen:
        scores[c.suit] += 1.0 + _HONOUR.get(c.rank, 0.0)
    suit = max(Suit, key=lambda s: (scores[s], -s))
    if scores[suit] >= 1.6:
        return CHOOSE_TRUMP_ACTIONS[suit]
    return CHOOSE_TRUMP_ACTIONS[-1]


# ------------------------------------------------------------------------------------------ knowledge


def played_cards(view: KingView) -> list[Card]:
    return [c for t in view.tricks_this_deal for _, c in t.plays] + [c for _, c in view.trick]


def table_from_view(view: KingView) -> Table:
    hand = list(view.hand)
    gone = set(hand) | set(played_cards(view))
    outstanding = [c for c in PIQUET_DECK if c not in gone]
    legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
    return Table(hand, legal, view.trick, view.contract, view.trump, outstanding, len(view.tricks_this_deal))


@dataclass(slots=True)
class Knowledge:
    """What the viewer can infer about the other hands from play so far."""

    voids: dict[Player, set[Suit]]
    banned: dict[Player, set[Card]]
    fixed: dict[Player, list[Card]]
    unlikely: dict[Player, set[Card]] = field(default_factory=dict)
    """Cards a sensible player would probably have played instead of what they did (soft evidence)."""


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


def deal_hidden(
    cards: Sequence[Card],
    sizes: Mapping[Player, int],
    knowledge: Knowledge,
    rng: random.Random,
    tries: int = 40,
) -> dict[Player, list[Card]]:
    """Deal ``cards`` into hands of the given sizes, respecting voids, banned and fixed cards.

    Most constrained cards go first, each to a random allowed player weighted by the room left in their hand;
    a dead end restarts. If the constraints cannot be met (they are always satisfiable for a true history, so
    this only guards against surprises), the banned cards and then the voids are relaxed.
    """
    for relax in (0, 1, 2):
        for _ in range(tries):
            hands = _try_deal(cards, sizes, knowledge, rng, relax)
            if hands is not None:
                return hands
    raise ValueError("cannot deal the hidden cards into hands of these sizes")


def _try_deal(
    cards: Sequence[Card],
    sizes: Mapping[Player, int],
    k: Knowledge,
    rng: random.Random,
    relax: int,
) -> dict[Player, list[Card]] | None:
    hands: dict[Player, list[Card]] = {p: list(k.fixed.get(p, ())) for p in sizes}
    room = {p: sizes[p] - len(hands[p]) for p in sizes}
    fixed_cards = {c for cs in k.fixed.values() for c in cs}
    free = [c for c in cards if c not in fixed_cards]
    rng.shuffle(free)
    options: list[tuple[Card, list[Player]]] = []
    for c in free:
        allowed = [
            p
            for p in sizes
            if (relax >= 2 or c.suit not in k.voids[p]) and (relax >= 1 or c not in k.banned[p])
        ]
        options.append((c, allowed))
    options.sort(key=lambda item: len(item[1]))
    for c, allowed in options:
        open_seats = [p for p in allowed if room[p] > 0]
        if not open_seats:
            return None
        odds = [room[p] * (UNLIKELY_ODDS if c in k.unlikely.get(p, ()) else 1.0) for p in open_seats]
        pick = rng.random() * sum(odds)
        chosen = len(open_seats) - 1
        for i, w in enumerate(odds):
            pick -= w
            if pick < 0:
                chosen = i
                break
        p = open_seats[chosen]
        hands[p].append(c)
        room[p] -= 1
    if any(room.values()):
        return None
    return hands


def sample_world(view: KingView, rng: random.Random, knowledge: Knowledge | None = None) -> KingState:
    """A full state consistent with ``view`` (the viewer's cards kept, the others dealt under the inferences)."""
    knowledge = knowledge if knowledge is not None else infer(view)
    me = view.player
    if view.phase is Phase.CHOOSE_TRUMP:
        seen = set(view.hand)
        unseen = [c for c in PIQUET_DECK if c not in seen]
        rng.shuffle(unseen)
        own = list(view.hand) + unseen[: 8 - len(view.hand)]
        rest = unseen[8 - len(view.hand) :]
        hands: dict[Player, list[Card]] = {me: own}
        others = [p for p in range(NUM_PLAYERS) if p != me]
        for i, p in enumerate(others):
            hands[p] = rest[8 * i : 8 * i + 8]
        return KingState.from_view(view, hands, seed=rng.getrandbits(32))
    gone = set(view.hand) | set(played_cards(view))
    unseen = [c for c in PIQUET_DECK if c not in gone]
    sizes = {p: view.hand_sizes[p] for p in range(NUM_PLAYERS) if p != me}
    dealt = deal_hidden(unseen, sizes, knowledge, rng)
    return KingState.from_view(view, dealt, seed=rng.getrandbits(32))


# ------------------------------------------------------------------------------------------ search model


class KingModel:
    """The search model of the hard player: playouts to the end of the deal with the normal policy."""

    def __init__(self, view: KingView) -> None:
        self.view = view
        self.player = view.player
        self.deal_index = view.deal_index
        self.knowledge = infer(view)
        self.has_history = bool(view.tricks_this_deal or view.trick) and view.phase is Phase.PLAY

    def sample_world(self, rng: random.Random) -> State:
        """A world drawn from the view's consistent worlds, resampled by how plausible the others' plays are.

        ``CANDIDATES`` consistent worlds are dealt and one is kept with probability proportional to
        ``INFERENCE_TOLERANCE ** surprises`` (sampling-importance-resampling), so the search spends its
        playouts on the worlds that explain the play so far.
        """
        if not self.has_history or CANDIDATES <= 1:
            return sample_world(self.view, rng, self.knowledge)
        pool = [sample_world(self.view, rng, self.knowledge) for _ in range(CANDIDATES)]
        weights = [INFERENCE_TOLERANCE ** surprises(self.view, w) for w in pool]
        pick = rng.random() * sum(weights)
        for w, world in zip(weights, pool, strict=True):
            pick -= w
            if pick < 0:
                return world
        return pool[-1]

    def playout_action(self, state: State, rng: random.Random) -> KingAction:
        assert isinstance(state, KingState)
        return policy_action(state)

    def is_horizon(self, state: State) -> bool:
        assert isinstance(state, KingState)
        return state.deal_index != self.deal_index or state.is_terminal

    def value(self, state: State) -> float:
        assert isinstance(state, KingState)
        return float(state.score_sheet[self.deal_index][self.player])


def surprises(view: KingView, world: KingState) -> int:
    """How many of this deal's plays by the other players the normal player would not have made in ``world``.

    The deal is replayed from its start with the hands of ``world`` (plus the cards played since); a play
    where the player had a choice and the normal policy picks another card counts as one surprise.
    """
    plays = [pc for t in view.tricks_this_deal for pc in t.plays]
    plays.extend(view.trick)
    if not plays:
        return 0
    hands = [list(h) for h in world.hands]
    for p, c in plays:
        hands[p].append(c)
    first_leader = view.tricks_this_deal[0].leader if view.tricks_this_deal else view.leader
    replay = KingState.from_position(
        hands,
        deal_index=view.deal_index,
        dealer=view.dealer,
        leader=first_leader,
        trump=view.trump,
        options=view.options,
    )
    count = 0
    me = view.player
    for p, c in plays:
        action = PLAYS[c]
        if p != me and len(replay.legal_actions()) > 1 and policy_action(replay) != action:
            count += 1
        replay.apply(action)
    return count


def policy_action(state: KingState) -> KingAction:
    """The normal player's move in a full state, seeing only what that player could see."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if state.phase is Phase.CHOOSE_TRUMP:
        return pick_trump(state.view(state.current_player).hand)
    me = state.current_player
    hands = state.hands
    outstanding = [c for p in range(NUM_PLAYERS) if p != me for c in hands[p]]
    table = Table(
        hands[me],
        [a.card for a in legal if isinstance(a, Play)],
        state.trick,
        state.contract,
        state.trump,
        outstanding,
        state.tricks_done,
    )
    return PLAYS[pick_card(table)]


# ------------------------------------------------------------------------------------------ the players


INFERENCE_TOLERANCE = 0.3
"""The odds of a candidate world per play of the others that the normal player would not have made there."""
CANDIDATES = 4
"""Consistent worlds dealt for each world the search keeps (the most plausible ones are kept more often)."""
UNLIKELY_ODDS = 0.1
"""How much less often the sampler gives a player a card their play so far suggests they do not hold."""
"""The weight factor of a world per play of the others that the normal player would not have made there."""
HARD_WORLDS = 64
HARD_TRUMP_WORLDS = 40
HARD_TIME_MS = 300.0


def normal_action(view: KingView) -> KingAction:
    if view.phase is Phase.CHOOSE_TRUMP:
        return pick_trump(view.hand)
    return PLAYS[pick_card(table_from_view(view))]


def easy_action(view: KingView, rng: random.Random) -> KingAction:
    legal = view.legal_actions
    if rng.random() < EASY_BLUNDER_RATE:
        return legal[rng.randrange(len(legal))]
    return normal_action(view)


def hard_action(
    view: KingView, rng: random.Random, budget_ms: float | None = None, iterations: int | None = None
) -> KingAction:
    legal = list(view.legal_actions)
    if len(legal) == 1:
        return legal[0]
    trump_phase = view.phase is Phase.CHOOSE_TRUMP
    worlds = iterations if iterations is not None else (HARD_TRUMP_WORLDS if trump_phase else HARD_WORLDS)
    budget = SearchBudget(worlds=worlds, time_ms=HARD_TIME_MS if budget_ms is None else budget_ms)
    if not trump_phase:
        # Cards of equal value: neighbouring ranks of one suit in my hand with nothing between them out.
        legal = _distinct_plays(view, legal)
        if len(legal) == 1:
            return legal[0]
    result = pimc(legal, KingModel(view), rng, budget)
    action: KingAction = result.action
    return action


def _distinct_plays(view: KingView, legal: Sequence[KingAction]) -> list[KingAction]:
    """The legal plays, one per run of touching cards (cards with no unseen card between them play alike).

    Kept only where the run holds no penalty card of the contract, so that a choice between e.g. Q♠ and J♠
    in «мальчики» is still searched.
    """
    pen = CARD_PENALTY[view.contract] if view.contract is not None else _NO_PENALTY
    gone = set(played_cards(view))
    mine = set(view.hand)
    kept: list[KingAction] = []
    previous: Card | None = None
    for a in sorted(legal, key=lambda a: a.card.index if isinstance(a, Play) else -1):
        if not isinstance(a, Play):
            kept.append(a)
            continue
        c = a.card
        if previous is not None and previous.suit is c.suit and not pen[c.index] and not pen[previous.index]:
            between = [
                x
                for x in PIQUET_DECK
                if x.suit is c.suit and previous.rank < x.rank < c.rank and x not in gone
            ]
            if all(x in mine for x in between):
                previous = c
                continue
        kept.append(a)
        previous = c
    return kept


def describe(view: KingView, action: KingAction) -> str:
    if isinstance(action, ChooseTrump):
        seen = " ".join(c.ru for c in view.hand)
        name = "по последней" if action.suit is None else f"козырь {action.suit.symbol}"
        return f"видит {seen}: {name}"
    where = (
        view.contract.value
        if view.contract is not None
        else f"козырь {view.trump.symbol if view.trump else '?'}"
    )
    trick = " ".join(c.ru for _, c in view.trick)
    return f"[{where}] {trick + ' → ' if trick else 'ходит '}{action.card.ru}"
