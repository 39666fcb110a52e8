"""Кинг invariants over many seeded random games, replay, views and worlds built from views."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.cards import PIQUET_DECK, Card, Suit
from engine.core import IllegalActionError, replay
from engine.king import (
    Contract,
    KingGame,
    KingIllegal,
    KingOptions,
    KingState,
    Phase,
    Play,
)
from tests.tiers import size

GAMES = size(120, 1000)
"""Random games checked move by move (every run; all of them in the slow tier, FULL_TESTS=1)."""
DEEP_GAMES = size(30, 60)
"""Games in which every move is also checked against a reference rule and every view for leaks."""

DECK = frozenset(PIQUET_DECK)
KH = Card.parse("Kh")
AH = Card.parse("Ah")


def reference_legal(state: KingState) -> set[Card]:
    """The legal cards by a direct reading of the rules (independent of the engine's code)."""
    hand = set(state.hands[state.current_player])
    trick = state.trick
    contract = state.contract
    if not trick:
        if contract in (Contract.NO_HEARTS, Contract.NO_KING, Contract.ERALASH):
            others = {c for c in hand if c.suit is not Suit.HEARTS}
            return others or hand
        return hand
    led = trick[0][1].suit
    follow = {c for c in hand if c.suit is led}
    king_rule = contract in (Contract.NO_KING, Contract.ERALASH) and KH in hand
    if follow:
        if king_rule and led is Suit.HEARTS and any(c is AH for _, c in trick):
            return {KH}
        return follow
    if king_rule:
        return {KH}
    if state.trump is not None:
        return {c for c in hand if c.suit is state.trump} or hand
    return hand


def check_view(state: KingState, player: int) -> None:
    view = state.view(player)
    hidden = {c for p, h in enumerate(state.hands) if p != player for c in h}
    shown: set[Card] = set(view.hand)
    shown.update(c for _, c in view.trick)
    shown.update(c for t in view.tricks_this_deal for _, c in t.plays)
    shown.update(c for cs in view.penalty_cards for c in cs)
    if view.tricks_this_deal:  # otherwise the last trick is the previous deal's, whose cards were dealt again
        assert view.last_trick == view.tricks_this_deal[-1]
    assert not shown & hidden, "a view shows another player's card"
    if view.phase is Phase.CHOOSE_TRUMP:
        assert len(view.hand) == (3 if player == state.chooser else 0)
    else:
        assert view.hand == state.hands[player]
    if view.trump_card_shown is not None:
        assert view.trump_card_shown.suit is view.trump
    assert bool(view.legal_actions) == (player == state.current_player)
    assert "seed" not in type(view).__dataclass_fields__


def probe_illegal(state: KingState) -> None:
    """Every card in hand that is not legal is refused with a Кинг reason, and nothing changes."""
    if state.phase is not Phase.PLAY:
        return
    legal = set(state.legal_actions())
    before = state.view(state.current_player)
    for c in state.hands[state.current_player]:
        if Play(c) in legal:
            continue
        with pytest.raises(IllegalActionError) as info:
            state.apply(Play(c))
        assert isinstance(info.value.reason, KingIllegal)
        if info.value.reason in (KingIllegal.MUST_FOLLOW_SUIT, KingIllegal.MUST_TRUMP):
            suit = info.value.params["suit"]
            assert any(a.card.suit is suit for a in legal if isinstance(a, Play))
    assert state.view(state.current_player) == before


def play_games() -> Iterator[tuple[int, KingState, list[int]]]:
    """Play the seeded random games, checking the per-move invariants; yield (seed, final state, moves/deal)."""
    game = KingGame()
    for seed in range(GAMES):
        deep = seed < DEEP_GAMES
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        choice = rng.choice
        moves_per_deal = [0] * 15
        while not state.is_terminal:
            actions = state.legal_actions()
            assert actions, "no legal action before the end"
            if deep:
                if state.phase is Phase.PLAY:
                    assert {a.card for a in actions if isinstance(a, Play)} == reference_legal(state)
                for p in range(4):
                    check_view(state, p)
                probe_illegal(state)
            deal = state.deal_index
            done = state.tricks_done
            state.apply(choice(actions))
            moves_per_deal[deal] += 1
            hands = state.hands
            trick = state.trick
            tricks = state.tricks_this_deal
            if state.deal_index == deal and not state.is_terminal:
                in_play = (
                    [c for h in hands for c in h]
                    + [c for _, c in trick]
                    + [c for t in tricks for _, c in t.plays]
                )
                assert len(in_play) == 32 and set(in_play) == DECK
                assert all(len(t.plays) == 4 for t in tricks)
                assert len(tricks) == state.tricks_done >= done
            last = state.last_trick
            if last is not None:
                assert len(last.plays) == 4
        yield seed, state, moves_per_deal


@pytest.mark.slow
def test_random_games_keep_every_invariant() -> None:
    games = 0
    for seed, state, moves in play_games():
        games += 1
        sheet = state.score_sheet
        order = state.game.options.order
        assert len(sheet) == 15 == state.deals_completed
        for i, row in enumerate(sheet):
            if i < 7:
                assert all(v <= 0 for v in row)
                assert -sum(row) == (96 if order[i] is Contract.ERALASH else 16)
                if order[i] in (Contract.NO_TRICKS, Contract.NO_LAST_TWO, Contract.ERALASH):
                    assert moves[i] == 32  # never stopped early
                else:
                    assert 4 <= moves[i] <= 32 and moves[i] % 4 == 0
            else:
                assert all(v >= 0 and v % 3 == 0 for v in row)
                assert sum(row) == 24
                assert moves[i] == 33  # the trump choice and 32 cards
        outcome = state.outcome
        assert outcome is not None
        assert sum(outcome.scores) == 0 == sum(outcome.settlement)
        assert outcome.scores == tuple(sum(row[p] for row in sheet) for p in range(4))
        assert set(outcome.winners) == {p for p in range(4) if outcome.scores[p] == max(outcome.scores)}
        if seed % 2 == 0:
            again = replay(state.record())
            assert isinstance(again, KingState)
            assert again.score_sheet == sheet
            assert again.history == state.history
            assert again.view(1) == state.view(1)
    assert games == GAMES


def test_some_negative_deals_stop_early() -> None:
    stopped = 0
    game = KingGame(KingOptions(stop_when_decided=True))
    for seed in range(30):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while state.deal_index < 7:
            deal = state.deal_index
            tricks = state.tricks_done
            state.apply(rng.choice(state.legal_actions()))
            if state.deal_index != deal and tricks < 7:
                stopped += 1
                assert state.game.options.order[deal].can_stop_early
    assert stopped > 0


def sample_positions(count: int) -> Iterator[KingState]:
    """States at random moments of random games (both parts, both phases)."""
    rng = random.Random(12345)
    for i in range(count):
        state = KingGame().new_initial_state(500 + i)
        stop_at = rng.randrange(460)
        while not state.is_terminal and state.version < stop_at:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            yield state


def finish(state: KingState, seed: int) -> KingState:
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_world_from_view_matches_the_view_and_plays_on_identically() -> None:
    positions = 0
    for state in sample_positions(80):
        positions += 1
        for player in range(4):
            view = state.view(player)
            world = KingState.from_view(view, dict(enumerate(state.hands)), seed=state.seed)
            assert world.view(player) == view
            if player == 0:
                expected = finish(state.clone(), state.version)
                got = finish(world, state.version)
                assert got.score_sheet == expected.score_sheet
                assert got.history == expected.history[state.version :]
    assert positions > 60


def test_world_from_view_in_the_trump_choice() -> None:
    state = KingGame().new_initial_state(8)
    rng = random.Random(8)
    while state.phase is not Phase.CHOOSE_TRUMP:
        state.apply(rng.choice(state.legal_actions()))
    chooser = state.current_player
    view = state.view(chooser)
    # the chooser's true hand in dealt order: the 3 seen cards, then the rest with the 8th card last
    rng2 = random.Random(1)
    hidden = [c for c in DECK if c not in view.hand]
    rng2.shuffle(hidden)
    hands = {p: hidden[8 * i : 8 * i + 8] for i, p in enumerate(p for p in range(4) if p != chooser)}
    hands[chooser] = [*view.hand, *hidden[24:]]
    world = KingState.from_view(view, hands)
    assert world.view(chooser) == view
    world.apply(world.game.parse_action("t:last"))
    assert world.trump is hidden[-1].suit
    assert world.trump_card_shown is hidden[-1]
    other = (chooser + 1) % 4
    assert KingState.from_view(state.view(other), dict(enumerate(state.hands))).view(other) == state.view(
        other
    )


def test_clone_is_independent() -> None:
    state = KingGame().new_initial_state(4)
    copy = state.clone()
    state.apply(state.legal_actions()[0])
    assert copy.version == 0 and state.version == 1
    assert copy.hands != state.hands
    assert finish(copy, 1).score_sheet == finish(KingGame().new_initial_state(4), 1).score_sheet
