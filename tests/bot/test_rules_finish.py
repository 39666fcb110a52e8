"""What the texts say an early finish gives is what the engine gives: a finish is played, and the tally, the
deal-end message and the rules are compared."""

from __future__ import annotations

import random
import re

import pytest

from bot.games import rules_library
from bot.games.konchinka.results import render_deal_end
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.common import SeatInfo, TableInfo
from bot.views.notices import illegal_answer
from bot.views.rules import render_rules
from engine import IllegalActionError, make_game
from engine.cards import FULL_DECK, Suit
from engine.konchinka import KONCHINKI, Finish, KonchinkaGame, KonchinkaOptions, KonchinkaState

RU = translator(Locale.RU)
LIB = rules_library()
SEATS = (SeatInfo("Аня"), SeatInfo("Борис"), SeatInfo("Вера"))


def _a_finish_while_another_holds_a_konchinka() -> KonchinkaState:
    """A seeded three-player party played at random until the player to move may finish while somebody else
    has a кончинка in their pile (the first such seed)."""
    for seed in range(500):
        state = make_game("konchinka", {"players": 3, "target": 4}).new_initial_state(seed)
        assert isinstance(state, KonchinkaState)
        rng = random.Random(seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            if Finish() in actions:
                seat = state.current_player
                konchinki = state.view(seat).konchinki
                if any(konchinki[s] for s in range(3) if s != seat):
                    return state
            state.apply(rng.choice([a for a in actions if not isinstance(a, Finish)] or list(actions)))
    raise AssertionError("no such position in 500 seeds")


def test_an_early_finish_gives_the_finisher_their_secured_points_and_nobody_else_anything() -> None:
    state = _a_finish_while_another_holds_a_konchinka()
    seat = state.current_player
    secured = state.secured_points(seat)
    before = [line[-1] if line else 0 for line in state.view(seat).tally]
    others_konchinki = {s: state.view(seat).konchinki[s] for s in range(3) if s != seat}
    state.apply(Finish())

    # the engine: the finisher's secured points, nobody else anything — not even a кончинка's point
    assert state.is_terminal and state.outcome is not None and state.outcome.winners == (seat,)
    after = [line[-1] for line in state.view(seat).tally]
    assert after[seat] == before[seat] + secured
    assert all(after[s] == before[s] for s in others_konchinki)
    assert any(others_konchinki.values())

    # the rules say exactly that
    rules = render_rules(LIB, K.EARLY_FINISH, RU).text
    assert "В запись идут только ваши обеспеченные очки; остальные за эту раздачу не получают ничего" in rules
    assert "даже тот, у кого в стопке кончинка" in rules
    scoring = render_rules(LIB, K.SCORING, RU).text
    assert "очки за неё получает только тот, кто прикончил" in scoring

    # and so does the message at the end of the deal, with the engine's numbers
    text = render_deal_end(TableInfo("g1", SEATS, view=state.view(seat)), RU).text
    name = SEATS[seat].name
    assert (
        f"🏁 {name} приканчивает партию посреди раздачи. За эту раздачу {name} получает обеспеченные очки"
        in text
    )
    assert "остальные — ничего" in text
    points = re.search(r"Раздача \d+ окончена:</b> (.+)", text)
    assert points is not None
    shown = dict(re.findall(r"(\w+) ([+−-]?\d+)", points.group(1)))
    assert shown == {s.name: (f"+{secured}" if i == seat else "0") for i, s in enumerate(SEATS)}


def test_a_refused_finish_in_a_tie_break_says_what_getting_ahead_needs() -> None:
    # 13 against 15 and 15, to 15: 27 cards secure 2 points, 15 would only tie the leaders
    plain = [c for c in FULL_DECK if c not in KONCHINKI]
    pile = [c for c in plain if c.suit is not Suit.CLUBS][:23] + [c for c in plain if c.suit is Suit.CLUBS][
        :4
    ]
    free = [c for c in FULL_DECK if c not in pile]
    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=3, target=15)),
        hands=[[free[0]], [free[1]], [free[2]]],
        captured=[pile, [], []],
        tally=[[13], [15], [15]],
    )
    assert state.secured_points(0) == 2 and Finish() not in state.legal_actions()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Finish())
    assert (
        illegal_answer(refused.value, RU)
        == "Прикончить пока нельзя: обеспечено 2 очка, а нужно 3, чтобы обойти всех соперников."
    )
    assert illegal_answer(refused.value, translator(Locale.EN)) == (
        "You can't finish yet: 2 points secured, 3 needed to get ahead of everyone."
    )
