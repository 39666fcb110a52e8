"""A deal's end and the party's end drawn: the deal's scoring in the group (and, in short, in each player's own
chat) before the next deal's hands, sent anew below it; the score sheet's photo; at the party's end the final
sheet in every chat, the hands closed, and the result — winner, tally, settlement, «🔁 Реванш» — as the last word;
a solo game's the same in its one chat. Кончинка and Кинг."""

from __future__ import annotations

from bot.delivery.outbox import Priority, SheetPhoto
from bot.delivery.outbox.orders import Post, Show
from bot.flow import moves
from bot.flow.commands import BotMove, Pick, Play
from bot.games.base import _Party
from bot.games.king import KING
from bot.model.game import Game, Person
from engine.cards import Suit, parse_cards
from engine.king import KingState
from tests.delivery.drawing import (
    TABLE,
    Drawn,
    buttons,
    change,
    copy,
    dropped,
    hand,
    hurried,
    last_card_of_the_deal,
    moves_offered,
    notice_buttons,
    posted,
    posted_to,
    sheet,
    shown,
    shows,
    slots,
)
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    GROUP,
    NOW,
    finish_position,
    group_party,
    king_last_trick,
    konchinka,
    solo_party,
    version,
    with_user,
)


def play(game: Game, person: Person, index: int) -> Drawn:
    return change(game, moves.play(Play(GAME_ID, person, version(game), index), game, NOW, CONFIG))


def finish(game: Game) -> Drawn:
    """Аня's «🏁 Прикончить!» (the last of her legal actions in :func:`finish_position`)."""
    assert game.party is not None
    (index,) = game.party.actions_of_card(0, "f")
    return play(game, ANNA, index)


def king_final_trick() -> Game:
    """The last trick of the last deal (a positive one, ♣ trumps): Аня's Т♠ ends the party."""
    last = parse_cards("As 7h 8h 9h")
    state = KingState.from_position(
        [[last[0]], [], [], []],
        deal_index=14,
        trump=Suit.CLUBS,
        dealer=0,
        leader=1,
        trick=[(1, last[1]), (2, last[2]), (3, last[3])],
        tricks_done=7,
    )
    return group_party(ANNA, BORIS, kind="king", party=_Party(KING, state))


# --- a deal's end ---------------------------------------------------------------------------------------------------


def test_a_deals_scoring_goes_to_the_group_once_with_the_sheet_button() -> None:
    drawn = play(last_card_of_the_deal(), ANNA, 0)
    scoring = posted_to(drawn.orders, GROUP)
    assert scoring.text.startswith("<b>Раздача 2 окончена:</b> Аня +5 · Борис 0")
    assert "Кончинки: 2♣ — Аня, 10♦ — Аня" in scoring.text
    assert "<s>" not in scoring.text, "the crossed-out tally is the sheet's picture, sent beside it"
    assert "📋 Запись" in notice_buttons(scoring)


def test_each_player_is_told_the_deals_end_in_short_in_their_own_chat() -> None:
    drawn = play(last_card_of_the_deal(), ANNA, 0)
    group = posted_to(drawn.orders, GROUP)
    for person in (ANNA, BORIS):
        own = posted_to(drawn.orders, person.user_id)
        assert own.text.startswith("<b>Раздача 2 окончена:</b> Аня +5 · Борис 0")
        assert "Счёт: Аня 7 · Борис 1" in own.text
        assert len(own.text) < len(group.text)


def test_the_next_deals_hands_go_below_the_scoring_once_it_is_out() -> None:
    drawn = play(last_card_of_the_deal(), ANNA, 0)
    group = posted_to(drawn.orders, GROUP)
    (post,) = [o for o in drawn.orders if isinstance(o, Post)]
    assert drawn.orders.index(post) < min(drawn.orders.index(s) for s in shows(drawn.orders))
    for person in (ANNA, BORIS):
        anew = shown(drawn.orders, hand(person))
        assert anew.resend and anew.after == (group.id,)
        assert "Счёт: Аня 7 · Борис 1" in anew.text
    assert hurried(drawn.orders) == {ANNA.user_id, BORIS.user_id}
    assert moves_offered(shown(drawn.orders, hand(BORIS)))  # he leads the next deal
    assert shown(drawn.orders, hand(BORIS)).priority is Priority.TURN
    assert not moves_offered(shown(drawn.orders, hand(ANNA)))


def test_the_group_gets_the_score_sheets_photo_and_the_table_of_the_next_deal() -> None:
    drawn = play(last_card_of_the_deal(), ANNA, 0)
    photo = shown(drawn.orders, sheet(GROUP))
    assert isinstance(photo.media, SheetPhoto) and not photo.resend
    assert photo.text == "📋 Запись после раздачи 2: Аня 7 · Борис 1"
    table = shown(drawn.orders, TABLE)
    assert "Раздача 3 · сдаёт Аня" in table.text and table.paced and not table.resend
    assert sheet(ANNA.user_id) not in slots(
        drawn.orders
    )  # a player's own sheet comes when asked, or at the end


def test_a_move_that_ends_no_deal_draws_no_sheet() -> None:
    game = group_party(ANNA, BORIS)
    drawn = change(game, moves.pick(Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG))
    assert [s.slot for s in shows(drawn.orders) if s.media is not None] == []


def test_a_king_deals_end_names_the_last_trick_and_sends_the_next_deals_hands() -> None:
    game = group_party(ANNA, BORIS, kind="king", party=king_last_trick())
    drawn = change(game, moves.pick(Pick(GAME_ID, ANNA, 0, "As"), game, NOW, CONFIG))
    scoring = posted_to(drawn.orders, GROUP)
    assert scoring.text.startswith("<b>Раздача 1/15 окончена</b> · «не брать взяток»")
    assert "→ берёт 🤖 Любитель 2" in scoring.text
    assert "«не брать мальчиков»" in shown(drawn.orders, TABLE).text
    for person in (ANNA, BORIS):
        assert shown(drawn.orders, hand(person)).resend
    assert shown(drawn.orders, sheet(GROUP)).text.startswith("📋 Запись после раздачи 1")


# --- the party's end ------------------------------------------------------------------------------------------------


def test_the_partys_result_is_the_last_word_below_its_final_sheet() -> None:
    drawn = finish(group_party(ANNA, BORIS, party=finish_position()))
    assert isinstance(drawn.orders[-1], Post)
    assert [type(o) for o in drawn.orders].count(Post) == 1
    result = posted_to(drawn.orders, GROUP)
    assert result.text.startswith("🏆 <b>Партия окончена!</b>\nПобеда: Аня — 15 очков")
    assert "Борис → Аня: 10 очков" in result.text  # the settlement
    assert notice_buttons(result) == ["🔁 Реванш", "📖 Правила", "📜 История"]


def test_each_player_is_told_their_place_with_the_review_of_their_moves() -> None:
    drawn = finish(group_party(ANNA, BORIS, party=finish_position()))
    anna, boris = posted_to(drawn.orders, ANNA.user_id), posted_to(drawn.orders, BORIS.user_id)
    assert "🎉 <b>Вы победили</b> с 15 очками!" in anna.text
    assert "<b>Вы на 2-м месте</b> с 5 очками" in boris.text
    for notice in (anna, boris):
        assert notice_buttons(notice)[0] == "🔍 Разбор партии"


def test_at_the_partys_end_every_chat_gets_the_final_sheet_and_the_hands_go() -> None:
    drawn = finish(group_party(ANNA, BORIS, party=finish_position()))
    for chat in (GROUP, ANNA.user_id, BORIS.user_id):
        assert shown(drawn.orders, sheet(chat)).text == "🏆 Итог партии: Аня 15 · Борис 5"
    table = shown(drawn.orders, TABLE)
    assert not table.paced and not table.resend
    assert "🃏 Мои карты" not in table.text and "Ходит" not in table.text
    for person in (ANNA, BORIS):
        # The party's end in the private chat says it all: the hand goes, no button of a party over left on it.
        assert hand(person) in dropped(drawn.orders) and not shows(drawn.orders, hand(person))
        kept = shown(drawn.orders, copy(person))  # a «📋 Стол» copy, if there is one, shows the end
        assert kept.only_existing and not kept.paced
    assert hurried(drawn.orders) == {ANNA.user_id, BORIS.user_id}


def test_a_player_the_bot_cannot_write_to_gets_no_final_sheet_nor_result() -> None:
    game = with_user(group_party(ANNA, BORIS, party=finish_position()), BORIS, started=False)
    drawn = finish(game)
    assert sheet(BORIS.user_id) not in slots(drawn.orders)
    assert BORIS.user_id not in {n.chat_id for n in posted(drawn.orders)}
    assert sheet(ANNA.user_id) in slots(drawn.orders)


def test_a_king_partys_end_names_the_winner_and_closes_every_hand() -> None:
    game = king_final_trick()
    drawn = change(game, moves.pick(Pick(GAME_ID, ANNA, version(game), "As"), game, NOW, CONFIG))
    result = posted_to(drawn.orders, GROUP)
    assert "Победа: 🤖 Любитель 2 — +3 очка" in result.text
    assert "🔁 Реванш" in notice_buttons(result)
    assert isinstance(drawn.orders[-1], Post)
    for person in (ANNA, BORIS):
        assert hand(person) in dropped(drawn.orders)
        assert shown(drawn.orders, sheet(person.user_id)).text.startswith("🏆 Итог партии:")


# --- a solo game ----------------------------------------------------------------------------------------------------


def test_a_solo_deals_end_is_told_in_the_players_chat_and_the_screen_goes_below_it() -> None:
    party = konchinka("5h", "", table="5c Kd", captured=["2c Td 3c 4c", "Ah"], tally=[[2], [1]], version=1)
    drawn = play(solo_party(ANNA, party=party), ANNA, 0)
    (scoring,) = posted(drawn.orders)
    assert scoring.chat_id == ANNA.user_id and scoring.text.startswith("<b>Раздача 2 окончена:</b>")
    screen = shown(drawn.orders, hand(ANNA))
    assert screen.resend and screen.after == ()  # the same chat keeps the order: nothing to wait for
    assert slots(drawn.orders) == [hand(ANNA)]  # no group, no sheet photo per deal


def test_a_solo_partys_end_gives_the_final_sheet_a_rematch_and_the_review() -> None:
    drawn = finish(solo_party(ANNA, party=finish_position()))
    assert TABLE not in slots(drawn.orders)
    assert shown(drawn.orders, sheet(ANNA.user_id)).text == "🏆 Итог партии: Аня 15 · 🤖 Любитель 5"
    screen = shown(drawn.orders, hand(ANNA))
    assert "Партия окончена." in screen.text and "🔁 Реванш" in buttons(screen)
    assert not moves_offered(screen)
    (result,) = posted(drawn.orders)
    assert "🎉 <b>Вы победили</b>" in result.text
    assert notice_buttons(result)[0] == "🔍 Разбор партии"
    assert isinstance(drawn.orders[-1], Post)


def test_a_solo_bot_players_move_edits_the_one_screen_and_sends_nothing_anew() -> None:
    game = solo_party(ANNA, party=konchinka("5s 6s", "Kd Kh", to_move=1, deck="2c 3c 4c 5c"))
    assert game.party is not None
    action = game.party.view_of(1).legal_actions[0]  # type: ignore[attr-defined]
    drawn = change(game, moves.bot_move(BotMove(GAME_ID, 0, 1, action), game, NOW, CONFIG))
    (screen,) = shows(drawn.orders)
    assert isinstance(screen, Show) and screen.slot == hand(ANNA)
    assert not screen.resend and screen.priority is Priority.TURN
    assert "🤖 Любитель кладёт К♦" in screen.text and "Ваш ход, Аня!" in screen.text
    assert moves_offered(screen)
