"""Every game the bot hosts, each a typed plug-in (:class:`bot.games.base.GamePlugin`).

A third game adds its folder beside ``konchinka/`` and ``king/``, its member of :class:`bot.callbacks.GameKind`,
its plug-in in ``AnyPlugin`` and ``PLUGINS`` below, and its texts in the top-level ``locales/``.
"""

from __future__ import annotations

from typing import Final, TypeAlias

from bot.callbacks import GameKind
from bot.games.king import KING, KingPlugin
from bot.games.konchinka import KONCHINKA, KonchinkaPlugin

AnyPlugin: TypeAlias = KonchinkaPlugin | KingPlugin
"""The plug-in of some game (what the service holds when it does not know which)."""

PLUGINS: Final[dict[GameKind, AnyPlugin]] = {GameKind.KONCHINKA: KONCHINKA, GameKind.KING: KING}


def plugin_of(kind: str) -> AnyPlugin:
    """The plug-in of a stored game kind; ValueError for a kind this bot does not host."""
    try:
        return PLUGINS[GameKind(kind)]
    except (KeyError, ValueError):
        raise ValueError(f"this bot does not host {kind!r} games yet") from None


__all__ = ["KING", "KONCHINKA", "PLUGINS", "AnyPlugin", "KingPlugin", "KonchinkaPlugin", "plugin_of"]
