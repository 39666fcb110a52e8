"""People: who the bot has seen and may write to, who blocked it, and the figures of /stats and /top."""

from __future__ import annotations

import dataclasses

from bot.flow.commands import (
    HandsBack,
    LeaveGame,
    Person,
    Repost,
    Seen,
    SendHistory,
    ServiceError,
    ShowHand,
    ShowSheet,
    ShowTable,
)
from bot.flow.events import SeatLeft, StartBotFirst
from bot.flow.moves import arm_deadline
from bot.flow.store import Change, Match, Store
from bot.storage import GameMode, GameRow, GameStatus, Notice, UserRow, repo
from bot.storage.models import ChatRank, UserStats
from bot.storage.tx import Batch
from bot.views import Answer

ACTIVE = (GameStatus.PLAYING, GameStatus.LOBBY)


class People:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def seen(self, command: Seen) -> list[Change]:
        """Remember a user; their games shown to them anew if they had blocked the bot and are back."""
        person, started = command.person, command.started
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
        found = [await self.store.read(game_id) for game_id in games]
        return [Change(m, resend={person.user_id}, wake_timer=False) for m in found if m is not None]

    async def forbid(self, user_id: int) -> list[Change]:
        """The bot may not write to this person: their group games say so and wait for them."""
        user = await repo.get_user(self.store.db, user_id)
        if user is not None and user.blocked:
            return []
        batch = Batch()
        repo.set_blocked(batch, user_id)
        async with self.store.tx() as tx:
            await tx.run(batch)
        blocked = dataclasses.replace(user or UserRow(user_id, "", None, None, False, False), blocked=True)
        games = await repo.games_of_user(self.store.db, user_id, ACTIVE)
        await self.store.user_changed(blocked, [game.id for game in games])
        changes: list[Change] = []
        for game in games:
            async with self.store.mutate(game.id) as unit:
                seat = unit.match.seat_of(user_id)
                notices: list[Notice] = []
                if game.mode is GameMode.GROUP and seat is not None and unit.match.game.status.is_active:
                    notices.append(unit.tell(StartBotFirst(seat.seat)))
                    if unit.match.game.status is GameStatus.PLAYING and unit.match.game.deadline is None:
                        arm_deadline(unit, self.store.config)
            changes.append(Change(unit.match, notices=notices))
        return changes

    async def running(self, user_id: int, *, solo_only: bool = False) -> list[Match]:
        """The running games this person plays in (``solo_only``: their game with bots)."""
        found = []
        for game in await repo.games_of_user(self.store.db, user_id, (GameStatus.PLAYING,)):
            match = await self.store.read(game.id) if game.mode is GameMode.SOLO or not solo_only else None
            if match is not None and match.game.status is GameStatus.PLAYING:
                found.append(match)
        return found

    async def leave(self, command: LeaveGame) -> list[Change]:
        """/leave: the person's seat in the running group game of this chat (in private: in each of theirs) goes
        to a bot player; the group is told, and the person gets the button that brings them back."""
        chat_id, thread_id, person = command.chat_id, command.thread_id, command.person
        if chat_id == person.user_id:
            mine = await self.running(person.user_id)
            games = [m.game.id for m in mine if m.game.mode is GameMode.GROUP]
            if not games and mine:
                raise ServiceError(Answer.SOLO_LEAVE)  # a game with bots has no seat to hand over
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
            arm_deadline(unit, self.store.config)
            notices = [unit.tell(SeatLeft(seat.seat)), unit.tell(SeatLeft(seat.seat, seat.seat))]
        return Change(unit.match, notices=notices)

    async def show_hand(self, command: ShowHand) -> Change:
        """«🃏 Мои карты» (``/start g_<game>``): the player's live message sent anew at the bottom of the chat
        (the old one may have been deleted by the player, and edits of it would go nowhere)."""
        match = await self.store.read(command.game_id)
        if match is None or not match.game.status.is_active:
            raise ServiceError(Answer.NO_GAME)
        if match.seat_of(command.person.user_id) is None:
            raise ServiceError(Answer.NOT_A_PLAYER)
        resend = {command.person.user_id} if match.game.status is GameStatus.PLAYING else set()
        return Change(match, resend=resend, wake_timer=False)

    async def hands_back(self, command: HandsBack) -> list[Change]:
        """/start, /play, /score in private: the hand of each running game (or the solo one) anew below."""
        user_id = command.person.user_id
        running = await self.running(user_id, solo_only=command.solo_only)
        return [Change(match, resend={user_id}, wake_timer=False) for match in running]

    async def show_table(self, command: ShowTable) -> list[Change]:
        """«📋 Стол»: the whole table of a game, privately, to a player of it (``/score`` in private: of every
        running game the person plays in) — one copy, sent anew below."""
        user_id = command.person.user_id
        if command.game_id is None:
            matches = await self.running(user_id)
        else:
            matches = [await self._played(command.game_id, user_id)]
        if not matches:
            raise ServiceError(Answer.NO_GAME)
        return [Change(match, table_for=user_id, wake_timer=False) for match in matches]

    async def show_sheet(self, command: ShowSheet) -> list[Change]:
        """``/score`` and «📋 Запись»: the score sheet's picture anew below in the chat asked in — of the game
        pressed, else of the game open in that group chat (its lobby: the lobby again), or in a private chat of
        every running game of the person; with none open, of the last party finished there (of theirs). Where no
        deal has ended yet, the table is shown instead."""
        user_id, where = command.person.user_id, (command.chat_id, command.thread_id)
        if command.game_id is not None and command.chat_id == user_id:
            matches = [await self._played(command.game_id, user_id)]
        elif command.game_id is not None:  # the button under a deal's scoring in the game's group
            match = await self.store.read(command.game_id)
            if match is None or match.party is None:
                raise ServiceError(Answer.NO_GAME)
            if match.game.chat_id != command.chat_id:
                raise ServiceError(Answer.UNKNOWN)  # drawn in the game's own chats only: a forged press
            matches = [match]
        elif command.chat_id == user_id:
            matches = await self.running(user_id) or await self._last_finished(user_id=user_id)
        else:
            game = await repo.active_game_in_chat(self.store.db, command.chat_id, command.thread_id)
            match = await self.store.read(game.id) if game is not None else None
            if match is not None and match.party is None:
                return [Change(match, resend_table=True, wake_timer=False)]
            matches = [match] if match is not None else await self._last_finished(chat=where)
        if not matches:
            raise ServiceError(Answer.NO_GAME)
        return [Change(match, sheet_for=where, wake_timer=False) for match in matches]

    async def send_history(self, command: SendHistory) -> Change:
        """«📜 История»: the finished party as a text file, in the chat whose button was pressed."""
        match = await self.store.read(command.game_id)
        if match is None or match.party is None or match.game.status is not GameStatus.FINISHED:
            raise ServiceError(Answer.NO_GAME)
        if command.chat_id not in (match.game.chat_id, command.person.user_id):
            # The button is drawn in the party's chats only: a forged press.
            raise ServiceError(Answer.UNKNOWN)
        return Change(match, history_for=(command.chat_id, command.thread_id), wake_timer=False)

    async def _last_finished(self, *, chat: tuple[int, int] | None = None, user_id: int = 0) -> list[Match]:
        """The party that finished last in a chat's topic, or of those ``user_id`` played (none: empty)."""
        last = await repo.last_finished(self.store.db, chat=chat, user_id=user_id)
        match = await self.store.read(last.id) if last is not None else None
        return [match] if match is not None and match.party is not None else []

    async def _played(self, game_id: int, user_id: int) -> Match:
        """A game with a party that ``user_id`` plays (or played) in; else the refusal."""
        match = await self.store.read(game_id)
        if match is None:
            raise ServiceError(Answer.NO_GAME)
        if match.seat_of(user_id) is None:
            raise ServiceError(Answer.NOT_A_PLAYER)
        if match.party is None or match.game.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
            raise ServiceError(Answer.NO_GAME)
        return match

    async def repost(self, command: Repost) -> Change:
        """``/score`` in a group: the table message again at the bottom of the chat (the old one deleted)."""
        game = await repo.active_game_in_chat(self.store.db, command.chat_id, command.thread_id)
        match = await self.store.read(game.id) if game is not None else None
        if match is None:
            raise ServiceError(Answer.NO_GAME)
        return Change(match, resend_table=True, wake_timer=False)

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
