"""Every game the bot hosts, each a typed plug-in (:class:`bot.games.base.GamePlugin`) that registers itself.

A game is a folder here (and its engine a folder in ``engine/``): its ``__init__`` builds its plug-in and calls
:func:`register` with it — one line. The bot finds the folders itself (every package under ``bot.games`` is
imported when a game is first looked up), so adding a game edits nothing outside its folders and its texts in
the top-level ``locales/``. A game defined elsewhere (a test's) registers the same way.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import Any, TypeAlias

from bot.games.base import GamePlugin
from bot.i18n import add_texts
from bot.views.rules_book import RulesLibrary

AnyPlugin: TypeAlias = GamePlugin[Any, Any]
"""The plug-in of some game (what the service holds when it does not know which)."""

_PLUGINS: dict[str, AnyPlugin] = {}
_found = False


def register(plugin: AnyPlugin) -> AnyPlugin:
    """Host ``plugin``'s game (its ``kind`` is its id in the database and on buttons); the plug-in back."""
    known = _PLUGINS.get(plugin.kind)
    if known is not None and known is not plugin:
        raise ValueError(f"a game {plugin.kind!r} is registered already")
    _PLUGINS[plugin.kind] = plugin
    if plugin.texts is not None:
        add_texts(plugin.texts)
    return plugin


def unregister(kind: str) -> None:
    """The game ``kind`` is hosted no more (a test's game, once the test is over); its texts stay loaded."""
    _find()
    _PLUGINS.pop(kind, None)


def _find() -> None:
    """Import every game package under ``bot.games`` once (each registers its plug-in)."""
    global _found
    if _found:
        return
    _found = True
    for module in pkgutil.iter_modules(__path__, __name__ + "."):
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


__all__ = ["AnyPlugin", "is_hosted", "plugin_of", "plugins", "register", "rules_library", "unregister"]
