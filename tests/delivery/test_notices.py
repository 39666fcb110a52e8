"""A change's notices (``bot.delivery.notices``, ``draw.drawn_notices``): whom each told event goes to — the group
and each player the bot may write to, the player a seat is about, a solo game's one chat — and what it reads, in
the language of whom it is for, every name escaped."""

from __future__ import annotations

import dataclasses

import pytest

from bot.delivery.draw import drawn_notices
from bot.delivery.notices import addressed
from bot.flow import lobby, moves, people
from bot.flow.commands import Join, Pick, Play
from bot.model.game import (
    Abandoned,
    DealEnded,
    Event,
    Game,
    Person,
    SeatBack,
    SeatLeft,
    StartBotFirst,
    TimedOut,
)
from bot.storage import Notice
from engine.ai import Level
from tests.delivery.drawing import (
    BOT,
    TABLE,
    change,
    hand,
    last_card_of_the_deal,
    notice_buttons,
    posted_to,
    shown,
    slots,
    stored_notices,
    texts,
)
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    GROUP,
    NOW,
    group_party,
    in_lobby,
    solo_party,
    with_user,
)

HOSTILE = Person(106, "<b>Ева</b> & <a href='x'>Co</a>", lang="ru")
ESCAPED = "&lt;b&gt;Ева&lt;/b&gt; &amp; &lt;a href="
"""The name as a message shows it (quotes may stay: they are text outside a tag)."""


def whom(game: Game, *happened: Event) -> list[tuple[int, int | None]]:
    return [(a.chat_id, a.seat) for a in addressed(game, happened)]


# --- whom a notice is for -------------------------------------------------------------------------------------------


def test_a_deals_end_goes_to_the_group_and_each_player_the_bot_may_write_to() -> None:
    game = group_party(ANNA, BORIS, bots=[Level.EASY])
    assert whom(game, DealEnded(1)) == [(GROUP, None), (ANNA.user_id, 0), (BORIS.user_id, 1)]
    unreachable = with_user(game, BORIS, started=False)
    assert whom(unreachable, DealEnded(1)) == [(GROUP, None), (ANNA.user_id, 0)]


def test_a_solo_games_notices_go_to_its_one_chat_as_the_games() -> None:
    game = solo_party()
    assert whom(game, DealEnded(1)) == [(ANNA.user_id, None)]
    assert whom(game, TimedOut(0, "l:Kd")) == []  # no clock runs in a solo game
    assert whom(game, SeatBack(0)) == [(ANNA.user_id, 0)]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (TimedOut(1, "l:Ac"), [(GROUP, None), (BORIS.user_id, 1)]),
        (SeatBack(1), [(GROUP, None), (BORIS.user_id, 1)]),
        (SeatLeft(1), [(GROUP, None), (BORIS.user_id, 1)]),
        (StartBotFirst(1), [(GROUP, None)]),
        (Abandoned(3), [(GROUP, None)]),
    ],
    ids=["timed out", "seat back", "seat left", "start the bot", "abandoned"],
)
def test_a_seats_notice_goes_to_the_group_and_that_seats_player(
    event: Event, expected: list[tuple[int, int | None]]
) -> None:
    assert whom(group_party(ANNA, BORIS), event) == expected


def test_a_missed_turn_is_told_only_in_the_group_to_a_player_the_bot_cannot_write_to() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, started=False)
    assert whom(game, TimedOut(1, "l:Ac")) == [(GROUP, None)]


def test_events_nobody_is_told_of_are_addressed_to_nobody() -> None:
    game = group_party(ANNA, BORIS)
    decision = moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG)
    assert change(game, decision).notices == []


# --- what a notice reads ------------------------------------------------------------------------------------------


def test_each_player_reads_the_deals_end_in_their_own_language_the_group_in_its_own() -> None:
    game = with_user(last_card_of_the_deal(), BORIS, lang="en")
    drawn = change(game, moves.play(Play(GAME_ID, ANNA, 1, 0), game, NOW, CONFIG))
    assert posted_to(drawn.orders, GROUP).text.startswith("<b>Раздача 2 окончена:</b>")
    assert posted_to(drawn.orders, ANNA.user_id).text.startswith("<b>Раздача 2 окончена:</b>")
    english = posted_to(drawn.orders, BORIS.user_id)
    assert english.text.startswith("<b>Deal 2 is over:</b>") and "Раздача" not in english.text
    assert notice_buttons(english) == ["📋 Score sheet"]


def test_a_person_the_bot_cannot_write_to_is_asked_in_the_group_to_open_it() -> None:
    game = with_user(group_party(ANNA, BORIS), BORIS, started=False)
    drawn = change(game, people.blocked(game, BORIS.user_id, NOW, CONFIG))
    asked = posted_to(drawn.orders, GROUP)
    assert asked.text.startswith("Борис, бот не может вам написать.")
    assert asked.markup is not None and f"https://t.me/{BOT}?start=g_{GAME_ID}" in asked.markup
    assert hand(BORIS) not in slots(drawn.orders)  # blocked: no hand is drawn


def test_a_person_who_left_is_told_how_to_come_back_and_the_group_who_left() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, people.leave(game, BORIS.user_id, NOW, CONFIG))
    assert posted_to(drawn.orders, GROUP).text.startswith("🚪 Борис выходит из-за стола")
    own = posted_to(drawn.orders, BORIS.user_id)
    assert own.text.startswith("🚪 Вы вышли из-за стола — дальше за вас играет бот.")
    assert notice_buttons(own) == ["↩️ Вернуться за стол"]


@pytest.mark.parametrize(
    ("lang", "line"), [("ru", "не было ходов 3 дня"), ("en", "nobody has moved in 3 days")]
)
def test_an_abandoned_game_is_told_why_it_closed(lang: str, line: str) -> None:
    game = dataclasses.replace(group_party(ANNA, BORIS), lang=lang)
    drawn = change(game, lobby.abandon(game, 3 * 86400, NOW))
    assert line in posted_to(drawn.orders, GROUP).text


def test_stored_notices_are_drawn_from_the_game_as_committed_and_others_kept_or_left_out() -> None:
    game = group_party(ANNA, BORIS)
    (told,) = stored_notices(game, [SeatLeft(1)], first_id=5)[:1]
    reply = Notice(6, GROUP, 0, "готово", None)
    other = dataclasses.replace(told, id=7, game_id=GAME_ID + 1)
    out = drawn_notices([told, reply, other], game, BOT)
    assert [n.id for n in out] == [5, 6]
    assert out[0].text.startswith("🚪 Борис выходит из-за стола") and out[0].markup is not None
    assert out[1] == reply
    assert drawn_notices([told, reply], None, BOT) == [reply]


# --- names are escaped ------------------------------------------------------------------------------------------------


def test_a_hostile_name_is_escaped_in_the_lobby_the_table_the_hands_and_the_notices() -> None:
    game = in_lobby(ANNA)
    joined = change(game, lobby.join(Join(GAME_ID, HOSTILE), game, True))
    party = group_party(ANNA, HOSTILE)
    moved = change(party, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), party, NOW, CONFIG))
    left = change(moved.after, people.leave(moved.after, HOSTILE.user_id, NOW, CONFIG))
    written = texts(joined.orders) + texts(moved.orders) + texts(left.orders)
    assert all("<b>Ева" not in text and "<a href" not in text for text in written)
    assert ESCAPED in shown(joined.orders, TABLE).text
    assert ESCAPED in shown(moved.orders, TABLE).text
    assert ESCAPED in shown(moved.orders, hand(ANNA)).text  # «Ходят по очереди: … → вы»
    assert ESCAPED in posted_to(left.orders, GROUP).text
