"""Moves: a press checked against the game (player, turn, version) and the action applied to the party, with all
it causes — a missed turn counted, deals scored, the party's end, the next person's deadline — as events. Pure:
the pipeline stores them in one transaction and has them drawn."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from bot.flow.commands import Back, BotMove, Decided, Decision, FlowConfig, Pick, Play, Refusal, TakeSeat
from bot.i18n import translator_for
from bot.model.answers import Answer
from bot.model.game import (
    Actor,
    DeadlineSet,
    DealEnded,
    Event,
    Game,
    GameMode,
    GameStatus,
    Move,
    Moved,
    PartyEnded,
    Picked,
    Returned,
    Seat,
    SeatBack,
    SeatReplaced,
    Seen,
    TimedOut,
    Unpicked,
    evolve,
)
from bot.model.party import Party
from bot.views.common import bot_name, isolated, number_bots, seat_info
from engine.ai import Level
from engine.core import CommonIllegal, IllegalActionError, replay


def plain_name(seat: Seat, lang: str, seats: Iterable[Seat] = ()) -> str:
    """A seat's name as an answer names it (an unnamed bot player: its level's name, numbered as at the table
    when ``seats`` are given; a person whose name shows nothing: «Игрок», as the messages name them)."""
    shown = isolated(seat.name)
    if shown:
        return shown
    if not seat.is_bot:
        return translator_for(lang).t("player-nameless")
    numbered = number_bots(seat_info(s) for s in seats)
    number = numbered[seat.seat].number if seat.seat < len(numbered) else 0
    return bot_name(seat.bot_level or Level.NORMAL, number, translator_for(lang))


def turn_of(game: Game, user_id: int, version: int) -> Seat | Refusal:
    """The seat of ``user_id`` if it is theirs to move in the party at ``version``; else the refusal."""
    seat = game.seat_of(user_id)
    if seat is None:
        return Refusal(Answer.NOT_A_PLAYER)
    party = game.party
    if game.status is not GameStatus.PLAYING or party is None or party.is_terminal:
        return Refusal(Answer.STALE)
    if version != party.version:
        return Refusal(Answer.OLD_DEAL if is_earlier_deal(party, version) else Answer.STALE)
    if party.current_player != seat.seat:
        current = game.seats[party.current_player]
        name = plain_name(current, game.lang, game.seats)
        return Refusal(CommonIllegal.NOT_YOUR_TURN, {"name": name})
    return seat


def is_earlier_deal(party: Party, version: int) -> bool:
    """Whether the party at ``version`` (a message's buttons) was in a deal that has ended since, and not by the
    move made from there (a second tap on a deal's last card is a move made already): its record up to that
    move replayed (only for a press that came late)."""
    if not 0 <= version < party.version:
        return False
    record = party.record()
    if len(record.actions) != party.version:  # a party that does not start from its first move
        return False
    after = replay(replace(record, actions=record.actions[: version + 1]))
    return after.deals_completed < party.deals_completed


def _back_at_the_table(seat: Seat) -> tuple[Event, ...]:
    """A person's own tap on their turn takes their seat back from the bot player that stood in."""
    return (Returned(seat.seat),) if seat.replaced or seat.misses else ()


def pick(command: Pick, game: Game, now: float, config: FlowConfig) -> Decision:
    """The first tap on a card: a card that can do one thing plays it at once; one with two or more moves shows
    them (they become the second tap's buttons), as does a card whose one move asks first («🏁 Прикончить!»)."""
    seat = turn_of(game, command.person.user_id, command.version)
    if isinstance(seat, Refusal):
        return seat
    party = game.party
    assert party is not None
    actions = party.actions_of_card(seat.seat, command.card)
    if not actions:
        refusal = party.refusal(command.card)
        return Refusal.of(refusal) if refusal is not None else Refusal(CommonIllegal.NOT_LEGAL)
    if len(actions) == 1 and not party.asks(command.card):
        return apply(game, seat, actions[0], Actor.PLAYER, now, config)
    events: list[Event] = [
        *_back_at_the_table(seat),
        Picked(command.person.user_id, command.card, party.version),
    ]
    if seat.replaced:  # the bot player no longer moves for them: their turn runs on the game's time again
        events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))


def back(command: Back, game: Game, now: float, config: FlowConfig) -> Decision:
    """«Другая карта»: the first tap forgotten. A person's own tap on their turn takes the seat back from a bot
    player that stood in for them (they left with /leave after a first tap): their turn runs on the game's time."""
    seat = turn_of(game, command.person.user_id, command.version)
    if isinstance(seat, Refusal):
        return seat
    events: list[Event] = [*_back_at_the_table(seat), Unpicked(command.person.user_id)]
    if seat.replaced:
        events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))


def play(command: Play, game: Game, now: float, config: FlowConfig) -> Decision:
    """Play ``view.legal_actions[index]`` of the party at ``version``."""
    seat = turn_of(game, command.person.user_id, command.version)
    if isinstance(seat, Refusal):
        return seat
    return apply(game, seat, command.index, Actor.PLAYER, now, config)


def bot_move(command: BotMove, game: Game, now: float, config: FlowConfig) -> Decision:
    """The bot's move for ``seat`` (nothing, if the party moved on meanwhile). For a person whose time ran out,
    the card they had picked with a first tap is the one played (its best move)."""
    party = game.party
    if not game.is_on or party is None or party.version != command.version:
        return Decided()
    if party.current_player != command.seat:
        return Decided()
    seat = game.seats[command.seat]
    actor = Actor.BOT if seat.bot_plays else Actor.AFK
    index = party.index_of(command.action)
    card = game.screens.picked(seat.user_id, party.version) if actor is Actor.AFK and seat.user_id else None
    moves = party.actions_of_card(seat.seat, card) if card is not None else []
    if moves and index not in moves:
        index = moves[0]
    return apply(game, seat, index, actor, now, config)


def apply(game: Game, seat: Seat, index: int, actor: Actor, now: float, config: FlowConfig) -> Decision:
    """Action number ``index`` of ``seat`` (the player to move), with what it causes: a missed turn counted (the
    seat handed to a bot player after ``afk_strikes`` in a row), the deals it ended scored, the party's end or
    the next person's deadline."""
    party = game.party
    assert party is not None
    try:
        after, code = party.after(index)
    except IndexError:
        return Refusal(Answer.STALE)
    except IllegalActionError as exc:
        return Refusal.of(exc)
    events: list[Event] = [*_back_at_the_table(seat)] if actor is Actor.PLAYER else []
    events.append(Moved(seat.seat, code, actor, after, now))
    if actor is Actor.AFK:
        replaced = seat.misses + 1 >= config.afk_strikes
        events.append(SeatReplaced(seat.seat, code) if replaced else TimedOut(seat.seat, code))
    last = after.deals_completed - 1 if after.is_terminal else after.deals_completed
    events += [DealEnded(deal) for deal in range(party.deals_completed + 1, last + 1)]
    if after.is_terminal:
        events.append(PartyEnded(now))
    else:
        events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))


def played_for(moves: Iterable[Move], seat: int) -> tuple[str, ...]:
    """The moves a bot player (or the timer) made for ``seat`` since its person's own last one."""
    codes: list[str] = []
    for move in reversed(tuple(moves)):
        if move.seat == seat and move.actor is Actor.PLAYER:
            break
        if move.seat == seat:
            codes.append(move.code)
    return tuple(reversed(codes))


def take_seat(command: TakeSeat, game: Game, now: float, config: FlowConfig) -> Decision:
    """A player replaced by a bot player after missed turns (or /leave) plays again: the group is told, and they
    are told the moves made for them meanwhile."""
    person = command.person
    if game.status is not GameStatus.PLAYING:
        return Refusal(Answer.NO_GAME)
    seat = game.seat_of(person.user_id)
    if seat is None:
        return Refusal(Answer.NOT_A_PLAYER)
    if not seat.replaced:
        return Refusal(Answer.ALREADY_IN_GAME)
    events: list[Event] = [Seen(person), SeatBack(seat.seat, played_for(game.moves, seat.seat))]
    # their own turn gets its time; another person's turn keeps the time it has (and its reminder)
    if game.mover is not None and game.mover.seat == seat.seat:
        events += deadline_of(evolve(game, events), now, config)
    return Decided(tuple(events))  # no toast: their chat's notice says it, with the moves made for them


def deadline_of(game: Game, now: float, config: FlowConfig) -> tuple[DeadlineSet, ...]:
    """The time the person to move in ``game`` (as a change left it) gets: a group game's limit per turn — or,
    for a person the bot cannot write to, a limit even where the game has none, so they never hold it up."""
    party = game.party
    if game.mode is not GameMode.GROUP or party is None:
        return ()
    deadline: float | None = None
    mover = game.mover
    if mover is not None:
        limit = float(game.turn_timeout)
        if mover.user_id is not None and not limit:
            user = game.users.get(mover.user_id)
            if user is not None and not user.reachable:
                limit = float(config.turn_timeout or 60)
        if not mover.bot_plays and limit:
            deadline = now + limit
    if deadline != game.deadline or game.reminded:
        return (DeadlineSet(deadline),)
    return ()
