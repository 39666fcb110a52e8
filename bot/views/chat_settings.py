"""/settings in a group: the chat's own settings for its new lobbies of each game, saved by its admins.

Views know no game: each game's line (its summary) comes in from the caller."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator


def settings_line(summary: str, turn_seconds: int, tr: Translator) -> str:
    """One game's settings: its summary, and the time per turn if there is a limit."""
    return summary + (" · " + tr.t("lobby-turn-time", seconds=turn_seconds) if turn_seconds else "")


def render_settings_saved(tr: Translator, line: str) -> str:
    return tr.t("chatsettings-saved", settings=line)


def render_settings_shown(tr: Translator, lines: Sequence[str]) -> str:
    """The chat's saved settings (none: how to save them)."""
    if not lines:
        return tr.t("chatsettings-none")
    return tr.t("chatsettings-list", settings="\n".join(lines))
