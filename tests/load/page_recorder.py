"""What is timed of the people who play in the Mini App: each press's answer, and the screens its stream brings.

A person in the page presses by ``POST /app/api/press`` (:meth:`PageRecorder.pressed` just before, then
:meth:`PageRecorder.answered` with the answer: the presser's screen after the press, or a refusal, or an HTTP
error); every screen an open stream brings is :meth:`PageRecorder.arrived`. For a press that moved the game on
(its answer's version is past the one it was pressed at) the recorder then matches, by arrival:

- the presser's own stream's first screen of a later version — press→own stream;
- the first screen of a later version in each other person's stream that was open when the press was made
  (:meth:`PageRecorder.opened`; one opened later starts with the game as it is, which times their opening, not
  the press) — press→others' stream: what the other people of a group game see of the move, the Mini App's
  «press → screen update».

A card that opened a choice (its answer's version is the one pressed at) is no move: its choice's press is.
Times are ``time.monotonic()`` seconds, as the chat's :class:`tests.load.recorder.Recorder` keeps them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.load.recorder import Mode, Window, parse_game_data, percentiles


@dataclass
class PagePress:
    """One press in the page and what followed it."""

    user_id: int
    game: int
    data: str
    mode: Mode
    at: float
    others: frozenset[int]
    """The other people whose streams of the game were open when the press was made (none in a solo game)."""
    version: int = -1
    answered: float | None = None
    status: int | None = None
    """The HTTP status of the answer (None: no answer, e.g. the connection failed or timed out)."""
    refused: str | None = None
    """The answer's refusal, or the error the server answered with (``slow-down``: the person's pace)."""
    answer_version: int | None = None
    own_stream: float | None = None
    others_stream: dict[int, float] = field(default_factory=dict)

    @property
    def is_accepted(self) -> bool:
        return self.status == 200 and self.refused is None

    @property
    def is_move(self) -> bool:
        """Accepted, and the game moved on past the version it was pressed at."""
        return self.is_accepted and self.answer_version is not None and self.answer_version > self.version

    @property
    def is_settled(self) -> bool:
        """Nothing more to wait for: answered, and (a move) seen in every follower's stream."""
        if self.answered is None:
            return False
        if not self.is_move:
            return True
        return self.own_stream is not None and len(self.others_stream) >= len(self.others)


@dataclass
class PageRecorder:
    window: Window
    presses: list[PagePress] = field(default_factory=list)
    streams_opened: int = 0
    stream_events: int = 0
    """Screens the streams brought inside the window."""
    streams_dropped: int = 0
    """Streams that ended or failed while their person still played (then opened again)."""
    stream_refusals: Counter[str] = field(default_factory=Counter)
    """Streams the server would not open, by status and reason."""
    _waiting: dict[int, list[PagePress]] = field(default_factory=dict)
    _following: dict[int, set[int]] = field(default_factory=dict)
    """The people whose streams of a game are open, by game."""

    def opened(self, user_id: int, game: int) -> None:
        """``user_id``'s stream of ``game`` is open (the server follows the game for it)."""
        self.streams_opened += 1
        self._following.setdefault(game, set()).add(user_id)

    def closed(self, user_id: int, game: int) -> None:
        self._following.get(game, set()).discard(user_id)

    def pressed(self, user_id: int, game: int, data: str, mode: Mode, at: float) -> PagePress:
        others = frozenset(self._following.get(game, set()) - {user_id})
        press = PagePress(user_id, game, data, mode, at, others)
        parsed = parse_game_data(data)
        if parsed is not None:
            press.version = parsed[1]
        self.presses.append(press)
        self._waiting.setdefault(game, []).append(press)
        return press

    def answered(
        self, press: PagePress, at: float, status: int | None, refused: str | None, version: int | None
    ) -> None:
        press.answered, press.status, press.refused, press.answer_version = at, status, refused, version
        if press.is_settled:
            self._forget(press)

    def arrived(self, user_id: int, game: int, version: int, at: float) -> None:
        """A screen of ``game`` at ``version`` that ``user_id``'s stream brought at ``at``."""
        if self.window.holds(at):
            self.stream_events += 1
        waiting = self._waiting.get(game)
        if not waiting:
            return
        for press in waiting:
            if press.at >= at or version <= press.version:
                continue
            if user_id == press.user_id:
                if press.own_stream is None:
                    press.own_stream = at
            elif user_id in press.others and user_id not in press.others_stream:
                press.others_stream[user_id] = at
        self._waiting[game] = [p for p in waiting if not p.is_settled]

    def _forget(self, press: PagePress) -> None:
        waiting = self._waiting.get(press.game)
        if waiting and press in waiting:
            waiting.remove(press)

    # --- figures ------------------------------------------------------------------------------------------
    def measured(self) -> list[PagePress]:
        return [p for p in self.presses if self.window.holds(p.at)]

    def outstanding(self) -> int:
        """Measured presses still waiting for their answer or their streams."""
        return sum(1 for p in self.measured() if not p.is_settled)

    def answered_in_window(self) -> int:
        return sum(1 for p in self.presses if p.answered is not None and self.window.holds(p.answered))

    def latencies(self) -> dict[str, Any]:
        """Percentiles over the presses made inside the window, and what went wrong."""
        presses = self.measured()
        accepted = [p for p in presses if p.is_accepted]
        moves = [p for p in accepted if p.is_move]
        refusals = Counter(
            f"{p.status} {p.refused}" if p.status != 200 else str(p.refused)
            for p in presses
            if p.answered is not None and not p.is_accepted
        )
        others = [at - p.at for p in moves for at in p.others_stream.values()]
        return {
            "presses": len(presses),
            "presses_answered_in_window": self.answered_in_window(),
            "accepted_presses": len(accepted),
            "accepted_moves_by_people": len(moves),
            "refused_presses": sum(refusals.values()),
            "refusals": dict(refusals.most_common(5)),
            "pace_refusals": sum(1 for p in presses if p.status == 429),
            "press_to_answer_ms": percentiles([p.answered - p.at for p in presses if p.answered is not None]),
            "press_to_own_stream_ms": percentiles([p.own_stream - p.at for p in moves if p.own_stream]),
            "press_to_others_stream_ms": percentiles(others),
            "never_answered": sum(1 for p in presses if p.answered is None),
            "never_own_stream": sum(1 for p in moves if p.own_stream is None),
            "never_others_stream": sum(len(p.others) - len(p.others_stream) for p in moves),
            "streams_opened": self.streams_opened,
            "stream_events_in_window": self.stream_events,
            "streams_dropped": self.streams_dropped,
            "stream_refusals": dict(self.stream_refusals),
        }
