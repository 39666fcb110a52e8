"""Кинг rules on hand-built positions: following suit, hearts lead, K♥, penalties, stopping, trump."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.cards import Card, Suit, parse_cards
from engine.core import CommonIllegal, IllegalActionError, make_game, replay
from engine.king import (
    DEFAULT_ORDER,
    ChooseTrump,
    Contract,
    KingAction,
    KingGame,
    KingIllegal,
    KingOptions,
    KingState,
    Phase,
    Play,
    parse_action,
)


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(code: str) -> Card:
    return Card.parse(code)


def legal_codes(state: KingState) -> list[str]:
    return sorted(a.code for a in state.legal_actions())


def play(state: KingState, *codes: str) -> None:
    for code in codes:
        state.apply(Play(card(code)))


def refuse(state: KingState, action: object) -> IllegalActionError:
    """Apply an action that must be refused; check that nothing changed and return the error."""
    player = max(state.current_player, 0)
    before = state.view(player)
    hands = state.hands
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)  # type: ignore[arg-type]
    assert state.view(player) == before
    assert state.hands == hands
    return info.value


# ---------------------------------------------------------------- following suit


def test_must_follow_suit_when_holding_the_led_suit() -> None:
    state = KingState.from_position(
        [cards("9c Ad"), cards("7c Ac"), cards("8d 8s"), cards("Tc 9s")],
        contract=Contract.NO_TRICKS,
        dealer=3,
    )
    assert state.current_player == 0
    play(state, "9c")
    assert legal_codes(state) == ["7c", "Ac"]
    error = refuse(state, Play(card("Ad")))
    assert error.reason is CommonIllegal.NOT_IN_HAND
    error = refuse(state, Play(card("8s")))  # not in player 1's hand either
    assert error.reason is CommonIllegal.NOT_IN_HAND


def test_follow_suit_error_names_the_suit() -> None:
    state = KingState.from_position(
        [cards("9d Ad"), cards("7d As"), cards("8d 8s"), cards("Td 9s")],
        contract=Contract.NO_TRICKS,
        dealer=3,
    )
    play(state, "9d")
    error = refuse(state, Play(card("As")))
    assert error.reason is KingIllegal.MUST_FOLLOW_SUIT
    assert error.params["suit"] is Suit.DIAMONDS


def test_follow_suit_error_when_the_only_heart_is_the_king() -> None:
    state = KingState.from_position(
        [cards("9h Ad"), cards("Kh As"), cards("8d 8h"), cards("Td 9s")],
        contract=Contract.NO_TRICKS,
        dealer=3,
    )
    play(state, "9h")
    assert legal_codes(state) == ["Kh"]
    error = refuse(state, Play(card("As")))
    assert error.reason is KingIllegal.MUST_FOLLOW_SUIT
    assert error.params["suit"] is Suit.HEARTS


def test_void_in_led_suit_may_play_anything_in_a_negative_deal() -> None:
    state = KingState.from_position(
        [cards("9c Ad"), cards("7h As"), cards("8c 8s"), cards("Tc 9s")],
        contract=Contract.NO_QUEENS,
        dealer=3,
    )
    play(state, "9c")
    assert legal_codes(state) == ["7h", "As"]


def test_highest_card_of_led_suit_takes_the_trick_and_leads_next() -> None:
    state = KingState.from_position(
        [cards("9c 7d"), cards("Ac 8d"), cards("Kd 9d"), cards("Tc Jd")],
        contract=Contract.NO_TRICKS,
        dealer=3,
    )
    play(state, "9c", "Ac", "Kd", "Tc")  # K♦ is higher but off-suit
    assert state.tricks_won == (0, 1, 0, 0)
    assert state.current_player == 1
    assert state.leader == 1
    assert state.deal_points == (0, -2, 0, 0)


# ---------------------------------------------------------------- hearts lead


@pytest.mark.parametrize("contract", [Contract.NO_HEARTS, Contract.NO_KING, Contract.ERALASH])
def test_no_heart_lead_while_holding_another_suit(contract: Contract) -> None:
    state = KingState.from_position(
        [cards("7h 9h 8c"), cards("Ac Ad As"), cards("Kc Kd Ks"), cards("Qc Qd Qs")],
        contract=contract,
        dealer=3,
    )
    assert legal_codes(state) == ["8c"]
    error = refuse(state, Play(card("7h")))
    assert error.reason is KingIllegal.NO_HEART_LEAD


@pytest.mark.parametrize("contract", [Contract.NO_HEARTS, Contract.NO_KING, Contract.ERALASH])
def test_heart_lead_allowed_when_only_hearts_remain(contract: Contract) -> None:
    state = KingState.from_position(
        [cards("7h 9h"), cards("Ac Ad"), cards("Kc Kd"), cards("Qc Qd")],
        contract=contract,
        dealer=3,
    )
    assert legal_codes(state) == ["7h", "9h"]


@pytest.mark.parametrize("contract", [Contract.NO_TRICKS, Contract.NO_JACKS, Contract.NO_LAST_TWO])
def test_heart_lead_free_in_other_contracts(contract: Contract) -> None:
    state = KingState.from_position(
        [cards("7h 8c"), cards("Ac Ad"), cards("Kc Kd"), cards("Qc Qd")],
        contract=contract,
        dealer=3,
    )
    assert legal_codes(state) == ["7h", "8c"]


# ---------------------------------------------------------------- the king of hearts


@pytest.mark.parametrize("contract", [Contract.NO_KING, Contract.ERALASH])
def test_king_of_hearts_forced_when_void(contract: Contract) -> None:
    state = KingState.from_position(
        [cards("7c 8d"), cards("Kh As"), cards("8c 9d"), cards("9c Td")],
        contract=contract,
        dealer=3,
    )
    play(state, "7c")
    assert legal_codes(state) == ["Kh"]
    error = refuse(state, Play(card("As")))
    assert error.reason is KingIllegal.MUST_PLAY_KING_OF_HEARTS


def test_king_of_hearts_not_forced_in_other_contracts() -> None:
    state = KingState.from_position(
        [cards("7c 8d"), cards("Kh As"), cards("8c 9d"), cards("9c Td")],
        contract=Contract.NO_HEARTS,
        dealer=3,
    )
    play(state, "7c")
    assert legal_codes(state) == ["As", "Kh"]


@pytest.mark.parametrize("contract", [Contract.NO_KING, Contract.ERALASH])
def test_king_of_hearts_forced_on_heart_lead_once_ace_is_in(contract: Contract) -> None:
    hands = [cards("Ah 7h"), cards("Kh 8h"), cards("9h Th"), cards("Jh Qh")]
    state = KingState.from_position(hands, contract=contract, dealer=3)
    play(state, "Ah")
    assert legal_codes(state) == ["Kh"]
    error = refuse(state, Play(card("8h")))
    assert error.reason is KingIllegal.MUST_PLAY_KING_OF_HEARTS


def test_king_of_hearts_forced_when_ace_comes_second() -> None:
    hands = [cards("7h 8h"), cards("Ah 8c"), cards("Kh 9h"), cards("Jh Qh")]
    state = KingState.from_position(hands, contract=Contract.NO_KING, dealer=3)
    play(state, "7h")
    assert legal_codes(state) == ["Ah"]
    play(state, "Ah")
    assert legal_codes(state) == ["Kh"]


def test_heart_lead_without_the_ace_leaves_a_free_choice() -> None:
    hands = [cards("7h 8h"), cards("Kh 9h"), cards("Ah Th"), cards("Jh Qh")]
    state = KingState.from_position(hands, contract=Contract.NO_KING, dealer=3)
    play(state, "7h")
    assert legal_codes(state) == ["9h", "Kh"]
    play(state, "9h", "Ah")  # now A♥ is in the trick, but player 3 holds no K♥
    assert legal_codes(state) == ["Jh", "Qh"]


def test_king_on_heart_lead_with_ace_follows_the_option() -> None:
    hands = [cards("Ah 7h"), cards("Kh 8h"), cards("9h Th"), cards("Jh Qh")]
    options = KingOptions(king_forced_on_heart_lead=False)
    state = KingState.from_position(hands, contract=Contract.NO_KING, dealer=3, options=options)
    play(state, "Ah")
    assert legal_codes(state) == ["8h", "Kh"]
    # the void case stays in force with the option off
    hands = [cards("7c 8d"), cards("Kh As"), cards("8c 9d"), cards("9c Td")]
    state = KingState.from_position(hands, contract=Contract.ERALASH, dealer=3, options=options)
    play(state, "7c")
    assert legal_codes(state) == ["Kh"]


# ---------------------------------------------------------------- penalties


def one_trick(contract: Contract, trick: str, *, tricks_done: int = 0) -> KingState:
    """Player 0 leads; the four cards of ``trick`` are played in turn (players 0..3), plus a spare card each.

    The deal is not stopped when decided, so the trick's score stays on this deal's running points.
    """
    played = cards(trick)
    spares = cards("7s 8s 9s Ts")
    hands = [[played[p], spares[p]] for p in range(4)]
    options = KingOptions(stop_when_decided=False)
    state = KingState.from_position(
        hands, contract=contract, dealer=3, tricks_done=tricks_done, options=options
    )
    for c in played:
        state.apply(Play(c))
    return state


@pytest.mark.parametrize(
    ("contract", "trick", "winner", "penalty", "penalty_cards"),
    [
        (Contract.NO_TRICKS, "7c Ac 8c 9c", 1, 2, ""),
        (Contract.NO_JACKS, "Jc Jd Qc 8c", 2, 8, "Jc Jd"),
        (Contract.NO_QUEENS, "Qd Qs Ad 9h", 2, 8, "Qd Qs"),
        (Contract.NO_HEARTS, "7c Th 9h Qh", 0, 6, "9h Th Qh"),
        (Contract.NO_KING, "7d Kh 9d 8d", 2, 16, "Kh"),
        (Contract.ERALASH, "Kd Kh Qh Jc", 0, 2 + 16 + 4 + 4 + 2 + 2, "Kh Qh Jc"),
    ],
)
def test_penalty_of_a_trick(
    contract: Contract, trick: str, winner: int, penalty: int, penalty_cards: str
) -> None:
    state = one_trick(contract, trick)
    expected = [0, 0, 0, 0]
    expected[winner] = -penalty
    assert state.deal_points == tuple(expected)
    assert sorted(state.penalty_cards[winner]) == sorted(cards(penalty_cards))
    assert state.view((winner + 1) % 4).penalty_cards[winner] == state.penalty_cards[winner]


def test_no_penalty_for_harmless_trick_in_card_contracts() -> None:
    for contract in (Contract.NO_JACKS, Contract.NO_QUEENS, Contract.NO_HEARTS, Contract.NO_KING):
        state = one_trick(contract, "7c Ac 8c 9c")
        assert state.deal_points == (0, 0, 0, 0)
        assert state.tricks_won == (0, 1, 0, 0)


def test_last_two_tricks_cost_eight_each() -> None:
    hands = [cards("Ac Ad As"), cards("7c 7d 7s"), cards("8c 8d 8s"), cards("9c 9d 9s")]
    state = KingState.from_position(hands, contract=Contract.NO_LAST_TWO, dealer=3)
    assert state.tricks_done == 5
    play(state, "Ac", "7c", "8c", "9c")  # the 6th trick is free
    assert state.deal_points == (0, 0, 0, 0)
    play(state, "Ad", "7d", "8d", "9d")  # the 7th
    assert state.deal_points == (-8, 0, 0, 0)
    deal = state.deal_index
    play(state, "As", "7s", "8s", "9s")  # the 8th ends the deal
    assert state.deal_index == deal + 1
    assert state.score_sheet[-1] == (-16, 0, 0, 0)


def test_positive_deal_trick_is_worth_three() -> None:
    hands = [cards("Ac 7d"), cards("7c 8d"), cards("8c 9d"), cards("9c Td")]
    state = KingState.from_position(hands, deal_index=9, dealer=1, trump=Suit.SPADES)
    assert state.current_player == 0  # the chooser leads
    play(state, "Ac", "7c", "8c", "9c")
    assert state.deal_points == (3, 0, 0, 0)


# ---------------------------------------------------------------- stopping a decided deal


def jacks_position(**kwargs: object) -> KingState:
    hands = [cards("Jc 7d"), cards("Jd 8d"), cards("Jh 9d"), cards("Js Td")]
    return KingState.from_position(hands, contract=Contract.NO_JACKS, dealer=3, **kwargs)  # type: ignore[arg-type]


def test_deal_stops_once_every_penalty_is_taken() -> None:
    state = jacks_position()
    deal = state.deal_index
    play(state, "Jc", "Jd", "Jh", "Js")
    assert state.deal_index == deal + 1  # the ♦ trick is never played
    assert state.score_sheet[-1] == (-16, 0, 0, 0)
    assert state.tricks_done == 0
    assert len(state.hands[0]) == 8


def test_deal_goes_on_without_stop_option() -> None:
    state = jacks_position(options=KingOptions(stop_when_decided=False))
    deal = state.deal_index
    play(state, "Jc", "Jd", "Jh", "Js")
    assert state.deal_index == deal
    assert state.current_player == 0
    play(state, "7d", "8d", "9d", "Td")
    assert state.score_sheet[-1] == (-16, 0, 0, 0)


def test_king_deal_ends_when_king_of_hearts_is_taken() -> None:
    hands = [cards("7c Ah 7d"), cards("Kh 8h 8d"), cards("8c 9h 9d"), cards("9c Th Td")]
    state = KingState.from_position(hands, contract=Contract.NO_KING, dealer=3)
    play(state, "7c")
    play(state, "Kh", "8c", "9c")  # player 1 void in ♣ must drop K♥; player 3 takes it
    assert state.deal_index == DEFAULT_ORDER.index(Contract.NO_KING) + 1
    assert state.score_sheet[-1] == (0, 0, 0, -16)


@pytest.mark.parametrize("contract", [Contract.NO_TRICKS, Contract.NO_LAST_TWO, Contract.ERALASH])
def test_some_contracts_always_play_all_eight_tricks(contract: Contract) -> None:
    # No penalty card is left in play, yet the deal continues.
    hands = [cards("7c 7d"), cards("8c 8d"), cards("9c 9d"), cards("Tc Td")]
    state = KingState.from_position(hands, contract=contract, dealer=3)
    deal = state.deal_index
    play(state, "7c", "8c", "9c", "Tc")
    assert state.deal_index == deal
    assert state.current_player == 3


# ---------------------------------------------------------------- trump


def choosing_position() -> KingState:
    # dealer 1 -> the chooser is player 0; their hand in dealt order: first 3 seen, the last is the 8th card
    hands = [
        cards("Ac Kc Qc 7d 8d 9d Td 7h"),
        cards("Jc Tc 9c 8c Jd Qd Kd Ad"),
        cards("8h 9h Th Jh Qh Kh Ah 7s"),
        cards("8s 9s Ts Js Qs Ks As 7c"),
    ]
    return KingState.from_position(hands, deal_index=7, dealer=1)


def test_chooser_sees_three_cards_and_others_nothing_before_trump() -> None:
    state = choosing_position()
    assert state.phase is Phase.CHOOSE_TRUMP
    assert state.current_player == 0 == state.chooser
    view = state.view(0)
    assert sorted(view.hand) == sorted(cards("Ac Kc Qc"))
    assert len(view.legal_actions) == 5
    for p in (1, 2, 3):
        assert state.view(p).hand == ()
        assert state.view(p).legal_actions == ()
    error = refuse(state, Play(card("Ac")))
    assert error.reason is CommonIllegal.NOT_LEGAL


def test_named_trump() -> None:
    state = choosing_position()
    state.apply(ChooseTrump(Suit.CLUBS))
    assert state.trump is Suit.CLUBS
    assert state.trump_card_shown is None
    assert state.phase is Phase.PLAY
    assert state.current_player == 0  # the chooser leads
    assert len(state.view(2).hand) == 8
    assert state.view(0).trump_card_shown is None


def test_trump_by_the_last_card_is_shown_to_all() -> None:
    state = choosing_position()
    state.apply(parse_action("t:last"))
    assert state.trump is Suit.HEARTS
    for p in range(4):
        assert state.view(p).trump_card_shown == card("7h")
        assert state.view(p).trump is Suit.HEARTS
    error = refuse(state, ChooseTrump(Suit.CLUBS))
    assert error.reason is CommonIllegal.NOT_LEGAL


def test_must_trump_when_void_but_no_need_to_over_trump() -> None:
    hands = [cards("Ad 7c"), cards("As 8c"), cards("7s 8s Tc"), cards("9c Jc")]
    state = KingState.from_position(
        [hands[0], hands[1][:1] + cards("9d"), hands[2], hands[3]], deal_index=8, dealer=1, trump=Suit.SPADES
    )
    play(state, "Ad")
    assert legal_codes(state) == ["9d"]  # follows suit, no trumping
    play(state, "9d")
    assert legal_codes(state) == ["7s", "8s"]  # void in ♦: must trump
    error = refuse(state, Play(card("Tc")))
    assert error.reason is KingIllegal.MUST_TRUMP
    assert error.params["suit"] is Suit.SPADES


def test_under_trump_allowed_and_highest_trump_wins() -> None:
    hands = [cards("Ad 7c"), cards("As 8c"), cards("7s 9h"), cards("9c Jc")]
    state = KingState.from_position(hands, deal_index=8, dealer=1, trump=Suit.SPADES)
    play(state, "Ad", "As")
    assert legal_codes(state) == ["7s"]  # below A♠, still must trump
    play(state, "7s")
    assert legal_codes(state) == ["9c", "Jc"]  # no trump, no ♦: anything
    play(state, "9c")
    assert state.tricks_won == (0, 1, 0, 0)
    assert state.deal_points == (0, 3, 0, 0)


def test_low_trump_beats_ace_of_led_suit() -> None:
    hands = [cards("Ad 7c"), cards("Kd 8c"), cards("7s 9h"), cards("9c Jc")]
    state = KingState.from_position(hands, deal_index=8, dealer=1, trump=Suit.SPADES)
    play(state, "Ad", "Kd", "7s", "9c")
    assert state.tricks_won == (0, 0, 1, 0)
    assert state.current_player == 2


# ---------------------------------------------------------------- rotation over a whole game


def test_dealer_and_chooser_rotation_over_a_whole_game() -> None:
    state = KingGame().new_initial_state(2024)
    rng = random.Random(7)
    starts: list[tuple[int, int, int | None, int]] = []  # deal, dealer, chooser, first to act
    while not state.is_terminal:
        if not starts or starts[-1][0] != state.deal_index:
            starts.append((state.deal_index, state.dealer, state.chooser, state.current_player))
        state.apply(rng.choice(state.legal_actions()))
    assert [s[0] for s in starts] == list(range(15))
    first = starts[0][1]
    for deal, dealer, chooser, to_act in starts[:7]:
        assert dealer == (first + deal) % 4
        assert chooser is None
        assert to_act == (dealer + 1) % 4  # the dealer's left neighbour leads
    assert starts[7][1] == (starts[6][1] + 1) % 4
    choosers = []
    for (_, dealer, chooser, to_act), nxt in zip(starts[7:], [*starts[8:], None], strict=True):
        assert chooser == (dealer - 1) % 4  # the dealer's right-hand neighbour
        assert to_act == chooser
        choosers.append(chooser)
        if nxt is not None:
            assert nxt[1] == chooser  # the chooser deals next
    assert sorted(choosers) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [(b - a) % 4 for a, b in itertools.pairwise(choosers)] == [3] * 7


def test_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {KingGame().new_initial_state(seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert KingGame().new_initial_state(11).dealer == KingGame().new_initial_state(11).dealer


# ---------------------------------------------------------------- options, order, codes


def test_custom_order_is_played() -> None:
    order = tuple(reversed(DEFAULT_ORDER))
    game = make_game("king", {"order": [str(c) for c in order]})
    assert isinstance(game, KingGame)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    seen: list[Contract | None] = []
    while state.deal_index < 7:
        if not seen or seen[-1] != state.contract:
            seen.append(state.contract)
        state.apply(rng.choice(state.legal_actions()))
    assert tuple(seen) == order
    assert state.contract is None
    assert state.phase is Phase.CHOOSE_TRUMP
    assert [abs(sum(row)) for row in state.score_sheet] == [96, 16, 16, 16, 16, 16, 16]


@pytest.mark.parametrize(
    "options",
    [
        {"order": ["tricks", "jacks"]},
        {"order": ["tricks"] * 7},
        {"order": ["tricks", "jacks", "queens", "hearts", "last2", "king", "nope"]},
        {"order": "tricks"},
        {"stop_when_decided": "yes"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        make_game("king", options)


def test_options_round_trip() -> None:
    options = KingOptions(order=tuple(reversed(DEFAULT_ORDER)), stop_when_decided=False)
    assert KingOptions.from_dict(options.to_dict()) == options
    assert make_game("king", options.to_dict()) == KingGame(options)


def test_action_codes_round_trip() -> None:
    game = KingGame()
    assert game.parse_action("Td") == Play(card("Td"))
    assert game.parse_action("t:h") == ChooseTrump(Suit.HEARTS)
    assert game.parse_action("t:last") == ChooseTrump(None)
    actions: list[KingAction] = [
        *(Play(c) for c in cards("7c Ah Ks Td")),
        *(ChooseTrump(s) for s in [*Suit, None]),
    ]
    for action in actions:
        assert game.parse_action(action.code) == action
        assert len(action.code) <= 6
    for bad in ["2c", "", "t:", "t:x", "Tdd", "10♦ "]:
        with pytest.raises(IllegalActionError) as info:
            game.parse_action(bad)
        assert info.value.reason is CommonIllegal.MALFORMED


def test_replay_of_a_finished_game_and_game_over() -> None:
    state = KingGame().new_initial_state(99)
    rng = random.Random(99)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    again = replay(state.record())
    assert isinstance(again, KingState)
    assert again.score_sheet == state.score_sheet
    assert again.view(0) == state.view(0)
    assert state.legal_actions() == ()
    error = refuse(state, Play(card("Ac")))
    assert error.reason is CommonIllegal.GAME_OVER
