"""The rules: «/rules [words]», its section buttons, the deep link that opens them in private, and inline mode.

In a group the answer is short (the one section asked for) and the whole rules open in the private chat; where a
game is open in the chat, the answer also says which of that game's options are on.
"""

from __future__ import annotations

import logging

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, InlineQuery, Message

from bot.callbacks import DeepLink, RulesCb, game_id_of
from bot.flow.service import GameRow, GameService, People, Publisher, answer_press, cmd, person
from bot.games import rules_library
from bot.handlers.common import is_private, thread_of, tr_of
from bot.views.rules import SHOWN_MARK, GameContext, render_rules, render_rules_contents, rules_deep_link
from bot.views.rules_lookup import find_sections, lookup, render_inline, render_rules_answer

log = logging.getLogger(__name__)

INLINE_CACHE_SECONDS = 300
"""The rules change only with a release: Telegram may reuse an inline answer for five minutes."""


def _context(game: GameRow | None) -> GameContext | None:
    if game is None or rules_library().book(game.kind) is None:
        return None
    return GameContext(game.kind, game.options, str(game.id), turn_seconds=game.turn_timeout)


def _is_section(section_id: str) -> bool:
    return rules_library().has(section_id)


async def _username(bot: Bot) -> str:
    me = await bot.me()
    return me.username or ""


async def on_rules(
    message: Message,
    command: CommandObject,
    service: GameService,
    bot: Bot,
    publisher: Publisher,
    people: People,
) -> None:
    """«/rules»: the first section (a group gets the contents); «/rules ералаш»: the section meant."""
    tr = tr_of(message.from_user)
    library = rules_library()
    is_group = not is_private(message.chat)
    thread = thread_of(message)
    game = _context(await people.game_for_rules(message.chat.id, thread))
    username = await _username(bot)
    words = (command.args or "").strip()
    if words:
        found = lookup(library, words, game)
        log.info(
            "rules lookup in chat %s: %r -> %s%s",
            message.chat.id,
            words[:80],
            list(found.sections[:3]),
            f" ({found.answer.key})" if found.answer else "",
        )
        if found.sections:
            rendered = render_rules_answer(
                library,
                found.sections,
                tr,
                is_group=is_group,
                bot_username=username,
                game=game,
                answer=found.answer,
                also=found.also,
            )
        else:
            rendered = render_rules_contents(
                library, tr, bot_username=username, is_group=is_group, found_nothing=True
            )
    elif is_group:
        rendered = render_rules_contents(
            library, tr, bot_username=username, is_group=True, found_nothing=False
        )
    else:
        book = library.book(game.kind) if game is not None else None
        first = book.sections[0] if book is not None else library.first
        rendered = render_rules(library, first.id, tr, game=game)
    if words and not is_group:
        # A question typed in private keeps its own answer below it (the next question does not take it away).
        await publisher.say(message.chat.id, rendered.text, rendered.markup)
    else:
        asker = message.from_user.id if message.from_user else 0
        publisher.show_rules(message.chat.id, thread, asker, rendered)


async def on_rules_start(
    message: Message, command: CommandObject, service: GameService, publisher: Publisher
) -> None:
    """``t.me/<bot>?start=r_<section>``: the whole section, with every button, in the private chat."""
    assert message.from_user is not None
    await service.run(cmd.Seen(person(message.from_user), started=True))
    library = rules_library()
    raw = (command.args or "").removeprefix(DeepLink.RULES.value)
    section = raw if library.has(raw) else library.first.id
    rendered = render_rules(library, section, tr_of(message.from_user))
    publisher.show_rules(message.chat.id, 0, message.from_user.id, rendered)


def _is_shown(message: Message, data: str) -> bool:
    """Whether the pressed page button is the one marked as the section the message shows («• …»)."""
    markup = message.reply_markup
    buttons = [b for row in markup.inline_keyboard for b in row] if markup is not None else []
    return any(b.callback_data == data and b.text.startswith(SHOWN_MARK) for b in buttons)


async def on_rules_section(
    callback: CallbackQuery,
    callback_data: RulesCb,
    service: GameService,
    bot: Bot,
    publisher: Publisher,
    people: People,
) -> None:
    tr = tr_of(callback.from_user)
    library = rules_library()
    game_id = game_id_of(callback_data.game) if callback_data.game else None
    game = _context(await people.game_for_rules(0, 0, game_id)) if game_id else None
    message = callback.message
    if callback_data.page and isinstance(message, Message) and _is_shown(message, callback.data or ""):
        pass  # the section already shown: an identical edit would be refused, and there is nothing to change
    elif callback_data.page and isinstance(message, Message):
        # A rules message: turn its page in place (in a group, the short text of the section).
        if is_private(message.chat):
            rendered = render_rules(library, callback_data.section, tr, game=game)
        else:
            username = await _username(bot)
            rendered = render_rules_answer(
                library, [callback_data.section], tr, is_group=True, bot_username=username, game=game
            )
        publisher.turn_rules_page(
            message.chat.id, thread_of(message), callback.from_user.id, message.message_id, rendered
        )
    elif not await people.can_write(callback.from_user.id):
        # Telegram refuses a first message to someone who never opened the bot: say so, with the link that
        # opens the private chat on this very section.
        link = rules_deep_link(await _username(bot), callback_data.section)
        answer_press(callback, tr.t("answer-open-private-first"), url=link)
        return
    else:
        # A game message: the rules go to the presser's private chat, the game message stays.
        rendered = render_rules(library, callback_data.section, tr, game=game)
        publisher.show_rules(callback.from_user.id, 0, callback.from_user.id, rendered)
    answer_press(callback)


async def on_inline_query(query: InlineQuery, bot: Bot) -> None:
    """«@bot ералаш» in any chat: the matching sections to post there."""
    tr = tr_of(query.from_user)
    results = render_inline(rules_library(), query.query, tr, await _username(bot))
    log.info(
        "rules inline query from %s: %r -> %d results", query.from_user.id, query.query[:80], len(results)
    )
    # Personal: the answer is in the asker's language, so Telegram must not hand it to someone else.
    await query.answer(list(results), cache_time=INLINE_CACHE_SECONDS, is_personal=True)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only); it goes before the lobby's /start."""
    router = Router(name="rules")
    # load the dictionaries and build the index now, not in the first person's query
    find_sections(rules_library(), "сколько карт сдают")
    router.message.register(
        on_rules_start,
        CommandStart(deep_link=True, magic=F.args.startswith(DeepLink.RULES.value)),
        F.chat.type == "private",
    )
    router.message.register(on_rules, Command("rules"))
    # a section no hosted game has (a forged button, or one of a game this bot no longer hosts) is no rules press
    router.callback_query.register(on_rules_section, RulesCb.filter(F.section.func(_is_section)))
    router.inline_query.register(on_inline_query)
    return router
