"""Every game the bot hosts, each a typed plug-in (:class:`bot.games.base.GamePlugin`) that registers itself.

A game is a folder here (and its engine a folder in ``engine/``, its texts a folder in each
``locales/<lang>/``): its ``__init__`` builds its plug-in and calls :func:`register` with it — one line. The bot
finds the folders itself (every package under ``bot.games`` is imported when a game is first looked up), so
adding a game edits nothing outside its folders. Games outside the project (a test's) live in a package laid out
the same way, which :func:`add_place` (the setting ``EXTRA_GAMES``) names: they are found like the project's own.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from pathlib import Path
from typing import Any, TypeAlias

from bot.games.base import GamePlugin
from bot.i18n import add_texts
from bot.views.rules_book import RulesLibrary
from engine import core

AnyPlugin: TypeAlias = GamePlugin[Any, Any]
"""The plug-in of some game (what the service holds when it does not know which)."""

_PLUGINS: dict[str, AnyPlugin] = {}
PLACES: list[str] = [__name__]
"""The packages whose subpackages are games' plug-ins: this one, and those :func:`add_place` added."""
_searched: set[str] = set()


def register(plugin: AnyPlugin) -> AnyPlugin:
    """Host ``plugin``'s game (its ``kind`` is its id in the database and on buttons); the plug-in back."""
    known = _PLUGINS.get(plugin.kind)
    if known is not None and known is not plugin:
        raise ValueError(f"a game {plugin.kind!r} is registered already")
    _PLUGINS[plugin.kind] = plugin
    return plugin


def add_place(root: str) -> None:
    """Host the games of the package ``root`` too, laid out like the project's top level: each game's engine in
    ``<root>.engine.<game>``, its plug-in in ``<root>.bot.games.<game>``, its texts in
    ``<root>/locales/<lang>/<game>/`` — found, registered and loaded as the project's own games are."""
    core.add_place(f"{root}.engine")
    place = f"{root}.bot.games"
    if place not in PLACES:
        PLACES.append(place)
        (folder,) = importlib.import_module(root).__path__
        add_texts(Path(folder) / "locales")


def _find() -> None:
    """Import every game package of each place once (each registers its plug-in)."""
    for place in PLACES:
        if place in _searched:
            continue
        _searched.add(place)
        for module in pkgutil.iter_modules(importlib.import_module(place).__path__, place + "."):
            if module.ispkg:
                importlib.import_module(module.name)


def plugins() -> tuple[AnyPlugin, ...]:
    """Every hosted game's plug-in, in menu order."""
    _find()
    return tuple(sorted(_PLUGINS.values(), key=lambda p: (p.menu_order, p.kind)))


def plugin_of(kind: str) -> AnyPlugin:
    """The plug-in of a stored game kind; ValueError for a kind this bot does not host."""
    _find()
    plugin = _PLUGINS.get(kind)
    if plugin is None:
        raise ValueError(f"this bot does not host {kind!r} games")
    return plugin


def is_hosted(kind: str) -> bool:
    _find()
    return kind in _PLUGINS


def rules_library() -> RulesLibrary:
    """Every hosted game's rules book, in menu order (``menu_order``), with one search index over them all."""
    return _library(plugins())


@functools.lru_cache(maxsize=4)
def _library(hosted: tuple[AnyPlugin, ...]) -> RulesLibrary:
    """Built once for a set of games (a game registered later makes a new one)."""
    return RulesLibrary(p.rules() for p in hosted)


__all__ = ["AnyPlugin", "add_place", "is_hosted", "plugin_of", "plugins", "register", "rules_library"]
