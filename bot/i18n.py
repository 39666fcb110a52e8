"""Texts: Fluent bundles for every locale, loaded from ``<locales>/<locale>/*.ftl`` when first asked for, with
each game's own in its folder ``<locales>/<locale>/<game>/*.ftl``.

The texts live in the repository's top-level ``locales/``; ``bot/locales`` is a link to it, through which the
wheel ships them inside the package, so an installed bot finds them beside its code and a checkout (or an
editable install) through the link, or at the top where links were not made.

``translator(Locale.RU).t("answer-not-your-turn", name="Аня")`` formats one message. A key missing from a locale falls
back to Russian; a key missing everywhere returns the key itself (and the parity test catches it before that).
Unicode isolation marks around placeables are off: Telegram shows them as garbage.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, Final

from fluent.runtime import FluentBundle, FluentResource
from fluent.syntax.ast import Resource


def _locales_dir() -> Path:
    """Where the texts are: inside the installed package, else the checkout's top-level ``locales/``."""
    here = Path(__file__).resolve().parent
    installed = here / "locales"
    return installed if installed.is_dir() else here.parent / "locales"


LOCALES_DIR: Final = _locales_dir()
MEMO_SIZE: Final = 20_000
"""Formatted texts each translator remembers (then it starts afresh)."""


class Locale(enum.StrEnum):
    RU = "ru"
    EN = "en"


DEFAULT_LOCALE: Final = Locale.RU


def locale_for(language_code: str | None) -> Locale:
    """The locale for a Telegram user's ``language_code``: English for ``en*``, Russian otherwise."""
    if language_code and language_code.lower().startswith("en"):
        return Locale.EN
    return DEFAULT_LOCALE


_MORE_TEXTS: list[Path] = []
"""Folders of texts beside ``locales/``, laid out like it (games that live elsewhere, like a test's), added by
:func:`add_texts`."""


def add_texts(folder: Path) -> None:
    """Load ``folder``'s texts too (as :func:`ftl_files` finds them), into every translator made from now on (the
    cached ones are dropped)."""
    if folder not in _MORE_TEXTS:
        _MORE_TEXTS.append(folder)
        _translator.cache_clear()


def ftl_files(locale: Locale, root: Path = LOCALES_DIR) -> list[Path]:
    """The shared texts of ``locale`` (``<root>/<locale>/*.ftl``), then each game's (``<root>/<locale>/<game>/``)."""
    folder = root / locale.value
    return sorted(folder.glob("*.ftl")) + sorted(folder.glob("*/*.ftl"))


@functools.cache
def parsed(locale: Locale, root: Path = LOCALES_DIR) -> tuple[Resource, ...]:
    """The texts of ``locale`` under ``root`` (as :func:`ftl_files` lists them), each file parsed once a process:
    the Russian ones are both the Russian bundle and every other locale's fallback (a bundle only reads them)."""
    return tuple(FluentResource(path.read_text(encoding="utf-8")) for path in ftl_files(locale, root))


def _load_bundle(locale: Locale, root: Path) -> FluentBundle:
    bundle = FluentBundle([locale.value], use_isolating=False)
    for folder in (root, *_MORE_TEXTS):
        for resource in parsed(locale, folder):
            bundle.add_resource(resource)
    return bundle


class Translator:
    """Formats messages of one locale, falling back to Russian."""

    def __init__(self, locale: Locale, bundle: Any, fallback: Any | None = None) -> None:
        self.locale = locale
        self._bundle = bundle
        self._fallback = fallback
        self._memo: dict[Hashable, str] = {}

    def has(self, key: str) -> bool:
        return bool(self._bundle.has_message(key)) or (
            self._fallback is not None and bool(self._fallback.has_message(key))
        )

    def t(self, key: str, **args: object) -> str:
        """The message ``key`` with ``args`` filled in (remembered: Fluent formats slowly, texts repeat)."""
        try:
            # Most texts take no arguments: their key is the message's own (no tuple to build and hash).
            memo_key: Hashable = (key, *args.items(), *map(type, args.values())) if args else key
            text = self._memo.get(memo_key)
        except TypeError:  # an argument that cannot be a key: formatted every time
            return self._format(key, args)
        if text is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            text = self._memo[memo_key] = self._format(key, args)
        return text

    def _format(self, key: str, args: Mapping[str, object]) -> str:
        for bundle in (self._bundle, self._fallback):
            if bundle is None or not bundle.has_message(key):
                continue
            message = bundle.get_message(key)
            if message.value is None:
                continue
            text, _errors = bundle.format_pattern(message.value, _fluent_args(args))
            return str(text)
        return key

    def __repr__(self) -> str:
        return f"Translator({self.locale.value!r})"


def _fluent_args(args: Mapping[str, object]) -> dict[str, object]:
    """Fluent takes str and numbers; enums go in as their values, None as an empty string."""
    out: dict[str, object] = {}
    for name, value in args.items():
        if isinstance(value, enum.Enum):
            out[name] = value.value
        elif value is None:
            out[name] = ""
        elif isinstance(value, bool):
            out[name] = "yes" if value else "no"
        else:
            out[name] = value
    return out


def translator(locale: Locale | str = DEFAULT_LOCALE) -> Translator:
    """The shared translator of a locale, named by its :class:`Locale` or its code (bundles are built once per
    process: ``"ru"`` and ``Locale.RU`` get the same one)."""
    return _translator(Locale(locale))


@functools.cache
def _translator(loc: Locale) -> Translator:
    fallback = None if loc is DEFAULT_LOCALE else _load_bundle(DEFAULT_LOCALE, LOCALES_DIR)
    return Translator(loc, _load_bundle(loc, LOCALES_DIR), fallback)


def translator_for(language_code: str | None) -> Translator:
    return translator(locale_for(language_code))
