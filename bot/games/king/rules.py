"""Кинг's rules book: its sections (texts in ``locales/*/rules.ftl``), the words people call each of them, its
slang, its direct answers and worked examples, the lines that describe a party's options, its line of /help."""

from __future__ import annotations

import functools
from typing import Final

from bot.games.king.rules_answers import KING_ANSWERS
from bot.games.king.rules_asked import ASKED
from bot.games.king.rules_examples import EXAMPLES
from bot.games.king.sections import KingSection as S
from bot.i18n import Translator
from bot.views.common import option
from bot.views.rules_book import Options, RulesBook, RulesSection
from engine.king.rules import DEFAULT_ORDER

KEYWORDS: Final[dict[S, str]] = {
    S.BASICS: (
        "колода 32; 32 карты; масть; в масть; ходить в масть; старшинство; старшая карта; заход; "
        "заходить; взятка; сдача; 15 раздач; по 8 карт каждому; четверо; "
        "коротко; кратко; вкратце; в двух словах; суть; основы; новичок; для начинающих; "
        "in short; basics; beginner; "
        "trick; suit; follow suit; lead; 32 cards; deals; four players"
    ),
    S.NEGATIVE: (
        "не брать; ералаш; мальчики; девочки; черви; кинг червей; король червей; к♥; две последние; "
        "взятки; порядок раздач; скинуть кинга; отдать кинга; заходить с червей; досрочный конец раздачи; "
        "early end of a deal; deal ends early; "
        "eralash; jacks; boys; queens; girls; hearts; king of hearts; no tricks; last two; negative; "
        "order; lead hearts; "
        "минусовые; минусовая раздача; не брать взяток"
    ),
    S.TRUMP: (
        "отыгрыш; козырь; козыри; козырной; назначить козыря; выбирать козыря; выбрать козыря; "
        "по последней; последняя карта; перебить; бить козырем; "
        "trump; trumps; positive; by the last card; overtrump; choose trump; name trump; "
        "плюсовые; плюсовая раздача; заказать козыря"
    ),
    S.SCORING: (
        "очки кинга; штраф; штрафы; штрафные очки; сколько стоит; стоимость; очки за взятку; кинг червей; "
        "король червей; итог; сумма ноль; "
        "192; 96; 24; 16; плюс; минус; подсчёт; общий подсчёт; подсчёт очков; разница; "
        "king score; penalty; penalties; how much; worth; cost; king of hearts; total; result"
    ),
}
"""What people call each section, «;» between phrases (a phrase of several words counts as a phrase too)."""

TEXTS: Final[dict[S, str]] = {
    S.BASICS: "king",
    S.NEGATIVE: "king-negative",
    S.TRUMP: "king-trump",
    S.SCORING: "king-scoring",
}
"""The stem of each section's texts (``rules-<stem>``, ``rules-title-<stem>``, …)."""

SYNONYMS: Final = {
    "скидывать": "отдать; положить; сбросить",
    "скинуть": "отдать; положить; сбросить",
    "сбрасывать": "отдать; положить",
    "сбросить": "отдать; положить",
    "червь": "черва; червы",
    "черви": "черва; червы",
    "червы": "черва",
    "черва": "червь; черви",
    "ходить": "заходить",
    "стоить": "очко; штраф",
    "мальчик": "валет",
    "девочка": "дама",
    "втроём": "четверо; игрок",
    "вдвоём": "четверо; игрок",
    "overtrump": "trump",
}
"""A word people say → the words the rules use for it."""


MARKS: Final = {
    # as sure as the game's name
    "ералаш": 2.0,
    "отыгрыш": 2.0,
    "мальчик": 2.0,
    "девочка": 2.0,
    "плюсовой": 2.0,
    "минусовой": 2.0,
    "минуса": 2.0,
    "не брать": 2.0,
    "по последней": 2.0,
    "eralash": 2.0,
    # only Кинг has them: a question with no game in the chat means Кинг
    "козырь": 1.0,
    "козырной": 1.0,
    "козырять": 1.0,
    "черва": 1.0,
    "червь": 1.0,
    "червы": 1.0,
    "червовый": 1.0,
    "черви": 1.0,
    "масть": 1.0,
    "заходить": 1.0,
    "заход": 1.0,
    "штраф": 1.0,
    "штрафной": 1.0,
    "назначать": 1.0,
    "назначить": 1.0,
    "32": 1.0,
    "192": 1.0,
    "96": 1.0,
    "ноль": 1.0,
    "trump": 1.0,
    "hearts": 1.0,
    "penalty": 1.0,
    # both games say it, Кинг more («чья последняя взятка» takes what is left on Кончинка's table)
    "последний взятка": 0.5,
    "взятка": 0.5,
    "итог": 0.5,
}
"""Words only Кинг has (see ``RulesBook.marks``): its deals, trumps, hearts, penalties."""


def option_lines(options: Options, tr: Translator) -> list[str]:
    """A party's options, a line each («Порядок раздач „не брать“: …»)."""

    def yes_no(name: str, default: bool) -> str:
        return tr.t("yes" if option(options, name, default) else "no")

    raw_order = options.get("order")
    order = [str(c) for c in raw_order] if isinstance(raw_order, list) else [str(c) for c in DEFAULT_ORDER]
    return [
        tr.t(
            "settings-king-order",
            order=" → ".join(tr.t("king-contract-short", contract=c) for c in order),
        ),
        tr.t("settings-king-forced", value=yes_no("king_forced_on_heart_lead", True)),
        tr.t("settings-king-stop", value=yes_no("stop_when_decided", True)),
    ]


@functools.cache
def rules_book(kind: str, command: str) -> RulesBook:
    """The book of the game ``kind`` (this game's plug-in's id), opened by ``command``."""
    return RulesBook(
        kind=kind,
        command=command,
        sections=tuple(
            RulesSection(
                section.value,
                TEXTS[section],
                KEYWORDS[section],
                examples=EXAMPLES.get(section, ()),
                asked=ASKED.get(section, ()),
            )
            for section in S
        ),
        names=frozenset({"кинг", "king"}),
        marks=MARKS,
        synonyms=SYNONYMS,
        answers=KING_ANSWERS,
        options_title=f"rules-game-options-{kind}",
        option_lines=option_lines,
        help_line=f"help-moves-{kind}",
    )
