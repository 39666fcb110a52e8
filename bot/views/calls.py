"""/nextgame: a member asks to be called, in private, when the next lobby opens in their group; the call itself.

Views know no game: the game's name and the lobby's join link come in from the caller."""

from __future__ import annotations

from bot.i18n import Translator
from bot.views.chats import private_link
from bot.views.common import Rendered, keyboard, person_name, url_button


def render_next_game_asked(
    tr: Translator, name: str, *, listed: bool, reachable: bool, bot_username: str
) -> Rendered:
    """The answer to /nextgame in a group: ``name`` is on the list (``listed``) or taken off it; one the bot may not
    write to yet is told to open the private chat first, with the button that does."""
    name = person_name(name, tr)
    if not listed:
        return Rendered(tr.t("nextgame-off", name=name))
    if reachable:
        return Rendered(tr.t("nextgame-on", name=name))
    button = url_button(tr.t("nextgame-btn-private"), private_link(bot_username))
    return Rendered(tr.t("nextgame-on-write-first", name=name), keyboard([[button]]))


def render_next_game_call(tr: Translator, game: str, creator: str, join_url: str) -> Rendered:
    """The call in private: a lobby of ``game`` opened by ``creator`` in the group, with its join button."""
    text = tr.t("nextgame-call", game=game, creator=person_name(creator, tr))
    return Rendered(text, keyboard([[url_button(tr.t("nextgame-btn-join"), join_url)]]))
