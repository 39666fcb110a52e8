"""Views shared by every game: pure functions (inputs + translator) -> :class:`Rendered` (Telegram HTML text
≤ 4096 characters and an optional inline keyboard).

Each game's own screens — its group table, private hand, solo screen, deal end and party end — are drawn by its
plug-in (:mod:`bot.games`); what is here frames them and serves every game.

Inputs (frozen dataclasses in :mod:`bot.views.common`): ``SeatInfo``, ``LobbyInfo``, ``TableInfo[View]``.
Translators come from :func:`bot.i18n.translator`.

- ``render_lobby(LobbyInfo, tr)`` — the lobby's main screen / settings (the game's plug-in draws it) / bot
  level / closed.
- ``render_start_bot``, ``render_seat_replaced``, ``render_timed_out``, ``render_timed_out_you``, ``render_replaced_you``,
  ``render_seat_back``, ``render_game_cancelled``,
  ``render_turn_reminder``, ``render_joined`` — notices.
- ``render_solo_setup``; ``render_rules(library, section_id, tr)``, ``render_help(library, tr)``,
  ``bot_commands(library, tr) -> (private, group)`` — ``library`` holds every hosted game's rules book
  (:class:`bot.views.rules_book.RulesLibrary`; ``bot.games.rules_library()`` builds it).
- ``answer_text(reason_enum, tr, **params)`` (``Answer`` or an engine reason), ``illegal_answer(error, tr,
  **params)`` — callback answers ≤ 200 characters.
"""

from __future__ import annotations

from bot.model.answers import Answer
from bot.model.game import LobbyScreen
from bot.views.common import Rendered, SeatInfo, TableInfo
from bot.views.lobby import LobbyInfo, LobbyStatus, render_lobby
from bot.views.notices import (
    answer_text,
    illegal_answer,
    render_game_cancelled,
    render_joined,
    render_rematch_called,
    render_replaced_you,
    render_seat_back,
    render_seat_back_you,
    render_seat_replaced,
    render_start_bot,
    render_timed_out,
    render_timed_out_you,
    render_turn_reminder,
    with_feats,
)
from bot.views.rules import bot_commands, render_help, render_rules
from bot.views.solo import SoloGame, render_play_menu, render_solo_setup

__all__ = [
    "Answer",
    "LobbyInfo",
    "LobbyScreen",
    "LobbyStatus",
    "Rendered",
    "SeatInfo",
    "SoloGame",
    "TableInfo",
    "answer_text",
    "bot_commands",
    "illegal_answer",
    "render_game_cancelled",
    "render_help",
    "render_joined",
    "render_lobby",
    "render_play_menu",
    "render_rematch_called",
    "render_replaced_you",
    "render_rules",
    "render_seat_back",
    "render_seat_back_you",
    "render_seat_replaced",
    "render_solo_setup",
    "render_start_bot",
    "render_timed_out",
    "render_timed_out_you",
    "render_turn_reminder",
    "with_feats",
]
