"""Questions people ask about the rules (tests/bot/rules_queries.py, written before the ranking was tuned): the
section that answers each comes first — through /rules, through inline mode, and in a group where a game is being
played — and a question with a one-line answer gets that line, with the engine's numbers."""

from __future__ import annotations

import re

import pytest

from bot.games import rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.rules import GameContext
from bot.views.rules_lookup import answer_line, find_sections, lookup, render_inline, render_rules_answer
from bot.views.rules_search import is_dictionary_word, words_of
from engine.cards import Card, Rank, Suit
from engine.king.rules import (
    CARD_PENALTY,
    DEFAULT_ORDER,
    NUM_DEALS,
    POINTS_PER_TRICK,
    TRICK_PENALTY,
    Contract,
)
from engine.konchinka.rules import HAND_SIZE, TABLE_SIZE, VALUE, Variant
from tests.bot.rules_queries import ALL, GROUP_CASES, QUESTIONS

REQUIRED_SHARE = 0.95
LIB = rules_library()
RU = translator(Locale.RU)
EN = translator(Locale.EN)


def _locale(query: str) -> Locale:
    return Locale.RU if re.search("[а-яё]", query) else Locale.EN


def _misses(first: dict[str, str | None]) -> list[str]:
    return [f"{q!r}: {first[q]} instead of {e}" for q, e in ALL if first[q] != e]


def test_the_question_set_is_what_the_issue_asks_for() -> None:
    assert len(ALL) >= 120 and len(QUESTIONS) >= 80
    english = [q for q, _ in ALL if _locale(q) is Locale.EN]
    assert len(english) >= 30 and len(ALL) - len(english) >= 90
    misspelt = [
        q
        for q, _ in ALL
        if any(re.search("[а-я]", w.raw) and not is_dictionary_word(w.raw) for w in words_of(q))
    ]
    assert len(misspelt) >= 8, misspelt  # «скока», «прикончть», «раздачь», «взяку»…
    # every section of the two games has its questions (another game's words are tried by its own tests)
    assert {section for _, section in ALL} == {*K, *G} and {*K, *G} <= {s.id for s in LIB.sections}
    assert len({q for q, _ in ALL}) == len(ALL)


def test_the_section_people_mean_comes_first() -> None:
    first = {q: next(iter(find_sections(LIB, q)), None) for q, _ in ALL}
    misses = _misses(first)
    assert 1 - len(misses) / len(ALL) >= REQUIRED_SHARE, "\n".join(misses)


def test_inline_mode_ranks_the_same_sections() -> None:
    first: dict[str, str | None] = {}
    for query, _ in ALL:
        locale = _locale(query)
        results = render_inline(LIB, query, translator(locale), "kbot")
        ids = [r.id.removeprefix(f"{locale.value}-") for r in results]
        assert "contents" not in ids, query  # every query finds something
        first[query] = ids[0]
        assert ids == find_sections(LIB, query)[: len(ids)], query
    misses = _misses(first)
    assert 1 - len(misses) / len(ALL) >= REQUIRED_SHARE, "\n".join(misses)


@pytest.mark.parametrize(("query", "kind", "variant", "expected"), GROUP_CASES)
def test_in_a_group_the_game_being_played_answers(query: str, kind: str, variant: str, expected: str) -> None:
    game = GameContext(kind, {"variant": variant} if variant else {}, "g1", turn_seconds=60)
    found = lookup(LIB, query, game)
    assert found.sections[0] == expected
    assert LIB.book_of(found.sections[0]).kind == kind
    rendered = render_rules_answer(
        LIB, found.sections, RU, is_group=True, bot_username="kbot", game=game, answer=found.answer
    )
    heading = "В этой партии Кинга" if kind == "king" else "В этой партии Кончинки"
    assert heading in rendered.text and "• Время на ход: 60 с" in rendered.text


def test_the_group_cases_cover_both_games_and_both_variants() -> None:
    assert len(GROUP_CASES) >= 20
    assert {(kind, variant) for _, kind, variant, _ in GROUP_CASES} == {
        ("konchinka", "classic"),
        ("konchinka", "points"),
        ("king", ""),
    }


def test_the_variant_decides_between_the_two_capture_sections() -> None:
    for query in ("валет", "что берёт король", "как брать", "сколько стоит дама"):
        points = lookup(LIB, query, GameContext("konchinka", {"variant": "points"})).sections
        classic = lookup(LIB, query, GameContext("konchinka", {"variant": "classic"})).sections
        assert K.CAPTURES not in points[:1] and K.POINTS not in classic[:1], query
    # asked by name, the other variant is still found
    assert find_sections(LIB, "очковая кончинка", "konchinka", variant="classic")[0] == K.POINTS
    # and a game named in the question beats the chat's game
    assert find_sections(LIB, "штрафы в кинге", "konchinka", variant="classic")[0] == G.SCORING


# ------------------------------------------------------------------------------------------ direct answers


def _line(query: str, game: GameContext | None = None, locale: Locale = Locale.RU) -> tuple[str, str]:
    found = lookup(LIB, query, game)
    assert found.answer is not None, query
    return found.sections[0], re.sub(r"<[^>]+>", "", answer_line(found.answer, translator(locale)))


def test_the_four_questions_of_the_issue() -> None:
    king_of_hearts = CARD_PENALTY[Contract.NO_KING][Card(Rank.KING, Suit.HEARTS).index]
    assert _line("сколько стоит кинг червей") == (
        G.SCORING,
        f"💬 Кинг (К♥) — {king_of_hearts} штрафных очков в раздаче «не брать кинга», а в ералаше — 18: там он ещё "
        "и черва.",
    )
    banned = {c for c in Contract if c.forbids_heart_lead}
    assert banned == {Contract.NO_HEARTS, Contract.NO_KING, Contract.ERALASH}  # what the line names
    assert _line("можно ли ходить с червей") == (
        G.NEGATIVE,
        "💬 В раздачах «не брать червей», «не брать кинга» и в ералаше с червей заходят, только когда других "
        "мастей нет; в остальных раздачах — можно.",
    )
    assert _line("что будет если никто не набрал") == (
        K.TALLY,
        "💬 Тогда играют следующую раздачу: партия идёт, пока кто-нибудь не наберёт 15 очков.",
    )
    points = GameContext("konchinka", {"variant": "points", "target": 21})
    jack = VALUE[Card(Rank.JACK, Suit.SPADES).index]
    assert _line("валет", points) == (
        K.POINTS,
        f"💬 В очковой Кончинке валет — {jack} очков: он берёт валета или набор карт на {jack}, а весь стол не "
        "забирает.",
    )
    assert _line("валет", GameContext("konchinka", {"variant": "classic"})) == (
        K.CAPTURES,
        "💬 В обычной Кончинке у валета очков нет: он забирает весь стол.",
    )
    assert (
        _line("до скольки играем", points)[1]
        == "💬 В этой партии играют до 21 очка: кто первым наберёт, тот и выиграл."
    )


@pytest.mark.parametrize(
    ("query", "item", "contract"),
    [
        ("сколько стоит кинг червей", "king", Contract.NO_KING),
        ("сколько штрафа за даму", "queen", Contract.NO_QUEENS),
        ("сколько минус за мальчика", "jack", Contract.NO_JACKS),
        ("сколько стоит черва", "heart", Contract.NO_HEARTS),
        ("penalty for a queen", "queen", Contract.NO_QUEENS),
    ],
)
def test_kings_penalties_are_the_engines(query: str, item: str, contract: Contract) -> None:
    found = lookup(LIB, query)
    assert found.answer is not None and found.answer.args["item"] == item
    card = {"king": Card(Rank.KING, Suit.HEARTS), "queen": Card(Rank.QUEEN, Suit.CLUBS)}.get(
        item, Card(Rank.JACK, Suit.DIAMONDS) if item == "jack" else Card(Rank.NINE, Suit.HEARTS)
    )
    assert found.answer.args["points"] == CARD_PENALTY[contract][card.index] > 0
    assert (
        CARD_PENALTY[Contract.ERALASH][card.index] == found.answer.args["eralash"]
    )  # K♥: 16 + 2 for a heart


def test_the_trick_answer_gives_both_parts() -> None:
    # asked of the trump deals, the trump deals' points alone (issue 52); asked of a trick, both parts
    in_trumps = lookup(LIB, "сколько очков за взятку в отыгрыше")
    assert in_trumps.answer is not None and in_trumps.answer.key == "king-positive-trick"
    assert in_trumps.answer.args["trick"] == POINTS_PER_TRICK
    found = lookup(LIB, "сколько очков за взятку в кинге")
    assert found.answer is not None and found.sections[0] == G.SCORING
    penalty = TRICK_PENALTY[Contract.NO_TRICKS][0]
    assert found.answer.args == {
        "item": "trick",
        "points": penalty,
        "plus": POINTS_PER_TRICK,
        "eralash": penalty,
        "total": Contract.NO_TRICKS.total,
        "count": 0,
        "each": 0,
        "sum": 0,
        "positive": "no",
    }
    text = answer_line(found.answer, RU)
    assert (
        f"{TRICK_PENALTY[Contract.NO_TRICKS][0]} штрафных очка" in text
        and f"приносит {POINTS_PER_TRICK} очка" in text
    )


def test_counts_come_from_the_engine() -> None:
    _, dealt = _line("сколько карт раздают в кончинке")
    assert dealt.startswith(
        f"💬 Сдают каждому по {HAND_SIZE} карты и в начале раздачи — {TABLE_SIZE} карты на стол"
    )
    _, deals = _line("сколько раздач в кинге")
    assert f"В партии {NUM_DEALS} раздач" in deals
    _, value = _line("сколько стоит восьмёрка")
    assert value == f"💬 В Кончинке восьмёрка — {VALUE[Card(Rank.EIGHT, Suit.HEARTS).index]} очков."
    assert lookup(LIB, "восьмёркой взять тройку и пятёрку").answer is None  # a capture, not one card's value


def test_the_chats_game_fills_in_its_own_facts() -> None:
    stake = GameContext("konchinka", {"settlement": "stake", "stake": 3})
    assert (
        _line("сколько платит проигравший", stake)[1]
        == "💬 В этой партии каждый проигравший отдаёт победителю ставку — 3."
    )
    points = GameContext("konchinka", {"target": 21})
    assert _line("сколько платит проигравший", points)[1] == (
        "💬 В этой партии каждый проигравший отдаёт победителю столько очков, сколько ему не хватило до 21: "
        "у кого 16, тот отдаёт 5."
    )
    timed = GameContext("king", {}, turn_seconds=45)
    assert _line("что будет если не успею сходить", timed) == (
        G.BASICS,
        "💬 В этой партии на ход даётся 45 секунд; не успеете — за вас сходит бот-игрок.",
    )
    no_finish = GameContext("konchinka", {"early_finish": False})
    assert (
        _line("когда можно прикончить", no_finish)[1]
        == "💬 В этой партии прикончить нельзя: так выбрали в настройках."
    )


def test_english_questions_get_english_answers() -> None:
    assert _line("how much is the king of hearts", locale=Locale.EN)[1] == (
        "💬 The king of hearts costs 16 penalty points in “no king of hearts”, and 18 in the eralash, where it is a "
        "heart too."
    )
    assert _line("what is an ace worth", locale=Locale.EN)[1] == "💬 In Konchinka an ace is worth 1 point."


def test_an_answer_goes_above_the_section_in_private_in_a_group_and_inline() -> None:
    found = lookup(LIB, "сколько стоит кинг червей")
    assert found.answer is not None
    for is_group in (False, True):
        text = render_rules_answer(
            LIB, found.sections, RU, is_group=is_group, bot_username="kbot", answer=found.answer
        ).text
        assert text.startswith("💬 <b>Кинг (К♥) — 16 штрафных очков") and "\n\n📖 <b>Кинг: очки</b>" in text
    first = render_inline(LIB, "сколько стоит кинг червей", RU, "kbot")[0]
    assert first.description is not None and first.description.startswith("💬 Кинг (К♥) — 16 штрафных очков")
    assert first.id == "ru-gs"


def test_a_bare_word_gets_no_made_up_answer() -> None:
    for query in ("ералаш", "запись", "козырь", "trump", "раздача", "что такое кончинка"):
        assert lookup(LIB, query).answer is None, query


def test_the_answers_of_a_variant_name_it() -> None:
    # no game in the chat: the classic game is the default, the points game when the question names it
    assert _line("сколько стоит валет в очковой")[0] == K.POINTS
    assert _line("сколько стоит валет в кончинке")[1].startswith(
        "💬 Валет: в обычной Кончинке очков не имеет"
    )
    assert (
        lookup(
            LIB, "сколько стоит валет", GameContext("konchinka", {"variant": Variant.POINTS.value})
        ).sections[0]
        == K.POINTS
    )


@pytest.mark.parametrize(
    ("query", "item", "count", "positive"),
    [
        ("в круге взяток взял 3 взятки, сколько мне", "trick", 3, False),
        ("взял взятку с двумя мальчиками скок", "jack", 2, False),
        ("забрал четыре дамы сколько штрафа", "queen", 4, False),
        ("в червях взял все червы", "heart", 8, False),
        ("взял 5 взяток в отыгрыше", "trick", 5, True),
    ],
)
def test_a_counted_penalty_is_multiplied_by_the_engines_price(
    query: str, item: str, count: int, positive: bool
) -> None:
    """«взял 3 взятки» — the answer's first words are what that many cost: the count times the engine's price
    (the seeds' arithmetic a player does at the table), and the deal's whole."""
    found = lookup(LIB, query, GameContext("king", {}))
    assert found.answer is not None and found.answer.args["item"] == item
    contract = {"trick": Contract.NO_TRICKS, "jack": Contract.NO_JACKS, "queen": Contract.NO_QUEENS}.get(
        item, Contract.NO_HEARTS
    )
    each = (
        POINTS_PER_TRICK if positive else max(p for p in (*CARD_PENALTY[contract], *TRICK_PENALTY[contract]))
    )
    line = answer_line(found.answer, RU)
    assert f"{count} × {each} = {count * each} " in line
    assert (f"Всего в этой раздаче {contract.total}." in line) is not positive


@pytest.mark.parametrize(
    "query", ["третий круг какой", "какой круг идёт после мальчиков", "ералаш это какой круг по счёту"]
)
def test_the_seeds_rounds_are_answered_with_the_engines_order(query: str) -> None:
    """The seeds' «круг» (a deal «не брать»): a question of which round is which gets their order, numbered, as
    the engine plays them, in the «не брать» section."""
    found = lookup(LIB, query, GameContext("king", {}))
    assert found.answer is not None and found.sections[0] == G.NEGATIVE
    line = answer_line(found.answer, RU)
    short = translator(Locale.RU)
    names = [short.t("king-contract-short", contract=str(c)) for c in DEFAULT_ORDER]
    places = [line.find(f"{n}-й — {name}") for n, name in enumerate(names, 1)]
    assert -1 not in places and places == sorted(places), (line, names)


def test_a_long_question_is_read_past_its_greeting() -> None:
    """Stop-words do not use up the words read: the question's own words after a greeting still count."""
    query = "добрый вечер всем, подскажите пожалуйста, а вот если у нас с вами так вышло что я взял две последние, штраф какой"
    found = lookup(LIB, query, GameContext("king", {}))
    assert found.answer is not None and found.answer.args["item"] == "last2"


def test_who_deals_next_is_the_left_neighbour() -> None:
    found = lookup(LIB, "после того как круг сыграли, сдаёт тот же или следующий?", GameContext("king", {}))
    assert found.answer is not None and found.sections[0] in (G.BASICS, G.TRUMP)  # both tell who deals
    assert "соседу слева" in answer_line(found.answer, RU)


@pytest.mark.parametrize("locale", [Locale.RU, Locale.EN])
def test_the_negative_deals_short_text_states_the_engines_prices(locale: Locale) -> None:
    """The «не брать» section's first lines (what a group sees) carry each deal's price, and they are the
    engine's, in the engine's order."""
    tr = translator(locale)
    text = LIB.section(G.NEGATIVE).text(tr, short=True)
    prices = [int(n) for n in re.findall(r"\((?:по )?(\d+)", text)]
    expected = [
        max((*CARD_PENALTY[c], *TRICK_PENALTY[c])) if c is not Contract.NO_KING else c.total
        for c in DEFAULT_ORDER
        if c is not Contract.ERALASH
    ]
    assert prices == expected, text
    assert text.startswith(f"{len(DEFAULT_ORDER)} ")


@pytest.mark.parametrize(
    ("query", "key"),
    [("в палках чей первый ход", "konchinka-first"), ("чей первый ход в кинге", "king-first")],
)
def test_whose_first_move_is_who_moves_first(query: str, key: str) -> None:
    found = lookup(LIB, query)
    assert found.answer is not None and found.answer.key == key


@pytest.mark.parametrize(("score", "target"), [(7, 15), (3, 21)])
def test_a_losers_score_in_the_question_is_what_the_answer_settles(score: int, target: int) -> None:
    """«у меня 7, сколько я должен» — the settlement's example is the asker's own score: target minus it."""
    chat = GameContext("konchinka", {"variant": "classic", "target": target, "settlement": "points"})
    found = lookup(LIB, f"у меня {score} очков, сколько я должен отдать", chat)
    assert found.answer is not None and found.answer.key == "konchinka-settlement"
    assert f"у кого {score}, тот отдаёт {target - score}." in answer_line(found.answer, RU)


@pytest.mark.parametrize(
    "query",
    ["при раздаче на стол открылись две семёрки, что делать", "сдающий положил на стол валета, так можно?"],
)
def test_a_jack_or_a_pair_on_the_opening_table_goes_into_the_deck(query: str) -> None:
    """The seeds' rule of the opening table (the engine's deal puts such a card back at the deck's middle)."""
    found = lookup(LIB, query, GameContext("konchinka", {"variant": "classic"}))
    assert found.answer is not None and found.answer.key == "konchinka-opening-table"
    assert "в середину колоды" in answer_line(found.answer, RU) and found.sections[0] == K.BASICS


def test_how_many_times_they_deal_is_the_number_of_deals() -> None:
    found = lookup(LIB, "сколько раз за партию сдают", GameContext("king", {}))
    assert found.answer is not None and found.answer.key == "king-deals"
    assert f"В партии {NUM_DEALS} раздач" in answer_line(found.answer, RU)
