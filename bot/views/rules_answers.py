"""Direct answers: where a question has a one-line answer — what a card is worth, how many cards are dealt, how
many deals a party of Кинг has, what a loser pays — that line comes first, then the section.

Each game has one table of :class:`DirectAnswer`: the words a question must hold (a word of each group), the
sections that explain the answer, and the facts the line states, taken from the engine (card values, penalties)
and from the game being played (its target, its settlement, its time per move). Like the search words, the
tables move into ``bot/games/<game>/`` when each plug-in owns its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.callbacks import RulesSection
from bot.views.rules_search import Question
from bot.views.rules_words import GameKind
from engine.cards import FULL_DECK, Card, Rank, Suit
from engine.core import JSONValue
from engine.king.rules import (
    CARD_PENALTY,
    NEGATIVE_DEALS,
    NUM_DEALS,
    NUM_PLAYERS,
    POINTS_PER_TRICK,
    POSITIVE_DEALS,
    TRICK_PENALTY,
    TRICKS_PER_DEAL,
    Contract,
)
from engine.konchinka.rules import (
    HAND_SIZE,
    MAX_CLASSIC_PIP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TABLE_SIZE,
    Settlement,
    Variant,
)
from engine.konchinka.rules import (
    VALUE as CARD_VALUE,
)

S = RulesSection
Args: TypeAlias = dict[str, str | int]


@dataclass(frozen=True, slots=True)
class AnswerContext:
    """What is known of the game asked about: its kind, its Кончинка variant (None: not known), its options
    (empty: not known) and its time per move (None: not known)."""

    kind: GameKind
    variant: str | None = None
    options: Mapping[str, JSONValue] | None = None
    turn_seconds: int | None = None

    def option(self, name: str, default: JSONValue) -> JSONValue:
        value = (self.options or {}).get(name, default)
        return default if value is None else value

    @property
    def known(self) -> str:
        """«yes» when the answer may speak of this very party (a game is being played), else «no»."""
        return "yes" if self.options is not None else "no"


@dataclass(frozen=True, slots=True)
class DirectAnswer:
    key: str
    """The line's message: ``rules-answer-<key>``."""
    sections: tuple[RulesSection, ...]
    """Where the answer is explained, the one to show first."""
    needs: tuple[str, ...]
    """Word groups, «;» between the words: the question holds a word of each (see :meth:`Question.has`)."""
    facts: Callable[[Question, AnswerContext], Args | None]
    """The line's facts; None when the question turns out not to be this one after all."""
    points_sections: tuple[RulesSection, ...] = ()
    """Where the answer is explained in a game of the points variant, if elsewhere."""
    avoid: str = ""
    """Words that make it another question («сколько дают <b>за</b> большинство карт» is not about dealing)."""
    leads: bool = True
    """Whether the answer brings its section to the top; an answer to a bare word («валет») is shown only when
    the search put its section first anyway."""

    def matches(self, question: Question) -> bool:
        if any(question.has(word.strip()) for word in self.avoid.split(";") if word.strip()):
            return False
        return all(any(question.has(word.strip()) for word in group.split(";")) for group in self.needs)


@dataclass(frozen=True, slots=True)
class Answer:
    """A direct answer found for a question: its message and the facts it states."""

    key: str
    args: Args
    sections: tuple[RulesSection, ...]


# -------------------------------------------------------------------------------------------------- words

HOW_MANY: Final = "сколько; скока; how many; many; how much; much"
VALUE_WORDS: Final = (
    "стоить; стоимость; сколько; очко; значение; номинал; worth; value; much; cost; point; points"
)

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

KING_ITEMS: Final[tuple[tuple[str, str], ...]] = (
    ("king", "=кинга; =кингу; кинг червей; король червей; к♥; king of hearts"),
    ("last2", "последние две; две последние; двух последних; последняя взятка; last two; last trick"),
    ("jack", "валет; мальчик; jack; boy"),
    ("queen", "дама; девочка; queen; girl"),
    ("heart", "черва; червь; черви; червы; heart; hearts"),
    ("trick", "взятка; trick"),
)
"""What a Кинг penalty is for, and what people call it (first match wins: «кинг червей» is the king)."""


def _first(question: Question, groups: Mapping[str, str] | tuple[tuple[str, str], ...]) -> str | None:
    items = groups.items() if isinstance(groups, Mapping) else groups
    for name, words in items:
        if any(question.has(w.strip()) for w in words.split(";")):
            return str(name)
    return None


# -------------------------------------------------------------------------------------------------- Кончинка


def _card_value(question: Question, ctx: AnswerContext) -> Args | None:
    ranks = [r for r, words in RANK_WORDS.items() if any(question.has(w.strip()) for w in words.split(";"))]
    if len(ranks) != 1:  # «восьмёркой взять тройку и пятёрку» asks about a capture, not about one card
        return None
    rank = ranks[0]
    value = CARD_VALUE[Card(rank, Suit.SPADES).index]
    variant = ctx.variant or ("any" if value > MAX_CLASSIC_PIP else Variant.CLASSIC.value)
    return {"rank": rank.name.lower(), "value": value, "variant": variant}


def _konchinka_value(question: Question, ctx: AnswerContext) -> Args | None:
    return {"points": 1}


def _konchinka_dealt(question: Question, ctx: AnswerContext) -> Args | None:
    return {"hand": HAND_SIZE, "table": TABLE_SIZE}


def _konchinka_deck(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": len(FULL_DECK)}


def _konchinka_players(question: Question, ctx: AnswerContext) -> Args | None:
    return {"min": MIN_PLAYERS, "max": MAX_PLAYERS}


def _target(ctx: AnswerContext) -> int:
    target = ctx.option("target", 15)
    return target if isinstance(target, int) else 15


def _konchinka_target(question: Question, ctx: AnswerContext) -> Args | None:
    return {"target": _target(ctx), "known": ctx.known}


def _konchinka_settlement(question: Question, ctx: AnswerContext) -> Args | None:
    target = _target(ctx)
    settlement = str(ctx.option("settlement", Settlement.POINTS.value)) if ctx.options is not None else "any"
    stake = ctx.option("stake", 1)
    example = max(0, target - 5)
    return {
        "settlement": settlement,
        "target": target,
        "example": example,
        "owes": target - example,
        "stake": stake if isinstance(stake, int) else 1,
    }


def _konchinka_no_winner(question: Question, ctx: AnswerContext) -> Args | None:
    return {"target": _target(ctx)}


def _konchinka_first(question: Question, ctx: AnswerContext) -> Args | None:
    return {}


def _konchinka_finish_when(question: Question, ctx: AnswerContext) -> Args | None:
    allowed = ctx.option("early_finish", True)
    return {"allowed": "no" if allowed is False else "yes", "target": _target(ctx)}


def _konchinka_finish_others(question: Question, ctx: AnswerContext) -> Args | None:
    return {}


def _turn_time(question: Question, ctx: AnswerContext) -> Args | None:
    if ctx.turn_seconds is None:
        return {"seconds": -1}
    return {"seconds": ctx.turn_seconds}


KONCHINKA_ANSWERS: Final[tuple[DirectAnswer, ...]] = (
    DirectAnswer(
        "konchinka-value",
        (S.SCORING,),
        (
            "=кончинка; =кончинку; =кончинки; =кончинок; 2♣; 10♦; двойка треф; десятка бубен; two of clubs; "
            "ten of diamonds; =konchinki",
            VALUE_WORDS + "; давать; get",
        ),
        _konchinka_value,
    ),
    DirectAnswer(
        "card-value",
        (S.CAPTURES,),
        ("; ".join(RANK_WORDS.values()), VALUE_WORDS),
        _card_value,
        (S.POINTS,),
    ),
    DirectAnswer(  # a card named alone: its value, where its section is found first anyway
        "card-value", (S.CAPTURES,), ("; ".join(RANK_WORDS.values()),), _card_value, (S.POINTS,), leads=False
    ),
    DirectAnswer(
        "konchinka-dealt",
        (S.KONCHINKA,),
        (
            "сдавать; раздавать; давать; получать; раздача; сдача; класть; каждый; deal; dealt; give; get; each",
            "карта; card",
            HOW_MANY,
        ),
        _konchinka_dealt,
        avoid="за; большинство; больше; most; for",
    ),
    DirectAnswer("konchinka-deck", (S.KONCHINKA,), ("колода; deck", HOW_MANY), _konchinka_deck),
    DirectAnswer(
        "konchinka-players",
        (S.KONCHINKA,),
        (
            "игрок; человек; player; people; втроем; вдвоем; вчетвером",
            HOW_MANY + "; можно; can; втроем; вдвоем; вчетвером",
        ),
        _konchinka_players,
    ),
    DirectAnswer(
        "konchinka-target",
        (S.TALLY, S.OPTIONS),
        ("сколько; скока; до; what; how", "победа; выиграть; победить; играть; play; win; target; score"),
        _konchinka_target,
    ),
    DirectAnswer(
        "konchinka-settlement",
        (S.TALLY,),
        (
            "платить; заплатить; должен; долг; проигравший; проиграть; pay; owe; loser; looser; расчет; settlement",
        ),
        _konchinka_settlement,
    ),
    DirectAnswer(
        "konchinka-no-winner",
        (S.TALLY,),
        ("никто; nobody; no one", "набрать; достигнуть; reach; выиграть; победить"),
        _konchinka_no_winner,
    ),
    DirectAnswer(
        "konchinka-first",
        (S.KONCHINKA,),
        ("кто; who", "первый; first; начинать; start", "ходить; ход; move; go; play; начинать; start"),
        _konchinka_first,
    ),
    DirectAnswer(
        "konchinka-finish-when",
        (S.EARLY_FINISH,),
        ("когда; when; можно; can; условие", "прикончить; finish"),
        _konchinka_finish_when,
        avoid="остальной; другой; соперник; other; others",
    ),
    DirectAnswer(
        "konchinka-finish-others",
        (S.EARLY_FINISH,),
        ("остальной; другой; соперник; other; others", "прикончить; finish"),
        _konchinka_finish_others,
    ),
    DirectAnswer(
        "turn-time",
        (S.OPTIONS,),
        ("время; таймер; time; timer; успеть", "ход; move; сколько; how; turn; сходить"),
        _turn_time,
    ),
)

# -------------------------------------------------------------------------------------------------- Кинг


def _king_value(question: Question, ctx: AnswerContext) -> Args | None:
    item = _first(question, KING_ITEMS)
    if item is None:
        return None
    eralash = Contract.ERALASH
    if item in ("trick", "last2"):
        own = Contract.NO_TRICKS if item == "trick" else Contract.NO_LAST_TWO
        points = TRICK_PENALTY[own][-1] if item == "last2" else TRICK_PENALTY[own][0]
        return {"item": item, "points": points, "plus": POINTS_PER_TRICK, "eralash": points}
    card = {
        "king": Card(Rank.KING, Suit.HEARTS),
        "jack": Card(Rank.JACK, Suit.SPADES),
        "queen": Card(Rank.QUEEN, Suit.SPADES),
        "heart": Card(Rank.SEVEN, Suit.HEARTS),
    }[item]
    points = max(CARD_PENALTY[c][card.index] for c in Contract if c is not eralash)
    # in «ералаш» a card costs all it costs anywhere: K♥ is also a heart
    return {
        "item": item,
        "points": points,
        "plus": POINTS_PER_TRICK,
        "eralash": CARD_PENALTY[eralash][card.index],
    }


def _king_dealt(question: Question, ctx: AnswerContext) -> Args | None:
    return {"hand": TRICKS_PER_DEAL, "deck": TRICKS_PER_DEAL * NUM_PLAYERS}


def _king_deals(question: Question, ctx: AnswerContext) -> Args | None:
    return {"deals": NUM_DEALS, "negative": NEGATIVE_DEALS, "positive": POSITIVE_DEALS}


def _king_players(question: Question, ctx: AnswerContext) -> Args | None:
    return {"players": NUM_PLAYERS}


def _king_deck(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": TRICKS_PER_DEAL * NUM_PLAYERS}


def _king_hearts_lead(question: Question, ctx: AnswerContext) -> Args | None:
    return {}


def _king_first(question: Question, ctx: AnswerContext) -> Args | None:
    return {}


def _king_trump_chooser(question: Question, ctx: AnswerContext) -> Args | None:
    return {}


KING_ANSWERS: Final[tuple[DirectAnswer, ...]] = (
    DirectAnswer(
        "king-value",
        (S.KING_SCORING,),
        ("; ".join(words for _, words in KING_ITEMS), VALUE_WORDS + "; штраф; минус; penalty"),
        _king_value,
    ),
    DirectAnswer(
        "king-dealt",
        (S.KING,),
        (
            "сдавать; раздавать; давать; получать; раздача; сдача; каждый; deal; dealt; give; get; each",
            "карта; card",
            HOW_MANY,
        ),
        _king_dealt,
        avoid="за; больше; most; for",
    ),
    DirectAnswer("king-deals", (S.KING,), ("=раздач; =deals; =кругов", HOW_MANY), _king_deals),
    DirectAnswer("king-deck", (S.KING,), ("колода; deck", HOW_MANY), _king_deck),
    DirectAnswer(
        "king-players",
        (S.KING,),
        (
            "игрок; человек; player; people; втроем; вдвоем; вчетвером",
            HOW_MANY + "; можно; can; втроем; вдвоем; вчетвером",
        ),
        _king_players,
    ),
    DirectAnswer(
        "king-hearts-lead",
        (S.KING_NEGATIVE,),
        ("черва; червь; черви; червы; heart; hearts", "ходить; заходить; ход; lead; начинать; start"),
        _king_hearts_lead,
    ),
    DirectAnswer(
        "king-first",
        (S.KING, S.KING_TRUMP),
        ("кто; who", "первый; first; начинать; start", "ходить; заходить; ход; lead; move; go; play"),
        _king_first,
    ),
    DirectAnswer(
        "king-trump-chooser",
        (S.KING_TRUMP,),
        ("кто; who", "козырь; trump", "выбирать; выбрать; назначать; назначить; choose; name; pick"),
        _king_trump_chooser,
    ),
    DirectAnswer(
        "turn-time",
        (S.KING,),
        ("время; таймер; time; timer; успеть", "ход; move; сколько; how; turn; сходить"),
        _turn_time,
    ),
)

ANSWERS: Final[Mapping[GameKind, tuple[DirectAnswer, ...]]] = {
    GameKind.KONCHINKA: KONCHINKA_ANSWERS,
    GameKind.KING: KING_ANSWERS,
}


def asks_about(question: Question, kind: GameKind) -> bool:
    """Whether ``question`` holds the words of one of ``kind``'s direct answers (even one it then has no
    facts for, like a capture of three cards)."""
    return any(a.matches(question) for a in ANSWERS[kind])


def find_answer(question: Question, ctx: AnswerContext, ranked: Sequence[RulesSection]) -> Answer | None:
    """The direct answer to ``question`` about the game of ``ctx``, if it has one: of those whose words it
    holds, the one with most word groups, then the one whose section ``ranked`` puts first."""

    def rank(answer: DirectAnswer) -> int:
        sections = (
            answer.points_sections
            if ctx.variant == Variant.POINTS and answer.points_sections
            else answer.sections
        )
        return min((ranked.index(s) for s in sections if s in ranked), default=len(ranked))

    candidates = sorted(
        (a for a in ANSWERS[ctx.kind] if a.matches(question)), key=lambda a: (-len(a.needs), rank(a))
    )
    for candidate in candidates:
        args = candidate.facts(question, ctx)
        if args is None:
            continue
        sections = candidate.sections
        if candidate.points_sections and args.get("variant") == Variant.POINTS:
            sections = candidate.points_sections
        if candidate.leads or (ranked and ranked[0] in sections):
            return Answer(candidate.key, args, sections)
    return None
