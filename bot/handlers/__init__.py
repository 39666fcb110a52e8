"""One router per feature; :func:`routers` builds them fresh, in the order the dispatcher tries them."""

from __future__ import annotations

from aiogram import Router

from bot.handlers import chats, commands, errors, fallback, lobby, play, rules, solo


def routers() -> list[Router]:
    return [m.make_router() for m in (errors, chats, rules, lobby, play, solo, commands, fallback)]


HANDLED_COMMANDS = frozenset(
    {"konchinka", "king", "new", "cancel", "score", "rules", "help", "play", "stats", "top", "start"}
)
"""Commands this bot answers (the command menu shows only these)."""
