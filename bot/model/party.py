"""What the flow asks of a party in play, whatever its game: the rules' side of a game's plug-in paired with an
engine state (``bot.games.base`` builds them; its richer protocol adds how a party is drawn)."""

from __future__ import annotations

from typing import Protocol

from engine.core import GameRecord, IllegalActionError, Outcome, Player


class Party(Protocol):
    """A party in play: immutable as the flow sees it (:meth:`after` returns the next one)."""

    @property
    def version(self) -> int:
        """Moves made so far."""
        ...

    @property
    def seed(self) -> int: ...
    @property
    def current_player(self) -> Player: ...
    @property
    def is_terminal(self) -> bool: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def deals_completed(self) -> int: ...
    @property
    def reviewable(self) -> bool:
        """Whether «🔍 Разбор партии» is offered: the game's engine registered bot players."""
        ...

    def record(self) -> GameRecord: ...
    def after(self, index: int) -> tuple[Party, str]:
        """The party after the current player's legal action number ``index``, and that action's code
        (IndexError for no such action, IllegalActionError if the rules refuse it); this party is unchanged."""
        ...

    def actions_of_card(self, player: Player, code: str) -> list[int]:
        """Indexes among the legal actions of those that play the card with this code (the best first)."""
        ...

    def asks(self, code: str) -> bool:
        """Whether this card's first tap always opens a confirmation («🏁 Прикончить!»)."""
        ...

    def refusal(self, code: str) -> IllegalActionError | None:
        """Why the card with this code cannot be played now, in the engine's words; None if it can."""
        ...

    def view_of(self, player: Player) -> object:
        """What ``player`` may know (the engine's view), for a bot player to decide on."""
        ...

    def index_of(self, action: object) -> int:
        """The index among the legal actions of ``action`` (a bot player's choice); ValueError if none."""
        ...
