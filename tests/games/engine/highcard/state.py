"""The toy game's rules: two players, three cards each from the six highest of spades; each trick both play a
card (the leader first), the higher takes it and leads the next; whoever takes two tricks wins the party."""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Self

from engine.cards import Card, Rank, Suit
from engine.core import (
    CommonIllegal,
    GameBase,
    IllegalActionError,
    JSONValue,
    Outcome,
    Player,
    StateBase,
)

TOY: Final = "highcard"
DECK: Final = tuple(
    Card(rank, Suit.SPADES) for rank in (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
)
HAND: Final = 3


class ToyIllegal(enum.StrEnum):
    NOT_A_PLAY = "not_a_play"


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    @property
    def code(self) -> str:
        return "p:" + self.card.code

    @classmethod
    def parse(cls, code: str) -> Play:
        if not code.startswith("p:"):
            raise IllegalActionError(CommonIllegal.MALFORMED, f"not a play: {code!r}")
        try:
            return cls(Card.parse(code[2:]))
        except ValueError:
            raise IllegalActionError(CommonIllegal.MALFORMED, f"not a card: {code!r}") from None


@dataclass(frozen=True, slots=True)
class HighCardOptions:
    """The toy has no options; its record still carries a dict."""

    def to_dict(self) -> dict[str, JSONValue]:
        return {}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HighCardOptions:
        unknown = set(data) - {"players"}
        if unknown or data.get("players", 2) != 2:
            raise ValueError(f"the toy takes no options: {dict(data)}")
        return cls()


class HighCardGame(GameBase[HighCardOptions]):
    name = TOY
    num_players = 2

    def new_initial_state(self, seed: int) -> HighCardState:
        return HighCardState(self, seed)

    def parse_action(self, code: str) -> Play:
        return Play.parse(code)


@dataclass(frozen=True, slots=True)
class HighCardView:
    """What one player knows: their hand, the card led to this trick, the tricks each took, whose turn."""

    player: Player
    hand: tuple[Card, ...]
    led: Card | None
    tricks: tuple[int, int]
    current_player: Player
    legal_actions: tuple[Play, ...]
    version: int
    is_terminal: bool


class HighCardState(StateBase[HighCardGame, Play]):
    __slots__ = ("_hands", "_led", "_tricks")

    def __init__(self, game: HighCardGame, seed: int) -> None:
        self._game, self._seed, self._current, self._history = game, seed, 0, []
        cards = list(DECK)
        random.Random(seed).shuffle(cards)
        self._hands = [sorted(cards[:HAND]), sorted(cards[HAND : 2 * HAND])]
        self._led: Card | None = None
        self._tricks = [0, 0]

    @property
    def is_terminal(self) -> bool:
        return max(self._tricks) >= 2

    @property
    def outcome(self) -> Outcome | None:
        if not self.is_terminal:
            return None
        winner = 0 if self._tricks[0] > self._tricks[1] else 1
        return Outcome((winner,), (self._tricks[0], self._tricks[1]), (1, -1) if winner == 0 else (-1, 1))

    @property
    def version(self) -> int:
        return len(self._history)

    @property
    def deals_completed(self) -> int:
        return 1 if self.is_terminal else 0

    @property
    def current_player(self) -> Player:
        return -1 if self.is_terminal else self._current

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(hand) for hand in self._hands)

    def legal_actions(self) -> Sequence[Play]:
        if self.is_terminal:
            return ()
        return tuple(Play(card) for card in self._hands[self._current])

    def apply(self, action: Play) -> None:
        if self.is_terminal:
            raise IllegalActionError(CommonIllegal.GAME_OVER, "the party is over")
        if not isinstance(action, Play):
            raise IllegalActionError(ToyIllegal.NOT_A_PLAY, f"not a play: {action!r}")
        hand = self._hands[self._current]
        if action.card not in hand:
            raise IllegalActionError(CommonIllegal.NOT_IN_HAND, f"{action.card} is not in the hand")
        hand.remove(action.card)
        self._history.append(action)
        if self._led is None:
            self._led = action.card
            self._current = 1 - self._current
            return
        leader = 1 - self._current
        taker = leader if self._led.rank > action.card.rank else self._current
        self._tricks[taker] += 1
        self._led = None
        self._current = taker

    def clone(self) -> Self:
        twin = object.__new__(type(self))
        twin._game, twin._seed, twin._current, twin._history = (
            self._game,
            self._seed,
            self._current,
            list(self._history),
        )
        twin._hands = [list(hand) for hand in self._hands]
        twin._led, twin._tricks = self._led, list(self._tricks)
        return twin

    def view(self, player: Player) -> HighCardView:
        return HighCardView(
            player,
            tuple(self._hands[player]),
            self._led,
            (self._tricks[0], self._tricks[1]),
            self.current_player,
            tuple(self.legal_actions()) if self.current_player == player else (),
            self.version,
            self.is_terminal,
        )


def make_highcard_game(options: Mapping[str, Any]) -> HighCardGame:
    return HighCardGame(HighCardOptions.from_dict(options))


def redeal(state: HighCardState, player: int, rng: random.Random) -> HighCardState:
    """A party ``player`` cannot tell from ``state``: the other hand dealt anew from the cards hidden from them."""
    hidden = [c for c in DECK if c not in state.hands[player] and c not in _played(state)]
    rng.shuffle(hidden)
    world = state.clone()
    other = 1 - player
    world._hands[other] = sorted(hidden[: len(state.hands[other])])
    return world


def _played(state: HighCardState) -> set[Card]:
    return {action.card for action in state.history}
