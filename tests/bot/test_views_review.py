"""«💡 Подсказка» says why and what the search expects; «🔍 Разбор партии» lists the costliest moves with their
positions and values. The engine's reasons are checked on positions where a person would give the same one."""

from __future__ import annotations

import pytest

from bot.games.king import KING
from bot.games.konchinka import KONCHINKA
from bot.i18n import Translator
from engine.ai.advice import Advice
from engine.ai.review import Review, Verdict
from engine.cards import Card, parse_cards
from engine.king import ChooseTrump, Contract, KingState, Play
from engine.king.ai.advice import Why as KingWhy
from engine.king.ai.advice import king_why
from engine.konchinka import Capture, Lay
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
            "💡 Мастер сыграл бы так: взять 7♦ + 3♠ картой 10♦ — забирает кончинку."
            " В среднем +1,2 очка за раздачу, лучший другой ход — +0,3."
        )
        assert lay_hint == (
            "💡 Мастер сыграл бы так: положить 4♠ — оставляет сопернику меньше всего очков."
            " В среднем 0,0 очка за раздачу, лучший другой ход — −0,5."
        )
        assert queen == (
            "💡 Мастер сыграл бы так: Д♦ — сбрасывает даму, пока можно."
            " В среднем −2,0 очка за раздачу, лучший другой ход — −6,5."
        )
        assert trump == (
            "💡 Мастер сыграл бы так: козырь по последней карте — ни одна масть не сильна — пусть решит"
            " последняя карта."
        )
    else:
        assert queen == (
            "💡 The master would play: Q♦ — it drops a queen while it can."
            " On average −2.0 points this deal; the best other move: −6.5."
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
            "Мастер: взять 7♦ + 3♠ картой 10♦ — в среднем на 1,8 очка больше."
        )
        assert king.text == (
            "🔍 <b>Разбор партии</b>\n"
            "Мастер пересчитал все ваши ходы, где был выбор (77). Вот ходы, где он сыграл бы лучше:\n"
            "\n"
            "<b>1.</b> Раздача 3/15, «не брать девочек», взятка 1\n"
            "На столе: 9♣ (Борис), Т♣ (Вера), 7♣ (🤖 Любитель)\n"
            "У вас: Д♦ 7♠\n"
            "Вы: 7♠\n"
            "Мастер: Д♦ — в среднем на 4,0 очка больше."
        )
    else:
        assert "Master: take 7♦ + 3♠ with 10♦ — worth 1.8 points more on average." in konchinka.text
    assert konchinka.markup is None and king.markup is None


@LOCALES
def test_a_review_of_a_flawless_party_says_so(tr: Translator) -> None:
    rendered = KONCHINKA.render_review(Review(0, 12, ()), SEATS[:2], tr)
    if tr is RU:
        assert rendered.text == (
            "🔍 <b>Разбор партии</b>\nМастер пересчитал все ваши ходы, где был выбор (12), и сыграл бы так же:"
            " ни один ход не стоил вам очков."
        )
