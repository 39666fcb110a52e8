"""Moves: a press checked against the game (player, turn, version), the action applied to a copy of the party,
and the move stored with all its effects in the unit of work's one transaction.

A move returns what happened (a :class:`Change`); it wakes nobody — the service has the change drawn and pokes
the game's timer.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.flow.commands import Back, Person, Pick, Play, Pressed, ServiceConfig, ServiceError, TakeSeat
from bot.flow.events import DealEnded, PartyEnded, SeatBack, SeatReplaced, TimedOut
from bot.flow.store import Change, Match, Store, Unit
from bot.games.base import Party
from bot.i18n import translator_for
from bot.storage import Actor, GameMode, GameStatus, Notice, SeatRow, repo
from bot.views import Answer
from bot.views.common import bot_name, isolated, number_bots, seat_info
from engine.ai import Level
from engine.core import CommonIllegal, IllegalActionError

log = logging.getLogger(__name__)


def _adopted(person: Person, pressed: Pressed | None) -> tuple[int, int] | None:
    """A press in the person's private chat at the party's current version: that message may be their hand."""
    if pressed is None or pressed.chat_id != person.user_id:
        return None
    return person.user_id, pressed.message_id


def plain_name(seat: SeatRow, lang: str, seats: Iterable[SeatRow] = ()) -> str:
    """A seat's name as an answer names it (an unnamed bot player: its level's name, numbered as at the table
    when ``seats`` are given)."""
    if seat.name:
        return isolated(seat.name)
    numbered = number_bots(seat_info(s, {}) for s in seats)
    number = numbered[seat.seat].number if seat.seat < len(numbered) else 0
    return bot_name(seat.bot_level or Level.NORMAL, number, translator_for(lang))


def turn_of(match: Match, user_id: int, version: int) -> SeatRow:
    """The seat of ``user_id`` if it is theirs to move in the party at ``version``; else the refusal."""
    seat = match.seat_of(user_id)
    if seat is None:
        raise ServiceError(Answer.NOT_A_PLAYER)
    party = match.party
    if match.game.status is not GameStatus.PLAYING or party is None or party.is_terminal:
        raise ServiceError(Answer.STALE)
    if version != party.version:
        raise ServiceError(Answer.STALE)
    if party.current_player != seat.seat:
        current = match.seats[party.current_player]
        raise ServiceError(
            CommonIllegal.NOT_YOUR_TURN, name=plain_name(current, match.game.lang, match.seats)
        )
    return seat


class Moves:
    def __init__(self, store: Store, config: ServiceConfig) -> None:
        self.store = store
        self.config = config

    async def pick(self, command: Pick) -> Change:
        """The first tap on a card: a card that can do one thing plays it at once; one with two or more moves
        shows them (they become the second tap's buttons), as does a card whose one move asks first («🏁
        Прикончить!»)."""
        async with self.store.mutate(command.game_id) as unit:
            seat = self._my_turn(unit, command.person, command.version)
            party = unit.match.party
            assert party is not None
            actions = party.actions_of_card(seat.seat, command.card)
            if not actions:
                refusal = party.refusal(command.card)
                if refusal is not None:
                    raise ServiceError(refusal.reason, **refusal.params) from refusal
                raise ServiceError(CommonIllegal.NOT_LEGAL)
            if len(actions) == 1 and not party.asks(command.card):
                change = self.apply(unit, seat, actions[0], Actor.PLAYER)
                change.adopt = _adopted(command.person, command.pressed)
                return change
        return self._shown(unit, command.person, command.pressed, command.card)

    async def back(self, command: Back) -> Change:
        """«Another card»: the first tap forgotten."""
        async with self.store.mutate(command.game_id) as unit:
            self._my_turn(unit, command.person, command.version)
        return self._shown(unit, command.person, command.pressed, None)

    @staticmethod
    def _shown(unit: Unit, person: Person, pressed: Pressed | None, card: str | None) -> Change:
        """The hand shows ``card``'s moves (None: every card again); nothing else changed."""
        change = Change(unit.match, pick=(person.user_id, card), wake_timer=False)
        change.adopt = _adopted(person, pressed)
        return change

    async def play(self, command: Play) -> Change:
        """Play ``view.legal_actions[index]`` of the party at ``version``."""
        async with self.store.mutate(command.game_id) as unit:
            seat = self._my_turn(unit, command.person, command.version)
            change = self.apply(unit, seat, command.index, Actor.PLAYER)
        change.adopt = _adopted(command.person, command.pressed)
        return change

    async def take_seat(self, command: TakeSeat) -> Change:
        """A player replaced by a bot after missed turns plays again."""
        person = command.person
        async with self.store.mutate(command.game_id) as unit:
            match = unit.match
            if match.game.status is not GameStatus.PLAYING:
                raise ServiceError(Answer.NO_GAME)
            seat = match.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            if not seat.replaced:
                raise ServiceError(Answer.ALREADY_IN_GAME)
            unit.update_seat(seat.seat, misses=0, replaced=False)
            await unit.seen(person)
            arm_deadline(unit, self.config)
            played = await self._played_for(match.game.id, seat.seat)
            notices = [unit.tell(SeatBack(seat.seat))] if match.game.mode is GameMode.GROUP else []
            notices.append(unit.tell(SeatBack(seat.seat, seat.seat, played)))
        return Change(unit.match, Answer.SEAT_TAKEN_BACK, notices, resend={person.user_id})

    async def _played_for(self, game_id: int, seat: int) -> tuple[str, ...]:
        """The moves a bot player (or the timer) made for ``seat`` since its person's own last one."""
        codes: list[str] = []
        for _version, code, by, actor in reversed(await repo.moves_of(self.store.db, game_id)):
            if by == seat and actor is Actor.PLAYER:
                break
            if by == seat:
                codes.append(code)
        return tuple(reversed(codes))

    def _my_turn(self, unit: Unit, person: Person, version: int) -> SeatRow:
        seat = turn_of(unit.match, person.user_id, version)
        if seat.replaced:
            # Playing a move takes the seat back from the bot player that stood in.
            seat = unit.update_seat(seat.seat, misses=0, replaced=False)
        return seat

    def apply(self, unit: Unit, seat: SeatRow, index: int, actor: Actor) -> Change:
        """Apply the action number ``index`` of ``seat`` (the player to move) and store it with its effects."""
        match = unit.match
        game, party = match.game, match.party
        assert party is not None
        try:
            after, code = party.after(index)
        except IndexError:
            raise ServiceError(Answer.STALE) from None
        except IllegalActionError as exc:
            raise ServiceError(exc.reason, **exc.params) from exc
        notices: list[Notice] = []
        unit.record_move(after, code, seat.seat, actor)
        if actor is Actor.PLAYER and seat.misses:
            unit.update_seat(seat.seat, misses=0, replaced=False)
        elif actor is Actor.AFK:
            misses = seat.misses + 1
            replaced = misses >= self.config.afk_strikes
            seat = unit.update_seat(seat.seat, misses=misses, replaced=replaced)
            if game.mode is GameMode.GROUP:
                # Said once in the group, where the paced table may never show the marked move.
                notices += tell_missed_turn(unit, seat.seat, code, replaced=replaced)
        notices += tell_results(unit, party, after)
        if after.is_terminal:
            self._finish(unit)
        else:
            arm_deadline(unit, self.config)
        resend: set[int] = set()
        mover = after.current_player
        if game.mode is GameMode.GROUP and not after.is_terminal and mover != seat.seat:
            user_id = match.seats[mover].user_id
            if user_id is not None and not match.seats[mover].replaced:
                resend.add(user_id)
        if after.deals_completed > party.deals_completed and not after.is_terminal:
            # Every live hand goes below the deal's scoring (a group game sends it to each private chat too); at
            # the party's end it stays where it is, the result below it the last word.
            resend.update(s.user_id for s in match.seats if s.user_id is not None and not s.is_bot)
        return Change(match, notices=notices, resend=resend)

    @staticmethod
    def _finish(unit: Unit) -> None:
        """The party is over: each seat's result stored, the game closed."""
        match = unit.match
        party = match.party
        assert party is not None
        outcome = party.outcome
        if outcome is not None:
            for index, score in enumerate(outcome.scores):
                unit.update_seat(
                    index, score=score, won=index in outcome.winners, settlement=outcome.settlement[index]
                )
        seats = match.seats
        winners = (
            ", ".join(f"seat {w} ({plain_name(seats[w], 'en', seats)})" for w in outcome.winners)
            if outcome
            else ""
        )
        log.info(
            "game %s: the party ended after %d moves; won by %s",
            match.game.id,
            party.version,
            winners or "nobody",
        )
        unit.close(GameStatus.FINISHED)


def reachable(match: Match, seat: int) -> bool:
    """Whether the person of ``seat`` can be written to (a bot player's seat: no)."""
    user_id = match.seats[seat].user_id
    user = match.users.get(user_id) if user_id is not None else None
    return user is not None and user.reachable


def tell_results(unit: Unit, before: Party, after: Party) -> list[Notice]:
    """The scoring of every deal that ended with this move, and the party's end if it did (the last deal's
    scoring folded into it: one message for one event); in a group each player's own chat gets them too."""
    match = unit.match
    group = match.game.mode is GameMode.GROUP
    players = [s.seat for s in match.seats if reachable(match, s.seat)] if group else []
    notices: list[Notice] = []
    last = after.deals_completed - 1 if after.is_terminal else after.deals_completed
    for deal in range(before.deals_completed + 1, last + 1):
        notices.append(unit.tell(DealEnded(deal)))
        notices += [unit.tell(DealEnded(deal, seat)) for seat in players]
    if after.is_terminal:
        notices.append(unit.tell(PartyEnded()))
        notices += [unit.tell(PartyEnded(seat)) for seat in players]
    return notices


def tell_missed_turn(unit: Unit, seat: int, code: str, *, replaced: bool) -> list[Notice]:
    """The group hears that the timer played for ``seat`` (and whether a bot player took the seat over); the
    player's own chat hears which card, with the button that takes the seat back."""
    event = SeatReplaced if replaced else TimedOut
    notices = [unit.tell(event(seat, code))]
    if reachable(unit.match, seat):
        notices.append(unit.tell(event(seat, code, seat)))
    return notices


def arm_deadline(unit: Unit, config: ServiceConfig) -> None:
    """The AFK deadline of the player to move (group games with a time limit, or an unreachable player)."""
    match = unit.match
    game, party = match.game, match.party
    if game.mode is not GameMode.GROUP or party is None:
        return
    deadline: float | None = None
    if not party.is_terminal:
        seat = match.seats[party.current_player]
        limit = float(game.turn_timeout)
        if seat.user_id is not None and not limit:
            user = match.users.get(seat.user_id)
            if user is not None and not user.reachable:
                limit = float(config.turn_timeout or 60)
        if not seat.bot_plays and limit:
            deadline = unit.now + limit
    if deadline != game.deadline or game.reminded:
        unit.update_game(deadline=deadline, reminded=False)
