"""«💡 Подсказка» says why and what the search expects; «🔍 Разбор партии» lists the costliest moves with their
positions and values. The engine's reasons are checked on positions where a person would give the same one."""

from __future__ import annotations

import random

import pytest

from bot.games.king import KING
from bot.games.konchinka import KONCHINKA
from bot.i18n import Translator
from engine.ai.advice import Advice
from engine.ai.players import advise
from engine.ai.review import Review, Verdict
from engine.cards import Card, Suit, parse_cards
from engine.king import ChooseTrump, Contract, KingState, Play
from engine.king.ai.advice import Why as KingWhy
from engine.king.ai.advice import can_change, king_why, most_points
from engine.konchinka import Capture, KonchinkaGame, KonchinkaOptions, KonchinkaState, Lay
from engine.konchinka.ai.advice import Why as KonchinkaWhy
from engine.konchinka.ai.advice import konchinka_why
from tests.bot.test_views import EN, RU
from tests.bot.test_views_screens import SEATS, konchinka_position

LOCALES = pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])


def queens_position() -> KingState:
    """«не брать девочек»: Борис led 9♣, Вера took it over with Т♣; Аня has no club and holds Д♦ and 7♠."""
    return KingState.from_position(
        [parse_cards("Qd 7s"), parse_cards("Kc 8s"), parse_cards("Jd 9s"), parse_cards("Ts Js")],
        contract=Contract.NO_QUEENS,
        dealer=3,
        leader=1,
        trick=[(1, Card.parse("9c")), (2, Card.parse("Ac")), (3, Card.parse("7c"))],
    )


def test_the_engine_gives_the_reasons_a_person_would() -> None:
    view = konchinka_position().view(0)
    konchinka = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Td"))
    assert konchinka_why(view, konchinka) == KonchinkaWhy.KONCHINKA
    lays = {a.card.code: konchinka_why(view, a) for a in view.legal_actions if isinstance(a, Lay)}
    assert KonchinkaWhy.SAFEST_LAY in lays.values() and set(lays.values()) <= {
        KonchinkaWhy.SAFEST_LAY,
        KonchinkaWhy.HOLD_BACK,
    }
    king = queens_position().view(0)
    assert king_why(king, Play(Card.parse("Qd"))) == KingWhy.DUMP_PENALTY
    assert king_why(king, Play(Card.parse("7s"))) == KingWhy.DUMP_HIGH


@LOCALES
def test_a_hint_says_the_move_why_and_what_the_search_expects(tr: Translator) -> None:
    view = konchinka_position().view(0)
    konchinka = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Td"))
    konchinka_hint = KONCHINKA.hint(view, Advice(konchinka, KonchinkaWhy.KONCHINKA, 1.24, 0.31), tr)
    lay = next(a for a in view.legal_actions if isinstance(a, Lay) and a.card == Card.parse("4s"))
    lay_hint = KONCHINKA.hint(view, Advice(lay, KonchinkaWhy.SAFEST_LAY, -0.04, -0.5), tr)
    queen = KING.hint(
        queens_position().view(0), Advice(Play(Card.parse("Qd")), KingWhy.DUMP_PENALTY, -2.0, -6.5), tr
    )
    trump = KING.hint(queens_position().view(0), Advice(ChooseTrump(None), KingWhy.TRUMP_LAST), tr)
    if tr is RU:
        assert konchinka_hint == (
            "💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ — забирает кончинку 10♦."
            " Лучший другой ход в среднем на 0,9 очка хуже — за оставшуюся раздачу."
        )
        assert lay_hint == (
            "💡 Мастер сыграл бы так: положить 4♠ — после неё следующему игроку со стола взять меньше всего."
            " Лучший другой ход в среднем на 0,5 очка хуже — за оставшуюся раздачу."
        )
        assert queen == (
            "💡 Мастер сыграл бы так: Д♦ — в масть нечем, можно сбросить даму."
            " Лучший другой ход в среднем на 4,5 очка хуже — за оставшуюся раздачу."
        )
        assert trump == (
            "💡 Мастер сыграл бы так: козырь по последней карте — ни одна масть не сильна, пусть решит"
            " последняя карта."
        )
    else:
        assert queen == (
            "💡 The master would play: Q♦ — void in the suit, it may drop a queen."
            " The best other move is worth 4.5 points less on average over the rest of the deal."
        )
    for text in (konchinka_hint, lay_hint, queen, trump):
        assert len(text) <= 200


def _konchinka_review() -> Review:
    view = konchinka_position().view(0)
    konchinka = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Td"))
    lay = next(a for a in view.legal_actions if isinstance(a, Lay) and a.card == Card.parse("Jh"))
    return Review(0, 41, (Verdict(view.version, view, lay, konchinka, -1.05, 0.75),))


@LOCALES
def test_a_review_shows_each_moves_position_the_move_made_the_better_one_and_its_worth(
    tr: Translator,
) -> None:
    konchinka = KONCHINKA.render_review(_konchinka_review(), SEATS[:3], tr)
    king_view = queens_position().view(0)
    verdict = Verdict(
        king_view.version, king_view, Play(Card.parse("7s")), Play(Card.parse("Qd")), -8.0, -4.0
    )
    king = KING.render_review(Review(0, 77, (verdict,)), SEATS, tr)
    if tr is RU:
        assert konchinka.text == (
            "🔍 <b>Разбор партии</b>\n"
            "Мастер пересчитал все ваши ходы, где был выбор (41). Вот ходы, где он сыграл бы лучше:\n"
            "\n"
            "<b>1.</b> Раздача 3. Стол: 7♦ 3♠ Д♥ 9♣ 5♥\n"
            "У вас: Д♣ 10♦ В♥ 4♠\n"
            "Вы: положить В♥\n"
            "Мастер: взять 7♦ + 3♠ картой 10♦ — забирает кончинку 10♦."
        )
        assert king.text == (
            "🔍 <b>Разбор партии</b>\n"
            "Мастер пересчитал все ваши ходы, где был выбор (77). Вот ходы, где он сыграл бы лучше:\n"
            "\n"
            "<b>1.</b> Раздача 3/15, «не брать девочек», взятка 1\n"
            "На столе: 9♣ (Борис), Т♣ (Вера), 7♣ (🤖 Любитель)\n"
            "У вас: Д♦ 7♠\n"
            "Вы: 7♠\n"
            "Мастер: Д♦ — в масть нечем, можно сбросить даму; в среднем на 4,0 очка больше за оставшуюся"
            " раздачу."
        )
    else:
        assert konchinka.text.endswith("Master: take 7♦ + 3♠ with 10♦ — it takes the konchinka 10♦.")
        assert "Master: Q♦ — void in the suit, it may drop a queen; worth 4.0 points more" in king.text
    assert konchinka.markup is None and king.markup is None


@LOCALES
def test_a_review_of_a_flawless_party_says_so(tr: Translator) -> None:
    rendered = KONCHINKA.render_review(Review(0, 12, ()), SEATS[:2], tr)
    if tr is RU:
        assert rendered.text == (
            "🔍 <b>Разбор партии</b>\nМастер пересчитал все ваши ходы, где был выбор (12), и сыграл бы так же:"
            " ни один ход не стоил вам очков."
        )


def last_club() -> KonchinkaState:
    """Deal 2's last round: Аня holds only 2♣, and nothing on the table (9♦ К♠) adds up to 2."""
    return KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2)),
        hands=[parse_cards("2c"), parse_cards("5h")],
        table=parse_cards("9d Ks"),
        current_player=0,
        dealer=1,
        deal_number=2,
    )


def hearts_led(contract: Contract, hand: str) -> KingState:
    """Вера (seat 3) led 9♥; Аня (seat 0) answers with ``hand``."""
    return KingState.from_position(
        [parse_cards(hand), parse_cards("Kc Qc 7c"), parse_cards("Kd Qd 7d"), parse_cards("8s 9s")],
        contract=contract,
        dealer=2,
        leader=3,
        trick=[(3, Card.parse("9h"))],
    )


@LOCALES
def test_a_forced_move_says_it_is_the_only_move_and_nothing_else(tr: Translator) -> None:
    club = last_club().view(0)
    konchinka = advise(club, random.Random(1))
    assert konchinka.action == Lay(Card.parse("2c")) and konchinka.why == KonchinkaWhy.ONLY
    heart = hearts_led(Contract.NO_TRICKS, "8h 7s As").view(0)
    king = advise(heart, random.Random(1))
    assert king.action == Play(Card.parse("8h")) and king.why == KingWhy.ONLY
    assert konchinka.gain is None and king.gain is None, "no search, no number"
    if tr is RU:
        assert KONCHINKA.hint(club, konchinka, tr) == "💡 Ход здесь один: положить 2♣."
        assert KING.hint(heart, king, tr) == "💡 Ход здесь один: 8♥."
    else:
        assert KONCHINKA.hint(club, konchinka, tr) == "💡 There is only one move here: put down 2♣."


def test_a_reason_is_what_the_move_does() -> None:
    # the deal's very last card takes 5♦: nobody moves after, so the rest of the table (3♣) is Аня's for sure
    last = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2)),
        hands=[parse_cards("5h"), []],
        table=parse_cards("5d 3c"),
        current_player=0,
        dealer=1,
    ).view(0)
    take = next(a for a in last.legal_actions if isinstance(a, Capture))
    assert konchinka_why(last, take) == KonchinkaWhy.LAST_MOVE
    assert KONCHINKA.hint(last, Advice(take, konchinka_why(last, take)), RU) == (
        "💡 Мастер сыграл бы так: взять 5♦ картой 5♥ — последний ход раздачи: остаток стола тоже ваш."
    )
    # a capture without a кончинка, clubs or the most cards says what it puts in the pile
    view = konchinka_position().view(0)
    queen = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Qc"))
    assert KONCHINKA.hint(view, Advice(queen, KonchinkaWhy.CAPTURE), RU) == (
        "💡 Мастер сыграл бы так: взять Д♥ картой Д♣ — ещё 2 карты в вашу стопку, к очкам за большинство карт."
    )
    # Кинг: a lower heart stays under the 9♥ led
    duck = hearts_led(Contract.NO_HEARTS, "8h 7h As").view(0)
    assert king_why(duck, Play(Card.parse("8h"))) == KingWhy.DUCK
    assert KING.hint(duck, Advice(Play(Card.parse("8h")), KingWhy.DUCK), RU) == (
        "💡 Мастер сыграл бы так: 8♥ — младше 9♥, взятку не берёт."
    )
    # «не брать взяток»: a trick with no penalty card still costs 2, and both of Аня's clubs take it
    tricks = KingState.from_position(
        [parse_cards("Tc Jc 7s"), parse_cards("Ah 8h"), parse_cards("Kh 9s"), parse_cards("Qh Ts")],
        contract=Contract.NO_TRICKS,
        dealer=0,
        leader=1,
        trick=[(1, Card.parse("7c")), (2, Card.parse("8c")), (3, Card.parse("9c"))],
    ).view(0)
    assert king_why(tricks, Play(Card.parse("Tc"))) == KingWhy.TAKE_FORCED
    assert KING.hint(tricks, Advice(Play(Card.parse("Tc")), KingWhy.TAKE_FORCED), RU) == (
        "💡 Мастер сыграл бы так: 10♣ — любая ваша карта забирает эту взятку."
    )
    # a positive deal, hearts trumps: Аня leads К♣ (Т♣ is still out) and keeps her hearts
    positive = KingState.from_position(
        [parse_cards("Kc 7h 8h"), parse_cards("Ac 9s Ts"), parse_cards("7c 8c 9c"), parse_cards("7d 8d 9d")],
        deal_index=7,
        trump=Suit.HEARTS,
        leader=0,
    ).view(0)
    assert king_why(positive, Play(Card.parse("Kc"))) == KingWhy.LEAD_KEEP_TRUMPS
    assert KING.hint(positive, Advice(Play(Card.parse("Kc")), KingWhy.LEAD_KEEP_TRUMPS), RU) == (
        "💡 Мастер сыграл бы так: К♣ — заходит не с козыря, козыри бережёт."
    )
    # a card dropped on a void is «старшая» only when it is the highest one held in its suit
    queens = queens_position().view(0)
    assert king_why(queens, Play(Card.parse("7s"))) == KingWhy.DUMP_HIGH
    low = KingState.from_position(
        [parse_cards("7s As"), parse_cards("Kc 8s"), parse_cards("Jd 9s"), parse_cards("Ts Js")],
        contract=Contract.NO_QUEENS,
        dealer=3,
        leader=1,
        trick=[(1, Card.parse("9c")), (2, Card.parse("Ac")), (3, Card.parse("7c"))],
    ).view(0)
    assert king_why(low, Play(Card.parse("7s"))) == KingWhy.DISCARD


@LOCALES
def test_every_reason_has_words_in_both_languages(tr: Translator) -> None:
    keys = [f"konchinka-why-{why}" for why in KonchinkaWhy if why != KonchinkaWhy.NONE]
    keys += [f"king-why-{why}" for why in KingWhy if why != KingWhy.NONE]
    for key in keys:
        assert tr.t(key, count=2, card="10♦", what="x", best="9♥") != key


def test_a_number_is_the_players_points_never_a_cap_and_konchinka_tells_none() -> None:
    view = konchinka_position().view(0)
    konchinka = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Td"))
    # Кончинка's search values an edge over the others and the party's win: −5,1 against −11,3 is no «6,2 очка»,
    # and no figure at all is told (the cap 5,0 was shown as one)
    wide = Advice(konchinka, KonchinkaWhy.KONCHINKA, -5.1, -11.3, most=None)
    assert (
        KONCHINKA.hint(view, wide, RU)
        == "💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ — забирает кончинку 10♦."
    )
    lay = next(a for a in view.legal_actions if isinstance(a, Lay) and a.card == Card.parse("Jh"))
    review = Review(0, 41, (Verdict(view.version, view, lay, konchinka, -9.0, 0.5),))
    text = KONCHINKA.render_review(review, SEATS[:3], RU).text
    assert "очка" not in text and "5,0" not in text
    # Кинг's search values the player's own points of the deal: a figure within what their score can still change
    queens = queens_position().view(0)
    assert most_points(queens) == 16.0 and can_change(queens) == 16.0
    within = Advice(Play(Card.parse("Qd")), KingWhy.DUMP_PENALTY, -4.0, -8.0, most=can_change(queens))
    assert KING.hint(queens, within, RU).endswith(
        " Лучший другой ход в среднем на 4,0 очка хуже — за оставшуюся раздачу."
    )
    beyond = Advice(Play(Card.parse("Qd")), KingWhy.DUMP_PENALTY, 0.0, -20.0, most=can_change(queens))
    assert "очка" not in KING.hint(queens, beyond, RU), "beyond what the score can change: no figure, no cap"


def test_the_review_says_when_the_move_made_left_a_konchinka_on_the_table() -> None:
    view = konchinka_position().view(0)
    konchinka = next(a for a in view.legal_actions if isinstance(a, Capture) and a.card == Card.parse("Td"))
    ten = next(a for a in view.legal_actions if isinstance(a, Lay) and a.card == Card.parse("Td"))
    review = Review(0, 41, (Verdict(view.version, view, ten, konchinka, -1.05, 0.75),))
    text = KONCHINKA.render_review(review, SEATS[:3], RU).text
    assert "Вы: положить 10♦ — кончинка осталась на столе\n" in text
