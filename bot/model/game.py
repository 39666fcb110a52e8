"""One game in play — what is stored of it, its seats, the people in them, its party, the moves made and what its
messages show that the rules do not know (:class:`Screens`) — and the events that change it.

Events are what happened to a game: facts of the game, not messages for anyone. A decision (``bot.flow``) returns
them; each says how it changes the game (:meth:`Event.apply`: ``evolve``), so the game after a change is its events
folded over the game before (:func:`evolve`). Frozen: a change of a game is a new game. The one step that draws
reads the game before and after and the events (``bot.delivery.draw``); those people are told of once (:data:`TOLD`:
a deal scored, the party over, a seat taken over …) are stored with the change that caused them, as notices, and
drawn once it has committed — after a crash, from the stored row (:func:`dump_told`, :func:`load_told`)."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from bot.model.party import Party
from engine.ai.levels import Level
from engine.core import JSONValue


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    EXPIRED = "expired"

    @property
    def is_active(self) -> bool:
        return self in (GameStatus.LOBBY, GameStatus.PLAYING)


class GameMode(enum.StrEnum):
    GROUP = "group"
    SOLO = "solo"


class Actor(enum.StrEnum):
    """Who made a move."""

    PLAYER = "player"
    BOT = "bot"
    """A bot player's seat, or a human's seat taken over by a bot."""
    AFK = "afk"
    """The bot played for a human who ran out of time."""


TURN_TIME_KEY: Final = "time"
"""The lobby's setting for the time per turn (the others are each game's own)."""


class LobbyScreen(enum.StrEnum):
    """What the lobby message shows."""

    MAIN = "main"
    SETTINGS = "settings"
    BOT_LEVEL = "bot_level"


@dataclass(frozen=True, slots=True)
class Person:
    """A Telegram user as a command brings them: their name now, and the language of their private chat (the one
    they chose with /lang, else their Telegram's)."""

    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None


@dataclass(frozen=True, slots=True)
class User:
    """A person the bot has seen: whether they opened the private chat (``started``) and whether they blocked it."""

    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None
    started: bool = False
    blocked: bool = False

    @property
    def reachable(self) -> bool:
        """The bot can write to this user in private."""
        return self.started and not self.blocked

    def seen_as(self, person: Person, *, started: bool = False) -> User:
        """This user as they are now (their name, username and a language if they have one; ``started``: they
        opened the private chat, which lets the bot write to them again)."""
        return User(
            self.user_id,
            person.name,
            person.username,
            person.lang if person.lang is not None else self.lang,
            self.started or started,
            False if started else self.blocked,
        )

    @classmethod
    def first_seen(cls, person: Person) -> User:
        return cls(person.user_id, person.name, person.username, person.lang)


@dataclass(frozen=True, slots=True)
class Seat:
    """A place at a game: a person's (``user_id``) or a bot player's (``level``)."""

    seat: int
    user_id: int | None
    name: str
    level: str | None = None
    misses: int = 0
    """Turns in a row the timer played for this person."""
    replaced: bool = False
    """A bot player stands in for this person (missed turns, /leave)."""
    score: int | None = None
    won: bool | None = None
    settlement: int | None = None

    @property
    def is_bot(self) -> bool:
        """A bot player's own seat (no human behind it)."""
        return self.user_id is None

    @property
    def bot_plays(self) -> bool:
        """The bot moves for this seat: a bot player, or a human replaced after missed turns."""
        return self.user_id is None or self.replaced

    @property
    def bot_level(self) -> Level | None:
        """A bot player's level (None for a person's seat, or a level this bot does not know)."""
        if not self.is_bot or not self.level:
            return None
        try:
            return Level(self.level)
        except ValueError:
            return None

    @property
    def plays_at(self) -> Level:
        """The level the bot plays this seat at: a bot player's own; a person's seat the bot stands in for (or
        whose time ran out) is played as «любитель» would."""
        return self.bot_level or Level.NORMAL


@dataclass(frozen=True, slots=True)
class Move:
    """A move made: the action's code, the seat it was played from, who made it and when (the bot's clock)."""

    code: str
    seat: int
    actor: Actor
    at: float


@dataclass(frozen=True, slots=True)
class Screens:
    """What the game's messages show that the rules do not know: stored with the game, so a restart shows (and
    the timer plays) what was on show before it."""

    lobby: LobbyScreen = LobbyScreen.MAIN
    """The screen the lobby shows."""
    picks: Mapping[int, tuple[str, int]] = field(default_factory=dict)
    """A person's first tap on a card: user → the card's code and the party's version it was made at (the hand
    shows that card's moves, and the timer plays it, while the party is at that version)."""
    reminders: Mapping[int, int] = field(default_factory=dict)
    """The «⏰ …, ваш ход!» on show: user → the party's version it reminds of (deleted once the turn is over)."""
    timer_move: int | None = None
    """The party's version after a move the timer made for a person (the table marks it «⏰ … сыграл бот»)."""

    def picked(self, user_id: int, version: int) -> str | None:
        """The card ``user_id`` picked at ``version`` of the party, if any."""
        found = self.picks.get(user_id)
        return found[0] if found is not None and found[1] == version else None

    def to_json(self) -> str | None:
        """The stored form (None when nothing is on show beyond the main screens)."""
        data: dict[str, Any] = {}
        if self.lobby is not LobbyScreen.MAIN:
            data["lobby"] = self.lobby.value
        if self.picks:
            data["picks"] = {str(user): [card, version] for user, (card, version) in self.picks.items()}
        if self.reminders:
            data["reminders"] = {str(user): version for user, version in self.reminders.items()}
        if self.timer_move is not None:
            data["timer_move"] = self.timer_move
        return json.dumps(data, separators=(",", ":"), sort_keys=True) if data else None

    @classmethod
    def from_json(cls, text: str | None) -> Screens:
        if not text:
            return cls()
        data = json.loads(text)
        return cls(
            lobby=LobbyScreen(data.get("lobby", LobbyScreen.MAIN)),
            picks={int(user): (str(card), int(v)) for user, (card, v) in data.get("picks", {}).items()},
            reminders={int(user): int(version) for user, version in data.get("reminders", {}).items()},
            timer_move=data.get("timer_move"),
        )


@dataclass(frozen=True, slots=True)
class Game:
    """One game in play (a lobby, a party being played, or one over), as its changes see it."""

    id: int
    kind: str
    mode: GameMode
    status: GameStatus
    chat_id: int
    """The group (a solo game: its player's private chat)."""
    thread_id: int
    """The forum topic (0: none)."""
    creator_id: int
    """Who runs the lobby (the host)."""
    options: Mapping[str, JSONValue]
    turn_timeout: int
    """Seconds a person has for a move in a group (0: no limit)."""
    lang: str
    created_at: float
    expires_at: float | None = None
    """When an unstarted lobby expires."""
    deadline: float | None = None
    """When the person to move runs out of time."""
    reminded: bool = False
    """The person to move was reminded before ``deadline``."""
    finished_at: float | None = None
    seats: tuple[Seat, ...] = ()
    users: Mapping[int, User] = field(default_factory=dict)
    """The people in the seats, as the bot knows them."""
    party: Party | None = None
    moves: tuple[Move, ...] = ()
    screens: Screens = field(default_factory=Screens)

    @property
    def key(self) -> str:
        """The game id as buttons and deep links carry it."""
        return str(self.id)

    @property
    def version(self) -> int:
        """Moves made so far (0 before the deal)."""
        return self.party.version if self.party is not None else 0

    @property
    def is_solo(self) -> bool:
        return self.mode is GameMode.SOLO

    @property
    def is_on(self) -> bool:
        """A party is being played: someone is to move."""
        return self.status is GameStatus.PLAYING and self.party is not None and not self.party.is_terminal

    @property
    def mover(self) -> Seat | None:
        """The seat to move (None when no party is on)."""
        return self.seats[self.party.current_player] if self.is_on and self.party is not None else None

    @property
    def timed(self) -> bool:
        """Whether anything in this game may fall due by itself: an open lobby's expiry, a turn's time limit, a
        bot player's move. A game that is not timed needs no timer until a change makes it so."""
        if self.status is GameStatus.LOBBY:
            return self.expires_at is not None
        mover = self.mover
        return mover is not None and (self.deadline is not None or mover.bot_plays)

    @property
    def timing(self) -> tuple[object, ...]:
        """What decides when something falls due in the game (a change that leaves it alone wakes no timer)."""
        mover = self.mover
        bot_plays = mover.bot_plays if mover is not None else None
        return self.status, self.version, self.deadline, self.reminded, self.expires_at, bot_plays

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    def user_of(self, seat: Seat) -> User | None:
        return self.users.get(seat.user_id) if seat.user_id is not None else None

    def reachable(self, seat: Seat) -> bool:
        """Whether the person of ``seat`` can be written to (a bot player's seat: no)."""
        user = self.user_of(seat)
        return user is not None and user.reachable

    def people(self) -> list[Seat]:
        """The seats of people (bot players' own seats left out), in order."""
        return [seat for seat in self.seats if seat.user_id is not None]


# === the events that change a game ===========================================================================


class Event:
    """Something that happened to a game."""

    kind: ClassVar[str] = ""
    """The stored name of an event people are told of (empty: never stored as such)."""

    def apply(self, game: Game) -> Game:
        """The game once this happened (``evolve``)."""
        return game


def evolve(game: Game, events: Iterable[Event]) -> Game:
    """The game after ``events``, in order."""
    for event in events:
        game = event.apply(game)
    return game


def _seat(game: Game, index: int, **changes: Any) -> tuple[Seat, ...]:
    seats = list(game.seats)
    seats[index] = dataclasses.replace(seats[index], **changes)
    return tuple(seats)


def _closed(game: Game, status: GameStatus, at: float) -> Game:
    """The game is over: no deadline runs, no reminder or pick stays on show."""
    screens = dataclasses.replace(game.screens, picks={}, reminders={})
    return dataclasses.replace(game, status=status, finished_at=at, deadline=None, screens=screens)


# --- a game begins -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opened(Event):
    """A new game: a lobby in a group, or a party against bot players dealt at once."""

    game: Game

    def apply(self, game: Game) -> Game:
        return self.game


@dataclass(frozen=True, slots=True)
class Seen(Event):
    """A person of the game as they are now (``started``: they opened the private chat: the bot may write to them)."""

    person: Person
    started: bool = False

    def apply(self, game: Game) -> Game:
        known = game.users.get(self.person.user_id) or User.first_seen(self.person)
        users = {**game.users, self.person.user_id: known.seen_as(self.person, started=self.started)}
        return dataclasses.replace(game, users=users)


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    """The bot may not write to this person (they blocked it, or never opened it)."""

    user_id: int

    def apply(self, game: Game) -> Game:
        known = game.users.get(self.user_id) or User(self.user_id, "")
        users = {**game.users, self.user_id: dataclasses.replace(known, blocked=True)}
        return dataclasses.replace(game, users=users)


# --- the lobby -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seated(Event):
    """Someone took the next seat: a person (``user_id``), or a bot player at ``level``."""

    user_id: int | None
    name: str
    level: str | None = None

    def apply(self, game: Game) -> Game:
        seat = Seat(len(game.seats), self.user_id, self.name, self.level)
        return dataclasses.replace(game, seats=(*game.seats, seat))


@dataclass(frozen=True, slots=True)
class Unseated(Event):
    """Lobby seat ``seat`` was left (or its bot player removed): the seats after it move up."""

    seat: int

    def apply(self, game: Game) -> Game:
        kept = [s for s in game.seats if s.seat != self.seat]
        seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(kept))
        return dataclasses.replace(game, seats=seats)


@dataclass(frozen=True, slots=True)
class OptionsSet(Event):
    options: Mapping[str, JSONValue]
    turn_timeout: int

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, options=dict(self.options), turn_timeout=self.turn_timeout)


@dataclass(frozen=True, slots=True)
class LobbyShows(Event):
    """The lobby's message turned to another screen (its settings, the bot players' levels, back)."""

    screen: LobbyScreen

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, screens=dataclasses.replace(game.screens, lobby=self.screen))


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """The party started: the empty seats filled with bot players at ``level`` (``bots`` of them), the cards dealt."""

    party: Party
    bots: int = 0
    level: str = ""

    def apply(self, game: Game) -> Game:
        seats = [*game.seats]
        seats += [Seat(len(seats) + i, None, "", self.level) for i in range(self.bots)]
        return dataclasses.replace(
            game,
            status=GameStatus.PLAYING,
            seats=tuple(seats),
            party=self.party,
            expires_at=None,
            screens=Screens(),
        )


@dataclass(frozen=True, slots=True)
class DeadlineSet(Event):
    """The person to move has until ``deadline`` (None: no limit now)."""

    deadline: float | None

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, deadline=self.deadline, reminded=False)


@dataclass(frozen=True, slots=True)
class Cancelled(Event):
    """The creator or an admin cancelled the game (``in_chat``: with /cancel, not the lobby's button)."""

    by: int
    at: float
    in_chat: bool = False
    rated: tuple[tuple[int, int, float, float, float, float], ...] = ()
    """A party under way cancelled by one of its own players counts as their loss: the people's ratings as
    :attr:`PartyEnded.rated` has them (empty: not rated)."""

    def apply(self, game: Game) -> Game:
        return _closed(game, GameStatus.CANCELLED, self.at)


@dataclass(frozen=True, slots=True)
class Expired(Event):
    """Nobody started the lobby in time."""

    at: float

    def apply(self, game: Game) -> Game:
        return _closed(game, GameStatus.EXPIRED, self.at)


@dataclass(frozen=True, slots=True)
class ChatMoved(Event):
    """The group became a supergroup with this id."""

    chat_id: int

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, chat_id=self.chat_id)


# --- play ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Moved(Event):
    """``seat`` played ``code`` (made by ``actor``); the party is now ``party``. The turn's reminder and any card
    picked are over."""

    seat: int
    code: str
    actor: Actor
    party: Party
    at: float

    def apply(self, game: Game) -> Game:
        screens = dataclasses.replace(
            game.screens,
            picks={},
            reminders={},
            timer_move=self.party.version if self.actor is Actor.AFK else None,
        )
        return dataclasses.replace(
            game,
            party=self.party,
            moves=(*game.moves, Move(self.code, self.seat, self.actor, self.at)),
            screens=screens,
        )


@dataclass(frozen=True, slots=True)
class Returned(Event):
    """The person of ``player`` tapped on their turn: their missed turns are forgotten, and a bot player that stood
    in for them gives the seat back."""

    player: int

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, seats=_seat(game, self.player, misses=0, replaced=False))


@dataclass(frozen=True, slots=True)
class Picked(Event):
    """A person tapped a card with two or more moves (or one that asks first): their hand shows its moves."""

    user_id: int
    card: str
    version: int

    def apply(self, game: Game) -> Game:
        picks = {**game.screens.picks, self.user_id: (self.card, self.version)}
        return dataclasses.replace(game, screens=dataclasses.replace(game.screens, picks=picks))


@dataclass(frozen=True, slots=True)
class Unpicked(Event):
    """«Другая карта»: the person's first tap forgotten."""

    user_id: int

    def apply(self, game: Game) -> Game:
        picks = {u: p for u, p in game.screens.picks.items() if u != self.user_id}
        return dataclasses.replace(game, screens=dataclasses.replace(game.screens, picks=picks))


@dataclass(frozen=True, slots=True)
class Reminded(Event):
    """The person of ``seat`` was reminded that their time runs out in ``seconds_left``."""

    seat: int
    seconds_left: int

    def apply(self, game: Game) -> Game:
        user_id = game.seats[self.seat].user_id
        reminders = dict(game.screens.reminders)
        if user_id is not None and game.reachable(game.seats[self.seat]):
            reminders[user_id] = game.version
        screens = dataclasses.replace(game.screens, reminders=reminders)
        return dataclasses.replace(game, reminded=True, screens=screens)


# --- told to people (stored as notices) -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealEnded(Event):
    """Deal number ``deal`` (from 1) was scored."""

    kind: ClassVar[str] = "deal_ended"
    deal: int


@dataclass(frozen=True, slots=True)
class PartyEnded(Event):
    """The party is over: each seat's result is written down, the game closed."""

    kind: ClassVar[str] = "party_ended"
    at: float = 0.0
    earned: tuple[tuple[int, str], ...] = ()
    """The achievements its people earned with it, each (seat, code), told with the result once: the pipeline
    fills it in from what they held before (``bot.ratings.achievements``) and stores them with the change."""
    rated: tuple[tuple[int, int, float, float, float, float], ...] = ()
    """Each person's place and skill rating before and after the party (seat, place, mu and sigma before, mu and
    sigma after), set as the party's end is stored (``bot.ratings``); empty: a party not rated."""

    def apply(self, game: Game) -> Game:
        outcome = game.party.outcome if game.party is not None else None
        seats = game.seats
        if outcome is not None:
            seats = tuple(
                dataclasses.replace(
                    seat,
                    score=outcome.scores[i],
                    won=i in outcome.winners,
                    settlement=outcome.settlement[i],
                )
                for i, seat in enumerate(seats)
            )
        return dataclasses.replace(_closed(game, GameStatus.FINISHED, self.at), seats=seats)


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The turn's time ran out and the bot played ``code`` for ``player`` (a missed turn)."""

    kind: ClassVar[str] = "timed_out"
    player: int
    code: str

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(
            game, seats=_seat(game, self.player, misses=game.seats[self.player].misses + 1)
        )


@dataclass(frozen=True, slots=True)
class SeatReplaced(Event):
    """After missed turns a bot player took over ``player``'s seat, having played ``code`` for them."""

    kind: ClassVar[str] = "seat_replaced"
    player: int
    code: str

    def apply(self, game: Game) -> Game:
        misses = game.seats[self.player].misses + 1
        return dataclasses.replace(game, seats=_seat(game, self.player, misses=misses, replaced=True))


@dataclass(frozen=True, slots=True)
class SeatBack(Event):
    """``player`` took their seat back from the bot player (``codes``: the moves made for them meanwhile)."""

    kind: ClassVar[str] = "seat_back"
    player: int
    codes: tuple[str, ...] = ()

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, seats=_seat(game, self.player, misses=0, replaced=False))


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """``player`` left with /leave: a bot player plays for them until they come back."""

    kind: ClassVar[str] = "seat_left"
    player: int

    def apply(self, game: Game) -> Game:
        return dataclasses.replace(game, seats=_seat(game, self.player, misses=0, replaced=True))


@dataclass(frozen=True, slots=True)
class StartBotFirst(Event):
    """The bot cannot write to ``player``: the group is asked to have them open the bot."""

    kind: ClassVar[str] = "start_bot_first"
    player: int


@dataclass(frozen=True, slots=True)
class RematchCalled(Event):
    """``player`` asked for a rematch: its lobby opened with the last party's players seated, who are called."""

    kind: ClassVar[str] = "rematch_called"
    player: int


@dataclass(frozen=True, slots=True)
class Abandoned(Event):
    """Nobody moved for ``days`` days: the game was closed (as cancelled: no result counts)."""

    kind: ClassVar[str] = "abandoned"
    days: int
    at: float = 0.0

    def apply(self, game: Game) -> Game:
        return _closed(game, GameStatus.CANCELLED, self.at)


Told = (
    DealEnded
    | PartyEnded
    | TimedOut
    | SeatReplaced
    | SeatBack
    | SeatLeft
    | StartBotFirst
    | RematchCalled
    | Abandoned
)
TOLD: dict[str, type[Told]] = {
    cls.kind: cls
    for cls in (
        DealEnded,
        PartyEnded,
        TimedOut,
        SeatReplaced,
        SeatBack,
        SeatLeft,
        StartBotFirst,
        RematchCalled,
        Abandoned,
    )
}
"""The events people are told of, by their stored name."""


def is_told(event: Event) -> bool:
    return bool(event.kind)


def dump_told(event: Event, seat: int | None) -> str:
    """A notice's stored form: the event, and the seat whose player it is for (None: the game's chat)."""
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}  # type: ignore[arg-type]
    fields.pop("at", None)
    return json.dumps({"kind": event.kind, **fields, "seat": seat}, separators=(",", ":"))


def _tupled(value: Any) -> Any:
    """A stored field as the event holds it: JSON's lists (nested ones too) as tuples."""
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


def load_told(text: str) -> tuple[Told, int | None]:
    """A stored notice's event and the seat it is for (ValueError on a row this code cannot read)."""
    data = json.loads(text)
    cls = TOLD.get(data.pop("kind", None)) if isinstance(data, dict) else None
    if cls is None:
        raise ValueError(f"an unknown event: {text!r}")
    seat = data.pop("seat", None)
    names = {f.name for f in dataclasses.fields(cls)}
    fields: dict[str, Any] = {k: _tupled(v) for k, v in data.items() if k in names}
    try:
        return cls(**fields), seat
    except TypeError:  # a field it needs is missing
        raise ValueError(f"an incomplete event: {text!r}") from None


# --- looks: what a person asked to see again (nothing changes, nothing is stored) ----------------------------------


@dataclass(frozen=True, slots=True)
class Shown(Event):
    """The game's messages drawn again as they are (a lobby cancelled while the bot was out of its group, back)."""


@dataclass(frozen=True, slots=True)
class HandAsked(Event):
    """The person's hand (or a solo game's screen) anew at the bottom of their private chat."""

    user_id: int


@dataclass(frozen=True, slots=True)
class TableCopyAsked(Event):
    """«📋 Стол»: the whole table, privately, to a player (one copy, sent anew below, that follows the table from
    then on)."""

    user_id: int


@dataclass(frozen=True, slots=True)
class TableAsked(Event):
    """The group's table (or lobby) anew at the bottom of its chat."""


@dataclass(frozen=True, slots=True)
class SheetAsked(Event):
    """The score sheet's picture anew below, in this chat (before the first deal's end: the table)."""

    chat_id: int
    thread_id: int = 0


@dataclass(frozen=True, slots=True)
class HistoryAsked(Event):
    """«📜 История»: the finished party as a text file, in this chat."""

    chat_id: int
    thread_id: int = 0
