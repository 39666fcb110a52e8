"""What every game shares: the game and state protocols, outcomes, errors, records and replay.

A game is a ``Game`` (frozen options) plus a ``State`` (one playthrough) created only by
``game.new_initial_state(seed)``. Dealing is part of the state: the seed fixes every shuffle, so the record
``(game name, options, seed, action codes)`` rebuilds the state exactly with :func:`replay`.
"""

from __future__ import annotations

import enum
import importlib
import json
import pkgutil
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeAlias, runtime_checkable

from typing_extensions import TypeVar

Player: TypeAlias = int
"""A seat number, 0-based, in clockwise order."""

JSONValue: TypeAlias = "str | int | float | bool | list[JSONValue] | dict[str, JSONValue] | None"


class IllegalActionError(ValueError):
    """An action that the rules refuse in this state. The state is left exactly as it was.

    ``reason`` is an enum member of the game (e.g. ``KingIllegal.MUST_FOLLOW_SUIT``) that the bot turns into a
    localized answer; ``params`` holds the details the answer may name (a suit, a player, a card).
    """

    def __init__(self, reason: enum.Enum, message: str, **params: object) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params


class CommonIllegal(enum.StrEnum):
    """Reasons shared by every game."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_IN_HAND = "not_in_hand"
    MALFORMED = "malformed"
    NOT_LEGAL = "not_legal"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished party.

    ``scores``: each player's final number (the game says what it is: a tally total, points less penalties).
    ``settlement``: what each player receives (+) or pays (−); it sums to zero.
    """

    winners: tuple[Player, ...]
    scores: tuple[int, ...]
    settlement: tuple[int, ...]


class Action(Protocol):
    """An action: a small frozen value with a compact ASCII code (``type(a).parse(a.code) == a``)."""

    @property
    def code(self) -> str: ...


A = TypeVar("A", bound=Action, default=Any)
"""A game's action type. Left unnamed (``State`` alone), a caller that does not know the game gets ``Any``."""
V_co = TypeVar("V_co", covariant=True, default=Any)
"""A game's view type (what one player may know)."""


@runtime_checkable
class Game(Protocol[A, V_co]):
    """Frozen options of one game; the factory of its states."""

    @property
    def name(self) -> str:
        """The name the game is registered under (``GAMES[name]``)."""
        ...

    @property
    def num_players(self) -> int: ...

    def options_dict(self) -> dict[str, JSONValue]:
        """The options as plain JSON data; ``GAMES[name](options_dict())`` rebuilds an equal game."""
        ...

    def new_initial_state(self, seed: int) -> State[A, V_co]: ...

    def parse_action(self, code: str) -> A:
        """The action with this code, or IllegalActionError(MALFORMED)."""
        ...


@runtime_checkable
class State(Protocol[A, V_co]):
    """One playthrough of a game: ``State[KingAction, KingView]``."""

    @property
    def game(self) -> Game[A, V_co]: ...

    @property
    def seed(self) -> int: ...

    @property
    def current_player(self) -> Player:
        """The player to act; -1 once the party is over."""
        ...

    @property
    def is_terminal(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def version(self) -> int:
        """The number of actions applied so far (a press drawn for another version is stale)."""
        ...

    @property
    def deals_completed(self) -> int:
        """Whole deals played so far (benchmarks count deals with it)."""
        ...

    @property
    def history(self) -> Sequence[A]:
        """Every action applied, in order."""
        ...

    def legal_actions(self) -> Sequence[A]:
        """The current player's legal actions in a stable order; empty once terminal."""
        ...

    def apply(self, action: A) -> None:
        """Apply one action of the current player; IllegalActionError (and no change) if the rules refuse it."""
        ...

    def clone(self) -> Self: ...

    def view(self, player: Player) -> V_co:
        """Everything ``player`` may know, and nothing more."""
        ...

    def record(self) -> GameRecord: ...


class Options(Protocol):
    """A game's frozen options: hashable, and plain JSON data both ways."""

    def to_dict(self) -> dict[str, JSONValue]: ...

    def __hash__(self) -> int: ...


OptionsT = TypeVar("OptionsT", bound=Options)
AnyGame = TypeVar("AnyGame", bound="GameBase[Any]")


class GameBase(Generic[OptionsT]):
    """What every game class shares: its name, frozen options, equality by options, the JSON form."""

    name: ClassVar[str]

    def __init__(self, options: OptionsT) -> None:
        self.options = options

    def options_dict(self) -> dict[str, JSONValue]:
        return self.options.to_dict()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, GameBase) and other.options == self.options

    def __hash__(self) -> int:
        return hash((type(self), self.options))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.options!r})"


class StateBase(Generic[AnyGame, A]):
    """What every state class shares: its game, seed, player to move and history, and its record.

    The attributes are plain slots that each game's hot path reads and writes directly.
    """

    __slots__ = ("_current", "_game", "_history", "_seed")

    _game: AnyGame
    _seed: int
    _current: Player
    _history: list[A]

    @property
    def game(self) -> AnyGame:
        return self._game

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def current_player(self) -> Player:
        return self._current

    @property
    def history(self) -> tuple[A, ...]:
        return tuple(self._history)

    def record(self) -> GameRecord:
        return GameRecord(
            game=self._game.name,
            options=self._game.options_dict(),
            seed=self._seed,
            actions=tuple(a.code for a in self._history),
        )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The save format of a game: replaying it rebuilds the state exactly."""

    game: str
    options: dict[str, JSONValue]
    seed: int
    actions: tuple[str, ...] = field(default=())

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game, "options": self.options, "seed": self.seed, "actions": list(self.actions)},
            ensure_ascii=True,
            separators=(",", ":"),
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        data = json.loads(text)
        return cls(
            game=str(data["game"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            actions=tuple(str(a) for a in data["actions"]),
        )


GameFactory: TypeAlias = Callable[[Mapping[str, Any]], Game]
Redeal: TypeAlias = Callable[[Any, int, random.Random], "State | None"]
"""(state, player, rng) -> another state that ``player`` cannot tell apart from it (the cards hidden from them
dealt anew), or None where the game builds none at that moment."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """A game the engine hosts: how to make it from plain options, option sets that show its range (the
    conformance test plays each), and how to deal the cards a player cannot see anew (None: it hides nothing)."""

    name: str
    factory: GameFactory
    examples: tuple[Mapping[str, Any], ...] = ({},)
    redeal: Redeal | None = None


GAMES: dict[str, GameEntry] = {}
"""Game name -> its entry (filled by the game packages as they are imported; :func:`games` imports them all)."""
PLACES: list[str] = ["engine"]
"""The packages whose subpackages are games: ``engine`` itself, and any added by :func:`add_place` (a folder
of games outside the project, laid out like it: a test's)."""
_SHARED: Final = frozenset({"ai"})
"""Subpackages of a place that are no game (the bot players' shared machinery)."""
_searched: set[str] = set()


def register_game(
    name: str,
    factory: GameFactory,
    *,
    examples: tuple[Mapping[str, Any], ...] = ({},),
    redeal: Redeal | None = None,
) -> None:
    """Host the game ``name`` (one line in the game's package; its bot players, if any, register with
    :func:`engine.ai.players.register_players`)."""
    GAMES[name] = GameEntry(name, factory, examples, redeal)


def add_place(package: str) -> None:
    """Find games in the subpackages of ``package`` too, as in those of ``engine`` (each registers itself)."""
    if package not in PLACES:
        PLACES.append(package)


def games() -> dict[str, GameEntry]:
    """Every game of the engine: each package of a place (:data:`PLACES`) is a game and registers itself when
    imported."""
    for place in PLACES:
        if place in _searched:
            continue
        _searched.add(place)
        for module in pkgutil.iter_modules(importlib.import_module(place).__path__, place + "."):
            if module.ispkg and module.name.removeprefix(place + ".") not in _SHARED:
                importlib.import_module(module.name)
    return GAMES


def make_game(name: str, options: Mapping[str, Any] | None = None) -> Game:
    try:
        entry = games()[name]
    except KeyError:
        raise ValueError(f"unknown game: {name!r}") from None
    return entry.factory(dict(options or {}))


def replay(record: GameRecord) -> State:
    """Rebuild the state of a record: the same options and seed, then every action in order."""
    game = make_game(record.game, record.options)
    state = game.new_initial_state(record.seed)
    for code in record.actions:
        state.apply(game.parse_action(code))
    return state
