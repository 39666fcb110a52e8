"""People: who the bot has seen and may write to, who blocked it, and the figures of /stats and /top."""

from __future__ import annotations

import dataclasses

from bot.flow.config import Person
from bot.flow.errors import ServiceError
from bot.flow.notices import Notices
from bot.flow.store import Change, Match, Store
from bot.flow.tables import seat_info, tr_for
from bot.storage import GameMode, GameRow, GameStatus, Notice, UserRow, repo
from bot.storage.batch import Batch
from bot.storage.models import ChatRank, UserStats
from bot.views import Answer
from bot.views.chats import render_left, render_left_private

ACTIVE = (GameStatus.PLAYING, GameStatus.LOBBY)


class Players:
    def __init__(self, store: Store, notices: Notices) -> None:
        self.store = store
        self.notices = notices

    async def seen(self, person: Person, *, started: bool = False) -> list[int]:
        """Remember a user; the games to show them anew if they had blocked the bot and are back."""
        before = await repo.get_user(self.store.db, person.user_id)
        after = (before or UserRow(person.user_id, "", None, None, False, False)).seen_as(
            person.name, person.username, person.lang, started=started
        )
        if after == before:
            return []
        batch = Batch()
        repo.upsert_user(batch, person.user_id, person.name, person.username, person.lang, started=started)
        async with self.store.tx(mark=False) as tx:
            await tx.run(batch)
        games = [game.id for game in await repo.games_of_user(self.store.db, person.user_id, ACTIVE)]
        await self.store.user_changed(after, games)
        if not (started and before is not None and before.blocked):
            return []
        return games

    async def forbid(self, user_id: int) -> tuple[list[Notice], list[int]]:
        """The bot may not write to this person: their group games say so (notices) and wait for them (ids)."""
        user = await repo.get_user(self.store.db, user_id)
        if user is not None and user.blocked:
            return [], []
        batch = Batch()
        repo.set_blocked(batch, user_id)
        async with self.store.tx() as tx:
            await tx.run(batch)
        blocked = dataclasses.replace(user or UserRow(user_id, "", None, None, False, False), blocked=True)
        games = await repo.games_of_user(self.store.db, user_id, ACTIVE)
        await self.store.user_changed(blocked, [game.id for game in games])
        notices: list[Notice] = []
        for game in games:
            if game.mode is not GameMode.GROUP:
                continue
            async with self.store.mutate(game.id) as unit:
                seat = unit.match.seat_of(user_id)
                if seat is None or not unit.match.game.status.is_active:
                    continue
                notices.append(self.notices.start_bot(unit, unit.match.game, seat))
                if unit.match.game.status is GameStatus.PLAYING and unit.match.game.deadline is None:
                    self.store.arm_deadline(unit)
        return notices, [game.id for game in games]

    async def running(self, user_id: int, *, solo_only: bool = False) -> list[Match]:
        """The running games this person plays in (``solo_only``: their game with bots)."""
        found = []
        for game in await repo.games_of_user(self.store.db, user_id, (GameStatus.PLAYING,)):
            match = await self.store.read(game.id) if game.mode is GameMode.SOLO or not solo_only else None
            if match is not None and match.game.status is GameStatus.PLAYING:
                found.append(match)
        return found

    async def leave(self, chat_id: int, thread_id: int, person: Person) -> list[Change]:
        """/leave: the person's seat in the running group game of this chat (in private: in each of theirs) goes
        to a bot player; the group is told, and the person gets the button that brings them back."""
        if chat_id == person.user_id:
            games = [m.game.id for m in await self.running(person.user_id) if m.game.mode is GameMode.GROUP]
        else:
            game = await repo.active_game_in_chat(self.store.db, chat_id, thread_id)
            games = [game.id] if game is not None and game.status is GameStatus.PLAYING else []
        if not games:
            raise ServiceError(Answer.NO_GAME)
        return [await self._leave(game_id, person) for game_id in games]

    async def _leave(self, game_id: int, person: Person) -> Change:
        async with self.store.mutate(game_id) as unit:
            match = unit.match
            seat = match.seat_of(person.user_id)
            if seat is None or match.game.status is not GameStatus.PLAYING:
                raise ServiceError(Answer.NOT_A_PLAYER)
            if seat.replaced:
                raise ServiceError(Answer.ALREADY_LEFT)
            seat = unit.update_seat(seat.seat, misses=0, replaced=True)
            self.store.arm_deadline(unit)
            game = match.game
            user = match.users.get(person.user_id)
            notices = [
                unit.notice(
                    render_left(seat_info(seat, match.users), game.key, tr_for(game.lang)),
                    game.chat_id,
                    game.thread_id,
                ),
                unit.notice(
                    render_left_private(game.key, tr_for(user.lang if user else person.lang)), person.user_id
                ),
            ]
        return Change(unit.match, notices=notices)

    async def can_write(self, user_id: int) -> bool:
        user = await repo.get_user(self.store.db, user_id)
        return user is not None and user.reachable

    async def stats(self, user_id: int) -> list[UserStats]:
        return await repo.user_stats(self.store.db, user_id)

    async def top(self, chat_id: int, kind: str) -> list[ChatRank]:
        return await repo.chat_top(self.store.db, chat_id, kind)

    async def game_for_rules(
        self, chat_id: int, thread_id: int, game_id: int | None = None
    ) -> GameRow | None:
        """Read-only: the game /rules should describe — ``game_id``, else the game open in this chat (topic)."""
        if game_id is not None:
            return await self.store.game(game_id)
        return await repo.active_game_in_chat(self.store.db, chat_id, thread_id)

    async def active_game_in(self, chat_id: int, thread_id: int) -> GameRow | None:
        return await repo.active_game_in_chat(self.store.db, chat_id, thread_id)
