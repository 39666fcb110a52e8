"""Кинг's direct answers: the questions with a one-line answer (what a penalty costs, how many deals a party
has, who names the trump…), with their facts from the engine."""

from __future__ import annotations

from typing import Final

from bot.games.king.sections import KingSection as S
from bot.views.rules_answers import AnswerContext, Args, DirectAnswer, first_named, no_facts, turn_time
from bot.views.rules_search import ALL, Question
from bot.views.rules_words import FIRST_DEALER_WORDS, HOW_MANY, PLAYERS_WORDS, TIME_WORDS, VALUE_WORDS
from engine.cards import Card, Rank, Suit
from engine.king.rules import (
    CARD_PENALTY,
    CHOOSER_SEES,
    NEGATIVE_DEALS,
    NUM_DEALS,
    NUM_PLAYERS,
    POINTS_PER_TRICK,
    POSITIVE_DEALS,
    TRICK_PENALTY,
    TRICKS_PER_DEAL,
    Contract,
)

PENALTY_ITEMS: Final[tuple[tuple[str, str], ...]] = (
    (
        "king",
        "=кинга; кинг червей; король червей; кинг червовый; король червовый; червовый король; червонный король; "
        "к♥; king of hearts",
    ),
    (
        "last2",
        "последние две; две последние; двух последних; последняя взятка; взятка последний; =последних; "
        "=последние; last two; last trick",
    ),
    ("jack", "валет; мальчик; jack; boy"),
    ("queen", "дама; девочка; queen; girl"),
    ("heart", "черва; червь; черви; червы; heart; hearts"),
    ("trick", "взятка; trick"),
)
"""What a penalty is for, and what people call it (first match wins: «кинг червей» is the king; «по кингу»,
«в кинге» name the game, not the card)."""

ITEM_CONTRACTS: Final = {
    "trick": Contract.NO_TRICKS,
    "last2": Contract.NO_LAST_TWO,
    "jack": Contract.NO_JACKS,
    "queen": Contract.NO_QUEENS,
    "heart": Contract.NO_HEARTS,
    "king": Contract.NO_KING,
}
"""The deal «не брать» that penalises each item."""
POSITIVE_WORDS: Final = "отыгрыш; плюсовой; плюс; positive"

PENALTY_CARDS: Final = {
    "king": Card(Rank.KING, Suit.HEARTS),
    "jack": Card(Rank.JACK, Suit.SPADES),
    "queen": Card(Rank.QUEEN, Suit.SPADES),
    "heart": Card(Rank.SEVEN, Suit.HEARTS),
}
"""A card of each penalty item."""


def _value(question: Question, ctx: AnswerContext) -> Args | None:
    """What a penalty item costs, in its deal and in «ералаш», and the deal's whole; with a count of them in the
    question («взял 3 взятки», «все червы»), what that many cost: from the engine's penalty tables."""
    item = first_named(question, PENALTY_ITEMS)
    return _item_value(item, question) if item is not None else None


ORDINALS: Final = ("первый", "второй", "третий", "четвертый", "пятый", "шестой", "седьмой")
"""A deal «не брать» by its place in the usual order («в первом круге»): the engine's order of the contracts."""


def _round_value(question: Question, ctx: AnswerContext) -> Args | None:
    """A deal «не брать» named by its place («в первом круге посчитали 14»): its item's price and its whole, as
    :func:`_value` says them; ералаш, the seventh, is asked of by name."""
    place = next((ORDINALS.index(o) for o in ORDINALS if question.has(o)), None)
    if place is None:
        return None
    contract = list(Contract)[place]
    item = next((i for i, c in ITEM_CONTRACTS.items() if c is contract), None)
    return _item_value(item, question) if item is not None else None


def _item_value(item: str, question: Question) -> Args:
    eralash = Contract.ERALASH
    own = ITEM_CONTRACTS[item]
    if item in ("trick", "last2"):
        points = TRICK_PENALTY[own][-1] if item == "last2" else TRICK_PENALTY[own][0]
        eralash_points = points
        most = sum(1 for p in TRICK_PENALTY[own] if p)
    else:
        card = PENALTY_CARDS[item]
        points = max(CARD_PENALTY[c][card.index] for c in Contract if c is not eralash)
        # in «ералаш» a card costs all it costs anywhere: K♥ is also a heart
        eralash_points = CARD_PENALTY[eralash][card.index]
        most = sum(1 for p in CARD_PENALTY[own] if p)
    args: Args = {
        "item": item,
        "points": points,
        "plus": POINTS_PER_TRICK,
        "eralash": eralash_points,
        "total": own.total,
        "count": 0,
        "each": 0,
        "sum": 0,
        "positive": "no",
    }
    count = next((c for c in question.counts if c == ALL or 1 < c <= most), None)
    if count is not None and most > 1:
        count = most if count == ALL else count
        if item == "trick" and any(question.has(w) for w in POSITIVE_WORDS.split("; ")):
            args.update(count=count, each=POINTS_PER_TRICK, sum=count * POINTS_PER_TRICK, positive="yes")
        else:
            args.update(count=count, each=points, sum=count * points, positive="no")
    return args


def _counted(question: Question, ctx: AnswerContext) -> Args | None:
    """What a number of penalty items cost («взял 3 червы»): the answer only where the question counts what
    someone took («можно ли взять две взятки за ход» asks another thing)."""
    args = _value(question, ctx)
    return args if args is not None and args["count"] else None


DEAL_ITEMS: Final[tuple[tuple[str, str], ...]] = (
    ("eralash", "ералаш; eralash"),
    ("positive", "отыгрыш; плюсовой; плюсовые; positive; trump deal"),
    ("negative", "минусовой; минусовые; штрафной; negative; penalty"),
)
"""A deal asked about by its kind: its points in all."""


def _deal_points(question: Question, ctx: AnswerContext) -> Args | None:
    kind = first_named(question, DEAL_ITEMS)
    if kind is None:
        return None
    return _deal_totals(kind)


def _deal_totals(kind: str) -> Args:
    """A kind of deal's points in all, and the party's: from the engine's tables."""
    return {
        "deal": kind,
        "penalties": sum(c.total for c in Contract),
        "positives": POINTS_PER_TRICK * TRICKS_PER_DEAL * POSITIVE_DEALS,
        "eralash": Contract.ERALASH.total,
        "single": Contract.NO_TRICKS.total,
        "positive": POINTS_PER_TRICK * TRICKS_PER_DEAL,
        "trick": POINTS_PER_TRICK,
    }


TOTALS: Final = {Contract.ERALASH.total: "eralash", sum(c.total for c in Contract): "negative"}
"""The totals of the scoring a question may quote («откуда 192», «почему ералаш 96»), and the kind of deal each is
of."""


def _quoted_total(question: Question, ctx: AnswerContext) -> Args | None:
    """Where a total the scoring makes comes from, for a question that quotes it."""
    kind = next((TOTALS[n] for n in question.counts if n in TOTALS), None)
    return _deal_totals(kind) if kind is not None else None


def _tricks(question: Question, ctx: AnswerContext) -> Args | None:
    return {"tricks": TRICKS_PER_DEAL}


def _deal_most(question: Question, ctx: AnswerContext) -> Args | None:
    """The most a trump deal gives, and the whole party's trump deals."""
    most = POINTS_PER_TRICK * TRICKS_PER_DEAL
    return {
        "most": most,
        "tricks": TRICKS_PER_DEAL,
        "trick": POINTS_PER_TRICK,
        "whole": most * POSITIVE_DEALS,
    }


PENALTY_WORDS: Final = "штраф; штрафной; минус; минусовой; penalty"


def _near(question: Question, words: str) -> int | None:
    """The position of the first of the question's words that is one of ``words``."""
    entries = [w.strip() for w in words.split(";")]
    return next(
        (i for i, w in enumerate(question.words) if any(w.raw == e or e in w.lemmas for e in entries)), None
    )


def _final_score(question: Question, ctx: AnswerContext) -> Args | None:
    """A player's result, for a question that says both its parts («штрафных 48, в отыгрыше 50»): what the
    trump deals brought minus the penalties; each number is the part named nearest before or after it. The trump
    deals' part may be said in tricks («в отыгрыше 20 взяток»): each brings its points."""
    numbers = [(i, int(w.raw)) for i, w in enumerate(question.words) if w.raw.isdigit()]
    minus, plus = _near(question, PENALTY_WORDS), _near(question, POSITIVE_WORDS)
    if len(numbers) != 2 or minus is None or plus is None:
        return None
    (i, a), (k, b) = numbers

    def distance(word: int) -> float:  # the part named just before a number is its own («штрафных 48»)
        return abs(i - word) + (0.5 if word > i else 0.0)

    first_is_penalty = distance(minus) <= distance(plus)
    penalties, positives = (a, b) if first_is_penalty else (b, a)
    at = k if first_is_penalty else i
    if at + 1 < len(question.words) and "взятка" in question.words[at + 1].lemmas:  # «20 взяток»
        positives *= POINTS_PER_TRICK
    return {"penalties": penalties, "positives": positives, "result": positives - penalties}


def _zero_sum(question: Question, ctx: AnswerContext) -> Args | None:
    return {
        "penalties": sum(c.total for c in Contract),
        "positives": POINTS_PER_TRICK * TRICKS_PER_DEAL * POSITIVE_DEALS,
    }


def _chooser(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": CHOOSER_SEES}


def _dealt(question: Question, ctx: AnswerContext) -> Args | None:
    return {"hand": TRICKS_PER_DEAL, "deck": TRICKS_PER_DEAL * NUM_PLAYERS}


def _deals(question: Question, ctx: AnswerContext) -> Args | None:
    # a round of the trump deals: everyone names trump once
    return {
        "deals": NUM_DEALS,
        "negative": NEGATIVE_DEALS,
        "positive": POSITIVE_DEALS,
        "rounds": POSITIVE_DEALS // NUM_PLAYERS,
    }


def _players(question: Question, ctx: AnswerContext) -> Args | None:
    return {"players": NUM_PLAYERS}


def _deck(question: Question, ctx: AnswerContext) -> Args | None:
    return {"cards": TRICKS_PER_DEAL * NUM_PLAYERS}


KING_ANSWERS: Final[tuple[DirectAnswer, ...]] = (
    DirectAnswer(
        "king-value",
        (S.SCORING,),
        (
            "; ".join(words for _, words in PENALTY_ITEMS),
            VALUE_WORDS + "; штраф; минус; penalty",
        ),
        _value,
    ),
    DirectAnswer(  # a deal's sum («сумма в круге мальчиков»): its item's price and the deal's whole
        "king-value",
        (S.SCORING,),
        (
            "; ".join(words for _, words in PENALTY_ITEMS),
            "сумма; всего; sum; total",
            "круг; раздача; сдача; deal; round",
        ),
        _value,
    ),
    DirectAnswer(
        "king-value",
        (S.SCORING,),
        (
            "; ".join(words for _, words in PENALTY_ITEMS),
            "=взял; =взяла; =забрал; =забрала; =собрал; =собрала; took",
        ),
        _counted,
    ),
    DirectAnswer(  # a deal named by its place, its points summed («в первом круге у всех 14 — где ошибка»)
        "king-value",
        (S.SCORING,),
        (
            "круг; раздача; сдача; deal; round",
            "; ".join(ORDINALS),
            "сумма; всего; вместе; весь; посчитать; считать; очко; штраф; сколько; скока; total; sum; points",
        ),
        _round_value,
    ),
    DirectAnswer(
        "king-dealt",
        (S.BASICS,),
        (
            "сдавать; раздавать; давать; получать; раздача; сдача; каждый; deal; dealt; give; get; each",
            "карта; card",
            HOW_MANY,
        ),
        _dealt,
        avoid="за; больше; most; for; очко; point; points",
    ),
    DirectAnswer(
        "king-deals",
        (S.BASICS,),
        ("=раздач; =deals; =кругов; сдавать", HOW_MANY),
        _deals,
        avoid="карта; card",
    ),
    DirectAnswer(  # the trump deals counted («сколько раз каждый назначает козыря», «отыгрыш — сколько игр»)
        "king-deals",
        (S.TRUMP,),
        (
            "козырь; отыгрыш; плюсовой; trump; positive",
            "раз; =раздач; =раздачи; =кругов; =круга; игра; times; deals; games; rounds",
            HOW_MANY,
        ),
        _deals,
        avoid="очко; штраф; стоить; взятка; карта; point; points; trick; card",
    ),
    DirectAnswer(
        "king-deal-points",
        (S.SCORING,),
        ("; ".join(str(n) for n in TOTALS),),
        _quoted_total,
    ),
    DirectAnswer(  # a count of tricks, not their price
        "king-tricks",
        (S.BASICS,),
        (
            "=взяток; =взятки; tricks",
            HOW_MANY,
            "раздача; сдача; круг; каждый; партия; deal; round; each",
        ),
        _tricks,
        avoid="очко; штраф; стоить; минус; плюс; за; брать; взять; забрать; point; points; penalty; for; take",
    ),
    DirectAnswer(
        "king-deal-most",
        (S.SCORING,),
        (
            "максимум; макс; максимальный; наибольший; предел; most; max; maximum",
            "очко; набрать; получить; дать; раздача; игра; point; points; score; deal; game",
        ),
        _deal_most,
    ),
    DirectAnswer(  # what a deal «не брать» forbids: the item it is named for
        "king-deal-forbids",
        (S.NEGATIVE,),
        (
            "; ".join(words for _, words in PENALTY_ITEMS),
            "круг; раздача; сдача; deal; round",
            "нельзя; запрещать; брать; взять; забирать; take; avoid",
        ),
        _value,
        # not what a taken card costs («взял все червы»), nor which deal it is («какой круг по счёту»)
        avoid=VALUE_WORDS
        + "; ходить; заходить; ход; lead; штраф; минус; penalty; =взял; =взяла; =забрал; =забрала; =собрал; =собрала; took; "
        + "счет; порядок; номер; order",
    ),
    DirectAnswer(  # a result asked of both its parts, one said in tricks («70 штрафа, в отыгрыше 20 взяток»)
        "king-final-score",
        (S.SCORING,),
        (PENALTY_WORDS, POSITIVE_WORDS, "взятка; trick; очко; point"),
        _final_score,
    ),
    DirectAnswer(  # a trick of a trump deal: its points, not a penalty
        "king-positive-trick",
        (S.SCORING,),
        ("взятка; trick", POSITIVE_WORDS, VALUE_WORDS + "; давать; приносить; получать; get"),
        _deal_most,
        avoid="=взял; =взяла; =забрал; =забрала; took",
    ),
    DirectAnswer(  # «сумма всех очков»: the four results add up to nothing
        "king-zero-sum",
        (S.SCORING,),
        ("сумма; вместе; sum; together", "все; всех; итог; конец; ноль; total; all; everyone"),
        _zero_sum,
        # not one deal's sum («сумма в круге мальчиков»)
        avoid="карта; card; взятка; trick; брать; взять; круг; раздача; сдача; deal; round; "
        + "; ".join(words for _, words in PENALTY_ITEMS)
        + "; ералаш; eralash",
    ),
    DirectAnswer(  # must one trump, overtrump: the bot's reading
        "king-overtrump",
        (S.TRUMP,),
        (
            "перебивать; перебить; обязательно; обязан; надо; нужно; должен; must; overtrump",
            "козырь; козырной; trump",
        ),
        no_facts,
        avoid="назначать; назначить; выбирать; выбрать; кто; who",
    ),
    DirectAnswer(  # when the king of hearts must be given away
        "king-king-discard",
        (S.NEGATIVE,),
        (
            "=кинга; =кинг; кинг червей; король червей; к♥",
            "скидывать; скинуть; отдать; отдавать; сбросить; сбрасывать",
        ),
        no_facts,
        avoid=VALUE_WORDS,
    ),
    DirectAnswer("king-final-score", (S.SCORING,), (PENALTY_WORDS, POSITIVE_WORDS), _final_score),
    DirectAnswer(  # how long a game lasts: its deals
        "king-deals",
        (S.BASICS,),
        ("партия; game", "длиться; кончаться; заканчиваться; закончиться; конец; долго; last; end"),
        _deals,
    ),
    DirectAnswer("king-deck", (S.BASICS,), ("колода; deck", HOW_MANY + "; какой; which"), _deck),
    DirectAnswer("king-players", (S.BASICS,), PLAYERS_WORDS, _players),
    DirectAnswer(
        "king-hearts-lead",
        (S.NEGATIVE,),
        ("черва; червь; черви; червы; heart; hearts", "ходить; заходить; ход; lead; начинать; start"),
        no_facts,
    ),
    DirectAnswer(
        "king-first",
        (S.BASICS, S.TRUMP),
        (
            "кто; who; чей; whose",
            "первый; first; начинать; start",
            "ходить; заходить; ход; lead; move; go; play",
        ),
        no_facts,
    ),
    DirectAnswer(
        "king-trump-chooser",
        (S.TRUMP,),
        (
            "кто; who; как; how; =скольким; =скольки",
            "козырь; trump",
            "выбирать; выбрать; назначать; назначить; choose; name; pick",
        ),
        _chooser,
    ),
    DirectAnswer("king-first-dealer", (S.BASICS,), FIRST_DEALER_WORDS, no_facts),
    DirectAnswer(
        "king-rounds",
        (S.NEGATIVE,),
        (
            "круг; порядок; очередность",
            "какой; порядок; после; следующий; менять; поменять; счет; первый; второй; третий; четвертый; "
            "пятый; шестой; седьмой; order; after; next",
        ),
        no_facts,
        avoid="отыгрыш; козырь; сдавать; сдача; сдающий",
    ),
    DirectAnswer(
        "king-first-dealer",
        (S.BASICS, S.TRUMP),
        (
            "сдавать; сдать; сдача; сдающий; deal; dealer",
            "следующий; переходить; дальше; потом; после; next; then; after",
        ),
        no_facts,
    ),
    DirectAnswer(
        "king-trick-winner",
        (S.BASICS,),
        (
            "кто; who; какой; какая; чей",
            "брать; взять; забирать; забрать; take; takes; win; wins",
            "взятка; trick",
        ),
        no_facts,
        avoid="не; no; последний; last",
    ),
    DirectAnswer(
        "king-deal-points",
        (S.SCORING,),
        (
            "; ".join(words for _, words in DEAL_ITEMS),
            "сколько; скока; всего; максимум; очко; сумма; вместе; total; how many; points; sum",
        ),
        _deal_points,
        avoid="взятка; валет; дама; =кинга; черва; trick; сдавать; =раздач; =кругов",
    ),
    DirectAnswer("turn-time", (S.BASICS,), TIME_WORDS, turn_time),
)
