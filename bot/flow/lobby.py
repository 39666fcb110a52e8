"""The lobby's decisions: opening a game (in a group, or solo against bot players), taking and leaving seats, bot
players, options and screens, the start, cancelling, the rematch of a finished game and the end of a lobby nobody
started. Each is a pure function of the command, the game and what was loaded for it: its events, or a refusal."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.flow.commands import (
    AddBot,
    Cancel,
    Decided,
    Decision,
    FlowConfig,
    Join,
    LeaveLobby,
    OpenLobby,
    Refusal,
    Rematch,
    RemoveBot,
    SetOption,
    ShowScreen,
    Start,
    StartSolo,
)
from bot.flow.moves import deadline_of
from bot.games import plugin_of
from bot.i18n import locale_for, translator
from bot.model.answers import Answer
from bot.model.game import (
    TURN_TIME_KEY,
    Abandoned,
    Cancelled,
    Dealt,
    Expired,
    Game,
    GameMode,
    GameStatus,
    LobbyScreen,
    LobbyShows,
    Opened,
    OptionsSet,
    RematchCalled,
    Seat,
    Seated,
    Seen,
    Unseated,
    User,
)
from engine.ai import Level
from engine.core import JSONValue


@dataclass(frozen=True, slots=True)
class Opening:
    """What opening a game reads of its chat and its people: the new game's id, when, whether the bot may post
    there, the chat's active game (its status), the host's open lobbies, the people who sit down as the bot knows
    them (the creator, a rematch's players), and the language the chat chose."""

    game_id: int
    now: float
    refused: bool = False
    running: GameStatus | None = None
    open_lobbies: int = 0
    users: Mapping[int, User] = field(default_factory=dict)
    lang: str | None = None
    saved: tuple[Mapping[str, JSONValue], int] | None = None
    """The chat's own settings for a new lobby of this game (/settings): its options and seconds per turn."""


def lobby_or_game(status: GameStatus) -> Answer:
    """Why nothing new opens in a chat whose game has ``status``: its lobby is open, or its party is on."""
    return Answer.LOBBY_OPEN if status is GameStatus.LOBBY else Answer.GAME_RUNNING


def open_lobby(command: OpenLobby, opening: Opening, config: FlowConfig) -> Decision:
    """A new lobby in a group; the creator sits down at once if the bot may already write to them (a rematch's
    lobby: the last party's seats)."""
    plugin = plugin_of(command.kind)
    creator = command.creator
    host = creator.user_id if command.host is None else command.host
    if opening.refused:
        return Refusal(Answer.UNKNOWN)  # the bot cannot post there: a lobby nobody sees would block the chat
    if opening.running is not None:
        return Refusal(lobby_or_game(opening.running))
    if opening.open_lobbies >= config.max_open_lobbies:
        return Refusal(Answer.TOO_MANY_LOBBIES)
    stored = opening.users.get(creator.user_id)
    known = stored.seen_as(creator) if stored is not None else User.first_seen(creator)
    if command.seats:
        taken = [
            Seat(i, s.user_id, s.name, s.level) for i, s in enumerate(command.seats[: plugin.max_players])
        ]
    elif known.reachable:
        taken = [Seat(0, creator.user_id, creator.name)]
    else:
        taken = []
    game = Game(
        id=opening.game_id,
        kind=plugin.kind,
        mode=GameMode.GROUP,
        status=GameStatus.LOBBY,
        chat_id=command.chat_id,
        thread_id=command.thread_id,
        creator_id=host,
        options=_options(command, opening, config),
        turn_timeout=_turn_timeout(command, opening, config),
        lang=opening.lang or locale_for(creator.lang).value,
        created_at=opening.now,
        expires_at=opening.now + config.lobby_ttl,
        seats=tuple(taken),
        users={**{u: opening.users[u] for u in _people(taken) if u in opening.users}, creator.user_id: known},
    )
    events: list[Opened | Seen | RematchCalled] = [Opened(game), Seen(creator)]
    caller = next((s for s in taken if s.user_id == creator.user_id), None)
    if command.seats and caller is not None and any(s.user_id not in (None, creator.user_id) for s in taken):
        events.append(RematchCalled(caller.seat))  # the others called, by name, in the group
    return Decided(tuple(events))


def _options(command: OpenLobby, opening: Opening, config: FlowConfig) -> dict[str, JSONValue]:
    """A new lobby's options: a rematch's are the last party's; else the game's defaults with the chat's saved
    settings over them (only the settings the game still has), and /new's choice (what its choices differ in)
    over those."""
    if command.seats and command.options:
        return command.options
    plugin = plugin_of(command.kind)
    if opening.saved is None:
        return command.options or plugin.default_options(config.default_target)
    defaults = plugin.default_options(config.default_target)
    options = {**defaults, **{key: value for key, value in opening.saved[0].items() if key in defaults}}
    if command.options:
        target = config.default_target
        chosen = [plugin.new_options(choice, target) for _, choice in plugin.new_choices(translator())]
        differ = [key for key in command.options if len({json.dumps(c.get(key)) for c in chosen}) > 1]
        options.update({key: command.options[key] for key in differ})
    return options


def _turn_timeout(command: OpenLobby, opening: Opening, config: FlowConfig) -> int:
    """A rematch's own time per turn, else the chat's saved one, else the bot's."""
    if command.turn_timeout is not None:
        return command.turn_timeout
    return opening.saved[1] if opening.saved is not None else config.turn_timeout


def _people(seats: Sequence[Seat]) -> list[int]:
    return [s.user_id for s in seats if s.user_id is not None]


def start_solo(command: StartSolo, opening: Opening, seed: int, config: FlowConfig) -> Decision:
    """A private game against ``opponents`` bot players, dealt at once."""
    plugin = plugin_of(command.kind)
    person = command.person
    if command.opponents not in plugin.solo_opponents:
        return Refusal(Answer.UNKNOWN)
    if opening.running is not None:
        return Refusal(Answer.GAME_RUNNING)
    options = command.options or plugin.default_options(config.default_target)
    seats = [Seat(0, person.user_id, person.name)]
    seats += [Seat(i + 1, None, "", command.level.value) for i in range(command.opponents)]
    game = Game(
        id=opening.game_id,
        kind=plugin.kind,
        mode=GameMode.SOLO,
        status=GameStatus.PLAYING,
        chat_id=person.user_id,
        thread_id=0,
        creator_id=person.user_id,
        options=options,
        turn_timeout=0,
        lang=locale_for(person.lang).value,
        created_at=opening.now,
        seats=tuple(seats),
        users={person.user_id: User.first_seen(person)},
        party=plugin.new_party(options, command.opponents + 1, seed),
    )
    return Decided((Opened(game), Seen(person, started=True)))


def rematch(command: Rematch, finished: Game | None) -> OpenLobby | StartSolo | Refusal:
    """What a rematch of a finished game opens: its players and options again — a group's lobby (its host runs
    it, whoever taps «🔁 Реванш» first, if the host played), or a solo game against the same bot players."""
    person = command.person
    if finished is None:
        return Refusal(Answer.NO_GAME)
    if finished.seat_of(person.user_id) is None:
        return Refusal(Answer.NOT_A_PLAYER)
    if finished.status.is_active:
        return Refusal(lobby_or_game(finished.status))
    if finished.status is not GameStatus.FINISHED:
        return Refusal(Answer.NO_GAME)  # a cancelled or expired game has no «Реванш»: only a forged press
    options = {k: v for k, v in finished.options.items() if k != "players"}
    if finished.mode is GameMode.SOLO:
        bots = [s for s in finished.seats if s.is_bot]
        level = bots[0].plays_at if bots else Level.NORMAL
        return StartSolo(person, finished.kind, len(bots), level, options)
    host = finished.creator_id if finished.seat_of(finished.creator_id) is not None else person.user_id
    return OpenLobby(
        finished.chat_id,
        finished.thread_id,
        person,
        finished.kind,
        options,
        seats=finished.seats,
        host=host,
        turn_timeout=finished.turn_timeout,
    )


def join(command: Join, game: Game, member: bool | None) -> Decision:
    """A seat in the lobby, for a member of its group (``member``: what Telegram said; None: it could not be
    asked)."""
    person = command.person
    if game.mode is GameMode.GROUP and game.status is GameStatus.LOBBY and member is not True:
        return Refusal(Answer.CANNOT_CHECK if member is None else Answer.NOT_IN_GROUP)
    seated = game.seat_of(person.user_id) is not None
    if game.status is GameStatus.PLAYING:
        return Decided(answer=Answer.ALREADY_JOINED) if seated else Refusal(Answer.GAME_RUNNING)
    if game.status is not GameStatus.LOBBY:
        return Refusal(Answer.LOBBY_CLOSED)  # expired, cancelled or long over
    if seated:
        return Decided(answer=Answer.ALREADY_JOINED)
    if len(game.seats) >= plugin_of(game.kind).max_players:
        return Refusal(Answer.LOBBY_FULL)
    return Decided((Seen(person, started=True), Seated(person.user_id, person.name)), Answer.JOINED)


def _lobby(game: Game) -> Refusal | None:
    return None if game.status is GameStatus.LOBBY else Refusal(Answer.STALE)


def _creators(game: Game, user_id: int) -> Refusal | None:
    """Why ``user_id`` may not change the lobby (only its creator may), if they may not."""
    refusal = _lobby(game)
    if refusal is None and user_id != game.creator_id:
        refusal = Refusal(Answer.NOT_CREATOR)
    return refusal


def leave_lobby(command: LeaveLobby, game: Game) -> Decision:
    refusal = _lobby(game)
    if refusal is not None:
        return refusal
    seat = game.seat_of(command.person.user_id)
    if seat is None:
        return Refusal(Answer.NOT_A_PLAYER)
    return Decided((Unseated(seat.seat),), Answer.LEFT)


def add_bot(command: AddBot, game: Game) -> Decision:
    try:
        level = Level(command.level)
    except ValueError:
        return Refusal(Answer.UNKNOWN)
    refusal = _creators(game, command.person.user_id)
    if refusal is not None:
        return refusal
    if len(game.seats) >= plugin_of(game.kind).max_players:
        return Refusal(Answer.LOBBY_FULL)
    return Decided((Seated(None, "", level.value), LobbyShows(LobbyScreen.MAIN)), Answer.BOT_ADDED)


def remove_bot(command: RemoveBot, game: Game) -> Decision:
    """The creator takes the bot player in lobby seat ``seat`` away (the bot players' screen stays while any
    is left)."""
    try:
        index = int(command.seat)
    except ValueError:
        return Refusal(Answer.UNKNOWN)
    refusal = _creators(game, command.person.user_id)
    if refusal is not None:
        return refusal
    if not 0 <= index < len(game.seats) or not game.seats[index].is_bot:
        return Refusal(Answer.STALE)
    left = [s for s in game.seats if s.seat != index]
    shows = () if any(s.is_bot for s in left) else (LobbyShows(LobbyScreen.MAIN),)
    return Decided((Unseated(index), *shows), Answer.BOT_REMOVED)


def show_screen(command: ShowScreen, game: Game) -> Decision:
    """The lobby's message turns to its main, settings or bot-level screen (the last two: its creator's)."""
    refusal = _lobby(game)
    if refusal is None and command.screen in (LobbyScreen.SETTINGS, LobbyScreen.BOT_LEVEL):
        refusal = _creators(game, command.person.user_id)
    return refusal or Decided((LobbyShows(command.screen),))


def set_option(command: SetOption, game: Game) -> Decision:
    refusal = _creators(game, command.person.user_id)
    if refusal is not None:
        return refusal
    options, turn_timeout = dict(game.options), game.turn_timeout
    try:
        if command.key == TURN_TIME_KEY:
            turn_timeout = int(command.value)
            if not 0 <= turn_timeout <= 3600:
                raise ValueError("turn time out of range")
        else:
            options = plugin_of(game.kind).set_option(options, command.key, command.value)
    except ValueError:
        return Refusal(Answer.UNKNOWN)
    return Decided((OptionsSet(options, turn_timeout),), Answer.SETTING_SAVED)


def start(command: Start, game: Game, seed: int, now: float, config: FlowConfig) -> Decision:
    """The creator starts the party: the seats are fixed (a game that fills with bot players fills them), the
    engine deals from ``seed``."""
    refusal = _creators(game, command.person.user_id)
    if refusal is not None:
        return refusal
    plugin = plugin_of(game.kind)
    players = len(game.seats)
    if players < plugin.min_players:
        return Refusal(Answer.NOT_ENOUGH_PLAYERS, {"count": plugin.min_players})
    empty = plugin.max_players - players if plugin.fills_with_bots else 0
    dealt = Dealt(plugin.new_party(game.options, players + empty, seed), empty, Level.NORMAL.value)
    deadline = deadline_of(dealt.apply(game), now, config)
    return Decided((dealt, *deadline))


@dataclass(frozen=True, slots=True)
class Rights:
    """Whether the person is an admin of ``chat_id``, as Telegram said (None: it could not be asked)."""

    chat_id: int
    is_admin: bool | None


def cancel(command: Cancel, game: Game, rights: Rights | None, now: float) -> Decision:
    """The creator, or an admin of the game's own chat (``rights``, asked of Telegram beforehand), cancels it."""
    person = command.person
    if not game.status.is_active:
        return Refusal(Answer.NO_GAME)
    if person.user_id != game.creator_id:
        if game.mode is not GameMode.GROUP or rights is None or rights.chat_id != game.chat_id:
            # a solo game is its player's; a group that moved meanwhile had the rights checked in the old chat
            return Refusal(Answer.NOT_CREATOR_OR_ADMIN)
        if rights.is_admin is None:
            return Refusal(Answer.CANNOT_CHECK_RIGHTS)
        if not rights.is_admin:
            return Refusal(Answer.NOT_CREATOR_OR_ADMIN)
    return Decided((Cancelled(person.user_id, now, in_chat=command.game_id is None),), Answer.GAME_CANCELLED)


def expire(game: Game, now: float) -> Decision:
    """A game's timer: the lobby nobody started in time closes (nothing, if it is no open lobby then)."""
    if game.status is not GameStatus.LOBBY or game.expires_at is None or game.expires_at > now:
        return Decided()
    return Decided((Expired(now),))


def close_hidden_lobby(game: Game, now: float) -> Decision:
    """The bot was removed from the lobby's group: nobody could see or join it, so it is cancelled."""
    if game.status is not GameStatus.LOBBY:
        return Decided()
    return Decided((Cancelled(0, now),))


def abandon(game: Game, idle_for: float, now: float) -> Decision:
    """A party without a move for ``idle_for`` (a solo game its player never came back to, a group game everyone
    left) is closed as cancelled (no result counts); its chat is told why."""
    if game.status is not GameStatus.PLAYING:
        return Decided()
    return Decided((Abandoned(max(1, round(idle_for / 86400)), now),))
