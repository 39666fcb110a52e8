"""/lang: the chat's language, chosen with a button (a group's for everyone, a private chat's for its person)."""

from __future__ import annotations

from bot.callbacks import AUTO_LANG, LangCb
from bot.i18n import Locale, Translator
from bot.views.common import Rendered, button, esc, keyboard


def render_lang_choice(
    tr: Translator, current: Locale | None, *, is_group: bool, unknown: str = ""
) -> Rendered:
    """What the chat speaks now, and a button for each choice; ``unknown``: words after /lang that name no
    language (said first)."""
    key = "lang-title-group" if is_group else "lang-title-private"
    text = tr.t(key, current=current.value if current is not None else AUTO_LANG)
    if unknown:
        text = f"{tr.t('lang-unknown', words=esc(unknown[:40]))}\n{text}"
    rows = [
        [button(tr.t(f"btn-lang-{locale.value}"), LangCb(lang=locale.value).pack()) for locale in Locale],
        [button(tr.t("btn-lang-auto"), LangCb(lang=AUTO_LANG).pack())],
    ]
    return Rendered(text, keyboard(rows))


def render_lang_chosen(tr: Translator, chosen: Locale | None) -> Rendered:
    """The choice made, said in the language chosen (``tr``)."""
    return Rendered(tr.t(f"lang-set-{chosen.value if chosen is not None else AUTO_LANG}"), None)


def render_lang_not_yours(tr: Translator, current: Locale | None) -> Rendered:
    """/lang in a group from someone who is not its admin: what it speaks, and who may change that."""
    return Rendered(tr.t("lang-not-yours", current=current.value if current is not None else AUTO_LANG), None)
