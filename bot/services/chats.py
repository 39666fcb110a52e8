"""The bot's place in groups: removed or muted, back again, a group upgraded to a supergroup, a topic reopened.

Each step does its database work and says which games must be shown anew; the façade shows them.
"""

from __future__ import annotations

import logging
import sqlite3

from bot.services.outbox import Outbox
from bot.services.store import Store
from bot.storage import GameRow, GameStatus, repo

log = logging.getLogger(__name__)


class Chats:
    def __init__(self, store: Store, outbox: Outbox) -> None:
        self.store = store
        self.outbox = outbox

    async def close(self, chat_id: int) -> list[int]:
        """Nothing more is sent to this chat; its open lobbies are cancelled (nobody could see or join them).

        Running games go on in the players' private chats. Returns the cancelled lobbies.
        """
        self.outbox.refuse(chat_id)
        async with self.store.db.tx() as tx:
            games = await repo.active_games_in(tx, chat_id)
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
                await repo.set_status(unit.tx, game.id, GameStatus.CANCELLED, unit.now)
            log.info("game %s: lobby cancelled, the bot was removed from chat %s", game.id, chat_id)
            self.store.mem.hidden_lobbies.setdefault(chat_id, []).append(game.id)
            cancelled.append(game.id)
        return cancelled

    async def open(self, chat_id: int) -> tuple[list[int], list[int]]:
        """The bot is back: the kept notices go out. Returns the active games and the lobbies hidden meanwhile."""
        await self.outbox.reopen(chat_id)
        async with self.store.db.tx() as tx:
            games = await repo.active_games_in(tx, chat_id)
        return [game.id for game in games], self.store.mem.hidden_lobbies.pop(chat_id, [])

    async def topic_reopened(self, chat_id: int, thread_id: int) -> GameRow | None:
        """A closed forum topic opened again: the notices kept meanwhile go out; the topic's game, if any."""
        await self.outbox.reopen(chat_id)
        async with self.store.db.tx() as tx:
            return await repo.active_game_in_chat(tx, chat_id, thread_id)

    async def migrate(self, old: int, new: int) -> list[int]:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        if old == new:
            return []
        # Idempotent: both service messages and every refused call to the old id lead here.
        await self.outbox.migrate(old, new)
        async with self.store.tx() as tx:
            games = await repo.active_games_in(tx, old)
            try:
                await repo.move_chat(tx, old, new)
            except sqlite3.IntegrityError:
                # The new chat already opened a game of its own: the old chat's lobbies give way to it.
                for game in games:
                    if game.status is GameStatus.LOBBY:
                        await repo.set_status(tx, game.id, GameStatus.CANCELLED, self.store.clock.now())
                await repo.move_chat(tx, old, new)
        for game in games:
            log.info("game %s: chat %s was upgraded to supergroup %s; the game follows", game.id, old, new)
        return [game.id for game in games]
