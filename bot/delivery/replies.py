"""Replies drawn for what people ask that changes no game: the greeting, menus, the solo set-up's screens, help,
the rules (a question, a page turned, a section in private), the inline answer, /stats and /top, the language's
screens, /admin's figures, and where a command belongs when asked in the other kind of chat. Each takes what the
pipeline loaded and returns the outbox's orders."""

from __future__ import annotations

import datetime as dt
import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.delivery.outbox.orders import Adopt, AnswerInline, AnswerPress, Order, Reply, Show
from bot.delivery.outbox.queue import Priority, SheetPhoto, chat_rules_slot, page_slot, setup_slot
from bot.games import plugin_of
from bot.i18n import Locale, Translator, translator, translator_for
from bot.storage.models import ChatRank, UserStats
from bot.views import (
    Rendered,
    SoloGame,
    ratings,
    render_help,
    render_joined,
    render_play_menu,
    render_rules,
    render_solo_setup,
)
from bot.views.chats import (
    render_group_only,
    render_group_start,
    render_menu,
    render_private_only,
    render_start,
)
from bot.views.common import esc
from bot.views.languages import render_lang_choice, render_lang_chosen, render_lang_not_yours
from bot.views.lobby import render_new_menu
from bot.views.rules import GameContext, render_rules_contents, rules_deep_link
from bot.views.rules_book import RulesLibrary
from bot.views.rules_lookup import Lookup, render_found, render_inline, render_rules_answer
from bot.views.sheets import PlayerPage
from bot.views.stats import render_stats, render_top

INLINE_CACHE_SECONDS = 300
"""The rules change only with a release: Telegram may reuse an inline answer for five minutes."""


def say(chat_id: int, rendered: Rendered, thread_id: int = 0) -> Reply:
    """A one-off reply (in a group: an answer to a member, behind the group's games)."""
    priority = Priority.ASKED if chat_id < 0 else None
    return Reply(chat_id, rendered.text, rendered.markup, thread_id=thread_id, priority=priority)


def asked_by(asker: int, orders: Iterable[Order], question: int | None = None) -> list[Order]:
    """``orders`` answering a member's question (``question``: the message that asked it): their answers in a
    group are answered in turn with the other members' (see :attr:`Priority.ASKED`), and one that must wait marks
    the question as coming."""
    return [
        replace(order, asker=order.asker or asker, question=order.question or question or 0)
        if isinstance(order, Reply | Show) and order.priority is Priority.ASKED
        else order
        for order in orders
    ]


def turn_page(slot: str, chat_id: int, message_id: int, rendered: Rendered) -> list[Order]:
    """An existing message (a rules page, a setup screen) shows ``rendered`` from now on."""
    return [Adopt(slot, chat_id, message_id), Show(slot, chat_id, rendered.text, rendered.markup)]


def setup_page(chat_id: int, message_id: int, rendered: Rendered) -> list[Order]:
    """A setup screen (the solo game's, the language's) turned in place."""
    return turn_page(setup_slot(chat_id, message_id), chat_id, message_id, rendered)


def start(
    tr: Translator, names: Sequence[str], commands: Sequence[str], username: str, first: str, chat_id: int
) -> Reply:
    """/start in private, with no game running: the greeting with the ways on."""
    return say(chat_id, render_start(tr, names, commands, username, first))


def group_start(
    tr: Translator, commands: Sequence[str], username: str, chat_id: int, thread_id: int
) -> Reply:
    """/start in a group (also the bot just added through «👥 Добавить в группу»): how to play here."""
    return say(chat_id, render_group_start(tr, commands, username), thread_id)


def menu(tr: Translator, username: str, first: str, chat_id: int) -> Reply:
    """Plain text, an unknown command, a sticker… in private: the short menu."""
    return say(chat_id, render_menu(tr, username, first))


def play_menu(tr: Translator, games: Sequence[SoloGame]) -> Rendered:
    """/play's screen: each game with its numbers of opponents."""
    return render_play_menu(tr, games)


def solo_setup(tr: Translator, games: Sequence[SoloGame], game: SoloGame, opponents: int) -> Rendered:
    return render_solo_setup(tr, games, game, opponents)


def group_only(tr: Translator, command: str, username: str, chat_id: int) -> Reply:
    """A group's command sent in private: where it works, with the button that gets there."""
    return say(chat_id, render_group_only(tr, command, username))


def private_only(tr: Translator, command: str, username: str, chat_id: int, thread_id: int) -> Reply:
    """A private chat's command sent in a group: where it works, with the button that gets there."""
    return say(chat_id, render_private_only(tr, command, username), thread_id)


def new_menu(
    tr: Translator, games: Sequence[Sequence[tuple[str, str]]], chat_id: int, thread_id: int
) -> Reply:
    """/new in a group: each game's choices."""
    return say(chat_id, render_new_menu(games, tr), thread_id)


def joined(title: str, game_name: str, tr: Translator, chat_id: int) -> Reply:
    """What the private chat says after joining a group game: which game, which group, what comes next."""
    return say(chat_id, render_joined(title, game_name, tr))


def help_(library: RulesLibrary, tr: Translator, username: str, chat_id: int, thread_id: int) -> Reply:
    return say(chat_id, render_help(library, tr, username), thread_id)


def rules_message(chat_id: int, thread_id: int, user_id: int, rendered: Rendered) -> Show:
    """A rules message for ``user_id``, sent anew below; their previous one in the chat (if any) is deleted."""
    slot = chat_rules_slot(chat_id, thread_id, user_id)
    priority = Priority.ASKED if chat_id < 0 else None
    return Show(
        slot,
        chat_id,
        rendered.text,
        rendered.markup,
        thread_id=thread_id,
        resend=True,
        priority=priority,
        asker=user_id,
    )


def rules_asked(
    library: RulesLibrary,
    found: Lookup | None,
    tr: Translator,
    *,
    username: str,
    game: GameContext | None,
    chat_id: int,
    thread_id: int,
    user_id: int,
) -> Order:
    """«/rules»: the first section (a group gets the contents); «/rules ералаш»: the section meant (``found``).
    A question typed in private keeps its own answer below it (the next question does not take it away); any
    other rules message replaces the asker's previous one."""
    is_group = chat_id < 0
    if found is not None and found.sections:
        rendered = render_found(library, found, tr, is_group=is_group, bot_username=username, game=game)
    elif found is not None or is_group:
        rendered = render_rules_contents(
            library,
            tr,
            bot_username=username,
            is_group=is_group,
            found_nothing=found is not None,
            first=game.kind if game is not None else None,
        )
    else:
        book = library.book(game.kind) if game is not None else None
        first = book.sections[0] if book is not None else library.first
        rendered = render_rules(library, first.id, tr, game=game)
    if found is not None and not is_group:
        return say(chat_id, rendered)
    return rules_message(chat_id, thread_id, user_id, rendered)


def rules_section(library: RulesLibrary, section: str, tr: Translator, user_id: int) -> Show:
    """The whole section, with every button, in the private chat (``t.me/<bot>?start=r_<section>``, or a rules
    button of a game message)."""
    return rules_message(user_id, 0, user_id, render_rules(library, section, tr))


def rules_page(
    library: RulesLibrary,
    section: str,
    tr: Translator,
    *,
    username: str,
    game: GameContext | None,
    chat_id: int,
    thread_id: int,
    user_id: int,
    message_id: int,
    known: int | None,
) -> list[Order]:
    """A rules page turned by ``user_id``: the pressed message becomes (stays) theirs and shows the section (in a
    group its short text); ``known``: the message id their rules message has now."""
    if chat_id > 0:
        rendered = render_rules(library, section, tr, game=game)
    else:
        rendered = render_rules_answer(
            library, [section], tr, is_group=True, bot_username=username, game=game
        )
    slot = chat_rules_slot(chat_id, thread_id, user_id)
    orders: list[Order] = [] if known == message_id else [Adopt(slot, chat_id, message_id)]
    priority = Priority.ASKED if chat_id < 0 else None
    turned = Show(
        slot, chat_id, rendered.text, rendered.markup, thread_id=thread_id, priority=priority, asker=user_id
    )
    return [*orders, turned]


def open_private_first(query_id: str, tr: Translator, username: str, section: str) -> AnswerPress:
    """Telegram refuses a first message to someone who never opened the bot: the press says so, with the link that
    opens the private chat on this very section."""
    return AnswerPress(query_id, tr.t("answer-open-private-first"), url=rules_deep_link(username, section))


def inline(library: RulesLibrary, query_id: str, words: str, tr: Translator, username: str) -> AnswerInline:
    """«@bot ералаш» in any chat: the matching sections to post there (personal: in the asker's language)."""
    results = render_inline(library, words, tr, username)
    return AnswerInline(query_id, tuple(results), INLINE_CACHE_SECONDS)


def stats(
    figures: Sequence[UserStats],
    games: Sequence[tuple[str, str]],
    tr: Translator,
    name: str | None,
    chat_id: int,
    thread_id: int,
) -> Reply:
    """/stats: each game apart, groups apart from games with bots (named, when asked in a group)."""
    return say(chat_id, render_stats(figures, games, tr, name=name), thread_id)


def top(
    tops: Sequence[tuple[str, Sequence[ChatRank]]], tr: Translator, chat_id: int, thread_id: int
) -> Reply:
    """/top wins in a group: the chat's people by wins and points over its finished parties, each game apart."""
    return say(chat_id, render_top(tops, tr), thread_id)


def rating_top(
    boards: Sequence[tuple[str, Sequence[ratings.BoardFigures], Sequence[ratings.SeasonFigures]]],
    season: str,
    tr: Translator,
    chat_id: int,
    thread_id: int,
    *,
    everywhere: bool,
) -> Reply:
    """/top: each game's board by rating, with the season's standings so far (the chat's, or the global one)."""
    return say(chat_id, ratings.render_top(boards, season, tr, everywhere=everywhere), thread_id)


def privacy(on: bool, tr: Translator, chat_id: int) -> Reply:
    """/privacy: whether the person is on the global board now."""
    return say(chat_id, ratings.render_privacy(on, tr))


def lang_not_yours(tr: Translator, current: Locale | None, chat_id: int, thread_id: int) -> Reply:
    return say(chat_id, render_lang_not_yours(tr, current), thread_id)


def lang_chosen(chosen: Locale | None, language_code: str | None, chat_id: int, thread_id: int) -> Reply:
    tr = translator(chosen) if chosen is not None else translator_for(language_code)
    return say(chat_id, render_lang_chosen(tr, chosen), thread_id)


def lang_choice(
    tr: Translator, current: Locale | None, *, unknown: str, chat_id: int, thread_id: int
) -> Reply:
    return say(chat_id, render_lang_choice(tr, current, is_group=chat_id < 0, unknown=unknown), thread_id)


def lang_page(chosen: Locale | None, language_code: str | None, chat_id: int, message_id: int) -> list[Order]:
    tr = translator(chosen) if chosen is not None else translator_for(language_code)
    return setup_page(chat_id, message_id, render_lang_chosen(tr, chosen))


@dataclass(frozen=True, slots=True)
class Figures:
    """What ``/admin`` shows of the running bot."""

    bot: str
    version: str
    commit: str
    uptime: int
    """Seconds."""
    games: Mapping[str, int]
    """Games running, by kind."""
    people: int
    """People seen today."""
    calls: float
    """Bot API calls a second over the last minute."""
    queued: int
    waited: float
    """Seconds the oldest queued message has waited."""
    failures: int
    """Unexpected failures in the last hour."""
    masters: Mapping[str, str]
    """The path each hosted game's «мастер» thinks on, by kind."""


def _game_name(kind: str, tr: Translator) -> str:
    try:
        return plugin_of(kind).name(tr)
    except ValueError:  # a kind no game of this bot has (a row of a game it no longer hosts)
        return kind


def admin_figures(tr: Translator, figures: Figures, chat_id: int, thread_id: int) -> Reply:
    """``/admin``: the running bot's figures."""
    counts = [
        tr.t("admin-game-count", game=_game_name(kind, tr), count=count)
        for kind, count in sorted(figures.games.items())
    ]
    masters = [
        tr.t("admin-master-backend", game=_game_name(kind, tr), backend=backend)
        for kind, backend in figures.masters.items()
    ]
    uptime = figures.uptime
    text = tr.t(
        "admin-figures",
        bot=figures.bot,
        version=figures.version,
        commit=figures.commit,
        uptime=f"{uptime // 3600}:{uptime % 3600 // 60:02d}",
        games=", ".join(counts) or tr.t("admin-no-games"),
        total=sum(figures.games.values()),
        people=figures.people,
        calls=f"{figures.calls:.1f}",
        queued=figures.queued,
        waited=f"{figures.waited:.0f}",
        failures=figures.failures,
        masters=", ".join(masters),
    )
    return say(chat_id, Rendered(text, None), thread_id)


def admin_troubles(
    tr: Translator,
    user_id: int,
    troubles: Sequence[tuple[float, str, int | None, int | None]],
    chat_id: int,
    thread_id: int,
) -> Reply:
    """``/admin <user id>``: that person's latest refusals and failures (when, what, chat, game)."""
    if not troubles:
        return say(chat_id, Rendered(tr.t("admin-no-troubles", user=str(user_id)), None), thread_id)
    lines = [tr.t("admin-troubles", user=str(user_id))]
    for at, what, chat, game in troubles:
        lines.append(
            tr.t(
                "admin-trouble",
                when=dt.datetime.fromtimestamp(at, dt.UTC).strftime("%d.%m %H:%M:%S UTC"),
                what=html.escape(what),
                chat=str(chat),
                game=str(game),
            )
        )
    return say(chat_id, Rendered("\n".join(lines), None), thread_id)


def player_page(page: PlayerPage | None, tr: Translator, chat_id: int, name: str) -> Show | Reply:
    """``/me``: the person's page as a photo anew below (its text in its place if Telegram refuses the picture);
    before their first finished party, a word saying when it comes."""
    if page is None:
        return say(chat_id, Rendered(tr.t("page-nothing"), None), 0)
    caption = esc(tr.t("page-caption", name=name))
    return Show(page_slot(chat_id), chat_id, caption, resend=True, media=SheetPhoto(page))
