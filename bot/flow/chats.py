"""The bot's place in groups: removed or muted, back again, a group upgraded to a supergroup, a topic reopened.

Each step does its database work and says which games must be shown anew; the façade shows them.
"""

from __future__ import annotations

import logging
import sqlite3

from bot.delivery.outbox import Outbox
from bot.flow.store import Store
from bot.storage import GameRow, GameStatus, repo
from bot.storage.batch import Batch

log = logging.getLogger(__name__)


class Chats:
    def __init__(self, store: Store, outbox: Outbox) -> None:
        self.store = store
        self.outbox = outbox
        self.hidden_lobbies: dict[int, list[int]] = {}
        """Lobbies cancelled while the bot was out of their group, by chat: their messages are updated on its
        return."""

    async def close(self, chat_id: int) -> list[int]:
        """Nothing more is sent to this chat; its open lobbies are cancelled (nobody could see or join them).

        Running games go on in the players' private chats. Returns the cancelled lobbies.
        """
        self.outbox.refuse(chat_id)
        games = await repo.active_games_in(self.store.db, chat_id)
        cancelled: list[int] = []
        for game in games:
            if game.status is GameStatus.PLAYING:
                log.info(
                    "game %s: the bot cannot post in chat %s; the game goes on in private", game.id, chat_id
                )
                continue
            async with self.store.mutate(game.id) as unit:
                if unit.match.game.status is not GameStatus.LOBBY:
                    continue
                unit.close(GameStatus.CANCELLED)
            log.info("game %s: lobby cancelled, the bot was removed from chat %s", game.id, chat_id)
            self.hidden_lobbies.setdefault(chat_id, []).append(game.id)
            cancelled.append(game.id)
        return cancelled

    async def open(self, chat_id: int) -> tuple[list[int], list[int]]:
        """The bot is back: the kept notices go out. Returns the active games and the lobbies hidden meanwhile."""
        await self.outbox.reopen(chat_id)
        games = await repo.active_games_in(self.store.db, chat_id)
        return [game.id for game in games], self.hidden_lobbies.pop(chat_id, [])

    async def topic_reopened(self, chat_id: int, thread_id: int) -> GameRow | None:
        """A closed forum topic opened again: the notices kept meanwhile go out; the topic's game, if any."""
        await self.outbox.reopen(chat_id)
        return await repo.active_game_in_chat(self.store.db, chat_id, thread_id)

    async def migrate(self, old: int, new: int) -> list[int]:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        if old == new:
            return []
        # Idempotent: both service messages and every refused call to the old id lead here.
        self.outbox.migrate(old, new)
        games = await repo.active_games_in(self.store.db, old)
        ids = [game.id for game in games]
        await self.store.forget_games(ids)  # held in memory with the old chat id: read again when needed
        try:
            batch = Batch()
            repo.move_chat(batch, old, new)
            async with self.store.tx() as tx:
                await tx.run(batch)
        except sqlite3.IntegrityError:
            # The new chat already opened a game of its own: the old chat's lobbies give way to it.
            lobbies = [game.id for game in games if game.status is GameStatus.LOBBY]
            for game_id in lobbies:
                async with self.store.mutate(game_id) as unit:
                    unit.close(GameStatus.CANCELLED)
            batch = Batch()
            repo.move_chat(batch, old, new)
            async with self.store.tx() as tx:
                await tx.run(batch)
        await self.store.forget_games(ids)
        await self.outbox.reopen(new)
        for game in games:
            log.info("game %s: chat %s was upgraded to supergroup %s; the game follows", game.id, old, new)
        return ids
