"""Кончинка rules on hand-built positions: every capture kind, option and edge of the spec."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import FULL_DECK, Card, parse_cards
from engine.core import CommonIllegal, GameRecord, IllegalActionError, make_game, replay
from engine.konchinka import (
    Capture,
    EventKind,
    Finish,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaIllegal,
    KonchinkaOptions,
    KonchinkaState,
    Lay,
    Settlement,
    Variant,
    parse_action,
)
from engine.konchinka.rules import draw_table


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(code: str) -> Card:
    return Card.parse(code)


def position(
    hands: Sequence[str],
    table: str = "",
    *,
    deck: str = "",
    captured: Sequence[str] | None = None,
    current: int = 0,
    **options: object,
) -> KonchinkaState:
    """A position: hands per seat and table/deck/piles as card-code strings; options as keywords."""
    opts = KonchinkaOptions.from_dict({"players": len(hands), **options})
    return KonchinkaState.from_position(
        KonchinkaGame(opts),
        hands=[cards(h) for h in hands],
        table=cards(table),
        deck=cards(deck),
        captured=[cards(c) for c in captured] if captured is not None else None,
        current_player=current,
    )


def codes_of(state: KonchinkaState) -> list[str]:
    return [a.code for a in state.legal_actions()]


def capture(played: str, *groups: str) -> Capture:
    return Capture(card(played), tuple(tuple(sorted(cards(g), key=lambda c: c.index)) for g in groups))


def taken_sets(state: KonchinkaState, played: str) -> set[frozenset[str]]:
    return {
        frozenset(c.code for c in a.taken)
        for a in state.legal_actions()
        if isinstance(a, Capture) and a.card == card(played)
    }


def snapshot(state: KonchinkaState) -> tuple[object, ...]:
    return (
        state.hands,
        state.table,
        state.deck,
        state.piles,
        state.version,
        state.current_player,
        state.events,
    )


def assert_refused(state: KonchinkaState, action: KonchinkaAction, reason: object) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    assert info.value.reason == reason
    assert snapshot(state) == before


# ------------------------------------------------------------------------------------------------ options, codes


def test_options_defaults_round_trip_and_validation() -> None:
    options = KonchinkaOptions()
    assert (options.players, options.variant, options.target) == (2, Variant.CLASSIC, 15)
    assert not options.multi_capture and not options.forced_capture and options.early_finish
    assert options.settlement is Settlement.POINTS
    data = KonchinkaOptions(players=3, variant=Variant.POINTS, settlement=Settlement.STAKE, stake=5).to_dict()
    assert KonchinkaOptions.from_dict(data).to_dict() == data
    assert KonchinkaOptions.from_dict({"variant": "points"}).variant is Variant.POINTS
    for bad in ({"players": 5}, {"players": 1}, {"variant": "x"}, {"target": 0}, {"colour": 1}, {"stake": 0}):
        with pytest.raises(ValueError):
            KonchinkaOptions.from_dict(bad)
    with pytest.raises(ValueError):
        make_game("konchinka", {"multi_capture": "yes"})


def test_action_codes_parse_back() -> None:
    actions: list[KonchinkaAction] = [
        Lay(card("Td")),
        capture("7h", "3s 4c"),
        capture("Th", "7d 3s", "4c 6h"),
        Finish(),
    ]
    assert [a.code for a in actions] == ["l:Td", "c:7h:4c3s", "c:Th:7d3s.4c6h", "f"]
    for action in actions:
        assert parse_action(action.code) == action
        assert type(action).parse(action.code) == action
    for bad in ("", "x", "l:", "l:Zz", "c:7h", "c:7h:", "c:7h:3", "c:7h:3s..4c", "ff", "l:Tdd"):
        with pytest.raises(IllegalActionError) as info:
            parse_action(bad)
        assert info.value.reason is CommonIllegal.MALFORMED


# ------------------------------------------------------------------------------------------------ captures


def test_rank_capture_beside_sum_capture_are_distinct_actions() -> None:
    state = position(["7h", "2d"], "7d 3s 4c")
    assert codes_of(state) == ["c:7h:7d", "c:7h:4c3s", "l:7h"]
    two_sevens = position(["7h", "2d"], "7d 7s 3s 4c")
    assert taken_sets(two_sevens, "7h") == {frozenset({"7d"}), frozenset({"7s"}), frozenset({"3s", "4c"})}


def test_sum_of_three_cards_and_ace_as_one() -> None:
    state = position(["8h", "2d"], "Ac 2s 5d 6h")
    assert taken_sets(state, "8h") == {frozenset({"Ac", "2s", "5d"}), frozenset({"2s", "6h"})}
    state.apply(capture("8h", "Ac 2s 5d"))
    assert state.table == (card("6h"),)
    assert sorted(c.code for c in state.piles[0]) == sorted(["Ac", "2s", "5d", "8h"])
    event = state.events[-1]
    assert (event.kind, event.player, event.card, set(event.taken)) == (
        EventKind.CAPTURE,
        0,
        card("8h"),
        set(cards("Ac 2s 5d")),
    )
    assert state.last_capturer == 0 and state.current_player == 1


def test_one_group_per_move_unless_multi_capture() -> None:
    hands = ["7h", "2d"]
    single = position(hands, "3s 4c 2s 5d 7d")
    assert taken_sets(single, "7h") == {frozenset({"3s", "4c"}), frozenset({"2s", "5d"}), frozenset({"7d"})}
    assert_refused(single, capture("7h", "3s 4c", "2s 5d"), KonchinkaIllegal.ONE_GROUP_ONLY)

    multi = position(hands, "3s 4c 2s 5d 7d", multi_capture=True)
    groups = [{"3s", "4c"}, {"2s", "5d"}, {"7d"}]
    expected = {frozenset().union(*(groups[i] for i in range(3) if bits >> i & 1)) for bits in range(1, 8)}
    assert taken_sets(multi, "7h") == expected
    everything = next(a for a in multi.legal_actions() if isinstance(a, Capture) and len(a.taken) == 5)
    assert len(everything.groups) == 3
    multi.apply(everything)
    assert multi.table == () and len(multi.piles[0]) == 6
    # a different split of the same cards is accepted too; overlapping groups are not
    again = position(hands, "3s 4c 2s 5d 7d", multi_capture=True)
    assert_refused(again, capture("7h", "3s 4c", "3s 4c"), KonchinkaIllegal.OVERLAPPING_GROUPS)
    again.apply(capture("7h", "7d", "2s 5d"))
    assert set(again.table) == set(cards("3s 4c"))


def test_illegal_captures_are_refused_without_change() -> None:
    state = position(["7h 9c", "2d"], "3s 4c 5d")
    assert_refused(state, capture("7h", "3s 5d"), KonchinkaIllegal.BAD_GROUP)
    assert_refused(state, capture("7h", "3s 6d"), KonchinkaIllegal.NOT_ON_TABLE)
    assert_refused(state, capture("8h", "3s 5d"), CommonIllegal.NOT_IN_HAND)
    assert_refused(state, Lay(card("2d")), CommonIllegal.NOT_IN_HAND)
    assert_refused(state, Finish(), KonchinkaIllegal.CANNOT_FINISH)
    assert_refused(state, Capture(card("7h"), ()), KonchinkaIllegal.NOTHING_TO_CAPTURE)
    state.apply(capture("9c", "4c 5d"))
    assert state.table == (card("3s"),)


def test_classic_face_cards_take_by_rank_only() -> None:
    state = position(["Kh Qh", "2d"], "Kd Qs Td 3c 2s")
    assert codes_of(state) == ["c:Qh:Qs", "l:Qh", "c:Kh:Kd", "l:Kh"]
    assert_refused(state, capture("Kh", "Td 3c"), KonchinkaIllegal.BAD_GROUP)
    # face cards never count in a sum either
    ten = position(["Td", "2d"], "Qs 3c 7h")
    assert taken_sets(ten, "Td") == {frozenset({"3c", "7h"})}


def test_jack_on_empty_table_is_laid_and_jack_sweeps() -> None:
    empty = position(["Jh", "2d"], "")
    assert codes_of(empty) == ["l:Jh"]
    empty.apply(Lay(card("Jh")))
    assert empty.table == (card("Jh"),)

    state = position(["Jd 5c", "2d"], "Jh Kd 5s 3c")
    actions = state.legal_actions()
    sweep = next(a for a in actions if isinstance(a, Capture) and a.card == card("Jd"))
    assert len(sweep.groups) == 1 and set(sweep.taken) == set(cards("Jh Kd 5s 3c"))
    assert [a for a in actions if isinstance(a, Capture) and a.card == card("Jd")] == [sweep]
    assert Lay(card("Jd")) in actions
    assert_refused(state, capture("Jd", "Jh"), KonchinkaIllegal.JACK_SWEEPS_ALL)
    state.apply(sweep)
    assert state.table == () and len(state.piles[0]) == 5
    assert state.events[-1].kind is EventKind.SWEEP


def test_points_variant_face_values() -> None:
    king = position(["Kh", "2d"], "Td 3c Ks 6s 7c", variant="points")
    assert taken_sets(king, "Kh") == {frozenset({"Td", "3c"}), frozenset({"Ks"}), frozenset({"6s", "7c"})}
    queen = position(["Qh", "2d"], "Td 2c Jc Ac", variant="points")
    assert taken_sets(queen, "Qh") == {frozenset({"Td", "2c"}), frozenset({"Jc", "Ac"})}
    jack = position(["Jh", "2d"], "5c 6d Ks Js", variant="points")
    assert taken_sets(jack, "Jh") == {frozenset({"5c", "6d"}), frozenset({"Js"})}
    assert Lay(card("Jh")) in jack.legal_actions()
    # a jack in the points variant sweeps nothing: on an unrelated table it is only laid
    lone = position(["Jh", "2d"], "Kd 2s", variant="points")
    assert codes_of(lone) == ["l:Jh"]
    assert_refused(lone, capture("Jh", "Kd 2s"), KonchinkaIllegal.BAD_GROUP)


def test_laying_is_allowed_beside_a_capture_unless_forced() -> None:
    free = position(["7h 9s", "2d"], "7d")
    assert "l:7h" in codes_of(free) and "l:9s" in codes_of(free)
    free.apply(Lay(card("7h")))
    assert free.table == tuple(cards("7d 7h"))

    forced = position(["7h 9s", "2d"], "7d", forced_capture=True)
    assert codes_of(forced) == ["c:7h:7d"]
    assert_refused(forced, Lay(card("9s")), KonchinkaIllegal.MUST_CAPTURE)
    nothing = position(["8h 9s", "2d"], "7d", forced_capture=True)
    assert codes_of(nothing) == ["l:8h", "l:9s"]
    jack = position(["Jh 9s", "2d"], "7d", forced_capture=True)
    assert codes_of(jack) == ["c:Jh:7d"]


# ------------------------------------------------------------------------------------------------ dealing


def test_table_redraw_puts_pairs_and_jacks_back_in_the_middle() -> None:
    rest = [c for c in FULL_DECK if c not in cards("5s Jd 5h 9c 9d Kd 2h")]
    deck = cards("5s Jd 5h 9c 9d Kd 2h") + rest
    table = draw_table(deck)
    assert table == cards("5s 9c Kd 2h")
    assert len(deck) == 48 and set(deck) == set(FULL_DECK) - set(table)
    # worked by hand: Jd goes back at 50 // 2 = 25, 5h at 25, 9d at 49 // 2 = 24; the cards drawn since then
    # move them up to 20, 21, 22
    assert deck[20:23] == cards("Jd 5h 9d")
    assert deck[:20] + deck[23:] == rest

    game = KonchinkaGame(KonchinkaOptions(players=2))
    hands = cards("Ac 2c 3c 4c 5c 6c 7c 8c")
    others = [c for c in FULL_DECK if c not in hands and c not in cards("Jd Js Qh Qs 3h")]
    state = KonchinkaState.from_deck(game, hands + cards("Jd Js Qh Qs 3h") + others, dealer=1)
    assert state.hands == (tuple(cards("2c 3c 4c Ac")), tuple(cards("5c 6c 7c 8c")))
    assert state.table[:2] == tuple(cards("Qh 3h"))
    assert len({c.rank for c in state.table}) == 4 and all(c.rank != 11 for c in state.table)
    assert card("Jd") in state.deck and card("Js") in state.deck and card("Qs") in state.deck
    assert state.current_player == 0 and state.dealer == 1


def test_draw_table_inserts_at_half_the_remaining_deck() -> None:
    rest = [c for c in FULL_DECK if c not in cards("Jd 2c 3c 4c 5c")]
    deck = cards("Jd 2c 3c 4c 5c") + rest
    table = draw_table(deck)
    assert table == cards("2c 3c 4c 5c")
    # Jd came off a 52-card deck and went back at 51 // 2 = 25; four cards were dealt above it since
    assert deck.index(card("Jd")) == 25 - 4


def test_deals_refill_hands_and_the_deal_passes_left() -> None:
    for players, rounds in ((2, 6), (3, 4), (4, 3)):
        game = KonchinkaGame(KonchinkaOptions(players=players, target=1000))
        state = game.new_initial_state(7)
        first_dealer = state.dealer
        assert state.current_player == (first_dealer + 1) % players
        refills = 0
        order = []
        while state.deal_number == 1:
            if all(len(h) == 4 for h in state.hands):
                refills += 1
            order.append(state.current_player)
            state.apply(state.legal_actions()[-1])
        assert refills == rounds
        assert order == [(first_dealer + 1 + i) % players for i in range(48)]
        assert state.dealer == (first_dealer + 1) % players
        assert state.current_player == (first_dealer + 2) % players
        assert len(state.deal_scores) == 1 and state.tally[0] == (state.deal_scores[0].points[0],)


def test_seed_fixes_the_party_and_shuffles_differ_per_deal() -> None:
    game = KonchinkaGame()
    a, b = game.new_initial_state(42), game.new_initial_state(42)
    assert a.hands == b.hands and a.table == b.table and a.deck == b.deck and a.dealer == b.dealer
    assert game.new_initial_state(43).deck != a.deck
    while a.deal_number == 1:
        a.apply(a.legal_actions()[0])
    first_hands = game.new_initial_state(42).hands
    assert a.hands != first_hands


# ------------------------------------------------------------------------------------------------ end of deal, scoring


def finishing_position(
    piles: Sequence[str],
    last: Sequence[str],
    table: str = "",
    *,
    tally: Sequence[Sequence[int]] | None = None,
    last_capturer: int | None = None,
    **options: object,
) -> KonchinkaState:
    """The last move of a deal: each seat holds one card (``last``), deck empty, piles given."""
    opts = KonchinkaOptions.from_dict({"players": len(last), **options})
    return KonchinkaState.from_position(
        KonchinkaGame(opts),
        hands=[cards(h) for h in last],
        table=cards(table),
        captured=[cards(p) for p in piles],
        current_player=0,
        tally=tally,
        last_capturer=last_capturer,
        check_cards=True,
    )


def split_rest(used: str, sizes: Sequence[int], avoid_clubs: bool = True) -> list[str]:
    """Deal the cards not in ``used`` (clubs and кончинки kept out) into piles of the given sizes."""
    taken = set(used.split())
    rest = [
        c.code
        for c in FULL_DECK
        if c.code not in taken and (not avoid_clubs or c.suit != 0) and c.code not in ("2c", "Td")
    ]
    out, i = [], 0
    for size in sizes:
        out.append(" ".join(rest[i : i + size]))
        i += size
    return out


def play_out(state: KonchinkaState) -> None:
    while state.deal_number == 1 and not state.is_terminal:
        lay = next(a for a in state.legal_actions() if isinstance(a, Lay))
        state.apply(lay)


def test_leftovers_go_to_the_last_capturer_and_cards_tie_gives_nobody() -> None:
    # clubs: 2c 3c 4c 5c to seat 0, 6c 7c 8c 9c Tc Jc to seat 1; Qc Kc Ac lie on the table; hearts 9h, spades Ks in hand
    base = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 9h Ks Td"
    fill = split_rest(base, [19, 17])
    piles = ["2c 3c 4c 5c Td " + fill[0], "6c 7c 8c 9c Tc Jc " + fill[1]]
    state = finishing_position(piles, ["9h", "Ks"], "Qc Kc Ac", last_capturer=1)
    play_out(state)
    score = state.deal_scores[0]
    # seat 1 takes the 5 leftovers (Qc Kc Ac 9h Ks): 28 cards against 24
    assert score.cards == (24, 28) and score.cards_winner == 1
    assert score.clubs == (4, 9) and score.clubs_winner == 1
    assert score.konchinki == {card("2c"): 0, card("Td"): 0}
    assert score.points == (2, 3) and state.tally == ((2,), (3,))
    leftovers = [e for e in state.events if e.kind is EventKind.LEFTOVERS]
    assert leftovers[0].player == 1 and set(leftovers[0].taken) == set(cards("Qc Kc Ac 9h Ks"))

    tie = finishing_position(piles, ["9h", "Ks"], "Qc Kc Ac", last_capturer=0)
    play_out(tie)
    score = tie.deal_scores[0]
    assert score.cards == (29, 23) and score.clubs == (7, 6)
    assert score.points == (2 + 1 + 2, 0)


def test_ties_for_cards_and_clubs_score_nothing_and_leftovers_to_nobody() -> None:
    base = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 9h Ks Td Qd"
    fill = split_rest(base, [17, 18])
    piles = ["2c 3c 4c 5c 6c 7c " + fill[0], "8c 9c Tc Jc Qc Kc Td " + fill[1]]
    state = finishing_position(piles, ["9h", "Ks"], "Ac Qd")
    play_out(state)
    score = state.deal_scores[0]
    assert score.cards == (23, 25)  # 9h, Ks, Ac, Qd stay with nobody: nobody captured in this deal
    leftovers = next(e for e in state.events if e.kind is EventKind.LEFTOVERS)
    assert leftovers.player == -1 and set(leftovers.taken) == set(cards("Ac Qd 9h Ks"))
    assert score.cards_winner == 1 and score.clubs == (6, 6) and score.clubs_winner is None
    assert score.points == (1, 3)

    fill = split_rest(base, [18, 17])
    piles = ["2c 3c 4c 5c 6c 7c " + fill[0], "8c 9c Tc Jc Qc Kc Td " + fill[1]]
    state = finishing_position(piles, ["9h", "Ks"], "Ac Qd")
    play_out(state)
    score = state.deal_scores[0]
    assert score.cards == (24, 24) and score.cards_winner is None and score.clubs_winner is None
    assert score.points == (1, 1)  # only the кончинки: 2♣ with seat 0, 10♦ with seat 1


def winning_deal_position(tally: Sequence[Sequence[int]], **options: Any) -> KonchinkaState:
    """Seat 0 will take the cards (2), seat 1 the clubs (1) and both кончинки (2): 2 and 3 points."""
    base = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 9h Ks Td"
    fill = split_rest(base, [26, 10])
    piles = ["3c " + fill[0], "2c Td 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac " + fill[1]]
    return finishing_position(piles, ["9h", "Ks"], last_capturer=0, tally=tally, **options)


def test_two_players_pass_the_target_in_one_deal() -> None:
    higher = winning_deal_position([[14], [12]])
    play_out(higher)
    assert higher.totals == (16, 15) and higher.outcome is not None and higher.outcome.winners == (0,)
    assert higher.tally == ((14, 16), (12, 15)) and higher.current_player == -1
    assert higher.outcome.settlement == (0, 0)  # seat 1 reached the target: it lacks nothing

    tie = winning_deal_position([[13], [12]])
    play_out(tie)
    assert tie.totals == (15, 15) and not tie.is_terminal and tie.outcome is None
    assert tie.deal_number == 2 and tie.legal_actions()


def test_tally_is_the_list_of_running_totals() -> None:
    state = winning_deal_position([[2, 6], [0, 3]])
    play_out(state)
    assert state.tally == ((2, 6, 8), (0, 3, 6))
    assert [s.totals for s in state.deal_scores] == [(8, 6)]


@pytest.mark.parametrize(
    ("settlement", "expected"),
    [(Settlement.POINTS, (14, -9, -5)), (Settlement.STAKE, (6, -3, -3))],
)
def test_settlement_modes(settlement: Settlement, expected: tuple[int, ...]) -> None:
    base = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 9h Ks Td 8h"
    fill = split_rest(base, [26, 4, 5])
    piles = ["2c " + fill[0], "Td 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc " + fill[1], "Kc Ac " + fill[2]]
    state = finishing_position(
        piles,
        ["9h", "Ks", "8h"],
        tally=[[12], [4], [10]],
        last_capturer=0,
        players=3,
        settlement=settlement,
        stake=3,
    )
    play_out(state)
    assert state.outcome is not None
    assert state.deal_scores[-1].points == (3, 2, 0)
    assert state.totals == (15, 6, 10) and state.outcome.winners == (0,)
    assert state.outcome.scores == (15, 6, 10)
    assert state.outcome.settlement == expected


# ------------------------------------------------------------------------------------------------ early finish


def early(pile: str, total: int, **options: object) -> KonchinkaState:
    return KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions.from_dict({"players": 2, **options})),
        hands=[cards("9h 8h"), cards("Ks 8s")],
        table=cards("Qd"),
        captured=[cards(pile), []],
        tally=[[total], [3]],
        current_player=0,
    )


def test_early_finish_with_a_konchinka() -> None:
    state = early("2c 5h", 14)
    assert state.legal_actions()[-1] == Finish()
    state.apply(Finish())
    assert state.is_terminal and state.outcome is not None and state.outcome.winners == (0,)
    assert state.tally == ((14, 15), (3, 3))
    score = state.deal_scores[-1]
    assert score.finished_early_by == 0 and score.points == (1, 0) and score.konchinki == {card("2c"): 0}
    assert state.outcome.settlement == (12, -12)
    assert state.events[-1].kind is EventKind.FINISH
    assert state.legal_actions() == ()
    assert_refused(state, Lay(card("9h")), CommonIllegal.GAME_OVER)


def test_early_finish_with_seven_clubs_and_with_27_cards() -> None:
    clubs = early("3c 4c 5c 6c 7c 8c 9c", 14)
    assert Finish() in clubs.legal_actions()
    clubs.apply(Finish())
    assert clubs.deal_scores[-1].clubs_winner == 0 and clubs.totals == (15, 3)

    many = " ".join(
        c.code for c in FULL_DECK if c.suit != 0 and c.code not in ("Td", "9h", "8h", "Ks", "8s", "Qd")
    )
    pile = " ".join(many.split()[:27])
    cards_state = early(pile, 13)
    assert Finish() in cards_state.legal_actions()
    cards_state.apply(Finish())
    assert cards_state.deal_scores[-1].cards_winner == 0 and cards_state.totals == (15, 3)


def test_early_finish_not_offered_when_not_valid() -> None:
    six_clubs = early("3c 4c 5c 6c 7c 8c", 14)  # 6 clubs secure nothing
    assert Finish() not in six_clubs.legal_actions()
    assert_refused(six_clubs, Finish(), KonchinkaIllegal.CANNOT_FINISH)
    needs_three = early("2c 3c 4c 5c 6c 7c 8c 9c", 12)  # 2 secured points, 3 needed: needs more than 2
    assert Finish() not in needs_three.legal_actions()
    one_short = early("2c", 13)  # needs 2, secured 1
    assert Finish() not in one_short.legal_actions()
    switched_off = early("2c", 14, early_finish=False)
    assert Finish() not in switched_off.legal_actions()
    # on another player's turn: seat 0 could finish, but seat 1 is to move
    theirs = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[cards("9h"), cards("Ks 8s")],
        captured=[cards("2c"), []],
        tally=[[14], [3]],
        current_player=1,
    )
    assert theirs.can_finish(0) and Finish() not in theirs.legal_actions()
    assert theirs.view(0).legal_actions == ()
    assert_refused(theirs, Finish(), KonchinkaIllegal.CANNOT_FINISH)


def test_capture_and_finish_is_one_action_offered_right_after_the_capture() -> None:
    # seat 0 at 14 takes 2♣ with 2♥: «взять 2♣ и прикончить» sits right after the plain capture
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[cards("2h 9h"), cards("Ks 8s")],
        table=cards("2c Qd"),
        deck=cards("3d 4d 5d 6d"),
        tally=[[14], [3]],
    )
    codes = codes_of(state)
    assert codes[:3] == ["c:2h:2c", "c:2h:2c:f", "l:2h"] and "f" not in codes
    action = parse_action("c:2h:2c:f")
    assert action == Capture(card("2h"), ((card("2c"),),), finish=True) and action.code == "c:2h:2c:f"
    assert action.capture == Capture(card("2h"), ((card("2c"),),))
    state.apply(action)
    assert state.is_terminal and state.outcome is not None and state.outcome.winners == (0,)
    assert state.tally == ((14, 15), (3, 3)) and state.piles[0] == (card("2c"), card("2h"))
    assert state.deal_scores[-1].finished_early_by == 0 and state.deal_scores[-1].konchinki == {card("2c"): 0}
    assert [e.kind for e in state.events[-2:]] == [EventKind.CAPTURE, EventKind.FINISH]


def test_capture_and_finish_with_the_decks_last_card_beats_the_deals_scoring() -> None:
    # the last card of the deal: seat 0 at 14 takes 10♦; scored normally, seat 1's cards, clubs and 2♣ bring it
    # from 13 to 17 and it wins; finishing on the capture, seat 0 wins with 15 (the 3♠ left on the table)
    def last_move() -> KonchinkaState:
        return KonchinkaState.from_position(
            KonchinkaGame(KonchinkaOptions()),
            hands=[cards("Th"), []],
            table=cards("Td 3s"),
            captured=[[], cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2s 4s 5s 6s")],
            tally=[[14], [13]],
        )

    plain = last_move()
    plain.apply(parse_action("c:Th:Td"))
    assert plain.is_terminal and plain.outcome is not None and plain.outcome.winners == (1,)
    assert plain.totals == (15, 17)
    finishing = last_move()
    assert codes_of(finishing) == ["c:Th:Td", "c:Th:Td:f", "l:Th"]
    finishing.apply(parse_action("c:Th:Td:f"))
    assert finishing.outcome is not None and finishing.outcome.winners == (0,)
    assert finishing.totals == (15, 13) and finishing.table == (card("3s"),)


def test_capture_and_finish_counts_clubs_and_cards_the_capture_secures() -> None:
    # six clubs in the pile, the seventh taken now: the clubs point is secured on the capture
    clubs = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[cards("9h 8h"), cards("Ks 8s")],
        table=cards("9c Qd"),
        captured=[cards("3c 4c 5c 6c 7c 8c"), []],
        tally=[[14], [3]],
    )
    assert "c:9h:9c:f" in codes_of(clubs) and "c:8h:9c:f" not in codes_of(clubs)
    assert Finish() not in clubs.legal_actions()
    # a capture that secures nothing new is not offered with the finish
    nothing = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions()),
        hands=[cards("Qh 8h"), cards("Ks 8s")],
        table=cards("Qd"),
        captured=[cards("3c"), []],
        tally=[[14], [3]],
    )
    assert [c for c in codes_of(nothing) if c.endswith(":f")] == []
    assert_refused(nothing, parse_action("c:Qh:Qd:f"), KonchinkaIllegal.CANNOT_FINISH)
    assert nothing.legal_actions() and not nothing.is_terminal and nothing.table == (card("Qd"),)


def test_capture_and_finish_in_a_tie_break_deal_needs_the_player_strictly_above_everyone() -> None:
    # both at 15 after a tie at the top: a кончинка brings seat 0 to 16, above 15 — offered
    def tied(pile: str, other: int) -> KonchinkaState:
        return KonchinkaState.from_position(
            KonchinkaGame(KonchinkaOptions(players=3)),
            hands=[cards("Th 9h"), cards("Ks 8s"), cards("4h 5h")],
            table=cards("Td"),
            captured=[cards(pile), [], []],
            tally=[[15], [15], [other]],
        )

    assert "c:Th:Td:f" in codes_of(tied("", 12))
    # already one кончинка: the capture brings 2 — 17 — but a third player at 17 would only be tied
    at_17 = tied("2c", 17)
    assert "c:Th:Td:f" not in codes_of(at_17) and Finish() not in at_17.legal_actions()
    refused = at_17.clone()
    with pytest.raises(IllegalActionError) as caught:
        refused.apply(parse_action("c:Th:Td:f"))
    assert caught.value.reason is KonchinkaIllegal.CANNOT_FINISH and caught.value.params["tie"] is True
    assert "c:Th:Td:f" not in codes_of(tied("2c", 17)) and "c:Th:Td:f" in codes_of(tied("2c", 16))
    switched_off = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=3, early_finish=False)),
        hands=[cards("Th 9h"), cards("Ks 8s"), cards("4h 5h")],
        table=cards("Td"),
        tally=[[15], [15], [12]],
    )
    assert "c:Th:Td:f" not in codes_of(switched_off)


# ------------------------------------------------------------------------------------------------ views, replay


def test_view_hides_other_hands_and_from_view_rebuilds_the_state() -> None:
    game = KonchinkaGame(KonchinkaOptions(players=3))
    state = game.new_initial_state(5)
    for _ in range(7):
        state.apply(state.legal_actions()[0])
    for seat in range(3):
        view = state.view(seat)
        text = repr(view)
        hidden = [c for s in range(3) if s != seat for c in state.hands[s]] + list(state.deck)
        assert hidden and all(repr(c) not in text for c in hidden)
        assert view.hand == state.hands[seat] and view.hand_sizes == tuple(len(h) for h in state.hands)
        assert (view.legal_actions != ()) == (seat == state.current_player)
        others = {s: state.hands[s] for s in range(3) if s != seat}
        rebuilt = KonchinkaState.from_view(view, others, state.deck)
        assert rebuilt.view(seat) == view
        for s in range(3):
            assert rebuilt.view(s) == state.view(s)
        twin = state.clone()
        while not rebuilt.is_terminal and rebuilt.deal_number == state.deal_number:
            action = rebuilt.legal_actions()[-1]
            rebuilt.apply(action)
            twin.apply(action)
            if rebuilt.deal_number == state.deal_number:
                assert rebuilt.table == twin.table and rebuilt.piles == twin.piles
        assert rebuilt.tally == twin.tally and rebuilt.deal_scores == twin.deal_scores


def test_record_replays_to_the_identical_state() -> None:
    game = make_game("konchinka", {"players": 2, "target": 5})
    state = game.new_initial_state(11)
    assert isinstance(state, KonchinkaState)
    while not state.is_terminal:
        actions = state.legal_actions()
        state.apply(actions[state.version % len(actions)])
    record = GameRecord.from_json(state.record().to_json())
    again = replay(record)
    assert isinstance(again, KonchinkaState)
    assert again.history == state.history and again.tally == state.tally and again.outcome == state.outcome
    assert again.events == state.events and again.deal_scores == state.deal_scores
    assert all(game.parse_action(a.code) == a for a in state.history)
