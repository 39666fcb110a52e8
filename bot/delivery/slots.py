"""The names of the bot's live messages («slots»): each message the bot keeps up to date has a name that says
what it is for (a game's table, a player's hand, a rules page), and the outbox keeps, under that name, which
message in which chat shows it and what it shows. Showing new content under a name edits that message (or sends
it anew below); a name is stored with its message, so a restart finds every message again.
"""

from __future__ import annotations

from typing import Final


def group_slot(game_id: int) -> str:
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    return f"h{game_id}:{user_id}"


REMINDERS: Final = "m"


def reminder_slot(game_id: int, user_id: int, version: int) -> str:
    """The «⏰ your turn is running out» message of one turn (deleted when the turn is over)."""
    return f"{REMINDERS}{game_id}:{user_id}:{version}"


def chat_rules_slot(chat_id: int, thread_id: int = 0, user_id: int = 0) -> str:
    """A person's rules message in a chat (a forum topic): their next rules request replaces it (never someone
    else's: in a group each asker has their own), its pages turn in place. ``user_id``: 0 in a private chat."""
    return (
        f"R{chat_id}:{thread_id}"
        if chat_id == user_id or not user_id
        else f"R{chat_id}:{thread_id}:{user_id}"
    )


def setup_slot(chat_id: int, message_id: int) -> str:
    """The solo setup screen (opponents, level) turned in place."""
    return f"p{chat_id}:{message_id}"


def review_slot(game_id: int, user_id: int) -> str:
    """«🔍 Разбор партии» of one player: sent once, however often the button is pressed."""
    return f"w{game_id}:{user_id}"


def table_slot(game_id: int, user_id: int) -> str:
    """The one private copy of a game's whole table a player keeps: sent anew below on each look."""
    return f"v{game_id}:{user_id}"


def sheet_slot(game_id: int, chat_id: int) -> str:
    """The score sheet's photo of a game in one chat: the group's, updated in place as each deal ends; a player's
    own, sent as the party ends and when asked for (``/score``, «📋 Запись»)."""
    return f"s{game_id}:{chat_id}"


def history_slot(game_id: int, chat_id: int) -> str:
    """The party's history file in one chat (sent once however often «📜 История» is pressed)."""
    return f"y{game_id}:{chat_id}"


def throttle_note_slot(chat_id: int, thread_id: int) -> str:
    """A group's (topic's) one note from the incoming throttle: «Секунду…» while questions wait, or a word to a
    member beyond their window; deleted once answered (or once that window is over)."""
    return f"q{chat_id}:{thread_id}"
