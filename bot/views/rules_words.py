"""What people call the rules sections of each game: the words /rules and inline mode search by, beyond the
sections' own text.

One table per game: the game's names, its sections with the words people use for each (both languages, «;»
between phrases), the Кончинка variant a section describes, and the game's colloquial words mapped to the words
its rules use. :mod:`bot.views.rules_search` ranks by these and by the texts themselves; when each game plug-in
owns its rules sections, its table moves into ``bot/games/<game>/`` unchanged.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from bot.callbacks import RulesSection

S = RulesSection


class GameKind(enum.StrEnum):
    """The games whose rules these tables hold."""

    KONCHINKA = "konchinka"
    KING = "king"


@dataclass(frozen=True, slots=True)
class SectionWords:
    section: RulesSection
    keywords: str
    """What people call the section, «;» between phrases: a phrase of several words counts as a phrase too."""
    variant: str = ""
    """The Кончинка variant («classic», «points») the section describes; "" for a section that holds for both."""


@dataclass(frozen=True, slots=True)
class GameWords:
    kind: GameKind
    names: frozenset[str]
    """The game's names (dictionary forms): a question naming the game is about it."""
    sections: tuple[SectionWords, ...]
    synonyms: Mapping[str, str] = field(default_factory=dict)
    """A word people say (its dictionary form, or as typed) → the words the rules use for it, «;» between them."""


KONCHINKA_WORDS: Final = GameWords(
    GameKind.KONCHINKA,
    frozenset({"кончинка", "konchinka", "палка"}),
    (
        SectionWords(
            S.KONCHINKA,
            "раздача; сдача; сдавать; сдающий; колода; стол; ход; ходить; пас; пропустить ход; не ходить; "
            "первый ход; начало; цель; смысл; что такое кончинка; остаток на столе; стопка; игроки; сколько игроков; "
            "konchinka; "
            "deal; dealer; deck; table; turn; pass; goal; pile; players",
        ),
        SectionWords(
            S.CAPTURES,
            "взятка; брать; взять; забрать; бить; сумма; взятка по сумме; набор; валет; дама; король; туз; "
            "картинка; достоинство; номинал; положить на стол; весь стол; одна взятка за ход; "
            "обычная кончинка; классика; сколько стоит карта; how much is a card worth; "
            "capture; take; sum; jack; sweep; queen; king; ace; rank; face value; lay",
            variant="classic",
        ),
        SectionWords(
            S.POINTS,
            "очковая; очковая кончинка; очковый вариант; вариант; 11; 12; 13; 14; опечатка; "
            "валет; дама; король; картинки; сколько стоит карта; "
            "points variant; points konchinka; misprint; how much is a card worth; jack; queen; king",
            variant="points",
        ),
        SectionWords(
            S.SCORING,
            "подсчёт; считать очки; очки за раздачу; дают очки; начисляют очки; максимум за раздачу; "
            "больше всех; большинство; трефы; кончинки; 2♣; 10♦; "
            "двойка треф; десятка бубен; ничья; поровну; "
            "score; scoring; most cards; most clubs; two of clubs; ten of diamonds; tie",
        ),
        SectionWords(
            S.TALLY,
            "запись; записывать; играть до; до скольких играть; расчёт; рассчитываться; победа; победитель; "
            "выиграть; ставка; на кон; "
            "по очкам; зачёркивать; зачеркнуть; цифры; 15; до скольких; проигравший; платить; должен; "
            "tally; target; target score; play to; win; winner; settlement; stake; owe; pay; loser",
        ),
        SectionWords(
            S.EARLY_FINISH,
            "прикончить; досрочно; раньше; закончить; досрочный конец партии; кнопка прикончить; 27 карт; "
            "7 треф; семь треф; "
            "обеспечить; finish; early; early finish; finish it",
        ),
        SectionWords(
            S.OPTIONS,
            "настройки; брать обязательно; несколько взяток за ход; время на ход; таймер; не успеть; "
            "пропуск хода; вернуться; settings; options; forced capture; must capture; "
            "several captures; timer; time per move; miss a turn",
        ),
    ),
    {
        "крести": "трефа",
        "крестовый": "трефовый; трефа",
        "картинка": "валет; дама; король",
        "стоить": "очко",
        "платить": "расчёт; проигравший; отдавать",
        "заплатить": "расчёт; проигравший; отдавать",
        "долг": "расчёт; отдавать",
        "проигрыш": "расчёт; проигравший",
        "выигрыш": "победа; победитель",
        "победить": "победа; побеждать",
        "оставшийся": "остаться; остаток",
        "закончить": "прикончить; досрочно",
        "окончить": "прикончить",
        "очковый": "очковая",
        "классика": "обычный; классика",
        "большинство": "больше",
    },
)

KING_WORDS: Final = GameWords(
    GameKind.KING,
    frozenset({"кинг", "king"}),
    (
        SectionWords(
            S.KING,
            "колода 32; 32 карты; масть; в масть; ходить в масть; старшинство; старшая карта; заход; "
            "заходить; взятка; сдача; 15 раздач; по 8 карт каждому; четверо; "
            "trick; suit; follow suit; lead; 32 cards; deals; four players",
        ),
        SectionWords(
            S.KING_NEGATIVE,
            "не брать; ералаш; мальчики; девочки; черви; кинг червей; король червей; к♥; две последние; "
            "взятки; порядок раздач; скинуть кинга; отдать кинга; заходить с червей; досрочный конец раздачи; "
            "early end of a deal; deal ends early; "
            "eralash; jacks; boys; queens; girls; hearts; king of hearts; no tricks; last two; negative; "
            "order; lead hearts",
        ),
        SectionWords(
            S.KING_TRUMP,
            "отыгрыш; козырь; козыри; козырной; назначить козыря; выбирать козыря; выбрать козыря; "
            "по последней; последняя карта; перебить; бить козырем; "
            "trump; trumps; positive; by the last card; overtrump; choose trump; name trump",
        ),
        SectionWords(
            S.KING_SCORING,
            "очки кинга; штраф; штрафы; штрафные очки; сколько стоит; стоимость; очки за взятку; кинг червей; "
            "король червей; итог; сумма ноль; "
            "192; 96; 24; 16; плюс; минус; "
            "king score; penalty; penalties; how much; worth; cost; king of hearts; total; result",
        ),
    ),
    {
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
    },
)

GAMES: Final[tuple[GameWords, ...]] = (KONCHINKA_WORDS, KING_WORDS)

COMMON_SYNONYMS: Final[Mapping[str, str]] = {
    "скока": "сколько",
    "скоко": "сколько",
    "сколко": "сколько",
    "чё": "что",
    "че": "что",
    "человек": "игрок",
    "раздавать": "сдавать",
    "раздать": "сдать; сдавать",
    "таймер": "время",
    "успеть": "время",
    "пропуск": "пропустить",
    "pay": "owe; settlement",
    "looser": "loser",
    "worth": "point",
    "people": "player",
}
"""Words of everyday speech (or common misspellings) that mean the same in either game."""
