"""Achievements read from finished parties (issue 50): each game's own, from a hand-built position or a party
replayed from its record, and the two every game shares (against «мастер»), given what a person held before — a
pure function of the game, no database, no Telegram."""

from __future__ import annotations

import dataclasses
import random

from bot.games import plugin_of
from bot.games.base import Party, drawn
from bot.games.king.feats import CLEAN_ERALASH, CLEAN_NEGATIVES
from bot.games.konchinka.feats import FINISH_ON_CAPTURE, FIVE_OF_FIVE
from bot.model.game import Actor, Game, Move, PartyEnded, dump_told, load_told
from bot.ratings.achievements import MASTER_FIRST, MASTER_TEN, award, earned
from bot.storage.players import Standing
from engine.ai import Level
from engine.core import GameRecord, State
from engine.king import NEGATIVE_DEALS, Contract, KingAction, KingGame, KingOptions, KingState, Play
from engine.konchinka import Capture, KonchinkaView
from tests.flow.builders import ANNA, BORIS, finish_position, finished, group_party, solo_party

KONCHINKA = plugin_of("konchinka")
KING = plugin_of("king")


def take_and_finish() -> Party:
    """Seat 0 wins by «10♠ берёт 10♥ и прикончить» (the capture secures nothing new; the кончинки it holds do)."""
    party = finish_position()
    view = party.view_of(0)
    assert isinstance(view, KonchinkaView)
    [index] = [i for i, a in enumerate(view.legal_actions) if isinstance(a, Capture) and a.finish]
    over, _ = party.after(index)
    assert over.is_terminal and over.outcome is not None and over.outcome.winners == (0,)
    return drawn(over)


def plain_finish() -> Party:
    party = finish_position()
    (index,) = party.actions_of_card(0, "f")
    over, _ = party.after(index)
    assert over.is_terminal
    return drawn(over)


def test_a_konchinka_party_won_by_take_and_finish_earns_it_and_a_finish_alone_does_not() -> None:
    assert FINISH_ON_CAPTURE in take_and_finish().feats_of(0)
    assert FINISH_ON_CAPTURE not in plain_finish().feats_of(0)
    assert take_and_finish().feats_of(1) == ()


def random_party(kind: str, seed: int) -> State:
    plugin = plugin_of(kind)
    state = plugin.make_game(plugin.game_options(plugin.default_options(None), 4 if kind == "king" else 2))
    played = state.new_initial_state(seed)
    rng = random.Random(seed)
    while not played.is_terminal:
        played.apply(rng.choice(list(played.legal_actions())))
    return played


def test_five_of_five_is_every_point_of_one_deal_read_from_a_replayed_party() -> None:
    """Random two-player parties, replayed from their records: a seat earns «Пять из пяти» exactly when one of its
    deals gave it most cards, most clubs and both кончинки."""
    seen = {True: 0, False: 0}
    for seed in range(40):
        state = random_party("konchinka", seed)
        party = KONCHINKA.restore(GameRecord.from_json(state.record().to_json()))
        for seat in range(2):
            view = state.view(seat)
            swept = any(
                deal.cards_winner == seat
                and deal.clubs_winner == seat
                and set(deal.konchinki.values()) == {seat}
                for deal in view.deal_scores
            )
            assert (FIVE_OF_FIVE in party.feats_of(seat)) is swept, (seed, seat)
            seen[swept] += 1
        if min(seen.values()) >= 3:
            break
    assert min(seen.values()) >= 3, seen


def ducking(state: KingState, rng: random.Random) -> KingAction:
    """Seat 0 in the negative deals: the highest card that does not take the trick, else the lowest; everyone
    else (and seat 0 in the positive deals) plays at random."""
    actions = list(state.legal_actions())
    if state.current_player != 0 or state.deal_index >= NEGATIVE_DEALS:
        return rng.choice(actions)
    plays = [a for a in actions if isinstance(a, Play)]
    trick = [card for _, card in state.trick]
    if trick:
        led = trick[0].suit
        best = max((c for c in trick if c.suit == led), key=lambda c: c.rank)
        under = [a for a in plays if not (a.card.suit == led and a.card.rank > best.rank)]
        if under:
            return max(under, key=lambda a: a.card.rank)
    return min(plays, key=lambda a: a.card.rank)


def test_king_a_clean_eralash_and_seven_clean_negative_deals_are_read_from_the_party() -> None:
    """Seed 74 with seat 0 ducking every trick it can: no penalty in any of the seven negative deals."""
    state = KingGame(KingOptions()).new_initial_state(74)
    rng = random.Random(74)
    while not state.is_terminal:
        state.apply(ducking(state, rng))
    party = KING.restore(state.record())
    negatives = state.score_sheet[:NEGATIVE_DEALS]
    assert all(row[0] == 0 for row in negatives)
    assert party.feats_of(0) == (CLEAN_ERALASH, CLEAN_NEGATIVES)
    eralash = KingOptions().order.index(Contract.ERALASH)
    for seat in (1, 2, 3):  # each took a penalty somewhere; «ералаш» clean only if it took no trick there
        assert CLEAN_NEGATIVES not in party.feats_of(seat)
        assert (CLEAN_ERALASH in party.feats_of(seat)) is (negatives[eralash][seat] == 0)


def test_a_clean_eralash_alone_in_random_parties() -> None:
    seen = 0
    for seed in range(30):
        state = random_party("king", seed)
        assert isinstance(state, KingState)
        eralash = state.score_sheet[KingOptions().order.index(Contract.ERALASH)]
        party = KING.restore(state.record())
        for seat in range(4):
            assert (CLEAN_ERALASH in party.feats_of(seat)) is (eralash[seat] == 0)
            seen += eralash[seat] == 0
        if seen >= 2:
            break
    assert seen >= 2


def solo_won(level: Level = Level.HARD) -> Game:
    """Аня's solo Кончинка against one bot player at ``level``, won by «взять и прикончить»."""
    return finished(solo_party(ANNA, level=level), take_and_finish())


def test_against_master_the_first_win_and_the_tenth_in_a_row_are_earned_once() -> None:
    game = solo_won()
    assert earned(game, {}) == ((0, FINISH_ON_CAPTURE), (0, MASTER_FIRST))
    held = frozenset({FINISH_ON_CAPTURE, MASTER_FIRST})
    assert earned(game, {ANNA.user_id: Standing(held, master_run=8)}) == ()
    assert earned(game, {ANNA.user_id: Standing(held, master_run=9)}) == ((0, MASTER_TEN),)
    assert earned(game, {ANNA.user_id: Standing(held | {MASTER_TEN}, master_run=30)}) == ()
    # against «любитель», or lost: nothing of «мастер»
    assert earned(solo_won(Level.NORMAL), {}) == ((0, FINISH_ON_CAPTURE),)
    lost = finished(solo_party(ANNA, level=Level.HARD), plain_finish())
    lost = dataclasses.replace(lost, seats=(lost.seats[1], lost.seats[0]))  # Аня in the seat that lost
    lost = dataclasses.replace(
        lost, seats=tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(lost.seats))
    )
    assert earned(lost, {ANNA.user_id: Standing(frozenset(), master_run=9)}) == ()


def test_a_party_a_bot_player_or_the_timer_moved_in_earns_its_person_nothing() -> None:
    game = solo_won()
    helped = dataclasses.replace(game, moves=(Move("l:5h", 0, Actor.AFK, 1.0),))
    assert earned(helped, {}) == ()
    group = finished(group_party(ANNA, BORIS), take_and_finish())
    assert earned(group, {}) == ((0, FINISH_ON_CAPTURE),)  # a group party: no «мастер» in it


def test_the_party_end_carries_what_was_earned_and_its_stored_notice_reads_back_the_same() -> None:
    game = solo_won()
    [ended] = award(game, [PartyEnded(5.0)], {})
    assert isinstance(ended, PartyEnded) and ended.earned == ((0, FINISH_ON_CAPTURE), (0, MASTER_FIRST))
    event, seat = load_told(dump_told(ended, 0))
    assert event == dataclasses.replace(ended, at=0.0) and seat == 0
