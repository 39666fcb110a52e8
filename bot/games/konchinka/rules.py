"""Кончинка's rules book: its sections (texts in ``locales/*/rules.ftl``), the words people call each of them,
its slang, its direct answers and worked examples, the lines that describe a party's options, its line of /help."""

from __future__ import annotations

import functools
from typing import Final

from bot.games.konchinka.rules_answers import KONCHINKA_ANSWERS
from bot.games.konchinka.rules_asked import ASKED
from bot.games.konchinka.rules_examples import EXAMPLES
from bot.games.konchinka.sections import KonchinkaSection as S
from bot.i18n import Translator
from bot.views.common import option
from bot.views.rules_book import Options, RulesBook, RulesSection
from engine.konchinka import Variant

KEYWORDS: Final[dict[S, str]] = {
    S.BASICS: (
        "раздача; сдача; сдавать; сдающий; колода; стол; ход; ходить; пас; пропустить ход; не ходить; "
        "первый ход; начало; цель; смысл; что такое кончинка; остаток на столе; стопка; игроки; сколько игроков; "
        "нечем взять; нечем брать; "
        "коротко; кратко; вкратце; в двух словах; суть; основы; новичок; для начинающих; "
        "konchinka; in short; basics; beginner; "
        "deal; dealer; deck; table; turn; pass; goal; pile; players"
    ),
    S.CAPTURES: (
        "взятка; брать; взять; забрать; бить; сумма; взятка по сумме; набор; валет; дама; король; туз; "
        "картинка; достоинство; номинал; положить на стол; весь стол; одна взятка за ход; "
        "обычная кончинка; классика; сколько стоит карта; how much is a card worth; "
        "capture; take; sum; jack; sweep; queen; king; ace; rank; face value; lay"
    ),
    S.POINTS: (
        "очковая; очковая кончинка; очковый вариант; вариант; 11; 12; 13; 14; опечатка; "
        "валет; дама; король; картинки; сколько стоит карта; "
        "points variant; points konchinka; misprint; how much is a card worth; jack; queen; king"
    ),
    S.SCORING: (
        "подсчёт; считать очки; очки за раздачу; дают очки; начисляют очки; максимум за раздачу; "
        "больше всех; большинство; трефы; кончинки; 2♣; 10♦; "
        "двойка треф; десятка бубен; ничья; поровну; "
        "score; scoring; most cards; most clubs; two of clubs; ten of diamonds; tie"
    ),
    S.TALLY: (
        "запись; записывать; играть до; до скольких играть; расчёт; рассчитываться; победа; победитель; "
        "выиграть; ставка; на кон; "
        "по очкам; зачёркивать; зачеркнуть; цифры; 15; до скольких; проигравший; платить; должен; "
        "палочки; палочка; счёт палочками; "
        "tally; target; target score; play to; win; winner; settlement; stake; owe; pay; loser"
    ),
    S.EARLY_FINISH: (
        "прикончить; досрочно; раньше; закончить; досрочный конец партии; кнопка прикончить; 27 карт; "
        "7 треф; семь треф; "
        "обеспечить; finish; early; early finish; finish it"
    ),
    S.OPTIONS: (
        "настройки; брать обязательно; несколько взяток за ход; время на ход; таймер; не успеть; "
        "выключить; отключить; включить; запретить; "
        "пропуск хода; вернуться; settings; options; forced capture; must capture; "
        "several captures; timer; time per move; miss a turn"
    ),
}
"""What people call each section, «;» between phrases (a phrase of several words counts as a phrase too)."""

TEXTS: Final[dict[S, str]] = {
    S.BASICS: "konchinka",
    S.CAPTURES: "captures",
    S.POINTS: "points",
    S.SCORING: "scoring",
    S.TALLY: "tally",
    S.EARLY_FINISH: "early-finish",
    S.OPTIONS: "options",
}
"""The stem of each section's texts (``rules-<stem>``, ``rules-title-<stem>``, …)."""

VARIANTS: Final[dict[S, Variant]] = {S.CAPTURES: Variant.CLASSIC, S.POINTS: Variant.POINTS}
"""The sections that describe one variant."""

SYNONYMS: Final = {
    "крести": "трефа",
    "крестовый": "трефовый; трефа",
    "картинка": "валет; дама; король",
    "стоить": "очко",
    "платить": "расчёт; проигравший; отдавать",
    "заплатить": "расчёт; проигравший; отдавать",
    "долг": "расчёт; отдавать",
    "деньги": "расчёт; ставка",
    "деньга": "расчёт; ставка",
    "проигрыш": "расчёт; проигравший",
    "выигрыш": "победа; победитель",
    "победить": "победа; побеждать",
    "оставшийся": "остаться; остаток",
    "закончить": "прикончить; досрочно",
    "окончить": "прикончить",
    "очковый": "очковая",
    "классика": "обычный; классика",
    "большинство": "больше",
}
"""A word people say → the words the rules use for it."""

MARKS: Final = {
    # as sure as the game's name
    "прикончить": 2.0,
    "прекончить": 2.0,
    "приканчивать": 2.0,
    "палочка": 2.0,
    "очковая": 2.0,
    "очковый": 2.0,
    "2♣": 2.0,
    "двойка треф": 2.0,
    "кончинка": 2.0,
    # only Кончинка has them: a question with no game in the chat means Кончинка
    "10♦": 1.0,
    "десятка бубен": 1.0,
    "стопка": 1.0,
    "со стола": 1.0,
    "на стол": 1.0,
    "весь стол": 1.0,
    "набор": 1.0,
    "запись": 1.0,
    "играть до": 1.0,
    "расчет": 1.0,
    "на кон": 1.0,
    "ставка": 1.0,
    "52": 1.0,
    "27": 1.0,
    "15": 0.5,
    "сумма": 0.5,
    "трефа": 0.5,
    "треф": 0.5,
    "finish": 1.0,
    "pile": 1.0,
    "stake": 1.0,
}
"""Words only Кончинка has (see ``RulesBook.marks``): its table, its piles, its sums, its tally and its finish."""

VARIANT_WORDS: Final = {
    Variant.CLASSIC.value: ("обычный", "классика", "классический", "classic"),
    Variant.POINTS.value: ("очковый", "очковая", "points konchinka", "points variant"),
}
"""Words that name a variant in a question («сколько стоит валет в очковой»); the usual variant first."""


def option_lines(options: Options, tr: Translator) -> list[str]:
    """A party's options, a line each («Брать обязательно: да»)."""

    def yes_no(name: str, default: bool) -> str:
        return tr.t("yes" if option(options, name, default) else "no")

    return [
        tr.t("settings-variant", variant=str(option(options, "variant", Variant.CLASSIC.value))),
        tr.t("settings-target", target=str(option(options, "target", 15))),
        tr.t("settings-multi", value=yes_no("multi_capture", False)),
        tr.t("settings-forced", value=yes_no("forced_capture", False)),
        tr.t("settings-early", value=yes_no("early_finish", True)),
        tr.t(
            "settings-settlement",
            settlement=str(option(options, "settlement", "points")),
            stake=str(option(options, "stake", 1)),
        ),
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
                VARIANTS[section].value if section in VARIANTS else "",
                EXAMPLES.get(section, ()),
                ASKED.get(section, ()),
            )
            for section in S
        ),
        names=frozenset({"кончинка", "konchinka", "палка"}),
        marks=MARKS,
        synonyms=SYNONYMS,
        answers=KONCHINKA_ANSWERS,
        options_title=f"rules-game-options-{kind}",
        option_lines=option_lines,
        variant_option="variant",
        variant_words=VARIANT_WORDS,
        help_line=f"help-moves-{kind}",
    )
