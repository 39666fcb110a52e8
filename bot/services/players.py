"""People: who the bot has seen and may write to, who blocked it, and the figures of /stats and /top."""

from __future__ import annotations

from bot.services.config import Person
from bot.services.publisher import Publisher
from bot.services.store import Store
from bot.storage import GameMode, GameRow, GameStatus, Notice, repo
from bot.storage.models import ChatRank, UserStats
from engine.core import JSONValue

ACTIVE = (GameStatus.PLAYING, GameStatus.LOBBY)


class Players:
    def __init__(self, store: Store, publisher: Publisher) -> None:
        self.store = store
        self.publisher = publisher

    async def seen(self, person: Person, *, started: bool = False) -> list[int]:
        """Remember a user; the games to show them anew if they had blocked the bot and are back."""
        async with self.store.tx(mark=False) as tx:
            before = await repo.get_user(tx, person.user_id)
            await repo.upsert_user(
                tx, person.user_id, person.name, person.username, person.lang, started=started
            )
            if not (started and before is not None and before.blocked):
                return []
            games = await repo.games_of_user(tx, person.user_id, ACTIVE)
        return [game.id for game in games]

    async def forbid(self, user_id: int) -> tuple[list[Notice], list[int]]:
        """The bot may not write to this person: their group games say so (notices) and wait for them (ids)."""
        async with self.store.tx() as tx:
            user = await repo.get_user(tx, user_id)
            if user is not None and user.blocked:
                return [], []
            if user is None:
                await repo.upsert_user(tx, user_id, "", None, None)
            await repo.set_blocked(tx, user_id, True)
            games = await repo.games_of_user(tx, user_id, ACTIVE)
            notices: list[Notice] = []
            for game in games:
                if game.mode is not GameMode.GROUP:
                    continue
                seats = await repo.seats_of(tx, game.id)
                seat = next((s for s in seats if s.user_id == user_id), None)
                if seat is None:
                    continue
                notices.append(await self.publisher.start_bot_notice(tx, game, seat))
                if game.status is GameStatus.PLAYING and game.deadline is None:
                    await self.store.arm_deadline(tx, game.id)
        return notices, [game.id for game in games]

    async def stats(self, user_id: int) -> UserStats:
        async with self.store.db.tx() as tx:
            return await repo.user_stats(tx, user_id)

    async def top(self, chat_id: int) -> list[ChatRank]:
        async with self.store.db.tx() as tx:
            return await repo.chat_top(tx, chat_id)

    async def game_options(self, game_id: int) -> dict[str, JSONValue] | None:
        game = await self.store.game(game_id)
        return dict(game.options) if game else None

    async def game_for_rules(
        self, chat_id: int, thread_id: int, game_id: int | None = None
    ) -> GameRow | None:
        """Read-only: the game /rules should describe — ``game_id``, else the game open in this chat (topic)."""
        if game_id is not None:
            return await self.store.game(game_id)
        async with self.store.db.tx() as tx:
            return await repo.active_game_in_chat(tx, chat_id, thread_id)

    async def lang_of(self, game_id: int) -> str | None:
        game = await self.store.game(game_id)
        return game.lang if game else None

    async def active_game_in(self, chat_id: int, thread_id: int) -> GameRow | None:
        async with self.store.db.tx() as tx:
            return await repo.active_game_in_chat(tx, chat_id, thread_id)
