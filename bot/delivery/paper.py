"""The game on paper, delivered: the score sheet's photo (drawn by the outbox as it goes out, once per content)
and the party's history file. The publisher decides when (:meth:`~bot.delivery.publisher.Publisher.show_sheet`,
a deal's end); this module says what each chat gets."""

from __future__ import annotations

from bot.delivery.outbox import Outbox, Priority, SheetPhoto, TextFile
from bot.flow.store import Match
from bot.games.history import history_filename, write_history
from bot.i18n import Translator, translator_for
from bot.storage.models import history_slot, sheet_slot


def reader(match: Match, chat_id: int) -> Translator:
    """The language of a game's message in ``chat_id``: its player's in a private chat, else the game's."""
    user = match.users.get(chat_id)
    return translator_for(user.lang if user is not None else match.game.lang)


def standings(match: Match, tr: Translator) -> str:
    """The standings a party has reached, in words (its score sheet's caption; empty before a deal has ended)."""
    made = match.party.score_sheet(match.frame(), tr) if match.party is not None else None
    return made[1] if made is not None else ""


def show_sheet(
    outbox: Outbox, match: Match, chat_id: int, *, thread_id: int = 0, resend: bool = False
) -> bool:
    """The score sheet's photo of ``match`` in ``chat_id`` shows the party so far (``resend``: anew, below);
    False if there is no sheet yet (no deal has ended) or the game draws none."""
    party = match.party
    made = party.score_sheet(match.frame(), reader(match, chat_id)) if party is not None else None
    if made is None:
        return False
    sheet, caption = made
    outbox.show(
        sheet_slot(match.game.id, chat_id),
        chat_id,
        caption,
        thread_id=thread_id,
        resend=resend,
        media=SheetPhoto(sheet),
    )
    return True


def send_history(outbox: Outbox, match: Match, chat_id: int, thread_id: int = 0) -> None:
    """«📜 История»: the finished party as a text file — every deal, move and score — in the reader's language."""
    party = match.party
    assert party is not None
    tr = reader(match, chat_id)
    text = write_history(match.plugin, party.record(), match.frame().seats, tr, match.game.key)
    outbox.show(
        history_slot(match.game.id, chat_id),
        chat_id,
        tr.t("history-caption"),
        thread_id=thread_id,
        media=TextFile(history_filename(match.plugin.kind, match.game.key), text),
        priority=Priority.LOW if chat_id < 0 else None,
    )
