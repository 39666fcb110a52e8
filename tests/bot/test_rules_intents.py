"""Issue 52: the rules lookup generalises. The search learns from the questions people asked of each section (its
«asked» field) without taking their typos for words of the rules; direct answers are keyed by what a question
asks — a count, two cards' values, a total it quotes, a score it gives — and state the engine's figures."""

from __future__ import annotations

import pytest

from bot.games import rules_library
from bot.games.king.sections import KingSection as G
from bot.games.konchinka.sections import KonchinkaSection as K
from bot.i18n import Locale, translator
from bot.views.rules import GameContext
from bot.views.rules_lookup import Lookup, answer_lines, lookup
from bot.views.rules_search import Document, RulesIndex, word_of
from engine.cards import Card, Rank, Suit
from engine.king.rules import (
    NUM_DEALS,
    NUM_PLAYERS,
    POINTS_PER_TRICK,
    POSITIVE_DEALS,
    TRICKS_PER_DEAL,
    Contract,
)
from engine.konchinka.rules import (
    CARDS_POINTS,
    CLUBS_POINTS,
    FINISH_WITHIN,
    HAND_SIZE,
    KONCHINKI,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TABLE_SIZE,
)
from engine.konchinka.rules import VALUE as CARD_VALUE

LIB = rules_library()
RU = translator(Locale.RU)
KING_CHAT = GameContext("king", {})
KONCHINKA_CHAT = GameContext("konchinka", {"variant": "classic"})


def _answer(query: str, game: GameContext | None = None) -> tuple[Lookup, str, dict[str, str | int]]:
    found = lookup(LIB, query, game)
    assert found.answer is not None, query
    return found, found.answer.key, found.answer.args


def _value(rank: Rank) -> int:
    return CARD_VALUE[Card(rank, Suit.SPADES).index]


def test_the_asked_field_finds_a_section_by_words_only_its_questions_have() -> None:
    documents = [
        Document("a", "g", "Подсчёт", "счёт", "после раздачи считают очки"),
        Document("b", "g", "Ход", "ход", "ходят по очереди", asked=("палочки зачёркивать надо?",)),
    ]
    index = RulesIndex(documents, {}, {})
    assert [h.section for h in index.search("палочки")] == ["b"]


def test_a_typo_an_asked_question_holds_still_finds_the_rules_word() -> None:
    documents = [
        Document("a", "g", "Ералаш", "ералаш", "в ералаше штрафуют всё"),
        Document("b", "g", "Ход", "ход", "ходят по очереди", asked=("иралаш что это",)),
    ]
    index = RulesIndex(documents, {}, {})
    assert "ералаш" in index.expansions(word_of("иралаш"))
    assert next(h.section for h in index.search("иралаш")) == "a"


def test_two_cards_values_in_one_question_are_both_answered() -> None:
    found, key, args = _answer("король 13, а дама скок")
    assert key == "card-values"
    # the question's «13» is the points variant's king: the answer speaks of that variant
    assert args["variant"] == "points"
    values = {args["rank"]: args["value"], args["rank2"]: args["value2"]}
    assert values == {"king": _value(Rank.KING), "queen": _value(Rank.QUEEN)}
    line = answer_lines(found, RU)
    assert str(_value(Rank.QUEEN)) in line and str(_value(Rank.KING)) in line


def test_a_capture_of_two_cards_is_not_two_cards_values() -> None:
    found = lookup(LIB, "восьмёркой можно взять тройку и пятёрку?")
    assert found.answer is None or found.answer.key != "card-values"


@pytest.mark.parametrize(
    "query", ["кончинки это какие карты", "в кончинке какие карты называются кончинками"]
)
def test_konchinki_asked_what_they_are_get_the_two_cards(query: str) -> None:
    found, key, _ = _answer(query)
    assert key == "konchinka-value"
    assert found.sections[0] == K.SCORING
    line = answer_lines(found, RU)
    assert all(c.text in line for c in KONCHINKI)


@pytest.mark.parametrize(
    "query", ["в чем смысл кончинки", "какая колода для кончинки", "кончинка до скольки очков"]
)
def test_the_game_in_the_genitive_is_not_its_cards(query: str) -> None:
    found = lookup(LIB, query)
    assert found.answer is None or found.answer.key != "konchinka-value"


def test_until_how_many_asks_for_the_target() -> None:
    assert _answer("кончинка до скольки очков")[1] == "konchinka-target"


def test_which_deck_asks_for_the_deck() -> None:
    assert _answer("какая колода для кончинки")[2] == {"cards": 52}
    assert _answer("какой колодой играют", KING_CHAT)[2] == {"cards": TRICKS_PER_DEAL * 4}


def test_every_allowed_number_of_players_is_said() -> None:
    found, key, _ = _answer("сколько человек играет в кончинку")
    assert key == "konchinka-players"
    line = answer_lines(found, RU)
    assert all(str(n) in line for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))


def test_a_count_of_tricks_is_not_their_price() -> None:
    assert _answer("сколько взяток в раздаче", KING_CHAT)[1:] == ("king-tricks", {"tricks": TRICKS_PER_DEAL})
    assert _answer("сколько очков за взятку", KING_CHAT)[1] != "king-tricks"


def test_a_quoted_total_is_explained_from_the_engine() -> None:
    _, key, args = _answer("откуда 192 очка в кинге")
    assert key == "king-deal-points"
    assert args["penalties"] == sum(c.total for c in Contract) == 192
    assert args["positives"] == POINTS_PER_TRICK * TRICKS_PER_DEAL * 8
    assert _answer("почему в ералаше 96", KING_CHAT)[2]["deal"] == "eralash"


@pytest.mark.parametrize(
    ("query", "result"),
    [("у меня штрафных 48 и в отыгрыше 50", 2), ("в отыгрыше 30, штрафных 44, что у меня", -14)],
)
def test_kings_result_is_computed_from_its_two_parts(query: str, result: int) -> None:
    _, key, args = _answer(query, KING_CHAT)
    assert key == "king-final-score"
    assert args["result"] == result


def test_the_tallys_next_figure_is_the_sum() -> None:
    _, key, args = _answer("было 6 взял 3 что пишу", KONCHINKA_CHAT)
    assert (key, args["total"]) == ("konchinka-running-total", 9)
    assert _answer("проиграл с 10 очками, сколько я должен", KONCHINKA_CHAT)[1] == "konchinka-settlement"


def test_the_most_a_deal_gives() -> None:
    konchinka = _answer("максимум сколько очков за одну раздачу", KONCHINKA_CHAT)[2]
    assert konchinka["most"] == CARDS_POINTS + CLUBS_POINTS + len(KONCHINKI)
    # in a Кинг chat the words leave the game open: each game's line, Кинг's among them
    found = lookup(LIB, "максимум сколько очков за одну раздачу", KING_CHAT)
    king = [a.args for a in (found.answer, *found.also) if a is not None and a.game == "king"]
    assert king and king[0]["most"] == POINTS_PER_TRICK * TRICKS_PER_DEAL


def test_what_a_deal_forbids_and_what_a_taken_card_costs() -> None:
    found, key, args = _answer("в круге кинга кого нельзя брать", KING_CHAT)
    assert (key, args["item"], found.sections[0]) == ("king-deal-forbids", "king", G.NEGATIVE)
    assert _answer("в круге червей взял все червы", KING_CHAT)[1] == "king-value"
    assert _answer("две последние брать нельзя, это какой круг по счету", KING_CHAT)[1] == "king-rounds"


def test_game_deal_and_hand_are_told_apart() -> None:
    _, key, args = _answer("в кончинке партия и игра одно и то же?")
    assert key == "konchinka-terms"
    assert args["most"] == CARDS_POINTS + CLUBS_POINTS + len(KONCHINKI)


def test_a_mark_with_a_stop_word_in_it_names_its_game() -> None:
    # «по последней» (the trump by the last card) is Кинг's even in a Кончинка chat; «последней» alone is not
    assert lookup(LIB, "что значит по последней", KONCHINKA_CHAT).sections[0] == G.TRUMP
    assert LIB.verdict(LIB.read("кто забирает последней"), "konchinka").kind == "konchinka"


def test_a_trump_deals_trick_is_its_points_not_a_penalty() -> None:
    _, key, args = _answer("за взятку в отыгрыше скока", KING_CHAT)
    assert (key, args["trick"]) == ("king-positive-trick", POINTS_PER_TRICK)


def test_the_sum_of_all_results_and_a_deals_sum_are_told_apart() -> None:
    _, key, args = _answer("сумма всех очков в конце сколько должна быть", KING_CHAT)
    assert key == "king-zero-sum"
    assert args["penalties"] == args["positives"]
    _, key, args = _answer("сумма у всех в круге мальчиков 12 а не 16 это норм?", KING_CHAT)
    assert (key, args["total"]) == ("king-value", Contract.NO_JACKS.total)


def test_must_be_is_not_owes() -> None:
    found = lookup(LIB, "сумма всех очков в конце сколько должна быть", KONCHINKA_CHAT)
    assert found.answer is None or found.answer.key != "konchinka-settlement"


def test_the_prizes_for_most_cards_and_most_clubs() -> None:
    _, key, args = _answer("у кого больше треф сколько получает", KONCHINKA_CHAT)
    assert (key, args["cards"], args["clubs"]) == ("konchinka-most-prizes", CARDS_POINTS, CLUBS_POINTS)


def test_leading_a_konchinka_is_advice_not_a_rule() -> None:
    found, key, _ = _answer("кончинкой ходить можно?", KONCHINKA_CHAT)
    assert key == "konchinka-lead-advice"
    assert "не запрещает" in answer_lines(found, RU)
    assert lookup(LIB, "кончинкой можно взять десятку?", KONCHINKA_CHAT).answer != found.answer


def test_how_many_times_the_cards_are_dealt_in_a_deal() -> None:
    _, key, args = _answer("сколько раз сдают за игру", KONCHINKA_CHAT)
    assert key == "konchinka-hands"
    for players, word in ((2, "two"), (3, "three"), (4, "four")):
        # every card but the opening table is dealt, a hand to each player at a time
        assert args[word] * HAND_SIZE * players == 52 - TABLE_SIZE


def test_kings_readings_are_answered_as_the_bots() -> None:
    found, key, _ = _answer("надо ли перебивать козырь", KING_CHAT)
    assert key == "king-overtrump" and "так решил этот бот" in answer_lines(found, RU)
    assert _answer("кто назначает козырь", KING_CHAT)[1] == "king-trump-chooser"
    assert _answer("по скольким картам назначают козыря", KING_CHAT)[1] == "king-trump-chooser"
    found, key, _ = _answer("кто сдает первую раздачу отыгрыша", KING_CHAT)
    assert key == "king-first-dealer" and "седьмую" in answer_lines(found, RU)
    assert _answer("кинга когда скидывать", KING_CHAT)[1] == "king-king-discard"


@pytest.mark.parametrize("query", ["можно в палки играть впятером", "могут ли играть вшестером в кончинку"])
def test_a_number_of_players_said_as_a_word(query: str) -> None:
    assert _answer(query)[1] == "konchinka-players"


@pytest.mark.parametrize("query", ["если у обоих 15", "кто выиграл если двое набрали больше 15"])
def test_several_at_the_target_is_the_bots_reading(query: str) -> None:
    found, key, _ = _answer(query, KONCHINKA_CHAT)
    assert key == "konchinka-tie-at-target"
    assert "так решил этот бот" in answer_lines(found, RU)


def test_how_long_a_game_lasts() -> None:
    assert _answer("сколько длится партия", KING_CHAT)[2]["deals"] == NUM_DEALS
    assert _answer("когда кончается партия", KONCHINKA_CHAT)[2]["target"] == 15


def test_every_time_is_no_count_of_times() -> None:
    found = lookup(LIB, "сдающий кладет 4 карты на стол каждый раз?", KONCHINKA_CHAT)
    assert found.answer is None or found.answer.key != "konchinka-hands"


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("кагда можна прикончить", "когда"),
        ("кагда можна прикончить", "можно"),
        ("сколька карт сдают", "сколько"),
    ],
)
def test_a_misspelt_word_is_the_dictionary_word_a_letter_away(query: str, entry: str) -> None:
    assert LIB.read(query).has(entry)


def test_a_word_the_dictionary_knows_is_not_read_as_another() -> None:
    # «брать» is a letter or two from «бросать», but it is a word of its own
    assert not LIB.read("можно брать").has("бросать")


def test_the_trump_deals_rounds_are_counted() -> None:
    _, key, args = _answer("сколько кругов отыгрыша", KING_CHAT)
    assert key == "king-deals"
    assert args["rounds"] * 4 == args["positive"]


def test_what_a_loser_pays_is_no_target_and_the_other_way_gets_both() -> None:
    _, key, args = _answer("проигравший сколько платит если играли на кон", KONCHINKA_CHAT)
    assert (key, args["settlement"]) == ("konchinka-settlement", "any")
    assert _answer("проиграл с 8 очками сколько отдаю", KONCHINKA_CHAT)[2]["settlement"] == "points"


def test_points_for_cards_are_no_count_of_cards_dealt() -> None:
    found = lookup(LIB, "сколько очков дает 27 карт", KONCHINKA_CHAT)
    assert found.answer is None or found.answer.key != "konchinka-dealt"


def test_a_number_before_a_noun_counts_it() -> None:
    # «2 дамы» in a Кинг chat are two queens' penalty, not a two and a queen
    _, key, args = _answer("за 2 дамы сколько", KING_CHAT)
    assert (key, args["count"], args["sum"]) == ("king-value", 2, 2 * args["points"])
    # beside a capture, numbers alone are still cards
    assert LIB.read("восьмеркой взять 1 2 5").has("двойка")
    assert not LIB.read("за 2 дамы сколько").has("двойка")


def test_the_asked_question_nearest_the_query_votes_for_its_section() -> None:
    documents = [
        Document("a", "g", "Сброс", "сбросить карту", "кто не может крыть, сбрасывает карту"),
        Document("b", "g", "Ход", "ход", "ходят по очереди", asked=("нечем крыть, что делать дальше",)),
    ]
    index = RulesIndex(documents, {}, {})
    question = index.read("нечем крыть что дальше делать")
    nearest = index.nearest_asked(question.terms)
    assert nearest[1] > 0.9 and nearest[0] == 0.0
    # a word alone is a name, for the titles and search words: the asked questions do not vote on it
    assert index.nearest_asked(index.read("крыть").terms) == [0.0, 0.0]


def test_how_many_times_each_player_names_trump() -> None:
    found, key, args = _answer("сколько раз за партию каждый выбирает козыря", KING_CHAT)
    assert key == "king-deals" and found.sections[0] == G.TRUMP
    # every player names trump once a round of the trump deals
    assert args["rounds"] * NUM_PLAYERS == args["positive"] == POSITIVE_DEALS


def test_a_result_with_the_trump_deals_said_in_tricks() -> None:
    _, key, args = _answer("у Коли штрафных 40, а в отыгрыше он взял 11 взяток, какой итог", KING_CHAT)
    assert key == "king-final-score"
    assert args["result"] == 11 * POINTS_PER_TRICK - 40


def test_the_most_the_trump_deals_give_in_a_whole_game() -> None:
    found, key, args = _answer("максимум очков в отыгрыше за всю игру", KING_CHAT)
    assert key == "king-deal-most"
    assert args["whole"] == POINTS_PER_TRICK * TRICKS_PER_DEAL * POSITIVE_DEALS
    assert str(args["whole"]) in answer_lines(found, RU)


def test_each_losers_payment_is_said() -> None:
    found, key, args = _answer("я набрал 15, у Васи 9, у Пети 13 — кто сколько платит", KONCHINKA_CHAT)
    assert key == "konchinka-settlement"
    assert (args["owes"], args["owes2"]) == (15 - 9, 15 - 13)
    lines = answer_lines(found, RU)
    assert "6" in lines and "2" in lines


def test_how_close_to_the_target_one_may_finish() -> None:
    found, key, args = _answer("скока очков должно не хватать до победы чтобы прикончить", KONCHINKA_CHAT)
    assert key == "konchinka-finish-when" and args["within"] == FINISH_WITHIN
    assert f"не больше {FINISH_WITHIN}" in answer_lines(found, RU)


@pytest.mark.parametrize(
    ("query", "cards", "clubs", "konchinki"),
    [
        ("взял большинство треф и обе кончинки, сколько мне за раздачу", False, True, 2),
        ("у Маши ни одной кончинки, зато больше всех карт и треф — скока ей очков", True, True, 0),
        ("у меня больше всех карт и десятка бубен, сколько выходит", True, False, 1),
    ],
)
def test_a_deals_points_from_what_a_player_holds(
    query: str, cards: bool, clubs: bool, konchinki: int
) -> None:
    found, key, args = _answer(query, KONCHINKA_CHAT)
    assert key == "konchinka-deal-claims"
    total = CARDS_POINTS * cards + CLUBS_POINTS * clubs + konchinki
    assert args["total"] == total and f"Выходит {total} " in answer_lines(found, RU)


def test_one_prize_asked_alone_is_what_it_is_worth() -> None:
    assert _answer("сколько дают за больше всех карт", KONCHINKA_CHAT)[1] == "konchinka-most-prizes"


def test_a_deal_named_by_its_place_is_summed_as_the_usual_order_has_it() -> None:
    found, key, args = _answer("во втором круге у всех вместе сколько штрафных", KING_CHAT)
    assert key == "king-value" and args["item"] == "jack"
    assert args["total"] == Contract.NO_JACKS.total
    assert f"Всего в этой раздаче {Contract.NO_JACKS.total}" in answer_lines(found, RU)


def test_a_named_deals_sum_is_that_deals_total_not_the_games() -> None:
    found, key, args = _answer("ералаш у всех в сумме 100 вышло, так бывает?", KING_CHAT)
    assert key == "king-deal-points" and args["deal"] == "eralash"
    assert str(Contract.ERALASH.total) in answer_lines(found, RU)
