"""Moves: a press checked against the game (player, turn, version), the action applied to a copy of the party,
and the move stored with all its effects in the unit of work's one transaction.

A move returns what happened (a :class:`Change`); it wakes nobody — the façade makes the change known and pokes
the game's timer.
"""

from __future__ import annotations

import logging
import sqlite3

from bot.services.config import Person, ServiceConfig
from bot.services.errors import ServiceError
from bot.services.publisher import Publisher, plain_name
from bot.services.store import Change, Store, Unit
from bot.storage import Actor, GameMode, GameStatus, SeatRow, repo
from bot.storage.repo import StaleVersionError
from bot.views import Answer
from engine.core import CommonIllegal, IllegalActionError

log = logging.getLogger(__name__)


class Moves:
    def __init__(self, store: Store, publisher: Publisher, config: ServiceConfig) -> None:
        self.store = store
        self.publisher = publisher
        self.config = config

    async def pick(self, game_id: int, person: Person, version: int, card: str) -> Change:
        """The first tap on a card: show what it can do; a card with one action plays at once."""
        async with self.store.mutate(game_id) as unit:
            seat = await self._my_turn(unit, person, version)
            party = unit.match.party
            assert party is not None
            indexes = party.actions_of_card(seat.seat, card)
            if not indexes:
                refusal = party.refusal(card)
                if refusal is not None:
                    raise ServiceError(refusal.reason, **refusal.params) from refusal
                raise ServiceError(CommonIllegal.NOT_LEGAL)
            if len(indexes) == 1:
                change = await self.apply(unit, seat, indexes[0], Actor.PLAYER)
            else:
                self.store.mem.picks[(game_id, person.user_id)] = card
                change = Change(unit.match, touched=False)
        change.match = unit.match
        return change

    async def back(self, game_id: int, person: Person, version: int) -> Change:
        """«Another card»: the first tap forgotten."""
        async with self.store.mutate(game_id) as unit:
            await self._my_turn(unit, person, version)
            self.store.mem.picks.pop((game_id, person.user_id), None)
        return Change(unit.match, touched=False)

    async def play(self, game_id: int, person: Person, version: int, index: int) -> Change:
        """Play ``view.legal_actions[index]`` of the party at ``version``."""
        async with self.store.mutate(game_id) as unit:
            seat = await self._my_turn(unit, person, version)
            change = await self.apply(unit, seat, index, Actor.PLAYER)
        change.match = unit.match
        return change

    async def take_seat(self, game_id: int, person: Person) -> Change:
        """A player replaced by a bot after missed turns plays again."""
        async with self.store.mutate(game_id) as unit:
            match = unit.match
            if match.game.status is not GameStatus.PLAYING:
                raise ServiceError(Answer.NO_GAME)
            seat = match.seat_of(person.user_id)
            if seat is None:
                raise ServiceError(Answer.NOT_A_PLAYER)
            if not seat.replaced:
                raise ServiceError(Answer.ALREADY_IN_GAME)
            tx = unit.tx
            await repo.set_seat_afk(tx, game_id, seat.seat, 0, False)
            await repo.upsert_user(tx, person.user_id, person.name, person.username, person.lang)
            await self.store.arm_deadline(tx, game_id)
            notice = await self.publisher.seat_back_notice(tx, match, seat)
        return Change(unit.match, Answer.SEAT_TAKEN_BACK, [notice], renew={person.user_id})

    async def _my_turn(self, unit: Unit, person: Person, version: int) -> SeatRow:
        match = unit.match
        seat = match.seat_of(person.user_id)
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
        if seat.replaced:
            # Playing a move takes the seat back from the bot player that stood in.
            await repo.set_seat_afk(unit.tx, match.game.id, seat.seat, 0, False)
            seat = SeatRow(
                seat.game_id, seat.seat, seat.user_id, seat.name, seat.level, 0, False, seat.score, seat.won
            )
            match.seats[seat.seat] = seat
        return seat

    async def apply(self, unit: Unit, seat: SeatRow, index: int, actor: Actor) -> Change:
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
        tx, now = unit.tx, unit.now
        notices = []
        try:
            await repo.record_move(tx, game.id, party.version, after.record(), code, seat.seat, actor, now)
        except (StaleVersionError, sqlite3.IntegrityError):
            raise ServiceError(Answer.STALE) from None
        if actor is Actor.PLAYER and seat.misses:
            await repo.set_seat_afk(tx, game.id, seat.seat, 0, False)
        elif actor is Actor.AFK:
            misses = seat.misses + 1
            replaced = misses >= self.config.afk_strikes
            await repo.set_seat_afk(tx, game.id, seat.seat, misses, replaced)
            if game.mode is GameMode.GROUP:
                # Said once in the group, where the paced table may never show the marked move.
                told = self.publisher.replaced_notice if replaced else self.publisher.timed_out_notice
                notices.append(await told(tx, match, seat))
        seats = await repo.seats_of(tx, game.id)
        notices += await self.publisher.result_notices(tx, match, seats, party, after)
        if after.is_terminal:
            outcome = after.outcome
            if outcome is not None:
                await repo.set_results(tx, game.id, outcome.scores, outcome.winners, outcome.settlement)
            winners = (
                ", ".join(f"seat {w} ({plain_name(seats[w], 'en', seats)})" for w in outcome.winners)
                if outcome
                else ""
            )
            log.info(
                "game %s: the party ended after %d moves; won by %s",
                game.id,
                after.version,
                winners or "nobody",
            )
            await repo.set_status(tx, game.id, GameStatus.FINISHED, now)
        else:
            await self.store.arm_deadline(tx, game.id, after, seats)
        unit.party = after
        self.store.mem.drop_picks(game.id)
        renew: set[int] = set()
        mover = after.current_player
        if game.mode is GameMode.GROUP and not after.is_terminal and mover != seat.seat:
            user_id = seats[mover].user_id
            if user_id is not None and not seats[mover].replaced:
                renew.add(user_id)
        if game.mode is GameMode.SOLO and after.deals_completed > party.deals_completed:
            renew.add(game.creator_id)  # the live message goes below the deal's scoring
        return Change(match, notices=notices, renew=renew)
