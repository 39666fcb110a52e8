"""The pipeline for people and chats, whose commands concern every game of a person or a chat: a person seen (and
back after blocking the bot) or blocked, the bot removed from a group and back, a topic reopened, a group become
a supergroup, the games nobody plays any more; and the languages chats chose. Each game's part is decided by
``bot.flow`` and goes through :meth:`Pipeline.change` like any other change."""

from __future__ import annotations

import logging
import sqlite3

from bot.delivery.draw import drawn_notices
from bot.flow import commands as cmd
from bot.flow import lobby, people
from bot.flow.commands import Decided
from bot.model.game import GameStatus, Shown, User
from bot.pipeline.origin import Done, Handle, Origin, Parts
from bot.storage import Batch, repo, upkeep

log = logging.getLogger(__name__)

ACTIVE = (GameStatus.PLAYING, GameStatus.LOBBY)


class People:
    def __init__(self, pipeline: Parts) -> None:
        self.pipeline = pipeline
        self.hidden_lobbies: dict[int, list[int]] = {}
        """Lobbies cancelled while the bot was out of their group, by chat: their messages are updated on its
        return."""

    def handles(self) -> dict[type, Handle]:
        return {
            cmd.Seen: self.seen,
            cmd.Forbidden: self.forbidden,
            cmd.ChatClosed: self.close,
            cmd.ChatOpened: self.open,
            cmd.TopicReopened: self.topic_reopened,
            cmd.ChatMoved: self.moved,
            cmd.EndAbandoned: self.abandoned,
        }

    async def seen(self, command: cmd.Seen, origin: Origin) -> Done:
        """Remember a person as they are now; a private /start lets the bot write to them again, and their games
        are shown to them anew if they had blocked it."""
        pipeline = self.pipeline
        person, started = command.person, command.started
        if started:
            pipeline.outbox.allow(person.user_id)
        before = await repo.get_user(pipeline.db, person.user_id)
        after = (before or User(person.user_id, "")).seen_as(person, started=started)
        if after == before:
            return Done()
        batch = Batch()
        repo.upsert_user(batch, person, started=started)
        # Not the update's own change (only who pressed): a failure after it leaves the update to be handled again.
        await pipeline.db.write(batch)
        games = [row.id for row in await repo.games_of_user(pipeline.db, person.user_id, ACTIVE)]
        pipeline.store.refresh_user(after, games)
        was_blocked = before is not None and before.blocked
        if not (started and was_blocked):
            return Done()
        for game_id in games:
            await pipeline.change(
                game_id,
                lambda g: people.back_after_blocking(
                    g, person.user_id, was_blocked=was_blocked, started=started
                ),
                origin,
            )
        return Done(None, 0, len(games))

    async def forbidden(self, command: cmd.Forbidden, origin: Origin) -> Done:
        """The bot could not write to a chat: a group is closed to it; a person's group games wait for them."""
        if command.chat_id < 0:
            return await self.close(cmd.ChatClosed(command.chat_id), origin)
        pipeline = self.pipeline
        user_id = command.chat_id
        user = await repo.get_user(pipeline.db, user_id)
        if user is not None and user.blocked:
            return Done()
        batch = Batch()
        repo.set_blocked(batch, user_id)
        await pipeline.db.write(batch)
        games = await repo.games_of_user(pipeline.db, user_id, ACTIVE)
        for game in games:
            await pipeline.change(
                game.id, lambda g: people.blocked(g, user_id, pipeline.clock.now(), pipeline.config), origin
            )
        return Done(None, 0, len(games))

    async def close(self, command: cmd.ChatClosed, origin: Origin) -> Done:
        """Nothing more is sent to this chat; its open lobbies are cancelled (nobody could see or join them).
        Running games go on in the players' private chats."""
        pipeline, chat_id = self.pipeline, command.chat_id
        pipeline.outbox.refuse(chat_id)
        cancelled = 0
        for game in await repo.active_games_in(pipeline.db, chat_id):
            if game.status is GameStatus.PLAYING:
                log.info(
                    "game %s: the bot cannot post in chat %s; the game goes on in private", game.id, chat_id
                )
                continue
            decision = await pipeline.change(
                game.id, lambda g: lobby.close_hidden_lobby(g, pipeline.clock.now()), origin
            )
            if isinstance(decision, Decided) and decision.events:
                log.info("game %s: lobby cancelled, the bot was removed from chat %s", game.id, chat_id)
                self.hidden_lobbies.setdefault(chat_id, []).append(game.id)
                cancelled += 1
        return Done(None, 0, cancelled)

    async def open(self, command: cmd.ChatOpened, origin: Origin) -> Done:
        """The bot is back: the kept notices go out, every running game's table is posted anew, and the lobbies
        cancelled meanwhile say so in their old messages."""
        pipeline, chat_id = self.pipeline, command.chat_id
        pipeline.outbox.reopen(chat_id)
        await self.post_kept(chat_id)
        games = [game.id for game in await repo.active_games_in(pipeline.db, chat_id)]
        for game_id in games:
            await pipeline.change(game_id, people.repost, origin)
        for game_id in self.hidden_lobbies.pop(chat_id, []):
            await pipeline.change(game_id, lambda g: Decided((Shown(),)), origin)
        log.info("chat %s: the bot may post again; %d games republished", chat_id, len(games))
        return Done(None, 0, len(games))

    async def topic_reopened(self, command: cmd.TopicReopened, origin: Origin) -> Done:
        """A closed forum topic opened again: the notices kept meanwhile go out, the game's table anew below."""
        pipeline = self.pipeline
        pipeline.outbox.reopen(command.chat_id)
        await self.post_kept(command.chat_id)
        game = await repo.active_game_in_chat(pipeline.db, command.chat_id, command.thread_id)
        if game is None:
            return Done()
        await pipeline.change(game.id, people.repost, origin)
        log.info(
            "game %s: topic %s of chat %s reopened; the table posted anew",
            game.id,
            command.thread_id,
            command.chat_id,
        )
        return Done(None, game.id, 1)

    async def moved(self, command: cmd.ChatMoved, origin: Origin) -> Done:
        """A group was upgraded to a supergroup: its language choice, its games, lobbies and notices move to the
        new chat id (idempotent: both service messages and every refused call to the old id lead here)."""
        pipeline, old, new = self.pipeline, command.old, command.new
        if old == new:
            return Done()
        pipeline.store.languages.migrate(old, new)
        pipeline.outbox.migrate(old, new)
        games = await repo.active_games_in(pipeline.db, old)
        ids = [game.id for game in games]
        pipeline.store.forget(ids)  # held in memory with the old chat id: read again when needed
        try:
            await self._move_chat(old, new)
        except sqlite3.IntegrityError:
            # The new chat already opened a game of its own: the old chat's lobbies give way to it.
            for game in games:
                if game.status is GameStatus.LOBBY:
                    await pipeline.change(
                        game.id, lambda g: lobby.close_hidden_lobby(g, pipeline.clock.now())
                    )
            await self._move_chat(old, new)
        pipeline.store.forget(ids)
        pipeline.outbox.reopen(new)
        await self.post_kept(new)
        for game_id in ids:
            log.info("game %s: chat %s was upgraded to supergroup %s; the game follows", game_id, old, new)
            await pipeline.change(game_id, people.repost, origin)
        return Done(None, 0, len(ids))

    async def _move_chat(self, old: int, new: int) -> None:
        batch = Batch()
        repo.move_chat(batch, old, new)
        await self.pipeline.db.write(batch)

    async def abandoned(self, command: cmd.EndAbandoned, origin: Origin) -> Done:
        """Close the games nobody has moved in for ``idle_for`` seconds (the operator's hourly upkeep)."""
        pipeline = self.pipeline
        ended = 0
        for game_id in await upkeep.abandoned_games(pipeline.db, pipeline.clock.now() - command.idle_for):
            decision = await pipeline.change(
                game_id, lambda g: lobby.abandon(g, command.idle_for, pipeline.clock.now()), origin
            )
            if isinstance(decision, Decided) and decision.events:
                ended += 1
        return Done(None, 0, ended)

    async def post_kept(self, chat_id: int | None) -> None:
        """The stored notices not sent yet (of one chat, if given): a previous run's, or those kept while a chat
        was closed; each game's drawn from the game as stored, those of a game that is gone forgotten."""
        pipeline = self.pipeline
        outbox = pipeline.outbox
        kept = await outbox.stored(chat_id)
        outbox.post([n for n in kept if n.game_id is None])
        for game_id in dict.fromkeys(n.game_id for n in kept if n.game_id is not None):
            game = await pipeline.store.load(game_id)
            notices = [n for n in kept if n.game_id == game_id]
            drawn = drawn_notices(notices, game, pipeline.bot_username)
            for gone in {n.id for n in notices} - {n.id for n in drawn}:
                log.warning("game %s: notice %s dropped, the game is gone", game_id, gone)
                outbox.forget_notice(gone)
            outbox.post(drawn)
