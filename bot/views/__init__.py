"""Pure views: engine view + translator -> :class:`Rendered` (Telegram HTML text ≤ 4096 chars + keyboard).

Inputs (frozen dataclasses in :mod:`bot.views.models`): ``SeatInfo(name, user_id, is_bot, level, is_reachable,
is_replaced)``, ``LobbyInfo(game_id, kind, options, seats, bot_username, creator_name, turn_seconds,
min_players, max_players, screen, status)``, ``TableInfo(game_id, seats, view: KonchinkaView, seconds_left,
bot_username, solo)``. Translators come from :func:`bot.i18n.translator`.

Group:
- ``render_lobby(LobbyInfo, tr)`` — lobby main screen / settings (``screen=SETTINGS``) / bot level
  (``screen=BOT_LEVEL``) / closed (``status``).
- ``render_table(TableInfo, tr)`` — the table message edited in place (public information only).
- ``render_deal_end(TableInfo, tr, deal_number=None)`` — scoring of the last (or given) finished deal + tally.
- ``render_party_end(TableInfo, tr)`` — winner, tally, settlement, 🔁 Реванш.
- ``render_start_bot(SeatInfo, game_id, bot_username, tr)``, ``render_seat_replaced(SeatInfo, game_id, tr)``,
  ``render_seat_back(SeatInfo, tr)``, ``render_game_cancelled(tr)``.
Private:
- ``render_hand(TableInfo, tr, selected: Card | None = None)`` — the player's live message (two-tap moves).
- ``render_solo(TableInfo, tr, selected=None)`` — the solo game's live message.
- ``render_solo_setup(tr, kind=None, opponents=0)`` — /play: game, opponents, level; ``render_play_menu(tr)`` —
  /play's first screen (Кончинка's opponents, or Кинг).
- ``render_turn_reminder(SeatInfo, seconds_left, tr)``.
Кинг (``bot.views.king``, the same shapes with ``TableInfo[KingView]``): ``render_table``, ``render_hand``,
``render_solo`` (cards in suit rows; the trump choice), ``render_deal_end``, ``render_party_end`` (the paper score
sheet), ``ORDER_PRESETS`` (the lobby's orders of the negative deals).
Anywhere:
- ``render_rules(section, tr, game_id="", options=None)``, ``render_help(tr)``,
  ``bot_commands(tr) -> (private, group)`` lists of ``BotCommand``.
- ``answer_text(reason_enum, tr, **params)`` (``Answer`` or an engine reason), ``illegal_answer(error, tr,
  **params)`` — callback answers ≤ 200 chars.
- ``actions_of_card(view, card)``, ``action_label(action, view, tr)``, ``event_text(event, seats, tr)``.
"""

from __future__ import annotations

from bot.views.konchinka import (
    action_label,
    actions_of_card,
    event_text,
    render_deal_end,
    render_hand,
    render_party_end,
    render_solo,
    render_table,
)
from bot.views.lobby import render_lobby
from bot.views.models import LobbyInfo, LobbyScreen, LobbyStatus, Rendered, SeatInfo, TableInfo
from bot.views.notices import (
    Answer,
    answer_text,
    illegal_answer,
    render_game_cancelled,
    render_seat_back,
    render_seat_replaced,
    render_start_bot,
    render_turn_reminder,
)
from bot.views.rules import bot_commands, render_help, render_rules, render_solo_setup

__all__ = [
    "Answer",
    "LobbyInfo",
    "LobbyScreen",
    "LobbyStatus",
    "Rendered",
    "SeatInfo",
    "TableInfo",
    "action_label",
    "actions_of_card",
    "answer_text",
    "bot_commands",
    "event_text",
    "illegal_answer",
    "render_deal_end",
    "render_game_cancelled",
    "render_hand",
    "render_help",
    "render_lobby",
    "render_party_end",
    "render_rules",
    "render_seat_back",
    "render_seat_replaced",
    "render_solo",
    "render_solo_setup",
    "render_start_bot",
    "render_table",
    "render_turn_reminder",
]
