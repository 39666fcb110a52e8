"""Bot players: legal, deterministic, blind to hidden cards, within budget, and sensible in plain positions."""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from engine.ai import Level, choose_action
from engine.cards import FULL_DECK, PIQUET_DECK, Card, Suit, parse_cards
from engine.core import make_game
from engine.king import ChooseTrump, Contract, KingState, Phase, Play
from engine.king.ai import players as king_ai
from engine.king.rules import KING_OF_HEARTS
from engine.konchinka import Capture, KonchinkaGame, KonchinkaOptions, KonchinkaState, Lay
from engine.konchinka.ai import players as konchinka_ai

FAST_HARD = {"iterations": 2, "budget_ms": 10_000.0}
"""A hard player that searches two worlds: cheap, and the iteration cap (not the clock) decides."""

KONCHINKA_OPTIONS = [
    {"players": 2},
    {"players": 3, "variant": "points"},
    {"players": 4, "multi_capture": True},
    {"players": 2, "variant": "points", "forced_capture": True, "multi_capture": True},
    {"players": 3, "early_finish": False, "target": 5},
    {"players": 2, "target": 3},
]
KING_OPTIONS = [{}, {"king_forced_on_heart_lead": False, "stop_when_decided": False}]


def positions(game: str, options: dict[str, Any], seed: int, every: int) -> Iterator[Any]:
    """States along one party played by normal players (every ``every``-th decision is yielded)."""
    state = make_game(game, options).new_initial_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal:
        if step % every == 0:
            yield state.clone()
        state.apply(choose_action(state.view(state.current_player), Level.NORMAL, rng))
        step += 1


def _act(view: Any, level: Level, seed: int) -> Any:
    extra = FAST_HARD if level is Level.HARD else {}
    return choose_action(view, level, random.Random(seed), **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options", KONCHINKA_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_konchinka_every_level_plays_legal_moves(options: dict[str, Any]) -> None:
    checked = 0
    for state in positions("konchinka", options, seed=11, every=7):
        view = state.view(state.current_player)
        for level in Level:
            action = _act(view, level, checked)
            assert action in view.legal_actions
            state.clone().apply(action)
        checked += 1
    assert checked > 5


@pytest.mark.parametrize("options", KING_OPTIONS, ids=["default", "options-off"])
def test_king_every_level_plays_legal_moves_and_names_trump(options: dict[str, Any]) -> None:
    trump_choices = checked = 0
    for step, state in enumerate(positions("king", options, seed=5, every=1)):
        view = state.view(state.current_player)
        naming = view.phase is Phase.CHOOSE_TRUMP
        if not naming and step % 9:
            continue
        for level in Level:
            action = _act(view, level, step)
            assert action in view.legal_actions
            assert isinstance(action, ChooseTrump) == naming
            trump_choices += naming
        checked += 1
    assert checked > 50
    assert trump_choices == 8 * len(Level)  # every positive deal's trump is named by each level


def test_whole_parties_finish_with_bots_in_every_seat() -> None:
    for game, options, seats in [
        ("konchinka", {"players": 3, "target": 8}, [Level.EASY, Level.NORMAL, Level.HARD]),
        ("king", {}, [Level.EASY, Level.NORMAL, Level.NORMAL, Level.EASY]),
    ]:
        state = make_game(game, options).new_initial_state(3)
        rngs = [random.Random(i) for i in range(len(seats))]
        while not state.is_terminal:
            p = state.current_player
            level = seats[p]
            extra = FAST_HARD if level is Level.HARD else {}
            state.apply(choose_action(state.view(p), level, rngs[p], **extra))  # type: ignore[arg-type]
        assert state.outcome is not None


@pytest.mark.parametrize("game", ["konchinka", "king"])
def test_same_view_and_seed_give_the_same_move(game: str) -> None:
    options = {"players": 2} if game == "konchinka" else {}
    for state in list(positions(game, options, seed=21, every=13))[:8]:
        view = state.view(state.current_player)
        for level in Level:
            first = choose_action(view, level, random.Random(99), iterations=6, budget_ms=10_000.0)
            again = choose_action(view, level, random.Random(99), iterations=6, budget_ms=10_000.0)
            assert first == again


def _scrambled_konchinka(state: KonchinkaState, rng: random.Random) -> KonchinkaState:
    """Another state with the same view for the player to move, the hidden cards dealt differently."""
    view = state.view(state.current_player)
    hidden = [c for h in (state.hands[p] for p in range(len(state.hands)) if p != view.player) for c in h]
    hidden += list(state.deck)
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    at = 0
    for p, size in enumerate(view.hand_sizes):
        if p != view.player:
            hands[p] = hidden[at : at + size]
            at += size
    return KonchinkaState.from_view(view, hands, hidden[at:], seed=rng.getrandbits(32))


def _scrambled_king(state: KingState, rng: random.Random) -> KingState:
    view = state.view(state.current_player)
    others = [p for p in range(4) if p != view.player]
    hidden = [c for p in others for c in state.hands[p]]
    rng.shuffle(hidden)
    hands: dict[int, list[Card]] = {}
    at = 0
    for p in others:
        hands[p] = hidden[at : at + view.hand_sizes[p]]
        at += view.hand_sizes[p]
    if view.phase is Phase.CHOOSE_TRUMP:
        # The chooser's own five unseen cards are hidden from it too: swap them with the others'.
        own_hidden = [c for c in state.hands[view.player] if c not in view.hand]
        pool = own_hidden + hidden
        rng.shuffle(pool)
        hands = {view.player: list(view.hand) + pool[: len(own_hidden)]}
        rest = pool[len(own_hidden) :]
        for i, p in enumerate(others):
            hands[p] = rest[8 * i : 8 * i + 8]
    return KingState.from_view(view, hands, seed=rng.getrandbits(32))


@pytest.mark.parametrize("game", ["konchinka", "king"])
def test_the_move_depends_on_the_view_only_never_on_hidden_cards(game: str) -> None:
    """A world with the same view but other hidden cards gets exactly the same move at every level."""
    rng = random.Random(4)
    options = {"players": 3} if game == "konchinka" else {}
    compared = differed = 0
    for state in list(positions(game, options, seed=8, every=11))[:12]:
        view = state.view(state.current_player)
        other = _scrambled_konchinka(state, rng) if game == "konchinka" else _scrambled_king(state, rng)
        other_view = other.view(state.current_player)
        assert other_view == view
        differed += other.hands != state.hands
        for level in Level:
            a = choose_action(view, level, random.Random(7), iterations=4, budget_ms=10_000.0)
            b = choose_action(other_view, level, random.Random(7), iterations=4, budget_ms=10_000.0)
            assert a == b
            compared += 1
    assert compared >= 30
    assert differed >= 5  # the scrambled worlds really hid other cards


@pytest.mark.parametrize("game", ["konchinka", "king"])
def test_hard_player_keeps_to_a_tiny_time_budget(game: str) -> None:
    options = {"players": 2} if game == "konchinka" else {}
    worst = 0.0
    for state in list(positions(game, options, seed=2, every=5))[:10]:
        view = state.view(state.current_player)
        # this thread's CPU time, not the wall's: a busy machine stretches the wall, not the work (the player
        # checks its budget on the wall, so on a busy machine it does less, never more)
        t0 = time.thread_time()
        action = choose_action(view, Level.HARD, random.Random(1), budget_ms=1.0, iterations=10_000)
        worst = max(worst, time.thread_time() - t0)
        assert action in view.legal_actions
    # one world at most, a handful of playouts: ~2 ms here; the 10,000 asked for, unbounded, take up to 0.17 s
    # of CPU in Кончинка's positions and 4 s in Кинг's
    assert worst < 0.05


# ---------------------------------------------------------------------------------------------- sampler


def test_konchinka_worlds_keep_every_seen_card_where_it_was() -> None:
    rng = random.Random(3)
    for state in list(positions("konchinka", {"players": 4}, seed=6, every=9))[:8]:
        view = state.view(state.current_player)
        seen = set(view.hand) | set(view.table) | {c for pile in view.captured for c in pile}
        for _ in range(10):
            world = konchinka_ai.sample_world(view, rng)
            assert world.view(view.player) == view
            hidden = {c for p, h in enumerate(world.hands) if p != view.player for c in h} | set(world.deck)
            assert not hidden & seen
            assert hidden | seen == set(FULL_DECK)


def test_king_inferences_hold_for_the_true_hands_and_every_sampled_world() -> None:
    """Voids and K♥ exclusions inferred from play are sound, and the sampler respects them."""
    rng = random.Random(12)
    inferred_voids = inferred_bans = 0
    for state in positions("king", {}, seed=31, every=3):
        if state.phase is not Phase.PLAY:
            continue
        view = state.view(state.current_player)
        knowledge = king_ai.infer(view)
        for p in range(4):
            for card in state.hands[p]:
                assert card.suit not in knowledge.voids[p], "a void was inferred wrongly"
                assert card not in knowledge.banned[p], "a card was excluded wrongly"
            if p != view.player:
                inferred_voids += len(knowledge.voids[p])
                inferred_bans += len(knowledge.banned[p])
        for _ in range(3):
            world = king_ai.sample_world(view, rng, knowledge)
            assert world.view(view.player) == view
            for p in range(4):
                for card in world.hands[p]:
                    assert card.suit not in knowledge.voids[p]
                    assert card not in knowledge.banned[p]
    assert inferred_voids > 20
    assert inferred_bans > 0


def test_king_soft_evidence_from_following_suit_fits_normal_players_and_steers_the_sampler() -> None:
    """Cards a follower's play makes unlikely are never in a normal player's hand, and worlds avoid them."""
    rng = random.Random(4)
    flagged = hits = dealt = 0
    for state in positions("king", {}, seed=17, every=2):
        if state.phase is not Phase.PLAY:
            continue
        view = state.view(state.current_player)
        knowledge = king_ai.infer(view)
        for p in range(4):
            if p != view.player:
                assert not knowledge.unlikely[p] & set(state.hands[p]), "a normal player's card was doubted"
                flagged += len(knowledge.unlikely[p] & set(c for h in state.hands for c in h))
        world = king_ai.sample_world(view, rng, knowledge)
        for p in range(4):
            if p != view.player:
                hits += len(knowledge.unlikely[p] & set(world.hands[p]))
                dealt += len(world.hands[p])
    assert flagged > 50
    assert hits < flagged // 4


def test_king_sampler_knows_who_could_not_hold_the_king_of_hearts() -> None:
    """«Кинг»: seat 1 showed a void in spades without dropping K♥, so seat 1 never gets K♥ in a world."""
    hands = [
        parse_cards("8s 7d 8d 9d Td 7c 8c 9c"),
        parse_cards("Jc Jd Qd Kd Ad Qc Kc Ac"),
        parse_cards("9s 7h 8h 9h Th Jh Kh Tc"),
        parse_cards("7s Qh Ah Js Qs Ks As Ts"),
    ]
    state = KingState.from_position(hands, contract=Contract.NO_KING, dealer=2, leader=3)
    for code in ("7s", "8s", "Jc", "9s"):  # seat 1 has no spade and throws a club
        state.apply(Play(Card.parse(code)))
    view = state.view(0)
    knowledge = king_ai.infer(view)
    assert Suit.SPADES in knowledge.voids[1]
    assert KING_OF_HEARTS in knowledge.banned[1]
    assert KING_OF_HEARTS not in knowledge.banned[0] and KING_OF_HEARTS not in knowledge.banned[3]
    rng = random.Random(5)
    holders = set()
    for _ in range(200):
        world = king_ai.sample_world(view, rng, knowledge)
        holder = next(p for p in range(4) if KING_OF_HEARTS in world.hands[p])
        holders.add(holder)
        assert not any(c.suit is Suit.SPADES for c in world.hands[1])
    assert holders == {2, 3}  # never seat 1; either of the seats that may hold it


# -------------------------------------------------------------------------------------- sane positions


def _konchinka(hand: str, table: str, opponent: str = "Kh Kd Ks Qh", **options: Any) -> KonchinkaState:
    game = KonchinkaGame(KonchinkaOptions(players=2, **options))
    used = set(parse_cards(hand)) | set(parse_cards(table)) | set(parse_cards(opponent))
    deck = [c for c in FULL_DECK if c not in used][:8]
    return KonchinkaState.from_position(
        game, hands=[parse_cards(hand), parse_cards(opponent)], table=parse_cards(table), deck=deck
    )


@pytest.mark.parametrize("level", [Level.NORMAL, Level.HARD])
def test_konchinka_takes_a_konchinka_when_offered(level: Level) -> None:
    state = _konchinka("Ts 3h 4c Qs", "Td 7h 2s 9c")
    action = _act(state.view(0), level, 1)
    assert isinstance(action, Capture)
    assert Card.parse("Td") in action.taken


def test_konchinka_normal_does_not_lay_a_konchinka_to_be_taken() -> None:
    # Nothing to capture; laying 2♣ would offer it to any ace or 2 (and to sums with the ace on the table).
    state = _konchinka("2c Kc 9h Qd", "Ah 5s 7d")
    action = _act(state.view(0), Level.NORMAL, 1)
    assert isinstance(action, Lay)
    assert action.card != Card.parse("2c")


def test_konchinka_normal_keeps_its_jack_for_a_bigger_table() -> None:
    state = _konchinka("Jh 3s 8d Kc", "4h 4s")  # 3 could be laid; sweeping two fours is worth little
    action = _act(state.view(0), Level.NORMAL, 1)
    assert action.card != Card.parse("Jh")


def test_konchinka_normal_sweeps_a_rich_table_with_its_jack() -> None:
    state = _konchinka("Jh 3s 8d Kc", "Td 2c 5c 7c 9c")
    action = _act(state.view(0), Level.NORMAL, 1)
    assert isinstance(action, Capture)
    assert action.card == Card.parse("Jh")


def _king_position(hands: list[str], trick: list[str], leader: int, **kwargs: Any) -> KingState:
    """Hands as dealt (8 cards each, all 32 cards); the cards of ``trick`` leave their players' hands."""
    cards = [parse_cards(h) for h in hands]
    assert sorted(c.index for h in cards for c in h) == sorted(c.index for c in PIQUET_DECK)
    played = [((leader + i) % 4, Card.parse(code)) for i, code in enumerate(trick)]
    for p, c in played:
        cards[p].remove(c)
    return KingState.from_position(cards, leader=leader, trick=played, **kwargs)


def test_king_normal_dumps_a_queen_when_void_in_queens() -> None:
    state = _king_position(
        [
            "Qs 7h 8h 9h Th 7d 8d 9d",
            "Ac 7c 8c 9c Tc Jc Kc Td",
            "Qc Js Ks As Jd Kd Ad 7s",
            "Qd Qh 8s 9s Ts Jh Kh Ah",
        ],
        ["Ac", "Qc"],
        leader=1,
        contract=Contract.NO_QUEENS,
        dealer=0,
    )
    action = _act(state.view(3), Level.NORMAL, 1)  # void in clubs: a queen goes onto seat 1's trick
    assert action.card in (Card.parse("Qd"), Card.parse("Qh"))


def test_king_normal_throws_its_top_heart_on_others_tricks_in_hearts() -> None:
    state = _king_position(
        [
            "7d 8d 9d Td Jd Qd Kd Ad",
            "7c 8c 9c Tc Jc Qc Kc Ac",
            "Ah Kh 7s 8s 9s Ts Js Qs",
            "7h 8h 9h Th Jh Qh Ks As",
        ],
        ["7c"],
        leader=1,
        contract=Contract.NO_HEARTS,
        dealer=0,
    )
    action = _act(state.view(2), Level.NORMAL, 1)
    assert action.card == Card.parse("Ah")


def test_king_normal_ducks_with_its_highest_card_under_the_winner() -> None:
    state = _king_position(
        [
            "Td 7c 8c 9c Tc Jc Qc Kc",
            "7d 9d Kd Ac 7h 8h 9h Th",
            "8d Jd Qd Ad Jh Qh Kh Ah",
            "7s 8s 9s Ts Js Qs Ks As",
        ],
        ["Td"],
        leader=0,
        contract=Contract.NO_TRICKS,
        dealer=3,
    )
    action = _act(state.view(1), Level.NORMAL, 1)
    assert action.card == Card.parse("9d")


def test_king_positive_normal_wins_cheaply_when_last() -> None:
    state = _king_position(
        [
            "9s Qs As 7d 8d 9d Td Jd",
            "Ts 7c 8c 9c Tc Jc Qc Kc",
            "Js Ac 7h 8h 9h Th Jh Qh",
            "7s Qd Kd Ad Kh Ah 8s Ks",
        ],
        ["Ts", "Js", "7s"],
        leader=1,
        deal_index=7,
        dealer=2,
        trump=Suit.HEARTS,
    )
    action = _act(state.view(0), Level.NORMAL, 1)  # A♠ and Q♠ both win: Q♠ is enough
    assert action.card == Card.parse("Qs")


def test_king_hard_names_a_trump_it_holds_strongly() -> None:
    hands = [
        parse_cards("As Ks Qs 7d 8d 9d Td Jd"),
        parse_cards("7s 7c 8c 9c Tc Jc Qc Kc"),
        parse_cards("Js Ac 7h 8h 9h Th Jh Qh"),
        parse_cards("8s 9s Ts Qd Kd Ad Kh Ah"),
    ]
    state = KingState.from_position(hands, deal_index=7, dealer=1)  # the chooser is seat 0
    view = state.view(0)
    assert view.phase is Phase.CHOOSE_TRUMP
    assert set(view.hand) == set(parse_cards("As Ks Qs"))
    for level in (Level.NORMAL, Level.HARD):
        action = choose_action(view, level, random.Random(3), iterations=12, budget_ms=10_000.0)
        assert action == ChooseTrump(Suit.SPADES)


def test_king_opponent_model_explains_normal_players_and_doubts_random_worlds() -> None:
    """Against normal players the true hands never surprise the model; most sampled worlds sometimes do."""
    rng = random.Random(2)
    true_surprises = sampled_surprises = checked = 0
    for state in positions("king", {}, seed=13, every=2):
        view = state.view(state.current_player)
        if view.phase is not Phase.PLAY or not (view.tricks_this_deal or view.trick):
            continue
        true_surprises += king_ai.surprises(view, state)
        sampled_surprises += king_ai.surprises(view, king_ai.sample_world(view, rng))
        checked += 1
    assert checked > 50
    assert true_surprises == 0
    assert sampled_surprises > checked // 4


def test_king_readings_keep_worlds_that_explain_the_play() -> None:
    """«мастер» deals up to ``candidates`` worlds for each one it keeps. The strict reading keeps the first the
    normal policy explains: its worlds surprise far less often than the ones dealt at random or read with a
    tolerance. The graded reading keeps one by its likelihood under the policy made stochastic: its worlds
    surprise less often than the ones dealt at random, more often than the strict reading's. Both place more of
    the hidden cards where they really are (three worlds a position of each model, so that one unlucky draw does
    not decide)."""
    strict = king_ai.KERNEL_MASTER
    assert strict.temperature == 0 and strict.candidates >= 16
    graded = dataclasses.replace(strict, temperature=king_ai.GRADED_TEMPERATURE)
    lenient = king_ai.BASELINE
    rng = random.Random(4)
    surprised = {"strict": 0, "graded": 0, "lenient": 0, "dealt": 0}
    placed = {"strict": 0, "graded": 0, "dealt": 0}
    hidden = checked = 0
    for state in positions("king", {}, seed=29, every=3):
        view = state.view(state.current_player)
        if view.phase is not Phase.PLAY or len(view.tricks_this_deal) < 2:
            continue
        models = {
            "strict": king_ai.KingModel(view, strict),
            "graded": king_ai.KingModel(view, graded),
            "lenient": king_ai.KingModel(view, lenient),
            "dealt": king_ai.KingModel(view, dataclasses.replace(strict, candidates=1)),
        }
        for name, model in models.items():
            for _ in range(3):
                world = model.sample_world(rng)
                surprised[name] += model.surprises(world) > 0
                if name in placed:
                    placed[name] += sum(c in state.hands[p] for p, cards in world.items() for c in cards)
        hidden += 3 * sum(len(cards) for p, cards in enumerate(state.hands) if p != view.player)
        checked += 1
    assert checked > 40
    assert surprised["strict"] * 2 < surprised["lenient"] < surprised["dealt"]
    assert surprised["strict"] < surprised["graded"] < surprised["dealt"]
    assert placed["strict"] > placed["dealt"] + hidden // 10
    assert placed["graded"] > placed["dealt"] + hidden // 20
