"""Кончинка's direct answers: the questions with a one-line answer (what a card is worth, how many cards are
dealt, what a loser pays…), with their facts from the engine and from the party being played."""

from __future__ import annotations

from typing import Final

from bot.games.konchinka.sections import KonchinkaSection as S
from bot.views.rules_answers import AnswerContext, Args, DirectAnswer, no_facts, turn_time
from bot.views.rules_search import Question, Word
from bot.views.rules_words import (
    FIRST_DEALER_WORDS,
    HOW_MANY,
    PLAYERS_WORDS,
    RANK_WORDS,
    TIME_WORDS,
    VALUE_WORDS,
)
from engine.cards import FULL_DECK, Card, Suit
from engine.konchinka.rules import (
    CARDS_POINTS,
    CLUBS_POINTS,
    FINISH_WITHIN,
    HAND_SIZE,
    KONCHINKI,
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


def _quoted_variant(question: Question, ctx: AnswerContext) -> str | None:
    """The variant a question's own numbers name: a picture card's points («король 13») are the points
    variant's; else the variant known."""
    pictures = {v for v in CARD_VALUE if v > MAX_CLASSIC_PIP}
    return Variant.POINTS.value if pictures.intersection(question.counts) else ctx.variant


def _card_value(question: Question, ctx: AnswerContext) -> Args | None:
    ranks = [r for r, words in RANK_WORDS.items() if any(question.has(w.strip()) for w in words.split(";"))]
    if len(ranks) != 1:  # «восьмёркой взять тройку и пятёрку» asks about a capture, not about one card
        return None
    rank = ranks[0]
    value = CARD_VALUE[Card(rank, Suit.SPADES).index]
    variant = _quoted_variant(question, ctx) or ("any" if value > MAX_CLASSIC_PIP else Variant.CLASSIC.value)
    return {"rank": rank.name.lower(), "value": value, "variant": variant}


def _card_values(question: Question, ctx: AnswerContext) -> Args | None:
    """Two cards' values in one question («король 13, а дама сколько»): each of them, in the variant asked
    (a picture card has no points in the classic game)."""
    ranks = [r for r, words in RANK_WORDS.items() if any(question.has(w.strip()) for w in words.split(";"))]
    if len(ranks) != 2:
        return None
    values = [CARD_VALUE[Card(rank, Suit.SPADES).index] for rank in ranks]
    variant = _quoted_variant(question, ctx) or (
        "any" if max(values) > MAX_CLASSIC_PIP else Variant.CLASSIC.value
    )
    if variant == Variant.CLASSIC.value:
        values = [v if v <= MAX_CLASSIC_PIP else 0 for v in values]
    return {
        "rank": ranks[0].name.lower(),
        "value": values[0],
        "rank2": ranks[1].name.lower(),
        "value2": values[1],
        "variant": variant,
    }


def _konchinka_value(question: Question, ctx: AnswerContext) -> Args | None:
    return {"points": 1}


def _dealt(question: Question, ctx: AnswerContext) -> Args | None:
    return {"hand": HAND_SIZE, "table": TABLE_SIZE}


def _hands(question: Question, ctx: AnswerContext) -> Args | None:
    """How many times everyone is dealt a hand in one deal, for each number of players."""
    times = {n: (len(FULL_DECK) - TABLE_SIZE) // (HAND_SIZE * n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    two, three, four = (times.get(n, 0) for n in (2, 3, 4))
    return {"hand": HAND_SIZE, "two": two, "three": three, "four": four}


def _deck(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": len(FULL_DECK)}


def _players(question: Question, ctx: AnswerContext) -> Args | None:
    """Every number of players allowed, said one by one («2, 3 или 4»): a question may ask about any of them."""
    return {
        "min": MIN_PLAYERS,
        "max": MAX_PLAYERS,
        "fewer": ", ".join(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS)),
    }


def _target(ctx: AnswerContext) -> int:
    target = ctx.option("target", 15)
    return target if isinstance(target, int) else 15


def _target_facts(question: Question, ctx: AnswerContext) -> Args | None:
    return {"target": _target(ctx), "known": ctx.known}


OTHER_SETTLEMENT: Final = {
    Settlement.POINTS.value: ("кон", "ставка", "stake"),
    Settlement.STAKE.value: ("=очки", "points"),
}
"""Words naming the other way of settling than a party's («а если на кон?»)."""


def _settlement(question: Question, ctx: AnswerContext) -> Args | None:
    target = _target(ctx)
    settlement = str(ctx.option("settlement", Settlement.POINTS.value)) if ctx.options is not None else "any"
    if any(question.has(w) for w in OTHER_SETTLEMENT.get(settlement, ())):  # asked about the other way: both
        settlement = "any"
    stake = ctx.option("stake", 1)
    # the example: the losers' scores the question says («у Оли 12, у меня 7»: each), else one 5 short
    losers = list(dict.fromkeys(n for n in question.counts if 0 <= n < target)) or [max(0, target - 5)]
    example, *others = losers
    second = others[0] if others else example
    return {
        "settlement": settlement,
        "target": target,
        "example": example,
        "owes": target - example,
        "second": "yes" if others else "no",
        "example2": second,
        "owes2": target - second,
        "stake": stake if isinstance(stake, int) else 1,
    }


def _no_winner(question: Question, ctx: AnswerContext) -> Args | None:
    return {"target": _target(ctx)}


DEAL_MOST: Final = CARDS_POINTS + CLUBS_POINTS + len(KONCHINKI)
"""The most points one deal gives: the cards, the clubs and both konchinki."""


def _prizes(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": CARDS_POINTS, "clubs": CLUBS_POINTS}


def _deal_most(question: Question, ctx: AnswerContext) -> Args | None:
    return {"most": DEAL_MOST, "cards": CARDS_POINTS, "clubs": CLUBS_POINTS, "each": 1}


def _terms(question: Question, ctx: AnswerContext) -> Args | None:
    return {"target": _target(ctx), "most": DEAL_MOST, "hand": HAND_SIZE}


TALLY_DONE: Final = "платить; заплатить; должен; отдать; отдавать; проиграть; проигравший; pay; owe; loser"
"""Words of a question about what a loser pays: the tally's numbers are then a score and a target."""


def _running_total(question: Question, ctx: AnswerContext) -> Args | None:
    """What the tally shows after a deal, for a question that says a score and the points a deal brought
    («было 6, взял 3 — что пишу»): their sum (a deal brings at most :data:`DEAL_MOST`)."""
    numbers = [n for n in question.counts if n >= 0]
    if len(numbers) != 2 or min(numbers) > DEAL_MOST:
        return None
    before, gained = (numbers[0], numbers[1]) if numbers[1] <= DEAL_MOST else (numbers[1], numbers[0])
    return {"before": before, "gained": gained, "total": before + gained, "target": _target(ctx)}


def _finish_when(question: Question, ctx: AnswerContext) -> Args | None:
    allowed = ctx.option("early_finish", True)
    return {"allowed": "no" if allowed is False else "yes", "target": _target(ctx), "within": FINISH_WITHIN}


MOST_WORDS: Final = ("больше", "большинство", "most", "more")
CARD_WORDS: Final = ("карта", "cards", "card")
CLUB_WORDS: Final = ("трефа", "треф", "трефы", "крести", "крест", "clubs")
KONCHINKA_COUNTS: Final = {
    "обе": 2, "оба": 2, "две": 2, "два": 2, "2": 2, "both": 2, "two": 2,
    "одна": 1, "один": 1, "1": 1, "one": 1,
    "ни": 0, "нет": 0, "no": 0,
}  # fmt: skip
"""The word before «кончинки» that says how many a player holds («обе», «ни одной»)."""
KONCHINKA_NAMES: Final = (
    "двойка треф; 2♣; two of clubs",
    "десятка бубен; десятка бубей; 10♦; ten of diamonds",
)
"""Each konchinka by its name."""
CLAIM_SPAN: Final = 2
"""How near (in words) «больше» must be to «карт» or «треф» to say the player holds the most of them."""


def _is(word: Word, entries: tuple[str, ...]) -> bool:
    return word.raw in entries or any(lemma in entries for lemma in word.lemmas)


def _claims_most(question: Question, things: tuple[str, ...]) -> bool:
    """Whether the question says someone holds the most of ``things`` («карт больше всех», «большинство треф»,
    «больше всех карт и треф»)."""
    words = question.words
    most = [i for i, w in enumerate(words) if _is(w, MOST_WORDS)]

    def is_claimed(i: int) -> bool:
        if any(abs(i - j) <= CLAIM_SPAN for j in most):
            return True
        # joined to a claimed thing: «карт и треф»
        joined = i >= 2 and words[i - 1].raw in ("и", "and") and _is(words[i - 2], CARD_WORDS + CLUB_WORDS)
        return joined and is_claimed(i - 2)

    return any(_is(w, things) and is_claimed(i) for i, w in enumerate(words))


def _konchinki_held(question: Question) -> int | None:
    """How many konchinki the question says a player holds («обе кончинки» 2, «ни одной кончинки» 0, «десятка
    бубен» 1), None where it names none."""
    words = question.words
    for i, w in enumerate(words):
        if "кончинка" in w.lemmas or w.raw.startswith("konchink"):
            before = [
                KONCHINKA_COUNTS[x.raw]
                for x in words[max(0, i - CLAIM_SPAN) : i]
                if x.raw in KONCHINKA_COUNTS
            ]
            if before:
                return min(before)  # «ни одной» is none, whatever follows «ни»
            return 1 if w.raw in ("кончинка", "кончинку", "konchinka") else len(KONCHINKI)
    named = sum(any(question.has(name) for name in names.split("; ")) for names in KONCHINKA_NAMES)
    return named or None


def _deal_claims(question: Question, ctx: AnswerContext) -> Args | None:
    """A player's points for a deal from what the question says they hold («карт больше всех и обе кончинки»):
    the prizes for the most cards and the most clubs and a point a konchinka, from the engine's tables; only
    for a question that says two of these or more (one alone is what that prize is worth)."""
    cards, clubs = _claims_most(question, CARD_WORDS), _claims_most(question, CLUB_WORDS)
    konchinki = _konchinki_held(question)
    if cards + clubs + (konchinki is not None) < 2:
        return None
    points = {"cards": CARDS_POINTS * cards, "clubs": CLUBS_POINTS * clubs, "konchinki": konchinki or 0}
    return {**points, "total": sum(points.values())}


SEVERAL_CARDS: Final = "два; две; оба; обе; несколько; сразу; two; both; several"
"""Words of a question about taking several cards with one («десяткой взять сразу две карты»): not a card's value."""

POINTS_SECTIONS: Final = {Variant.POINTS.value: (S.POINTS,)}
"""A card's value is explained under the points variant in a game of that variant."""

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
        avoid="играть; play; =скольки; =скольких",  # «до скольки очков играют кончинку»: the game, not its card
    ),
    DirectAnswer(  # what the cards called «кончинки» are: the word in the plural, asked what it is
        "konchinka-value",
        (S.SCORING,),
        (
            "=кончинки; =кончинок; =кончинками; =konchinki",
            "какой; это; такой; называть; называться; значить; означать; карта; which; card; cards",
        ),
        _konchinka_value,
        avoid="колода; сдавать; раздавать; раздача; игрок; правило; играть; deck; deal; player; rule; play",
    ),
    DirectAnswer(
        "card-value",
        (S.CAPTURES,),
        ("; ".join(RANK_WORDS.values()), VALUE_WORDS),
        _card_value,
        POINTS_SECTIONS,
        avoid=SEVERAL_CARDS,
    ),
    DirectAnswer(
        "card-values",
        (S.CAPTURES,),
        ("; ".join(RANK_WORDS.values()), VALUE_WORDS),
        _card_values,
        POINTS_SECTIONS,
        avoid=SEVERAL_CARDS + "; брать; взять; забрать; забирать; бить; take; capture",
    ),
    DirectAnswer(  # a card named alone: its value, where its section is found first anyway
        "card-value",
        (S.CAPTURES,),
        ("; ".join(RANK_WORDS.values()),),
        _card_value,
        POINTS_SECTIONS,
        avoid=SEVERAL_CARDS,
        leads=False,
    ),
    DirectAnswer(
        "konchinka-dealt",
        (S.BASICS,),
        (
            "сдавать; раздавать; давать; получать; раздача; сдача; класть; каждый; deal; dealt; give; get; each",
            "карта; card",
            HOW_MANY,
        ),
        _dealt,
        avoid="за; большинство; больше; most; for; очко; point; points",  # «сколько очков дают 27 карт»
    ),
    DirectAnswer(  # how many times the cards are dealt in a deal: the deck over the hands
        "konchinka-hands",
        (S.BASICS,),
        ("=раз; =раза; times", "сдавать; раздавать; сдача; deal; dealt"),
        _hands,
        avoid="первый; первая; каждый; first; each",  # «каждый раз» is «every time»
    ),
    DirectAnswer("konchinka-deck", (S.BASICS,), ("колода; deck", HOW_MANY + "; какой; which"), _deck),
    DirectAnswer("konchinka-players", (S.BASICS,), PLAYERS_WORDS, _players),
    DirectAnswer(
        "konchinka-target",
        (S.TALLY, S.OPTIONS),
        (  # «до скольки» asks for a target whatever follows
            "сколько; скока; до; what; how",
            "победа; выиграть; победить; играть; play; win; target; score; =скольки; =скольких",
        ),
        _target_facts,
        avoid=TALLY_DONE + "; кон; ставка; stake",  # what a loser pays, not the target
    ),
    DirectAnswer(
        "konchinka-settlement",
        (S.TALLY,),
        (
            "платить; заплатить; должен; долг; проигравший; проиграть; pay; owe; loser; looser; расчет; settlement",
        ),
        _settlement,
        avoid="быть",  # «должна быть» is «must be», not «owes»
    ),
    DirectAnswer(  # what a player holds, summed: «карт больше всех и обе кончинки — скока мне пишем»
        "konchinka-deal-claims",
        (S.SCORING,),
        (
            "больше; большинство; most; more",
            "кончинка; карта; трефа; треф; крести; konchinka; cards; clubs",
            HOW_MANY + "; выходить; писать; получаться; итого; итог; очко; point; points",
        ),
        _deal_claims,
        avoid="прикончить; закончить; заканчивать; finish",
    ),
    DirectAnswer(  # «за большинство треф сколько дают»: both prizes of a deal
        "konchinka-most-prizes",
        (S.SCORING,),
        (
            "больше; большинство; most",
            "трефа; треф; карта; clubs; cards",
            VALUE_WORDS + "; получать; давать; дать; get; give",
        ),
        _prizes,
        avoid="максимум; макс; максимальный; наибольший; most points",
    ),
    DirectAnswer(  # the seeds' advice not to lead a konchinka: no rule here
        "konchinka-lead-advice",
        (S.BASICS,),
        (
            "=кончинкой; =кончинками; 2♣; 10♦; двойка треф; десятка бубен",
            "ходить; класть; положить; сбрасывать; сбросить; скинуть; скидывать; выложить; lead; lay",
        ),
        no_facts,
        avoid="брать; взять; забрать; забирать; take; capture",
    ),
    DirectAnswer(  # several players at the target at once: the bot's reading
        "konchinka-tie-at-target",
        (S.TALLY,),
        (
            "оба; двое; трое; несколько; ничья; поровну; одинаковый; сразу; одновременно; both; tie; several",
            "набрать; выиграть; победа; победить; победитель; target; win; winner; 15",
        ),
        _no_winner,
    ),
    DirectAnswer(  # how long a game lasts: to its target
        "konchinka-target",
        (S.TALLY, S.OPTIONS),
        ("партия; game", "длиться; кончаться; заканчиваться; закончиться; конец; долго; last; end"),
        _target_facts,
    ),
    DirectAnswer(
        "konchinka-no-winner",
        (S.TALLY,),
        ("никто; nobody; no one", "набрать; достигнуть; reach; выиграть; победить"),
        _no_winner,
    ),
    DirectAnswer(
        "konchinka-first",
        (S.BASICS,),
        (
            "кто; who; чей; whose",
            "первый; first; начинать; start",
            "ходить; ход; move; go; play; начинать; start",
        ),
        no_facts,
    ),
    DirectAnswer("konchinka-first-dealer", (S.BASICS,), FIRST_DEALER_WORDS, no_facts),
    DirectAnswer(
        "konchinka-deal-most",
        (S.SCORING,),
        (
            "максимум; макс; максимальный; наибольший; предел; most; max; maximum",
            "очко; набрать; получить; дать; раздача; игра; point; points; score; deal; game",
        ),
        _deal_most,
    ),
    DirectAnswer(  # «партия», «игра», «раздача»: which is which
        "konchinka-terms",
        (S.BASICS, S.TALLY),
        (
            "партия; розыгрыш; сдача; game",
            "игра; раздача; deal; hand",
            "один; одинаковый; разница; разный; отличаться; отличие; называть; называться; значить; означать; "
            "same; difference; differ; mean",
        ),
        _terms,
    ),
    DirectAnswer(  # two numbers of a score: what the tally shows next
        "konchinka-running-total",
        (S.TALLY,),
        ("=было; =стало; писать; записывать; запись; итог; write; tally",),
        _running_total,
        avoid=TALLY_DONE,
    ),
    DirectAnswer(
        "konchinka-opening-table",
        (S.BASICS,),
        (
            "раздача; расклад; раскладка; сдавать; сдающий; сдатчик; открыть; открыться; выйти; выпасть; "
            "заменить; замена; deal; dealer; dealt",
            "валет; пара; одинаковый; два; две; оба; опять; jack; pair; same",
        ),
        no_facts,
        avoid="брать; взять; забрать; забирать; бить; take; capture",
    ),
    DirectAnswer(
        "konchinka-finish-when",
        (S.EARLY_FINISH,),
        ("когда; when; можно; мочь; can; условие; " + HOW_MANY, "прикончить; finish"),
        _finish_when,
        avoid="остальной; другой; соперник; other; others",
    ),
    DirectAnswer(
        "konchinka-finish-others",
        (S.EARLY_FINISH,),
        ("остальной; другой; соперник; other; others", "прикончить; finish"),
        no_facts,
    ),
    DirectAnswer("turn-time", (S.OPTIONS,), TIME_WORDS, turn_time),
)
