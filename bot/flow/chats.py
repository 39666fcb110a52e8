"""The bot's place in groups: removed or muted, back again, a group upgraded to a supergroup, a topic reopened.

Each step does its database work and returns the changes of the games to show anew; the service has them drawn.
"""

from __future__ import annotations

import logging
import sqlite3

from bot.delivery.outbox import Outbox
from bot.flow.commands import ChatClosed, ChatMoved, ChatOpened, TopicReopened
from bot.flow.store import Change, Match, Store
from bot.storage import GameStatus, repo
from bot.storage.tx import Batch

log = logging.getLogger(__name__)


class Chats:
    def __init__(self, store: Store, outbox: Outbox) -> None:
        self.store = store
        self.outbox = outbox
        self.hidden_lobbies: dict[int, list[int]] = {}
        """Lobbies cancelled while the bot was out of their group, by chat: their messages are updated on its
        return."""

    async def close(self, command: ChatClosed) -> list[Change]:
        """Nothing more is sent to this chat; its open lobbies are cancelled (nobody could see or join them).

        Running games go on in the players' private chats. Returns the cancelled lobbies.
        """
        chat_id = command.chat_id
        self.outbox.refuse(chat_id)
        games = await repo.active_games_in(self.store.db, chat_id)
        cancelled: list[Change] = []
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
            cancelled.append(Change(unit.match))
        return cancelled

    async def open(self, command: ChatOpened) -> list[Change]:
        """The bot is back: the kept notices go out, every running game's table is posted anew, and the lobbies
        cancelled meanwhile say so in their old messages."""
        chat_id = command.chat_id
        self.outbox.reopen(chat_id)
        games = [game.id for game in await repo.active_games_in(self.store.db, chat_id)]
        hidden = self.hidden_lobbies.pop(chat_id, [])
        changes = [Change(m, resend_table=True, wake_timer=False) for m in await self._read(games)]
        changes += [Change(m, wake_timer=False) for m in await self._read(hidden)]
        log.info("chat %s: the bot may post again; %d games republished", chat_id, len(games))
        return changes

    async def topic_reopened(self, command: TopicReopened) -> list[Change]:
        """A closed forum topic opened again: the notices kept meanwhile go out, the game's table anew below."""
        chat_id, thread_id = command.chat_id, command.thread_id
        self.outbox.reopen(chat_id)
        game = await repo.active_game_in_chat(self.store.db, chat_id, thread_id)
        if game is None:
            return []
        changes = [Change(m, resend_table=True, wake_timer=False) for m in await self._read([game.id])]
        log.info("game %s: topic %s of chat %s reopened; the table posted anew", game.id, thread_id, chat_id)
        return changes

    async def _read(self, game_ids: list[int]) -> list[Match]:
        found = [await self.store.read(game_id) for game_id in game_ids]
        return [match for match in found if match is not None]

    async def migrate(self, command: ChatMoved) -> list[Change]:
        """A group was upgraded to a supergroup: its games, lobbies and notices move to the new chat id."""
        old, new = command.old, command.new
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
        self.outbox.reopen(new)
        for game in games:
            log.info("game %s: chat %s was upgraded to supergroup %s; the game follows", game.id, old, new)
        changes = [Change(m, resend_table=True) for m in await self._read(ids)]
        return changes
