"""What a game's messages show that is not stored: the lobby's screen, a card picked by a first tap, a move the
timer made for a player, the reminders on show. Owned by the publisher alone, which keeps what each committed
change says of them (:meth:`Screens.note`). Lost on a restart, and nothing is wrong then: the lobby shows its
main screen, the hand its cards, and the reminders are found in the outbox's table."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.flow.store import Change
from bot.views import LobbyScreen


@dataclass(slots=True)
class Screens:
    lobby: dict[int, LobbyScreen] = field(default_factory=dict)
    """The screen each lobby shows, when not its main one."""
    picks: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    """(game, user) → the card code of a first tap and the party's version it was made at: the hand shows that
    card's moves while the party is still at that version."""
    timer_moves: dict[int, int] = field(default_factory=dict)
    """Games whose last move the timer made for a player, with the party's version after it."""
    reminders: dict[int, dict[int, tuple[str, int]]] = field(default_factory=dict)
    """Each game's reminders on show: user → (slot, the party's version it reminds of). Kept past the game's end
    (:meth:`forget` leaves them) until the publisher has them deleted."""

    def note(self, change: Change) -> None:
        """What a committed change says the messages show."""
        match = change.match
        game_id, party = match.game.id, match.party
        if change.timer_move and party is not None:
            self.timer_moves[game_id] = party.version
        if change.screen is not None:
            if change.screen is LobbyScreen.MAIN:
                self.lobby.pop(game_id, None)
            else:
                self.lobby[game_id] = change.screen
        if change.pick is not None and party is not None:
            user_id, card = change.pick
            if card is None:
                self.picks.pop((game_id, user_id), None)
            else:
                self.picks[(game_id, user_id)] = (card, party.version)
        if not match.game.status.is_active:
            self.forget(game_id)

    def picked(self, game_id: int, user_id: int, version: int) -> str | None:
        """The card ``user_id`` picked at ``version`` of the party, if any."""
        found = self.picks.get((game_id, user_id))
        return found[0] if found is not None and found[1] == version else None

    def forget(self, game_id: int) -> None:
        """The game is over: what its lobby and hands showed goes (its reminders are deleted as they end)."""
        self.lobby.pop(game_id, None)
        self.timer_moves.pop(game_id, None)
        if self.picks:
            self.picks = {k: v for k, v in self.picks.items() if k[0] != game_id}
