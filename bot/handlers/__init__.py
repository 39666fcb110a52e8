"""One router per feature; :func:`routers` builds them fresh, in the order the dispatcher tries them."""

from __future__ import annotations

from aiogram import Router

from bot.games import plugins
from bot.handlers import chats, commands, errors, fallback, lobby, play, rules, solo


def routers() -> list[Router]:
    return [m.make_router() for m in (errors, chats, rules, lobby, play, solo, commands, fallback)]


BASE_COMMANDS = frozenset({"new", "cancel", "score", "rules", "help", "play", "stats", "top", "start"})


def handled_commands() -> frozenset[str]:
    """Commands this bot answers (the command menu shows only these): its own and each game's."""
    return BASE_COMMANDS | {p.command for p in plugins()}
