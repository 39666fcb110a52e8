"""Games built in memory for the flow's decisions: a lobby, a group party of two or three people, a solo party
against bot players, a Кинг party, a hand-built Кончинка or Кинг position, people the bot may or may not write to,
a seat a bot player stands in for — and small readers of what a decision came to.

Nothing here touches SQLite, aiogram's dispatcher, asyncio or Telegram: a test calls a decision (a pure function
of ``bot.flow``) with one of these games and reads its events, its answer or its refusal."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any, cast

from bot.flow.commands import Decided, Decision, FlowConfig, Refusal
from bot.games import plugin_of

# a hand-built engine position is paired with its plug-in as new_party pairs a dealt one
from bot.games.base import _Party
from bot.games.king import KING
from bot.games.konchinka import KONCHINKA
from bot.model.game import Event, Game, GameMode, GameStatus, Person, Seat, User, evolve
from bot.model.party import Party
from engine.ai import Level
from engine.cards import PIQUET_DECK, parse_cards
from engine.core import JSONValue
from engine.king import Contract, KingState, KingView
from engine.konchinka import KonchinkaGame, KonchinkaOptions, KonchinkaView
from engine.konchinka.state import KonchinkaState

GAME_ID = 41
GROUP = -100_500
"""The group the games are played in."""
OTHER_GROUP = -100_777
NOW = 1_000_000.0
"""The bot's clock when a decision is asked."""
SEED = 2
"""A deal where seat 0 moves first (two players: К♦ 2♠ 5♠ Д♠ against 10♦ 3♣ 2♥ 7♣ on the table)."""
TURN_START = NOW - 10
"""When the person to move got their turn (a game built here gives them the turn's limit from then)."""
CONFIG = FlowConfig()
"""The flow's settings: a lobby lives 1800 s, a turn has 60 s, the reminder comes 15 s before, two missed turns
hand the seat over, a bot player pauses 1 s."""

ANNA = Person(101, "Аня", lang="ru")
BORIS = Person(102, "Борис", lang="ru")
VERA = Person(103, "Вера", lang="ru")
GLEB = Person(104, "Глеб", lang="ru")
STRANGER = Person(199, "Чужой", lang="ru")
PEOPLE = {p.user_id: p for p in (ANNA, BORIS, VERA, GLEB, STRANGER)}


# --- people --------------------------------------------------------------------------------------------------


def user(person: Person, *, started: bool = True, blocked: bool = False) -> User:
    """A person as the bot knows them (by default: they opened the private chat and did not block it)."""
    return User(person.user_id, person.name, person.username, person.lang, started, blocked)


def users_of(people: Sequence[Person], unreachable: Collection[Person] = ()) -> dict[int, User]:
    """The game's people; those in ``unreachable`` never opened the bot."""
    return {p.user_id: user(p, started=p not in unreachable) for p in people}


def seats_of(people: Sequence[Person], bots: Sequence[Level] = ()) -> tuple[Seat, ...]:
    """The people's seats in order, then unnamed bot players at their levels."""
    seats = [Seat(i, p.user_id, p.name) for i, p in enumerate(people)]
    seats += [Seat(len(seats) + i, None, "", level.value) for i, level in enumerate(bots)]
    return tuple(seats)


# --- games ---------------------------------------------------------------------------------------------------


def in_lobby(
    *people: Person,
    creator: Person | None = None,
    kind: str = "konchinka",
    bots: Sequence[Level] = (),
    unreachable: Collection[Person] = (),
    turn_timeout: int = 60,
    options: Mapping[str, JSONValue] | None = None,
) -> Game:
    """An open lobby in :data:`GROUP` with ``people`` seated (its creator: the first of them, else Аня), opened a
    minute ago."""
    host = creator or (people[0] if people else ANNA)
    everyone = [host, *(p for p in people if p != host)]
    return Game(
        id=GAME_ID,
        kind=kind,
        mode=GameMode.GROUP,
        status=GameStatus.LOBBY,
        chat_id=GROUP,
        thread_id=0,
        creator_id=host.user_id,
        options=dict(options) if options is not None else plugin_of(kind).default_options(None),
        turn_timeout=turn_timeout,
        lang="ru",
        created_at=NOW - 60,
        expires_at=NOW - 60 + CONFIG.lobby_ttl,
        seats=seats_of(people, bots),
        users=users_of(everyone, unreachable),
    )


def group_party(
    *people: Person,
    kind: str = "konchinka",
    bots: Sequence[Level] = (),
    seed: int = SEED,
    party: Party | None = None,
    turn_timeout: int = 60,
    unreachable: Collection[Person] = (),
) -> Game:
    """A group party being played by ``people`` (and ``bots``; a Кинг party filled up to four with «любитель»),
    dealt from ``seed`` unless a hand-built ``party`` is given; the person to move has had the turn since
    :data:`TURN_START`."""
    game = in_lobby(*people, kind=kind, bots=bots, unreachable=unreachable, turn_timeout=turn_timeout)
    plugin = plugin_of(kind)
    seats = game.seats
    if plugin.fills_with_bots:
        seats = seats_of(people, [*bots, *[Level.NORMAL] * (plugin.max_players - len(seats))])
    dealt = party if party is not None else plugin.new_party(game.options, len(seats), seed)
    game = dataclasses.replace(
        game, status=GameStatus.PLAYING, expires_at=None, created_at=NOW - 600, seats=seats, party=dealt
    )
    return with_deadline(game)


def solo_party(
    person: Person = ANNA,
    *,
    kind: str = "konchinka",
    opponents: int = 1,
    level: Level = Level.NORMAL,
    seed: int = SEED,
    party: Party | None = None,
) -> Game:
    """``person``'s private party against ``opponents`` bot players at ``level`` (no limit per turn)."""
    plugin = plugin_of(kind)
    seats = seats_of([person], [level] * opponents)
    return Game(
        id=GAME_ID,
        kind=kind,
        mode=GameMode.SOLO,
        status=GameStatus.PLAYING,
        chat_id=person.user_id,
        thread_id=0,
        creator_id=person.user_id,
        options=plugin.default_options(None),
        turn_timeout=0,
        lang="ru",
        created_at=NOW - 600,
        seats=seats,
        users=users_of([person]),
        party=party
        if party is not None
        else plugin.new_party(plugin.default_options(None), len(seats), seed),
    )


def with_deadline(game: Game) -> Game:
    """``game`` with the deadline its rules give the person to move: the turn's limit from :data:`TURN_START`
    (none for a bot player, or in a game without a limit)."""
    mover = game.mover
    limited = mover is not None and not mover.bot_plays and game.turn_timeout > 0
    return dataclasses.replace(
        game, deadline=TURN_START + game.turn_timeout if limited else None, reminded=False
    )


def finished(game: Game, party: Party | None = None) -> Game:
    """``game`` over: its party (a party finished by «🏁 Прикончить!» unless one is given) played to the end."""
    over = party if party is not None else finished_party(len(game.seats))
    assert over.is_terminal
    return dataclasses.replace(
        game, status=GameStatus.FINISHED, party=over, deadline=None, finished_at=NOW - 5, expires_at=None
    )


def closed(game: Game, status: GameStatus) -> Game:
    """``game`` cancelled or expired a while ago."""
    return dataclasses.replace(game, status=status, deadline=None, finished_at=NOW - 5)


def with_seat(game: Game, index: int, **changes: Any) -> Game:
    seats = list(game.seats)
    seats[index] = dataclasses.replace(seats[index], **changes)
    return dataclasses.replace(game, seats=tuple(seats))


def replaced(game: Game, person: Person) -> Game:
    """A bot player stands in for ``person`` (after missed turns, or /leave); no deadline runs for their seat."""
    seat = game.seat_of(person.user_id)
    assert seat is not None
    return with_deadline(with_seat(game, seat.seat, replaced=True, misses=CONFIG.afk_strikes))


def with_user(game: Game, person: Person, **changes: Any) -> Game:
    users = dict(game.users)
    users[person.user_id] = dataclasses.replace(users.get(person.user_id) or user(person), **changes)
    return dataclasses.replace(game, users=users)


def to_move(game: Game) -> Person:
    """The person whose turn it is."""
    mover = game.mover
    assert mover is not None and mover.user_id is not None, "a person is to move"
    return PEOPLE[mover.user_id]


def table_of(game: Game) -> list[str]:
    """The cards on a Кончинка table."""
    assert game.party is not None
    view = cast("KonchinkaView", game.party.view_of(0))
    return [card.code for card in view.table]


def hand_of(game: Game, seat: int) -> list[str]:
    """The cards of a seat's hand."""
    assert game.party is not None
    view = cast("KonchinkaView | KingView", game.party.view_of(seat))
    return [card.code for card in view.hand]


def version(game: Game) -> int:
    assert game.party is not None
    return game.party.version


# --- hand-built positions ------------------------------------------------------------------------------------


def konchinka(
    *hands: str,
    table: str = "",
    deck: str = "",
    captured: Sequence[str] | None = None,
    tally: Sequence[Sequence[int]] | None = None,
    to_move: int = 0,
    target: int = 15,
    version: int = 0,
) -> Party:
    """A Кончинка position: each seat's hand (``"5s Kd"``), the table, the deck (top first), the piles of this
    deal, each seat's running totals of the deals before (the deal in play is the next one)."""
    game = KonchinkaGame(KonchinkaOptions(players=len(hands), target=target))
    state = KonchinkaState.from_position(
        game,
        hands=[parse_cards(h) for h in hands],
        table=parse_cards(table),
        deck=parse_cards(deck),
        captured=[parse_cards(c) for c in captured] if captured is not None else None,
        tally=tally,
        current_player=to_move,
        deal_number=len(tally[0]) + 1 if tally else 1,
        version=version,
    )
    return _Party(KONCHINKA, state)


def finish_position(players: int = 2) -> Party:
    """Seat 0 at 13 of 15 holds both кончинки (2♣ and 10♦) in its pile: «🏁 Прикончить!» is offered, and 10♠ may
    take the 10♥ on the table and finish in one move."""
    hands = ["Ts 5h", *["Kd Qd", "Kc Qc", "Kh Qh"][: players - 1]]
    captured = ["2c Td", *[""] * (players - 1)]
    tally = [[13], *[[5]] * (players - 1)]
    return konchinka(*hands, table="Th 4s", deck="9c 9d 9h 9s", captured=captured, tally=tally)


def finished_party(players: int = 2) -> Party:
    """A party seat 0 won by finishing early (15 against 5)."""
    party = finish_position(players)
    (index,) = party.actions_of_card(0, "f")
    over, _ = party.after(index)
    return over


def king_mockup() -> Party:
    """«не брать кинга» (the mockup): Вера (seat 2) led 9♦, seat 3 played В♦; seat 0 holds two diamonds (10♦,
    7♦), A♠ 8♠, K♥ and three clubs, and must follow suit."""
    anna = parse_cards("As 8s Kh Td 7d Qc 9c 7c")
    trick = parse_cards("9d Jd")
    rest = [c for c in PIQUET_DECK if c not in anna and c not in trick]
    hands = [anna, rest[:8], rest[8:15], rest[15:22]]
    state = KingState.from_position(
        hands, contract=Contract.NO_KING, dealer=1, leader=2, trick=[(2, trick[0]), (3, trick[1])]
    )
    return _Party(KING, state)


def king_last_trick() -> Party:
    """The last trick of the first deal («не брать взяток»): seats 1–3 have played, seat 0 plays its last card."""
    last = parse_cards("As 7h 8h 9h")
    hands = [[last[0]], [], [], []]
    state = KingState.from_position(
        hands,
        contract=Contract.NO_TRICKS,
        dealer=0,
        leader=1,
        trick=[(1, last[1]), (2, last[2]), (3, last[3])],
        tricks_done=7,
    )
    return _Party(KING, state)


# --- what a decision came to -------------------------------------------------------------------------------------


def events(decision: object) -> tuple[Event, ...]:
    """The events of a decision that was not refused."""
    assert isinstance(decision, Decided), decision
    return decision.events


def refused(decision: object) -> Refusal:
    assert isinstance(decision, Refusal), decision
    return decision


def after(game: Game, decision: Decision) -> Game:
    """The game once the decision's events happened."""
    return evolve(game, events(decision))


def nothing(decision: object) -> bool:
    """The decision changed nothing and said nothing."""
    return decision == Decided()
