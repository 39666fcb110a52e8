"""The party's history file: written from a finished (or unfinished) party of each game, read back and replayed by
the engine to the same moves and the same result; a file that was tampered with is refused."""

from __future__ import annotations

import random

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
    lines = text.splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith("   1. "))
    swapped = "\n".join(
        [*lines[:first_move], lines[first_move + 1], lines[first_move], *lines[first_move + 2 :]]
    )
    with pytest.raises(HistoryError, match="move 2 comes where move 1 should"):
        replay_history(swapped)
    code = lines[first_move].split()[1]
    illegal = text.replace(f"   1. {code} ", "   1. l:Zz ", 1)
    with pytest.raises(HistoryError, match="do not replay"):
        replay_history(illegal)
    with pytest.raises(HistoryError, match="#seed"):
        replay_history(text.replace("#seed ", "seed "))
