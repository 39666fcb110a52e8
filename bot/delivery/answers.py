"""Answers drawn for a press or a command that changed nothing a message shows: what a press is answered (its
refusal, «Вы в игре», an apology when the bot could not do it), and a refused command's one-line reply."""

from __future__ import annotations

import enum

from bot.delivery.outbox.orders import AnswerPress, Coming, DeleteStray, Drop, Order, Reply, Show
from bot.delivery.outbox.queue import Priority, hand_slot, throttle_note_slot
from bot.flow.commands import Refusal
from bot.i18n import Translator
from bot.model.answers import Answer
from bot.views import answer_text, illegal_answer


class Apology(enum.StrEnum):
    """Why the bot could not do what a press asked (nothing was done)."""

    FAILED = "failed"
    """Something went wrong on the bot's side."""
    BUSY = "busy"
    """The database is held by another process."""
    READ_ONLY = "read-only"
    """The database cannot be written (read-only, a full disk)."""


def refusal_text(refusal: Refusal, tr: Translator) -> str:
    """A refusal in words; one of the rules engine shows its cards and suits the way the locale writes them."""
    cause = refusal.cause
    if cause is not None and cause.reason is refusal.reason:
        return illegal_answer(cause, tr, **refusal.params)
    return answer_text(refusal.reason, tr, **refusal.params)


def answered(query_id: str, answer: Answer | None, tr: Translator) -> AnswerPress:
    """A press answered with ``answer`` in words (None: the spinner just stops)."""
    return AnswerPress(query_id, answer_text(answer, tr) if answer is not None else None)


def refused_press(
    refusal: Refusal, query_id: str, tr: Translator, stray: tuple[int, int, int, int] | None = None
) -> list[Order]:
    """A refused press: its answer says why; a press that came too late (``stray``: the game, the person, the
    chat and the message pressed) may have come from a dead hand the bot lost track of, which then goes."""
    orders: list[Order] = [AnswerPress(query_id, refusal_text(refusal, tr))]
    if refusal.reason in (Answer.STALE, Answer.OLD_DEAL) and stray is not None:
        game_id, user_id, chat_id, message_id = stray
        if chat_id == user_id:
            orders.append(DeleteStray(hand_slot(game_id, user_id), chat_id, message_id))
    return orders


def refused_command(
    refusal: Refusal,
    chat_id: int,
    thread_id: int,
    tr: Translator,
    asker: int = 0,
    question: int | None = None,
) -> Reply:
    """A refused command's reply in its chat (in a group: an answer to a member, behind the group's games;
    ``question``: the message that asked)."""
    return Reply(
        chat_id,
        refusal_text(refusal, tr),
        thread_id=thread_id,
        priority=_asked(chat_id),
        asker=asker,
        question=question or 0,
    )


def coming(chat_id: int, message_id: int) -> Coming:
    """A member's question that waits its turn is marked as coming."""
    return Coming(chat_id, message_id)


def told(chat_id: int, thread_id: int, answer: Answer, tr: Translator) -> Reply:
    return Reply(chat_id, answer_text(answer, tr), thread_id=thread_id, priority=_asked(chat_id))


def throttle_note(chat_id: int, thread_id: int, answer: Answer, tr: Translator) -> Show:
    """A group's (topic's) one note from the incoming throttle: a word to a member beyond their window."""
    return Show(
        throttle_note_slot(chat_id, thread_id),
        chat_id,
        answer_text(answer, tr),
        thread_id=thread_id,
        priority=_asked(chat_id),
    )


def throttle_note_gone(chat_id: int, thread_id: int) -> Drop:
    return Drop(throttle_note_slot(chat_id, thread_id), chat_id)


def apology_text(why: Apology, tr: Translator) -> str:
    """What a press the bot could not do is answered, in words (in the chat or the Mini App alike)."""
    return tr.t(f"answer-{why.value}")


def apology(query_id: str, tr: Translator, why: Apology) -> AnswerPress:
    return AnswerPress(query_id, apology_text(why, tr))


def _asked(chat_id: int) -> Priority | None:
    return Priority.ASKED if chat_id < 0 else None
