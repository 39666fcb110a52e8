"""The party's history file: written from a finished (or unfinished) party of each game, read back and replayed by
the engine to the same moves and the same result; a file that was tampered with is refused."""

from __future__ import annotations

import random
import re

import pytest

from bot.games import plugin_of, plugins
from bot.games.history import HistoryError, read_history, replay_history, write_history
from bot.i18n import Locale, Translator, translator
from bot.views.common import FSI, PDI, SeatInfo
from engine.core import JSONValue, State

RU = translator(Locale.RU)
EN = translator(Locale.EN)
SEATS = (SeatInfo("Аня", 1), SeatInfo("Борис", 2), SeatInfo("אברהם", 3), SeatInfo("", None, True))
SHORT: dict[str, dict[str, JSONValue]] = {"konchinka": {"players": 3, "target": 11}, "king": {}}
"""The two games' options for parties short enough to play here."""
GAMES: list[tuple[str, dict[str, JSONValue]]] = [
    (p.kind, SHORT[p.kind] if p.kind in SHORT else p.game_options(p.default_options(None), p.min_players))
    for p in plugins()
]
"""Every hosted game: the two as above, another with its lobby's options."""


def played(kind: str, options: dict[str, JSONValue], seed: int, moves: int | None = None) -> State:
    game = plugin_of(kind).make_game(options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal and (moves is None or state.version < moves):
        state.apply(rng.choice(list(state.legal_actions())))
    return state


@pytest.mark.parametrize(("kind", "options"), GAMES, ids=[k for k, _ in GAMES])
@pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])
def test_a_finished_party_replays_from_its_history_to_the_same_result(
    kind: str, options: dict[str, JSONValue], tr: Translator
) -> None:
    for seed in (3, 8):
        state = played(kind, options, seed)
        seats = SEATS[: state.game.num_players]
        text = write_history(plugin_of(kind), state.record(), seats, tr, "g1")
        replayed = replay_history(text)
        assert replayed.is_terminal and replayed.outcome == state.outcome
        assert [a.code for a in replayed.history] == [a.code for a in state.history]
        history = read_history(text)
        assert history.record == state.record()
        assert state.outcome is not None and history.result == state.outcome.scores
        # Every deal and every move is written, in words too.
        deal = "Раздача" if tr is RU else "Deal"
        assert sum(1 for line in text.splitlines() if line.startswith(deal + " ")) == state.deals_completed
        assert len(history.record.actions) == state.version
        assert ("Победа: " if tr is RU else "Winner: ") in text


def test_each_deal_is_followed_by_its_points_and_the_totals() -> None:
    state = played("king", {}, 4)
    text = write_history(plugin_of("king"), state.record(), SEATS, RU, "g7")
    sheet = state.view(0).score_sheet
    points = [line for line in text.splitlines() if line.startswith("Очки: ")]
    assert len(points) == len(sheet) == 15
    first = " · ".join(
        f"{n} {'+' if v > 0 else '−' if v < 0 else ''}{abs(v)}"
        for n, v in zip(["Аня", "Борис", f"{FSI}אברהם{PDI}", "⚙ Любитель"], sheet[0], strict=True)
    )
    assert points[0] == f"Очки: {first}"
    assert "   1. " in text and "козырь " in text
    headings = [line for line in text.splitlines() if line.startswith("Раздача ")]
    assert headings[0].startswith("Раздача 1 · «не брать взяток» · сдаёт ")
    assert headings[-1].startswith("Раздача 15 · отыгрыш 8/8 · сдаёт ")


def test_an_unfinished_party_replays_to_where_it_stopped() -> None:
    state = played("konchinka", {"players": 2, "target": 11}, 5, moves=30)
    text = write_history(plugin_of("konchinka"), state.record(), SEATS[:2], RU)
    assert "#result" not in text
    replayed = replay_history(text)
    assert not replayed.is_terminal and replayed.version == 30


def test_a_tampered_history_is_refused() -> None:
    state = played("konchinka", {"players": 3, "target": 11}, 6)
    text = write_history(plugin_of("konchinka"), state.record(), SEATS[:3], RU)
    result_line = next(line for line in text.splitlines() if line.startswith("#result "))
    wrong = text.replace(result_line, "#result 99 0 0")
    with pytest.raises(HistoryError, match="the replay ends with"):
        replay_history(wrong)
    codes = next(line for line in text.splitlines() if line.startswith("#moves "))
    first, second, *rest = codes.split()[1:]
    with pytest.raises(HistoryError, match=r"do not replay|the replay ends with"):
        replay_history(text.replace(codes, " ".join(["#moves", second, first, *rest])))
    with pytest.raises(HistoryError, match="do not replay"):
        replay_history(text.replace(codes, " ".join(["#moves", "l:Zz", second, *rest])))
    with pytest.raises(HistoryError, match="#seed"):
        replay_history(text.replace("#seed ", "seed "))


def test_the_moves_are_words_and_the_codes_a_section_of_their_own_with_the_bots_moves_for_a_person_marked() -> (
    None
):
    state = played("konchinka", {"players": 3, "target": 11}, 6, moves=12)
    codes = state.record().actions
    actors = ["player", "afk", "bot", "bot", *["player"] * (len(codes) - 4)]
    seats = (SEATS[0], SEATS[1], SeatInfo("", None, True))
    text = write_history(plugin_of("konchinka"), state.record(), seats, RU, "g5", actors)
    human, machine = text.split("\n#game ", 1)
    assert not any(code in human for code in codes), "the words only: no «l:7d» among them"
    moves = [line for line in human.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert len(moves) == len(codes) and moves[0].startswith("   1. ")
    again = state.game.new_initial_state(state.seed)
    for line, code, actor in zip(moves, codes, actors, strict=True):
        player = again.current_player
        again.apply(state.game.parse_action(code))
        mark = {"afk": " ⏰", "bot": " 🤖"}.get(actor, "") if player < 2 else ""
        assert line.endswith(mark) and (mark or not line.endswith(("⏰", "🤖"))), line
    assert read_history(text).record == state.record()
    assert " ".join(codes) == " ".join(
        " ".join(line.split()[1:]) for line in machine.splitlines() if line.startswith("#moves ")
    )


def test_a_file_written_with_the_codes_after_the_numbers_still_reads() -> None:
    state = played("konchinka", {"players": 2, "target": 11}, 7, moves=20)
    text = write_history(plugin_of("konchinka"), state.record(), SEATS[:2], RU)
    codes = iter(state.record().actions)
    older = [
        re.sub(r"^(\s*\d+\. )", lambda m: f"{m.group(1)}{next(codes):<16} ", line)
        for line in text.splitlines()
        if not line.startswith("#moves ")
    ]
    assert read_history("\n".join(older)).record == state.record()
