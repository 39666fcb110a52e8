"""Refusals merged per chat: the same refusal to the same command in one chat goes out once per window.

A hundred game commands in a group where a game runs must not queue a hundred «В этом чате уже идёт игра.»: they
would take the group's whole message budget for minutes and hold up the game's own messages.
"""

from __future__ import annotations

from typing import Final

from bot.clock import Clock

REFUSAL_WINDOW: Final = 60.0
"""Seconds (bot's clock) during which the same refusal is not repeated in the same chat and topic."""
MAX_REMEMBERED: Final = 10_000


class RefusalThrottle:
    def __init__(self, clock: Clock, window: float = REFUSAL_WINDOW) -> None:
        self.clock = clock
        self.window = window
        self.merged = 0
        """Refusals not sent because the same one went out in the window."""
        self._sent: dict[tuple[int, int, str, str, int], float] = {}

    def allow(self, chat_id: int, thread_id: int, command: str, reason: str, person: int = 0) -> bool:
        """Whether this refusal should be sent now (and if so, the window starts again). ``person``: the user
        a refusal is about (their rights, not the chat's state), merged only with their own; 0 for the chat."""
        now = self.clock.now()
        key = (chat_id, thread_id, command, reason, person)
        last = self._sent.get(key)
        if last is not None and now - last < self.window:
            self.merged += 1
            return False
        if len(self._sent) >= MAX_REMEMBERED:
            self._sent = {k: t for k, t in self._sent.items() if now - t < self.window}
        self._sent[key] = now
        return True
