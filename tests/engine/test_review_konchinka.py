"""Independent review of the Кончинка engine against spec/konchinka.md.

The reference below is written from the spec alone (brute force over subsets, scores counted from the piles), so
a change in the engine that breaks a rule shows up here even where the engine's own oracle shares its helpers.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from engine.cards import FULL_DECK, Card, Rank, Suit, parse_cards
from engine.core import IllegalActionError
from engine.konchinka import (
    Capture,
    Finish,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaIllegal,
    KonchinkaOptions,
    KonchinkaState,
    Lay,
    Settlement,
    Variant,
)
from tests.tiers import size

KONCHINKI = frozenset(parse_cards("2c Td"))
SEEDS = size(10, 60)
"""Parties replayed against the spec (every run; all of them in the slow tier, FULL_TESTS=1)."""

RefAction = tuple[object, ...]
"""("c", played card, frozenset of taken cards) | ("l", card) | ("f",)"""


def pip(card: Card, points: bool) -> int | None:
    """The card's value in sums: A = 1, 2…10; J/Q/K only in the points variant (11/12/13)."""
    if card.rank is Rank.ACE:
        return 1
    if card.rank <= Rank.TEN or points:
        return int(card.rank)
    return None


def reference_taken_sets(
    played: Card, table: Sequence[Card], options: KonchinkaOptions
) -> set[frozenset[Card]]:
    points = options.variant is Variant.POINTS
    if not points and played.rank is Rank.JACK:
        return {frozenset(table)} if table else set()
    groups = [frozenset([t]) for t in table if t.rank is played.rank]
    value = pip(played, points)
    if value is not None:
        pips = [t for t in table if pip(t, points) is not None]
        for size in range(2, len(pips) + 1):
            for combo in itertools.combinations(pips, size):
                if sum(pip(t, points) or 0 for t in combo) == value:
                    groups.append(frozenset(combo))
    if not options.multi_capture:
        return set(groups)
    unions: set[frozenset[Card]] = set()

    def extend(start: int, taken: frozenset[Card]) -> None:
        for i in range(start, len(groups)):
            if not taken & groups[i]:
                grown = taken | groups[i]
                unions.add(grown)
                extend(i + 1, grown)

    extend(0, frozenset())
    return unions


def secured(pile: Sequence[Card]) -> int:
    clubs = sum(1 for c in pile if c.suit is Suit.CLUBS)
    return sum(1 for c in pile if c in KONCHINKI) + (clubs >= 7) + 2 * (len(pile) >= 27)


def reference_legal(
    state: KonchinkaState, piles: Sequence[Sequence[Card]], totals: Sequence[int]
) -> set[RefAction]:
    options = state.options
    seat = state.current_player
    hand, table = state.hands[seat], list(state.table)
    out: set[RefAction] = set()
    for c in hand:
        for taken in reference_taken_sets(c, table, options):
            out.add(("c", c, taken))
            # «взять … и прикончить»: the finish valid right after this capture
            if may_finish(options, [*piles[seat], c, *taken], seat, totals):
                out.add(("cf", c, taken))
    if not (options.forced_capture and out):
        out.update(("l", c) for c in hand)
    if may_finish(options, piles[seat], seat, totals):
        out.add(("f",))
    return out


def may_finish(options: KonchinkaOptions, pile: Sequence[Card], seat: int, totals: Sequence[int]) -> bool:
    need = options.target - totals[seat]
    got = secured(pile)
    others_below = all(totals[seat] + got > t for s, t in enumerate(totals) if s != seat)
    return options.early_finish and need <= 2 and got > 0 and got >= need and others_below


def as_ref(action: KonchinkaAction) -> RefAction:
    if isinstance(action, Capture):
        return ("cf" if action.finish else "c", action.card, frozenset(action.taken))
    if isinstance(action, Lay):
        return ("l", action.card)
    return ("f",)


def deal_points(piles: Sequence[Sequence[Card]]) -> list[int]:
    cards = [len(p) for p in piles]
    clubs = [sum(1 for c in p if c.suit is Suit.CLUBS) for p in piles]
    points = [sum(1 for c in p if c in KONCHINKI) for p in piles]
    if cards.count(max(cards)) == 1:
        points[cards.index(max(cards))] += 2
    if clubs.count(max(clubs)) == 1:
        points[clubs.index(max(clubs))] += 1
    return points


def random_options(rng: random.Random) -> KonchinkaOptions:
    return KonchinkaOptions(
        players=rng.choice((2, 3, 4)),
        variant=rng.choice(tuple(Variant)),
        target=rng.choice((3, 5, 8)),
        multi_capture=rng.random() < 0.25,
        forced_capture=rng.random() < 0.3,
        settlement=rng.choice(tuple(Settlement)),
        stake=rng.randint(1, 4),
    )


@pytest.mark.slow
def test_parties_follow_the_spec_move_by_move() -> None:
    """Dealing, turn order, legal moves, scoring, tally, the end of the party and the settlement, from the spec."""
    finishes = 0
    for seed in range(SEEDS):
        rng = random.Random(seed)
        options = random_options(rng)
        n = options.players
        state = KonchinkaGame(options).new_initial_state(seed)
        totals = [0] * n
        tally: list[list[int]] = [[] for _ in range(n)]
        while not state.is_terminal:
            deal, dealer = state.deal_number, state.dealer
            table = state.table
            assert (
                len(table) == 4
                and len({c.rank for c in table}) == 4
                and Rank.JACK not in {c.rank for c in table}
            )
            piles: list[list[Card]] = [[] for _ in range(n)]
            last_capturer = -1
            mover = (dealer + 1) % n  # the dealer's left, then clockwise across re-deals
            refills = 0
            finished_by = None
            while state.deal_number == deal and not state.is_terminal:
                assert state.current_player == mover
                assert {as_ref(a) for a in state.legal_actions()} == reference_legal(state, piles, totals)
                action = rng.choice(state.legal_actions())
                deck_before, table_before = state.deck_size, len(state.table)
                state.apply(action)
                if isinstance(action, Finish):
                    finished_by = mover
                    break
                if isinstance(action, Capture):
                    piles[mover] += [action.card, *action.taken]
                    last_capturer = mover
                    if action.finish:
                        finished_by = mover
                        break
                if state.deal_number == deal and state.deck_size != deck_before:
                    refills += 1  # a re-deal: 4 cards to each hand, none to the table
                    assert deck_before - state.deck_size == 4 * n
                    assert len(state.table) == table_before + isinstance(action, Lay) - (
                        len(action.taken) if isinstance(action, Capture) else 0
                    )
                mover = (mover + 1) % n
            if finished_by is not None:
                finishes += 1
                points = [0] * n
                points[finished_by] = secured(piles[finished_by])
            else:
                assert refills == {2: 5, 3: 3, 4: 2}[n]
                leftovers = [c for c in FULL_DECK if not any(c in p for p in piles)]
                if last_capturer >= 0:
                    piles[last_capturer] += leftovers
                points = deal_points(piles)
            for seat in range(n):
                totals[seat] += points[seat]
                tally[seat].append(totals[seat])
            assert state.tally == tuple(tuple(t) for t in tally)
            top = max(totals)
            decided = finished_by is not None or (top >= options.target and totals.count(top) == 1)
            assert state.is_terminal == decided
            if not decided:
                assert state.dealer == (dealer + 1) % n and state.deal_number == deal + 1
        assert state.outcome is not None
        winner = finished_by if finished_by is not None else totals.index(max(totals))
        assert state.outcome.winners == (winner,)
        owed = [
            0
            if s == winner
            else options.stake
            if options.settlement is Settlement.STAKE
            else max(options.target - t, 0)
            for s, t in enumerate(totals)
        ]
        assert state.outcome.settlement == tuple(sum(owed) if s == winner else -o for s, o in enumerate(owed))
    assert finishes > 0  # the sample reaches early finishes (and so the check above means something)


def snapshot(state: KonchinkaState) -> tuple[object, ...]:
    views = tuple(state.view(p) for p in range(state.game.num_players))
    return (views, state.record(), state.hands, state.deck, state.piles, state.events, state.last_capturer)


def candidate_actions(state: KonchinkaState, rng: random.Random) -> list[object]:
    """Illegal-looking actions of every kind: cards not held, groups that do not add up, junk."""
    hand, table = state.hands[state.current_player], list(state.table)
    out: list[object] = [Lay(c) for c in rng.sample(FULL_DECK, 5)] + [Finish(), "l:Td", None]
    for c in hand:
        if table:
            group = tuple(sorted(rng.sample(table, rng.randint(1, len(table))), key=lambda x: x.index))
            out.append(Capture(c, (group,)))
            out.append(Capture(c, ((table[0],), (table[-1],))))
        out.append(Capture(c, ((rng.choice(FULL_DECK),),)))
    return out


@pytest.mark.slow
def test_refused_actions_change_nothing() -> None:
    refused = 0
    for seed in range(size(3, 7)):  # ~700-2,200 refusals a party
        rng = random.Random(1000 + seed)
        options = random_options(rng)
        state = KonchinkaGame(options).new_initial_state(seed)
        while not state.is_terminal:
            legal = {as_ref(a) for a in state.legal_actions()}
            for action in candidate_actions(state, rng):
                if isinstance(action, (Lay, Capture, Finish)) and as_ref(action) in legal:
                    continue
                before = snapshot(state)
                with pytest.raises(IllegalActionError):
                    state.apply(action)  # type: ignore[arg-type]
                assert snapshot(state) == before
                refused += 1
            state.apply(rng.choice(state.legal_actions()))
    assert refused > 500


def tie_break(tally: Sequence[Sequence[int]], pile: str, seat: int) -> KonchinkaState:
    """A deal played after a tie at the top: ``seat`` to move with ``pile`` captured."""
    n = len(tally)
    hands = [parse_cards(h) for h in ("9h 8h", "Ks 8s", "7d 6d", "5s 4s")[:n]]
    piles = [parse_cards(pile) if s == seat else [] for s in range(n)]
    return KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=n)),
        hands=hands,
        table=parse_cards("Qd"),
        captured=piles,
        tally=tally,
        current_player=seat,
        deal_number=len(tally[0]) + 1,
    )


def test_early_finish_in_a_tie_break_deal_needs_the_lead() -> None:
    # 15-15 at the top after the last deal: a secured кончинка puts seat 0 ahead, so it may finish
    ahead = tie_break([[15], [15], [13]], "2c", 0)
    assert Finish() in ahead.legal_actions()
    ahead.apply(Finish())
    assert ahead.outcome is not None and ahead.outcome.winners == (0,) and ahead.totals == (16, 15, 13)
    # seat 2 needs 2 and secures 2, but 15 only ties the leaders: no finish
    level = tie_break([[15], [15], [13]], "2c Td", 2)
    assert Finish() not in level.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        level.apply(Finish())
    assert info.value.reason is KonchinkaIllegal.CANNOT_FINISH


def test_a_view_is_the_same_whatever_the_hidden_cards() -> None:
    game = KonchinkaGame(KonchinkaOptions(players=3))
    table = parse_cards("3d 7s Kh")
    mine = parse_cards("5c 9d Ah 2s")
    hidden = [c for c in FULL_DECK if c not in table and c not in mine]
    worlds = []
    for seed in range(3):
        rng = random.Random(seed)
        order = hidden[:]
        rng.shuffle(order)
        worlds.append(
            KonchinkaState.from_position(
                game, hands=[mine, order[:4], order[4:8]], table=table, deck=order[8:], current_player=0
            )
        )
    assert worlds[0].hands != worlds[1].hands and worlds[0].deck != worlds[1].deck
    assert worlds[0].view(0) == worlds[1].view(0) == worlds[2].view(0)
