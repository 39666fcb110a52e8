"""First contact and the right chat: /start's greeting, the short menu for plain text in private, and the answer to
a command sent in the other kind of chat (where it works, with the button that gets there).

Views know no game: the games come in as their plug-ins' commands and names, from the handlers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from aiogram.types import InlineKeyboardButton

from bot.callbacks import MenuCb, MenuOp, RulesCb, SeatCb
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, button, keyboard, seat_name, url_button

PLAY_PAYLOAD: Final = "play"
"""``/start play``: the private chat opened from a group's «/play» answer goes straight to the game menu."""
GROUP_PAYLOAD: Final = "new"
"""``?startgroup=new``: the bot added to a group through «👥 Добавить в группу»."""


def add_to_group_link(bot_username: str) -> str:
    """Telegram's «choose a group» link: the bot joins the group the person picks."""
    return f"https://t.me/{bot_username}?startgroup={GROUP_PAYLOAD}"


def private_link(bot_username: str, payload: str = "") -> str:
    """The private chat with the bot (with a ``/start`` payload when given)."""
    return f"https://t.me/{bot_username}" + (f"?start={payload}" if payload else "")


def _joined(items: Sequence[str], tr: Translator) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + tr.t("rules-list-or") + items[-1]


def _menu_rows(tr: Translator, bot_username: str, rules_section: str) -> list[list[InlineKeyboardButton]]:
    return [
        [button(tr.t("btn-play-bots"), MenuCb(op=MenuOp.PLAY).pack())],
        [url_button(tr.t("btn-add-group"), add_to_group_link(bot_username))],
        [button(tr.t("btn-rules"), RulesCb(section=rules_section, page=True).pack())],
    ]


def render_start(
    tr: Translator, games: Sequence[str], commands: Sequence[str], bot_username: str, rules_section: str
) -> Rendered:
    """/start in private: what the bot is, and the three ways on (play with bots, add to a group, the rules).

    ``games``: the hosted games' names; ``commands``: their group commands (``/<game>``)."""
    text = tr.t("chats-start", games=", ".join(games), commands=_joined(commands, tr))
    return Rendered(text, keyboard(_menu_rows(tr, bot_username, rules_section)))


def render_menu(tr: Translator, bot_username: str, rules_section: str) -> Rendered:
    """Plain text (or a command this bot does not have) in private: the short menu."""
    return Rendered(tr.t("chats-menu"), keyboard(_menu_rows(tr, bot_username, rules_section)))


def render_group_only(tr: Translator, command: str, bot_username: str) -> Rendered:
    """A group command sent in private: it works in a group; add the bot to one, or play with bots here."""
    rows = [
        [url_button(tr.t("btn-add-group"), add_to_group_link(bot_username))],
        [button(tr.t("btn-play-bots"), MenuCb(op=MenuOp.PLAY).pack())],
    ]
    return Rendered(tr.t("chats-group-only", command=f"/{command}"), keyboard(rows))


def render_private_only(tr: Translator, command: str, bot_username: str) -> Rendered:
    """A private command sent in a group: it works in the private chat; the button opens it."""
    payload = PLAY_PAYLOAD if command == "play" else ""
    rows = [[url_button(tr.t("btn-open-private"), private_link(bot_username, payload))]]
    return Rendered(tr.t("chats-private-only", command=f"/{command}"), keyboard(rows))


def render_group_start(tr: Translator, commands: Sequence[str], bot_username: str) -> Rendered:
    """/start in a group: how a party starts here, and the private chat for playing with bots."""
    rows = [[url_button(tr.t("btn-open-private"), private_link(bot_username, PLAY_PAYLOAD))]]
    return Rendered(tr.t("chats-group-start", commands=_joined(commands, tr)), keyboard(rows))


def render_left(seat: SeatInfo, game_id: str, tr: Translator) -> Rendered:
    """In the game's chat: this person left the table (/leave) and a bot player plays for them."""
    back = button(tr.t("btn-take-seat"), SeatCb(game=game_id).pack())
    return Rendered(tr.t("chats-left", name=seat_name(seat, tr)), keyboard([[back]]))


def render_left_private(game_id: str, tr: Translator) -> Rendered:
    """In the person's private chat: a bot plays for them now, and how to come back."""
    back = button(tr.t("btn-take-seat"), SeatCb(game=game_id).pack())
    return Rendered(tr.t("chats-left-private"), keyboard([[back]]))
