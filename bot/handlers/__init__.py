"""One router per feature; :func:`routers` builds them fresh, in the order the dispatcher tries them."""

from __future__ import annotations

from aiogram import Router

from bot.games import plugins
from bot.handlers import (
    admin,
    chats,
    commands,
    elsewhere,
    errors,
    fallback,
    lang,
    lobby,
    play,
    rules,
    solo,
    start,
)


def routers() -> list[Router]:
    """``play`` first: a card's press is most of the updates, and the dispatcher tries the routers in order (each
    callback handler's filter unpacks the data); every button's data has its own prefix, so no other router's
    handler could have taken the press before it. ``errors`` handles errors only, so its place changes nothing."""
    return [
        m.make_router()
        for m in (play, errors, admin, chats, rules, start, lang, lobby, solo, commands, elsewhere, fallback)
    ]


BASE_COMMANDS = frozenset(
    {
        "new",
        "cancel",
        "score",
        "rules",
        "help",
        "play",
        "stats",
        "me",
        "top",
        "start",
        "lang",
        "leave",
        "nextgame",
        "settings",
        "privacy",
    }
)


def handled_commands() -> frozenset[str]:
    """Commands this bot answers (the command menu shows only these): its own and each game's."""
    return BASE_COMMANDS | {p.command for p in plugins()}
