"""What a game's messages show that is not stored: the lobby's screen, a card picked by a first tap, a move the
timer made for a player, the reminders on show. Lost on a restart, and nothing is wrong then: the lobby shows
its main screen, the hand its cards, and the reminders are found in the outbox's table."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.views import LobbyScreen


@dataclass(slots=True)
class Screens:
    lobby: dict[int, LobbyScreen] = field(default_factory=dict)
    """The screen each lobby shows, when not its main one."""
    picks: dict[tuple[int, int], str] = field(default_factory=dict)
    """(game, user) → the card code of a first tap, whose moves the hand shows."""
    timer_moves: dict[int, int] = field(default_factory=dict)
    """Games whose last move the timer made for a player, with the party's version after it."""
    reminders: dict[int, dict[int, tuple[str, int]]] = field(default_factory=dict)
    """Each game's reminders on show: user → (slot, the party's version it reminds of). Kept past the game's end
    (:meth:`forget` leaves them) until the publisher has them deleted."""

    def forget(self, game_id: int) -> None:
        """The game is over: what its lobby and hands showed goes (its reminders are deleted as they end)."""
        self.lobby.pop(game_id, None)
        self.timer_moves.pop(game_id, None)
        self.drop_picks(game_id)

    def drop_picks(self, game_id: int) -> None:
        if self.picks:
            self.picks = {k: v for k, v in self.picks.items() if k[0] != game_id}
