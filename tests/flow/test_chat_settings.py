"""A group's own settings (/settings) for its new lobbies, as the opening decision applies them."""

from __future__ import annotations

from collections.abc import Mapping

from bot.flow import lobby
from bot.flow.commands import OpenLobby
from bot.flow.lobby import Opening
from bot.games import plugin_of
from bot.model.game import Game, Opened, Seat
from engine.core import JSONValue
from tests.flow.builders import ANNA, CONFIG, GROUP, NOW, events

SAVED: tuple[Mapping[str, JSONValue], int] = (
    {"variant": "points", "forced_capture": True, "a_setting_since_removed": 1},
    90,
)


def opened(command: OpenLobby, saved: tuple[Mapping[str, JSONValue], int] | None = SAVED) -> Game:
    first = events(lobby.open_lobby(command, Opening(77, NOW, saved=saved), CONFIG))[0]
    assert isinstance(first, Opened), first
    return first.game


def test_a_game_s_command_opens_with_the_chat_s_settings_that_the_game_still_has() -> None:
    game = opened(OpenLobby(GROUP, 0, ANNA, "konchinka"))
    defaults = plugin_of("konchinka").default_options(CONFIG.default_target)
    assert game.options == {**defaults, "variant": "points", "forced_capture": True}
    assert game.turn_timeout == 90
    plain = opened(OpenLobby(GROUP, 0, ANNA, "konchinka"), saved=None)
    assert plain.options == defaults and plain.turn_timeout == CONFIG.turn_timeout


def test_new_s_choice_wins_over_the_chat_s_variant_and_a_rematch_keeps_its_party_s() -> None:
    chosen = plugin_of("konchinka").new_options("classic", CONFIG.default_target)
    game = opened(OpenLobby(GROUP, 0, ANNA, "konchinka", chosen))
    assert game.options["variant"] == "classic" and game.options["forced_capture"] is True
    assert game.turn_timeout == 90
    last = {**chosen, "target": 31}
    rematch = OpenLobby(
        GROUP, 0, ANNA, "konchinka", last, seats=(Seat(0, ANNA.user_id, "Аня"),), turn_timeout=0
    )
    again = opened(rematch)
    assert again.options == last and again.turn_timeout == 0
