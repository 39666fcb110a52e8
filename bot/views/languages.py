"""/lang: the chat's language, chosen with a button (a group's for everyone, a private chat's for its person)."""

from __future__ import annotations

from bot.callbacks import AUTO_LANG, LangCb
from bot.i18n import Locale, Translator
from bot.views.common import Rendered, button, keyboard


def render_lang_choice(tr: Translator, current: Locale | None, *, is_group: bool) -> Rendered:
    """What the chat speaks now, and a button for each choice."""
    key = "lang-title-group" if is_group else "lang-title-private"
    text = tr.t(key, current=current.value if current is not None else AUTO_LANG)
    rows = [
        [button(tr.t(f"btn-lang-{locale.value}"), LangCb(lang=locale.value).pack()) for locale in Locale],
        [button(tr.t("btn-lang-auto"), LangCb(lang=AUTO_LANG).pack())],
    ]
    return Rendered(text, keyboard(rows))


def render_lang_chosen(tr: Translator, chosen: Locale | None) -> Rendered:
    """The choice made, said in the language chosen (``tr``)."""
    return Rendered(tr.t(f"lang-set-{chosen.value if chosen is not None else AUTO_LANG}"), None)
