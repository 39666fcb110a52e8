"""Independent review of the Кинг engine against spec/king.md.

Trick winners, penalties, deal totals, the moment a deal stops and the rotation of dealers and choosers are
recomputed here from the spec alone and compared with the engine over seeded random parties.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine.cards import PIQUET_DECK, Card, Rank, Suit, parse_cards
from engine.core import IllegalActionError
from engine.king import (
    CHOOSE_TRUMP_ACTIONS,
    ChooseTrump,
    Contract,
    KingGame,
    KingOptions,
    KingState,
    Phase,
    Play,
)
from tests.tiers import size

KH = Card.parse("Kh")
GAMES = 40
STOPPABLE = {Contract.NO_JACKS, Contract.NO_QUEENS, Contract.NO_HEARTS, Contract.NO_KING}


def card_penalty(contract: Contract, card: Card) -> int:
    eralash = contract is Contract.ERALASH
    points = 0
    if (eralash or contract is Contract.NO_JACKS) and card.rank is Rank.JACK:
        points += 4
    if (eralash or contract is Contract.NO_QUEENS) and card.rank is Rank.QUEEN:
        points += 4
    if (eralash or contract is Contract.NO_HEARTS) and card.suit is Suit.HEARTS:
        points += 2
    if (eralash or contract is Contract.NO_KING) and card is KH:
        points += 16
    return points


def trick_penalty(contract: Contract, number: int) -> int:
    eralash = contract is Contract.ERALASH
    points = 2 if eralash or contract is Contract.NO_TRICKS else 0
    if (eralash or contract is Contract.NO_LAST_TWO) and number >= 6:
        points += 8
    return points


def trick_winner(plays: Sequence[tuple[int, Card]], trump: Suit | None) -> int:
    trumps = [pc for pc in plays if pc[1].suit is trump]
    pool = trumps or [pc for pc in plays if pc[1].suit is plays[0][1].suit]
    return max(pool, key=lambda pc: pc[1].rank)[0]


def test_parties_score_and_rotate_as_the_spec_says() -> None:
    for seed in range(GAMES):
        rng = random.Random(seed)
        options = KingOptions(
            order=tuple(rng.sample(list(Contract), 7)),
            king_forced_on_heart_lead=rng.random() < 0.5,
            stop_when_decided=rng.random() < 0.7,
        )
        state = KingGame(options).new_initial_state(seed)
        dealers = []
        while not state.is_terminal:
            deal, contract = state.deal_index, state.contract
            dealers.append(state.dealer)
            if deal < 7:
                assert contract is options.order[deal] and state.phase is Phase.PLAY
                assert state.current_player == (state.dealer + 1) % 4
            else:
                chooser = (state.dealer - 1) % 4  # the dealer's right-hand neighbour
                assert contract is None and state.phase is Phase.CHOOSE_TRUMP
                assert state.current_player == state.chooser == chooser
                choice = rng.choice(CHOOSE_TRUMP_ACTIONS)
                chooser_hand = state.hands[chooser]
                state.apply(choice)
                assert state.current_player == state.leader == chooser  # the chooser leads
                if choice.suit is None:
                    assert (
                        state.trump_card_shown in chooser_hand and state.trump_card_shown.suit is state.trump
                    )
                    assert all(state.view(p).trump_card_shown == state.trump_card_shown for p in range(4))
                else:
                    assert state.trump is choice.suit and state.trump_card_shown is None
            points = [0] * 4
            left = sum(card_penalty(contract, c) for c in PIQUET_DECK) if contract else 0
            number = 0
            while state.deal_index == deal:
                trick = list(state.trick)
                player, trump = state.current_player, state.trump
                play = rng.choice(state.legal_actions())
                assert isinstance(play, Play)
                state.apply(play)
                if len(trick) < 3:
                    continue
                plays = [*trick, (player, play.card)]
                winner = trick_winner(plays, trump)
                if contract is None:
                    points[winner] += 3
                else:
                    taken = sum(card_penalty(contract, c) for _, c in plays)
                    points[winner] -= trick_penalty(contract, number) + taken
                    left -= taken
                number += 1
                decided = contract in STOPPABLE and options.stop_when_decided and left == 0
                assert (state.deal_index != deal) == (number == 8 or decided)  # stops exactly then
                if state.deal_index == deal:
                    assert state.current_player == state.leader == winner
            assert state.score_sheet[deal] == tuple(points)
            assert sum(points) == (24 if contract is None else -96 if contract is Contract.ERALASH else -16)
        first_positive = (dealers[6] + 1) % 4
        assert dealers[:7] == [(dealers[0] + i) % 4 for i in range(7)]
        assert dealers[7:] == [(first_positive - i) % 4 for i in range(8)]  # the chooser deals next
        assert len(state.score_sheet) == 15 and sum(state.results) == 0


def snapshot(state: KingState) -> tuple[object, ...]:
    return (tuple(state.view(p) for p in range(4)), state.record(), state.hands, state.results)


@pytest.mark.slow
def test_refused_actions_change_nothing() -> None:
    junk: list[object] = [None, "Td", ChooseTrump(None), *CHOOSE_TRUMP_ACTIONS]
    refused = 0
    for seed in range(size(2, 4)):
        rng = random.Random(seed)
        state = KingGame().new_initial_state(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            held = state.hands[state.current_player]
            cards = [*held, *rng.sample(PIQUET_DECK, 3)]  # refusals for a rule, and for a card not held
            for action in [*(Play(c) for c in cards), *junk]:
                if action in legal:
                    continue
                before = snapshot(state)
                with pytest.raises(IllegalActionError):
                    state.apply(action)  # type: ignore[arg-type]
                assert snapshot(state) == before
                refused += 1
            state.apply(rng.choice(legal))
        before = snapshot(state)
        with pytest.raises(IllegalActionError):
            state.apply(Play(PIQUET_DECK[0]))
        assert snapshot(state) == before
    assert refused > 1000


def test_the_trump_choice_shows_only_the_first_three_cards() -> None:
    # dealer 1: seat 0 names trump from the first 3 of its cards (dealt order); the 8th card decides «по последней»
    seen = parse_cards("Ac Kc Qc")
    rest = [c for c in PIQUET_DECK if c not in seen]
    views = []
    for seed in range(3):
        order = rest[:]
        random.Random(seed).shuffle(order)
        hands = [seen + order[:5], order[5:13], order[13:21], order[21:29]]
        state = KingState.from_position(hands, deal_index=7, dealer=1)
        views.append([state.view(p) for p in range(4)])
        last = state.clone()
        last.apply(ChooseTrump(None))
        assert last.trump_card_shown == order[4] and last.trump is order[4].suit
    for p in range(4):
        assert views[0][p] == views[1][p] == views[2][p]  # nothing hidden shows through any view
    assert sorted(views[0][0].hand) == sorted(seen)
    assert all(views[0][p].hand == () for p in (1, 2, 3))
