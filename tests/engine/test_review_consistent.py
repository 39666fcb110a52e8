"""No contradicting items in a Кончинка party's review (issue 48, item 2): finished random parties are reviewed
(a small search: which moves it finds does not matter here) and no two items of one deal give opposite reasons.

Two reasons are *opposite* when they name the same goal and the moves they prefer go opposite ways on it,
read off the moves themselves: the cards reasons (the most cards, another card «к очкам за большинство карт»,
the jack's sweep) prefer the move that takes more cards than the one made; the clubs reason the one that takes
more clubs; the «следующему игроку взять меньше всего» reasons the one that leaves the next player less. One
item preferring a capture of more cards for the cards and another of the same deal preferring fewer cards for
the cards is the contradiction the issue saw («берёт 1 карту … к очкам за большинство карт» over a sweep).
"""

from __future__ import annotations

import random
from collections import defaultdict

from engine.ai.review import ReviewBudget, review_party
from engine.cards import Suit
from engine.core import GameRecord, make_game
from engine.konchinka import Capture, Finish, KonchinkaView, Lay
from engine.konchinka.ai.advice import Why, konchinka_why
from engine.konchinka.ai.policy import exposure, position_from_view
from tests.tiers import size

PARTIES = size(40, 120)
BUDGET = ReviewBudget(worlds=2, recheck=6, recheck_worlds=2)

GOALS: dict[Why, str] = {
    Why.MOST_CARDS: "cards",
    Why.CAPTURE: "cards",
    Why.SWEEP: "cards",
    Why.CLUBS: "clubs",
    Why.CAPTURE_SAFEST: "next player",
    Why.SAFEST_LAY: "next player",
}


def _left(view: KonchinkaView, action: object) -> float:
    left = [c for c in view.table if c not in action.taken] if isinstance(action, Capture) else [*view.table]
    if isinstance(action, Lay):
        left.append(action.card)
    position = position_from_view(view)
    return exposure(left, position.worth, position.chances, position.points)


def _measure(goal: str, view: KonchinkaView, action: object) -> float:
    """How much of ``goal`` a move has, more is better by the reason (cards or clubs taken, minus what the
    next player may take)."""
    got = (*action.taken, action.card) if isinstance(action, Capture) else ()
    if goal == "cards":
        return len(got)
    if goal == "clubs":
        return sum(1 for c in got if c.suit is Suit.CLUBS)
    return -_left(view, action)


def _random_party(rng: random.Random) -> GameRecord:
    game = make_game("konchinka", {"players": rng.choice((2, 3, 4)), "target": rng.choice((1, 2))})
    state = game.new_initial_state(rng.randrange(1 << 30))
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


def test_no_two_items_of_one_deal_give_opposite_reasons() -> None:
    rng = random.Random(48)
    items = goals_told = 0
    for _ in range(PARTIES):
        record = _random_party(rng)
        player = rng.randrange(int(record.options.get("players", 2)))  # type: ignore[arg-type]
        review = review_party(record, player, budget=BUDGET)
        ways: dict[tuple[int, str], list[tuple[int, Why]]] = defaultdict(list)
        for verdict in review.moves:
            view = verdict.view
            assert isinstance(view, KonchinkaView)
            why = konchinka_why(view, verdict.better, verdict.played)
            items += 1
            goal = GOALS.get(why)
            if goal is None:
                continue
            goals_told += 1
            diff = _measure(goal, view, verdict.better) - _measure(goal, view, verdict.played)
            if diff:
                ways[(view.deal_number, goal)].append((1 if diff > 0 else -1, why))
        for (deal, goal), told in ways.items():
            signs = {sign for sign, _ in told}
            assert len(signs) < 2, (record.to_json(), player, deal, goal, told)
    assert items > PARTIES and goals_told > PARTIES // 2, (items, goals_told)


FINISHING = size(60, 240)
"""Positions with a finishing move among the legal ones (and some others beside them)."""


def test_a_goal_reason_never_prefers_the_move_with_less_of_its_goal() -> None:
    """What keeps the items of a review from contradicting each other, over every pair of legal moves of random
    positions (a finishing capture among them): a reason with a goal is given to a move only where that move has
    at least as much of the goal as the other one (never «ещё 2 карты … к очкам за большинство карт» over a
    capture of 3 cards that also finishes the party)."""
    rng = random.Random(4848)
    pairs = told = seen = 0
    while seen < FINISHING:
        game = make_game("konchinka", {"players": rng.choice((2, 3)), "target": rng.choice((1, 3))})
        state = game.new_initial_state(rng.randrange(1 << 30))
        while not state.is_terminal:
            legal = state.legal_actions()
            finishing = any(isinstance(a, Finish) or (isinstance(a, Capture) and a.finish) for a in legal)
            if len(legal) > 1 and (finishing or rng.random() < 0.05):
                seen += finishing
                view = state.view(state.current_player)
                for better in legal:
                    for other in legal:
                        if better == other:
                            continue
                        pairs += 1
                        goal = GOALS.get(konchinka_why(view, better, other))
                        if goal is None:
                            continue
                        told += 1
                        diff = _measure(goal, view, better) - _measure(goal, view, other)
                        assert diff >= 0, (state.record().to_json(), better, other, goal)
            state.apply(rng.choice(legal))
    assert told > FINISHING, (told, pairs)
