"""The game on paper, drawn for a chat: the score sheet's photo (its picture drawn by the outbox as it goes out,
once per content; the Mini App draws the same sheet by the same cache) and the party's history file."""

from __future__ import annotations

from bot.delivery.outbox import Priority, SheetPhoto, TextFile
from bot.delivery.outbox.orders import Show
from bot.delivery.outbox.queue import history_slot, sheet_slot
from bot.games import plugin_of
from bot.games.base import drawn
from bot.games.history import history_filename, write_history
from bot.i18n import Translator, translator_for
from bot.model.game import Game
from bot.views.common import table_frame
from bot.views.sheets import Sheet


def reader(game: Game, chat_id: int) -> Translator:
    """The language of a game's message in ``chat_id``: its player's in a private chat, else the game's."""
    user = game.users.get(chat_id)
    return translator_for(user.lang if user is not None else game.lang)


def score_sheet(game: Game, tr: Translator) -> tuple[Sheet, str] | None:
    """The score sheet of ``game`` as the party stands (the picture's data) and its caption, in ``tr``'s language;
    None if there is none yet (no deal has ended) or the game draws none."""
    return drawn(game.party).score_sheet(table_frame(game), tr) if game.party is not None else None


def standings(game: Game, tr: Translator) -> str:
    """The standings a party has reached, in words (its score sheet's caption; empty before a deal has ended)."""
    made = score_sheet(game, tr)
    return made[1] if made is not None else ""


def sheet(game: Game, chat_id: int, *, thread_id: int = 0, resend: bool = False) -> Show | None:
    """The score sheet's photo of ``game`` in ``chat_id`` as the party stands (``resend``: anew, below); None if
    there is no sheet yet (no deal has ended) or the game draws none."""
    made = score_sheet(game, reader(game, chat_id))
    if made is None:
        return None
    picture, caption = made
    return Show(
        sheet_slot(game.id, chat_id),
        chat_id,
        caption,
        thread_id=thread_id,
        resend=resend,
        media=SheetPhoto(picture),
    )


def history(game: Game, chat_id: int, thread_id: int = 0) -> Show:
    """«📜 История»: the finished party as a text file — every deal, move and score — in the reader's language."""
    party = game.party
    assert party is not None
    tr = reader(game, chat_id)
    plugin = plugin_of(game.kind)
    actors = [str(move.actor) for move in game.moves]
    text = write_history(plugin, party.record(), table_frame(game).seats, tr, game.key, actors)
    return Show(
        history_slot(game.id, chat_id),
        chat_id,
        tr.t("history-caption"),
        thread_id=thread_id,
        media=TextFile(history_filename(plugin.kind, game.key), text),
        priority=Priority.ASKED if chat_id < 0 else None,  # asked by a member: behind the group's games
    )
