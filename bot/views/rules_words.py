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
    "скок": "сколько",
    "сколь": "сколько",
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
    # the suits as people say them («десятка бубей», «пики», «вини»): the names the texts use
    "бубей": "бубна; бубновый",
    "буби": "бубна; бубновый",
    "бубны": "бубна; бубновый",
    "бубновый": "бубна",
    "пика": "пики; пиковый",
    "вини": "пики; пиковый",
    "винновый": "пики; пиковый",
    "трефовый": "трефа",
    "червонный": "черва; червы",
    "червовый": "черва; червы",
}
"""Words of everyday speech (or common misspellings) that mean the same in any game."""

HOW_MANY: Final = "сколько; скока; скок; how many; many; how much; much"
VALUE_WORDS: Final = "стоить; стоимость; сколько; скока; скоко; скок; очко; значение; номинал; worth; value; much; cost; point; points"
TIME_WORDS: Final = ("время; таймер; time; timer; успеть", "ход; move; сколько; how; turn; сходить")
"""A question about the time per move («что будет, если не успею сходить»)."""
PLAYERS_WORDS: Final = (
    "игрок; человек; player; people; вдвоем; втроем; вчетвером; впятером; вшестером; двое; трое; четверо; пятеро; "
    "шестеро",
    HOW_MANY + "; можно; мочь; can; вдвоем; втроем; вчетвером; впятером; вшестером",
)
"""A question about the number of players («сколько человек может играть»)."""
FIRST_DEALER_WORDS: Final = (
    "кто; who",
    "первый; первым; first; начинать; start",
    "сдавать; сдать; раздавать; сдающий; deal; deals; dealer",
)
"""A question about who deals first («кто первый сдаёт»)."""

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

CARD_NUMBERS: Final[Mapping[str, str]] = {
    "1": "туз",
    "2": "двойка",
    "3": "тройка",
    "4": "четверка",
    "5": "пятерка",
    "6": "шестерка",
    "7": "семерка",
    "8": "восьмерка",
    "9": "девятка",
    "10": "десятка",
}
"""A number read as a card where the question is about taking cards («десяткой взять 3+3+4»)."""
CAPTURE_VERBS: Final = frozenset(
    {"взять", "брать", "забрать", "забирать", "бить", "побить", "take", "capture"}
)
"""Verbs of taking (dictionary forms): «взял 3» takes a three; a number before them is no count of them."""
CAPTURE_WORDS: Final = frozenset(
    CAPTURE_VERBS
    | {"карта", "картой"}
    | {w.strip() for words in RANK_WORDS.values() for w in words.split(";")}
)
"""Words (dictionary forms) that make the numbers of a question cards."""
TOTAL_WORDS: Final = frozenset(
    {"очко", "очки", "играть", "набрать", "счет", "запись", "победа", "выиграть", "штраф", "итог", "до"}
    | {"писать", "записать", "записывать", "зачеркнуть", "зачеркивать"}
    | {"point", "points", "score", "target", "play", "win", "penalty", "total"}
)
"""Words (dictionary forms) that make the numbers of a question totals, counts or targets."""
