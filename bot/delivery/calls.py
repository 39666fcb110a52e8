"""/nextgame drawn: the member's answer in the group, and the calls in private when the group's next lobby opens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.callbacks import DeepLink, start_link
from bot.delivery.outbox.orders import Reply
from bot.delivery.replies import say
from bot.games import plugin_of
from bot.i18n import Locale, Translator, translator, translator_for
from bot.model.game import Game, User
from bot.views.calls import render_next_game_asked, render_next_game_call


def next_game_asked(
    tr: Translator,
    name: str,
    chat_id: int,
    thread_id: int,
    *,
    listed: bool,
    reachable: bool,
    bot_username: str,
) -> Reply:
    """The answer to /nextgame: on the list, or off it (the bot unable to write to them: how to let it)."""
    rendered = render_next_game_asked(tr, name, listed=listed, reachable=reachable, bot_username=bot_username)
    return say(chat_id, rendered, thread_id)


def next_game_calls(
    game: Game, called: Sequence[User], chosen: Mapping[int, Locale], bot_username: str
) -> list[Reply]:
    """One private message to each person ``called`` to ``game``'s lobby (those the bot may write to), in their
    language (``chosen``: a private chat's /lang), with the lobby's join link; the lobby's creator and those already
    seated are not called."""
    seated = {seat.user_id for seat in game.seats}
    creator = game.users.get(game.creator_id)
    calls = []
    for user in called:
        if not user.reachable or user.user_id in seated or user.user_id == game.creator_id:
            continue
        locale = chosen.get(user.user_id)
        tr = translator(locale) if locale is not None else translator_for(user.lang)
        join = start_link(bot_username, DeepLink.JOIN, str(game.id))
        name = creator.name if creator is not None else ""
        calls.append(say(user.user_id, render_next_game_call(tr, plugin_of(game.kind).name(tr), name, join)))
    return calls
