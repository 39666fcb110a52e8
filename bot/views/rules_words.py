"""Words of everyday speech that the rules of every game share: colloquial words and misspellings the search
reads as the words the texts use, and the word lists direct answers ask for (how many, how much, the ranks).

Each game's own words — its names, what people call its sections, its slang — are in its rules book
(:mod:`bot.views.rules_book`, filled in ``bot/games/<game>/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.cards import Rank

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
"""Words of everyday speech (or common misspellings) that mean the same in any game."""

HOW_MANY: Final = "сколько; скока; how many; many; how much; much"
VALUE_WORDS: Final = (
    "стоить; стоимость; сколько; очко; значение; номинал; worth; value; much; cost; point; points"
)
TIME_WORDS: Final = ("время; таймер; time; timer; успеть", "ход; move; сколько; how; turn; сходить")
"""A question about the time per move («что будет, если не успею сходить»)."""
PLAYERS_WORDS: Final = (
    "игрок; человек; player; people; втроем; вдвоем; вчетвером",
    HOW_MANY + "; можно; can; втроем; вдвоем; вчетвером",
)
"""A question about the number of players («сколько человек может играть»)."""

RANK_WORDS: Final[Mapping[Rank, str]] = {
    Rank.ACE: "туз; ace",
    Rank.TWO: "двойка; two",
    Rank.THREE: "тройка; three",
    Rank.FOUR: "четверка; four",
    Rank.FIVE: "пятерка; five",
    Rank.SIX: "шестерка; six",
    Rank.SEVEN: "семерка; seven",
    Rank.EIGHT: "восьмерка; eight",
    Rank.NINE: "девятка; nine",
    Rank.TEN: "десятка; ten",
    Rank.JACK: "валет; jack",
    Rank.QUEEN: "дама; queen",
    Rank.KING: "король; king",
}
"""What people call each rank."""
