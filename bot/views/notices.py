"""Short messages and answers: the «start the bot» notice, turn reminders, seats taken over by bots, and the
localized answers to refused presses (illegal moves, stale buttons, lobby errors)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

from bot.callbacks import DeepLink, SeatCb, start_link
from bot.i18n import Translator
from bot.views.common import (
    MAX_TEXT,
    Rendered,
    SeatInfo,
    button,
    card,
    clock,
    keyboard,
    named,
    seat_name,
    short_answer,
    url_button,
)
from engine.cards import Card, Suit
from engine.core import IllegalActionError


def answer_text(reason: enum.Enum, tr: Translator, **params: object) -> str:
    """A callback answer (≤ 200 characters) for an :class:`Answer` or an engine's illegal-action reason.

    Reasons of every game share one key space, ``answer-<value>``; ``params`` fill the message (``name`` for
    «Сейчас ходит Аня» — pass the escaped or plain name: answers are plain text, not HTML).
    """
    key = f"answer-{str(reason.value).replace('_', '-')}"
    text = tr.t(key, **params) if tr.has(key) else tr.t("answer-unknown")
    return short_answer(text)


def illegal_answer(error: IllegalActionError, tr: Translator, **params: object) -> str:
    """The answer to a move the engine refused, with the error's own params plus ``params`` (e.g. ``name``)."""
    merged: dict[str, object] = {}
    for key, value in {**error.params, **params}.items():
        if isinstance(value, Card):
            merged[key] = card(value, tr)
        elif isinstance(value, Suit):
            merged[key] = value.symbol
        else:
            merged[key] = value
    return answer_text(error.reason, tr, **merged)


def render_start_bot(seat: SeatInfo, game_id: str, bot_username: str, tr: Translator) -> Rendered:
    """In the group: a player the bot cannot write to must open the bot (a deep-link button)."""
    text = tr.t("notice-start-bot", name=seat_name(seat, tr))
    link = start_link(bot_username, DeepLink.GAME, game_id)
    return Rendered(text, keyboard([[url_button(tr.t("btn-open-bot"), link)]]))


def render_turn_reminder(seat: SeatInfo, seconds_left: int, tr: Translator) -> Rendered:
    """In the private chat: the turn is about to run out."""
    return Rendered(tr.t("notice-reminder", name=seat_name(seat, tr), time=clock(seconds_left)), None)


def render_joined(group_title: str, game_name: str, tr: Translator) -> Rendered:
    """In the private chat after joining a lobby: which group's game, and what happens next.

    ``group_title`` is the raw title of the group (escaped here); ``game_name`` the game's localized name.
    """
    return Rendered(tr.t("joined-private", group=named(group_title), game=game_name), None)


def render_seat_replaced(seat: SeatInfo, game_id: str, tr: Translator) -> Rendered:
    """In the group: after missed turns a bot plays for this seat; one tap takes the seat back."""
    text = tr.t("notice-replaced", name=seat_name(seat, tr))
    return Rendered(text, keyboard([[button(tr.t("btn-take-seat"), SeatCb(game=game_id).pack())]]))


def render_timed_out(seat: SeatInfo, tr: Translator) -> Rendered:
    """In the group: this seat's time ran out and the bot made its move (the table shows which)."""
    return Rendered(tr.t("notice-timed-out", name=seat_name(seat, tr)), None)


def render_timed_out_you(move: str, tr: Translator) -> Rendered:
    """In the player's own chat: the time ran out and the bot played ``move`` (the card) for them."""
    return Rendered(tr.t("notice-timed-out-you", move=move), None)


def render_replaced_you(move: str, game_id: str, tr: Translator) -> Rendered:
    """In the player's own chat: the timer played ``move`` again, and a bot player now sits in; one tap here
    takes the seat back."""
    text = tr.t("notice-timed-out-you", move=move) + "\n" + tr.t("notice-replaced-you")
    return Rendered(text, keyboard([[button(tr.t("btn-take-seat"), SeatCb(game=game_id).pack())]]))


def render_rematch_called(
    caller: SeatInfo, called: Sequence[tuple[int | None, SeatInfo]], host: SeatInfo, tr: Translator
) -> Rendered:
    """In the group: ``caller`` opened a rematch; the last party's other players, seated in it already, are
    called by a mention each (Telegram tells them), and told who may start it."""
    names = ", ".join(
        f'<a href="tg://user?id={user_id}">{seat_name(info, tr)}</a>' if user_id else seat_name(info, tr)
        for user_id, info in called
    )
    text = tr.t("notice-rematch", name=seat_name(caller, tr), players=names, host=seat_name(host, tr))
    return Rendered(text, None)


def render_seat_back(seat: SeatInfo, tr: Translator) -> Rendered:
    return Rendered(tr.t("notice-seat-back", name=seat_name(seat, tr)), None)


SHOWN_MOVES: Final = 15
"""The most of the bot player's moves a player back at the table is told of (the latest; «…» before them)."""


def render_seat_back_you(played: Sequence[str], tr: Translator) -> Rendered:
    """In the player's own chat, back at the table: what the bot player played for them meanwhile."""
    text = tr.t("answer-seat-taken-back")
    if played:
        shown = ("…", *played[-SHOWN_MOVES:]) if len(played) > SHOWN_MOVES else played
        text += "\n" + tr.t("notice-bot-played-for-you", moves=", ".join(shown), count=len(played))
    return Rendered("↩️ " + text, None)


def render_game_cancelled(tr: Translator, standings: str = "") -> Rendered:
    """«✖️ Партия отменена.», with the standings the party had reached (the score sheet's caption), if any."""
    return Rendered(tr.t("notice-cancelled") + (f"\n{standings}" if standings else ""), None)


def with_feats(rendered: Rendered, feats: Sequence[tuple[SeatInfo | None, str]], tr: Translator) -> Rendered:
    """The party's result with the achievements earned by it, one line each below (``feats``: who earned it —
    None: the reader — and its code, named by the text ``feat-<code>``); as it was if the message would grow past
    Telegram's limit."""
    if not feats:
        return rendered
    lines = [
        tr.t("feat-yours", feat=tr.t(f"feat-{code}"), about=tr.t(f"feat-{code}-about"))
        if who is None
        else tr.t("feat-theirs", name=seat_name(who, tr), feat=tr.t(f"feat-{code}"))
        for who, code in feats
    ]
    text = "\n".join([rendered.text, "", *lines])
    return Rendered(text, rendered.markup) if len(text) <= MAX_TEXT else rendered
