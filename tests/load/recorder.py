"""What the fake Telegram saw, with times: presses, their answers, the edits and turn notices that followed.

The :class:`Recorder` is the fake server's observer (``tg.observer``). Simulated people register each press
(:meth:`Recorder.pressed`) just before they tap; the recorder then matches, by the times the fake server saw
them:

- the update handed to the bot (``getUpdates`` returned it) — press→delivery;
- ``answerCallbackQuery`` for that query — press→answer;
- the first edit of the pressed message, or the first new message in the presser's chat — press→own edit;
- for a move (``m:`` data), the first send or edit that brings move buttons of a *later* state version of the
  same game into any player's private chat — press→next turn (in a group the next person's «ваш ход»; in a
  solo game the presser's own next turn, after the bot players' moves and their pauses).

It also counts every Bot API call by method (inside the measured window), every 429 and every «message is not
modified» (over the whole run), and wakes the simulated people when something changes in their chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tests.fakebot.models import JSON
from tests.fakebot.server import ApiError, Description, Params

VISIBLE_METHODS = frozenset(
    {"sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage", "deleteMessages"}
)
"""Calls that change what a chat shows: the "message calls" of a move."""
MOVE_PREFIX = "m:"
PICK_PREFIX = "p:"


class Mode(StrEnum):
    GROUP = "group"
    SOLO = "solo"
    FLOOR = "floor"


@dataclass
class Press:
    """One tap on an inline button and what the fake server saw follow it (``time.monotonic()`` seconds)."""

    user_id: int
    chat_id: int
    message_id: int
    data: str
    mode: Mode
    at: float
    game: str = ""
    version: int = -1
    query_id: str | None = None
    delivered: float | None = None
    answered: float | None = None
    answer_text: str | None = None
    own: float | None = None
    next_turn: float | None = None

    @property
    def is_move(self) -> bool:
        """A move's button, or a card that played on its tap (the game moved on past it; a card that opened a
        choice leaves the game where it was, and its choice's press is the move)."""
        return self.data.startswith(MOVE_PREFIX) or (
            self.data.startswith(PICK_PREFIX) and self.next_turn is not None
        )

    @property
    def is_accepted(self) -> bool:
        """Answered without a text: the bot did what was asked (a refusal says why)."""
        return self.answered is not None and not self.answer_text


def parse_game_data(data: str) -> tuple[str, int] | None:
    """``m:<game>:<version>:...`` or ``p:<game>:<version>:...`` -> (game, version)."""
    parts = data.split(":")
    if len(parts) < 4 or parts[0] + ":" not in (MOVE_PREFIX, PICK_PREFIX):
        return None
    try:
        return parts[1], int(parts[2])
    except ValueError:
        return None


def move_versions(message: JSON) -> dict[str, int]:
    """The games (and their highest state version) whose move buttons a message JSON carries."""
    found: dict[str, int] = {}
    markup = message.get("reply_markup") or {}
    for row in markup.get("inline_keyboard") or []:
        for button in row:
            parsed = parse_game_data(str(button.get("callback_data") or ""))
            if parsed is not None:
                game, version = parsed
                found[game] = max(version, found.get(game, -1))
    return found


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """p50/p95/p99 (nearest rank) and max, in milliseconds, of durations in seconds; n is the count."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def rank(q: float) -> float:
        index = max(0, math.ceil(q * len(ordered)) - 1)
        return round(ordered[index] * 1000, 1)

    return {"n": len(ordered), "p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99), "max": rank(1.0)}


@dataclass
class Window:
    """The measured interval (monotonic seconds); None while it has not started or ended."""

    start: float | None = None
    end: float | None = None

    def holds(self, at: float) -> bool:
        return self.start is not None and at >= self.start and (self.end is None or at < self.end)


@dataclass
class Recorder:
    presses: list[Press] = field(default_factory=list)
    window: Window = field(default_factory=Window)
    calls: Counter[str] = field(default_factory=Counter)
    """Calls per method inside the window (successful or not)."""
    all_calls: Counter[str] = field(default_factory=Counter)
    message_calls: Counter[str] = field(default_factory=Counter)
    """Message calls inside the window by method and chat kind («sendMessage private»), failed ones too."""
    too_many_requests: int = 0
    too_many_by_chat: Counter[str] = field(default_factory=Counter)
    """429s by the kind of chat: "group" or "private"."""
    not_modified: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    polls: int = 0
    _by_user: dict[int, Press] = field(default_factory=dict)
    _by_query: dict[str, Press] = field(default_factory=dict)
    _own_waiting: dict[int, list[Press]] = field(default_factory=dict)
    _next_waiting: dict[str, list[Press]] = field(default_factory=dict)
    _changed: dict[int, asyncio.Event] = field(default_factory=dict)
    _last_change: dict[int, float] = field(default_factory=dict)

    # --- the people's side --------------------------------------------------------------------------------
    def pressed(self, user_id: int, chat_id: int, message_id: int, data: str, mode: Mode, at: float) -> Press:
        press = Press(user_id, chat_id, message_id, data, mode, at)
        parsed = parse_game_data(data)
        if parsed is not None:
            press.game, press.version = parsed
        self.presses.append(press)
        self._by_user[user_id] = press
        self._own_waiting.setdefault(chat_id, []).append(press)
        if press.game:
            waiting = self._next_waiting.setdefault(press.game, [])
            if press.data.startswith(MOVE_PREFIX):  # the card tapped before it opened a choice: not a move
                waiting[:] = [
                    p
                    for p in waiting
                    if not (p.user_id == user_id and p.version == press.version and not p.is_move)
                ]
            waiting.append(press)
        return press

    async def changed(self, chat_id: int, timeout: float) -> None:
        """Return when something changes in the chat (a send, edit or delete), or after ``timeout`` s."""
        event = self._changed.get(chat_id)
        if event is None:
            event = self._changed[chat_id] = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(0.0, timeout))

    async def changed_since(self, chat_id: int, since: float, timeout: float) -> None:
        """Return once the chat has changed after ``since`` (maybe already), or after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while self._last_change.get(chat_id, -math.inf) <= since:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            await self.changed(chat_id, remaining)

    def _wake(self, chat_id: int, at: float) -> None:
        self._last_change[chat_id] = at
        event = self._changed.pop(chat_id, None)
        if event is not None:
            event.set()

    def outstanding(self) -> int:
        """Measured presses still waiting for their answer, own edit or next turn."""
        return sum(1 for p in self.presses if self.window.holds(p.at) and self._is_waiting(p))

    def _is_waiting(self, press: Press) -> bool:
        if press.answered is None:
            return True
        if not press.is_accepted:
            return False
        if press.own is None:
            return True
        return press.is_move and press.next_turn is None and press.mode is not Mode.FLOOR

    # --- the observer protocol ----------------------------------------------------------------------------
    def on_update(self, update: JSON, at: float) -> None:
        query = update.get("callback_query")
        if not isinstance(query, dict):
            return
        press = self._by_user.get(int(query["from"]["id"]))
        if press is None or press.query_id is not None or press.data != query.get("data"):
            return
        press.query_id = str(query["id"])
        press.delivered = at
        self._by_query[press.query_id] = press

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if method == "getUpdates":
            self.polls += 1
            return
        self.all_calls[method] += 1
        if self.window.holds(at):
            self.calls[method] += 1
            if method in VISIBLE_METHODS and params.chat_id is not None:
                where = "group" if params.chat_id < 0 else "private"
                self.message_calls[f"{method} {where}"] += 1
        if error is not None:
            self._count_error(method, error, params.chat_id)
            return
        if method == "answerCallbackQuery":
            press = self._by_query.pop(params.str_("callback_query_id") or "", None)
            if press is not None:
                press.answered = at
                press.answer_text = params.str_("text")
            return
        if method not in VISIBLE_METHODS or params.chat_id is None:
            return
        chat_id = params.chat_id
        self._wake(chat_id, at)
        if method.startswith("delete") or not isinstance(result, dict):
            return
        self._match_own(chat_id, int(result["message_id"]), method == "sendMessage", at)
        for game, version in move_versions(result).items():
            self._match_next(game, version, at)

    def _count_error(self, method: str, error: ApiError, chat_id: int | None) -> None:
        if error.code == 429:
            self.too_many_requests += 1
            self.too_many_by_chat["group" if chat_id is not None and chat_id < 0 else "private"] += 1
        elif error.description == Description.NOT_MODIFIED:
            self.not_modified += 1
        self.errors[f"{method} {error.code}"] += 1

    def _match_own(self, chat_id: int, message_id: int, is_new: bool, at: float) -> None:
        waiting = self._own_waiting.get(chat_id)
        if not waiting:
            return
        keep: list[Press] = []
        for press in waiting:
            if press.at < at and (is_new or press.message_id == message_id):
                press.own = at
            else:
                keep.append(press)
        self._own_waiting[chat_id] = keep

    def _match_next(self, game: str, version: int, at: float) -> None:
        waiting = self._next_waiting.get(game)
        if not waiting:
            return
        keep: list[Press] = []
        for press in waiting:
            if press.at < at and press.version < version:
                press.next_turn = at
            else:
                keep.append(press)
        self._next_waiting[game] = keep

    # --- figures ------------------------------------------------------------------------------------------
    def measured(self) -> list[Press]:
        return [p for p in self.presses if self.window.holds(p.at)]

    def answered_in_window(self) -> int:
        """Presses whose answer came inside the window (made in it or just before): the presses whose work the
        bot's CPU over the window paid for."""
        return sum(1 for p in self.presses if p.answered is not None and self.window.holds(p.answered))

    def latencies(self) -> dict[str, Any]:
        """Percentiles of every latency over the presses made inside the window."""
        presses = self.measured()
        accepted = [p for p in presses if p.is_accepted]
        moves = [p for p in accepted if p.is_move]
        refusals = Counter(p.answer_text for p in presses if p.answered is not None and p.answer_text)
        return {
            "presses": len(presses),
            "presses_answered_in_window": self.answered_in_window(),
            "accepted_presses": len(accepted),
            "accepted_moves_by_people": len(moves),
            "refused_presses": sum(refusals.values()),
            "refusals": dict(refusals.most_common(5)),
            "press_to_delivery_ms": percentiles([p.delivered - p.at for p in presses if p.delivered]),
            "press_to_answer_ms": percentiles([p.answered - p.at for p in presses if p.answered]),
            "press_to_own_edit_ms": percentiles([p.own - p.at for p in accepted if p.own]),
            "press_to_next_turn_ms": percentiles(
                [p.next_turn - p.at for p in moves if p.next_turn and p.mode is Mode.GROUP]
            ),
            "press_to_next_turn_solo_ms": percentiles(
                [p.next_turn - p.at for p in moves if p.next_turn and p.mode is Mode.SOLO]
            ),
            "never_answered": sum(1 for p in presses if p.answered is None),
            "never_own_edit": sum(1 for p in accepted if p.own is None),
            "never_next_turn": sum(
                1 for p in moves if p.next_turn is None and p.mode in (Mode.GROUP, Mode.SOLO)
            ),
            "taps_per_move": taps_per_move(presses),
            "taps_per_move_by_mode": {
                mode.value: taps_per_move([p for p in presses if p.mode is mode])
                for mode in (Mode.GROUP, Mode.SOLO)
            },
        }


def taps_per_move(presses: list[Press]) -> float | None:
    """The taps on a hand's move buttons (a card, a move: refused ones too — a person made them) for each move
    a person made by them (None without a move): 1.0 when every move is one tap."""
    taps = sum(1 for p in presses if p.data.startswith((MOVE_PREFIX, PICK_PREFIX)))
    moves = sum(1 for p in presses if p.is_accepted and p.is_move)
    return round(taps / moves, 3) if moves else None
