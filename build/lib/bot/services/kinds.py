"""What the bot needs to know about each kind of game, behind one small interface.

The service is generic: lobby options, seats, records, views. A :class:`KindSpec` supplies the kind's
defaults, how a lobby setting changes its options, and which views draw its messages: Кончинка and Кинг
(whose views take ``TableInfo[KingView]``; its empty seats are filled by bot players at the start).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot import views
from bot.callbacks import SETTING_OPTION_NAMES, GameKind, SettingKey
from bot.i18n import Translator
from bot.views import Rendered, TableInfo
from bot.views import king as king_views
from engine.cards import Card
from engine.core import IllegalActionError, JSONValue, State
from engine.king import KingOptions, Play
from engine.konchinka import KonchinkaOptions

Selected = str | None
"""The card code picked by the first tap of a two-tap move."""


@dataclass(frozen=True, slots=True)
class KindSpec:
    kind: GameKind
    min_players: int
    max_players: int
    default_options: Callable[[int | None], dict[str, JSONValue]]
    """Lobby options (without the number of players) given an optional target override."""
    set_option: Callable[[Mapping[str, JSONValue], SettingKey, str], dict[str, JSONValue]]
    """The options with one setting changed (ValueError if the value is not allowed)."""
    game_options: Callable[[Mapping[str, JSONValue], int], dict[str, JSONValue]]
    """The engine's options for ``players`` seats."""
    render_table: Callable[[TableInfo[Any], Translator], Rendered]
    render_hand: Callable[[TableInfo[Any], Translator, Selected], Rendered]
    render_solo: Callable[[TableInfo[Any], Translator, Selected], Rendered]
    render_deal_end: Callable[[TableInfo[Any], Translator, int], Rendered]
    render_party_end: Callable[[TableInfo[Any], Translator], Rendered]
    actions_of_card: Callable[[Any, str], list[int]]
    """Indexes in ``view.legal_actions`` of the actions that play the card with this code."""
    refusal: Callable[[State, str], IllegalActionError | None] = lambda _state, _code: None
    """Why the card with this code cannot be played now (the engine's own refusal), or None if unknown."""
    fills_with_bots: bool = False
    """At the start, the empty seats up to ``max_players`` go to bot players (Кинг is always four)."""


def _k_defaults(target: int | None) -> dict[str, JSONValue]:
    options = KonchinkaOptions().to_dict()
    options.pop("players", None)
    if target is not None:
        options["target"] = target
    return options


def _k_set(options: Mapping[str, JSONValue], key: SettingKey, value: str) -> dict[str, JSONValue]:
    name = SETTING_OPTION_NAMES.get(key)
    if name is None:
        raise ValueError(f"not a game option: {key}")
    parsed: JSONValue
    if name in ("target", "stake"):
        parsed = int(value)
    elif name in ("multi_capture", "forced_capture", "early_finish"):
        if value not in ("0", "1"):
            raise ValueError(f"not a flag: {value!r}")
        parsed = value == "1"
    else:
        parsed = value
    changed = {**options, name: parsed}
    KonchinkaOptions.from_dict({**changed, "players": 2})  # validates
    return changed


def _k_game_options(options: Mapping[str, JSONValue], players: int) -> dict[str, JSONValue]:
    return KonchinkaOptions.from_dict({**options, "players": players}).to_dict()


def _k_actions_of_card(view: Any, code: str) -> list[int]:
    try:
        card = Card.parse(code)
    except ValueError:
        return []
    return [index for index, _action in views.actions_of_card(view, card)]


def _card(code: Selected) -> Card | None:
    if not code:
        return None
    try:
        return Card.parse(code)
    except ValueError:
        return None


KONCHINKA = KindSpec(
    kind=GameKind.KONCHINKA,
    min_players=2,
    max_players=4,
    default_options=_k_defaults,
    set_option=_k_set,
    game_options=_k_game_options,
    render_table=views.render_table,
    render_hand=lambda info, tr, sel: views.render_hand(info, tr, _card(sel)),
    render_solo=lambda info, tr, sel: views.render_solo(info, tr, _card(sel)),
    render_deal_end=lambda info, tr, deal: views.render_deal_end(info, tr, deal),
    render_party_end=views.render_party_end,
    actions_of_card=_k_actions_of_card,
)


def _g_defaults(_target: int | None) -> dict[str, JSONValue]:
    return KingOptions().to_dict()


def _g_set(options: Mapping[str, JSONValue], key: SettingKey, value: str) -> dict[str, JSONValue]:
    parsed: JSONValue
    if key is SettingKey.KING_ORDER:
        preset = king_views.ORDER_PRESETS.get(value)
        if preset is None:
            raise ValueError(f"not an order preset: {value!r}")
        parsed = [str(c) for c in preset]
    elif key in (SettingKey.KING_FORCED, SettingKey.KING_STOP):
        if value not in ("0", "1"):
            raise ValueError(f"not a flag: {value!r}")
        parsed = value == "1"
    else:
        raise ValueError(f"not a Кинг option: {key}")
    changed = {**options, SETTING_OPTION_NAMES[key]: parsed}
    KingOptions.from_dict(changed)  # validates
    return changed


def _g_game_options(options: Mapping[str, JSONValue], _players: int) -> dict[str, JSONValue]:
    return KingOptions.from_dict(options).to_dict()


def _g_actions_of_card(view: Any, code: str) -> list[int]:
    return [
        index
        for index, action in enumerate(view.legal_actions)
        if isinstance(action, Play) and action.card.code == code
    ]


def _g_refusal(state: State, code: str) -> IllegalActionError | None:
    """The engine's reason for refusing to play this card now (follow suit, hearts lead, K♥, trump)."""
    probe = state.clone()
    try:
        probe.apply(Play.parse(code))
    except IllegalActionError as exc:
        return exc
    return None


KING = KindSpec(
    kind=GameKind.KING,
    min_players=1,
    max_players=4,
    default_options=_g_defaults,
    set_option=_g_set,
    game_options=_g_game_options,
    render_table=king_views.render_table,
    render_hand=lambda info, tr, _sel: king_views.render_hand(info, tr),
    render_solo=lambda info, tr, _sel: king_views.render_solo(info, tr),
    render_deal_end=king_views.render_deal_end,
    render_party_end=king_views.render_party_end,
    actions_of_card=_g_actions_of_card,
    refusal=_g_refusal,
    fills_with_bots=True,
)

KINDS: dict[GameKind, KindSpec] = {GameKind.KONCHINKA: KONCHINKA, GameKind.KING: KING}


def spec_of(kind: str) -> KindSpec:
    try:
        return KINDS[GameKind(kind)]
    except (KeyError, ValueError):
        raise ValueError(f"this bot does not host {kind!r} games yet") from None
