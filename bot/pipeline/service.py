"""The pipeline: the one place with I/O for a change of a game, whatever asks for it — a person's press or command,
a game's timer, the outbox reporting a chat closed or moved.

1. A handler turns its update into a command (``bot.flow.commands``) and calls :meth:`Pipeline.run` with where
   it came from (:class:`Origin`: the update, the chat, the person's languages, the press).
2. The pipeline loads what the command's decision needs — the game in play, and what only Telegram or the database
   can say (a person's rights, the chat's other games, a new game's id, a seed) — and calls the decision, a pure
   function of ``bot.flow``: its events, or a refusal that changes nothing.
3. It folds the events over the game (``evolve``), works out whom the events are told to, and stores it all — the
   game, its moves, the notices, the update's mark — in **one** transaction (:meth:`Store.commit`).
4. The one step that draws (``bot.delivery.draw``) turns the game before and after, and its events, into every
   chat's messages; the outbox sends them. A refusal is drawn likewise (``bot.delivery.answers``): the press's
   answer, or one reply per chat and while.
5. The game's timer (``bot.pipeline.timers``) looks again at what is due.

A game's change holds its lock from its load to its drawing, so its messages follow its changes in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Final

from bot import logs
from bot.clock import Clock
from bot.delivery import answers
from bot.delivery.answers import Apology
from bot.delivery.draw import Pressed, draw
from bot.delivery.outbox import ChatForbidden, DeliveryReport, Outbox
from bot.delivery.outbox.orders import AnswerPress
from bot.delivery.outbox.queue import table_slot
from bot.delivery.refusals import RefusalThrottle
from bot.delivery.web import Page
from bot.flow import commands as cmd
from bot.flow import lobby, moves, people
from bot.flow.commands import Decided, Decision, FlowConfig, Refusal
from bot.flow.moves import plain_name
from bot.i18n import Translator
from bot.model import skill_scale
from bot.model.answers import Answer
from bot.model.game import (
    Abandoned,
    Blocked,
    Cancelled,
    DealEnded,
    Dealt,
    Event,
    Expired,
    Game,
    GameMode,
    GameStatus,
    Moved,
    Opened,
    OptionsSet,
    PartyEnded,
    RematchCalled,
    Reminded,
    SeatBack,
    Seated,
    SeatLeft,
    SeatReplaced,
    StartBotFirst,
    TimedOut,
    Unseated,
    evolve,
)
from bot.operations.operator import Operator
from bot.pipeline.access import Membership
from bot.pipeline.origin import NOWHERE, Answered, Done, Failed, GameFailed, Handle, Origin
from bot.pipeline.people import People
from bot.pipeline.replies import Replies
from bot.pipeline.seasons import Seasons
from bot.pipeline.store import Store
from bot.pipeline.thinker import Thinker
from bot.pipeline.timers import Timers
from bot.ratings import achievements, skill
from bot.storage import Database, players, repo, standings

log = logging.getLogger(__name__)

PERSONAL: Final = frozenset({Answer.NOT_CREATOR_OR_ADMIN, Answer.CANNOT_CHECK, Answer.CANNOT_CHECK_RIGHTS})
"""Refusals about the person's own rights: one person's is never merged with another's (an admin refused because
Telegram did not answer is told so, even just after a stranger's /cancel was refused)."""


class Pipeline:
    def __init__(
        self,
        db: Database,
        outbox: Outbox,
        clock: Clock,
        config: FlowConfig,
        membership: Membership,
        thinker: Thinker,
        operator: Operator,
        bot_username: str,
    ) -> None:
        self.db = db
        self.outbox = outbox
        self.clock = clock
        self.config = config
        self.membership = membership
        self.thinker = thinker
        self.operator = operator
        self.bot_username = bot_username
        self.page: Page | None = None
        """The Mini App (None: none): a hand in play gets a button that opens it, a group's table a link."""
        self.store = Store(db, clock)
        self.refusals = RefusalThrottle(clock)
        """Refusals merged per chat."""
        self.timers = Timers(self)
        self.watchers: list[Callable[[Game], None]] = []
        """Who follows every committed game besides its chats (the Mini App's open pages): told the game after each
        change and after a restart's redraw, once the outbox has its messages."""
        self.people = People(self)
        self.replies = Replies(self)
        self.seasons = Seasons(self)
        self._handles: dict[type, Handle] = {
            cmd.OpenLobby: self._open,
            cmd.Join: self._join,
            cmd.LeaveLobby: self._by_id(lobby.leave_lobby),
            cmd.AddBot: self._by_id(lobby.add_bot),
            cmd.RemoveBot: self._by_id(lobby.remove_bot),
            cmd.ShowScreen: self._by_id(lobby.show_screen),
            cmd.SetOption: self._by_id(lobby.set_option),
            cmd.Start: self._start,
            cmd.Cancel: self._cancel,
            cmd.Rematch: self._rematch,
            cmd.StartSolo: self._solo,
            cmd.Pick: self._timed(moves.pick),
            cmd.Back: self._timed(moves.back),
            cmd.Play: self._timed(moves.play),
            cmd.TakeSeat: self._timed(moves.take_seat),
            cmd.BotMove: self._timed(moves.bot_move),
            cmd.ShowHand: self._by_id(people.show_hand),
            cmd.SendHistory: self._by_id(people.send_history),
            cmd.LeaveGame: self._leave,
            cmd.HandsBack: self._hands_back,
            cmd.ShowTable: self._show_table,
            cmd.ShowSheet: self._show_sheet,
            cmd.Repost: self._repost,
            **self.people.handles(),
        }

    # --------------------------------------------------------------------------------------------------- entry

    async def run(self, command: cmd.Command, origin: Origin = NOWHERE) -> Done:
        """Decide ``command`` and have what it did drawn and delivered — its refusal or its press's answer
        included. An unexpected failure is logged (with its game), reported, and apologized for; the database's
        trouble is left to the update's guard, which tries it again or apologizes."""
        try:
            done = await self._handles[type(command)](command, origin)
        except sqlite3.Error:
            raise
        except GameFailed as failure:
            cause = failure.__cause__ or failure
            await self.failed(origin, cause, failure.game_id)
            return Failed(game_id=failure.game_id)
        except Exception as exc:
            await self.failed(origin, exc, 0)
            return Failed()
        if isinstance(done.answer, Refusal):
            await self.refused(done.answer, origin, done.game_id)
        elif origin.query_id is not None and not isinstance(done, Answered):
            answer = done.answer if done.answer is not None else command.answer
            # a move's press is answered with no words: the hand it changes says what happened
            said = (
                answers.answered(origin.query_id, answer, origin.tr)
                if answer
                else AnswerPress(origin.query_id)
            )
            await self.outbox.deliver([said])
        return done

    async def refused(self, refusal: Refusal, origin: Origin, game_id: int = 0) -> None:
        """A refusal drawn: the press's answer says why; a command's reply does, once per chat and while."""
        reason = str(refusal.reason.value)
        user = origin.user_id or None
        self.operator.refused(reason, user, origin.chat_id or None, game_id or None)
        tr = origin.tr
        if origin.query_id is not None:
            log.info("game %s: a press by %s refused: %s", game_id or None, user, reason)
            stray = None
            if game_id and origin.message_id is not None:
                stray = (game_id, origin.user_id, origin.chat_id, origin.message_id)
            await self.outbox.deliver(answers.refused_press(refusal, origin.query_id, tr, stray))
            return
        if not origin.chat_id:
            return  # a timer's or a report's command: nobody to tell
        what = origin.command or "a message"
        log.info("game %s: %s in chat %s refused: %s", game_id or None, what, origin.chat_id, reason)
        person = origin.user_id if refusal.reason in PERSONAL else 0
        if not self.refusals.allow(origin.chat_id, origin.thread_id, origin.command, reason, person):
            log.info("chat %s: refusal %s to %s merged with the last one", origin.chat_id, reason, what)
            return
        refused = answers.refused_command(
            refusal, origin.chat_id, origin.thread_id, tr, origin.user_id, origin.question_id
        )
        await self.outbox.deliver([refused])

    async def failed(self, origin: Origin, exc: BaseException, game_id: int = 0) -> None:
        """Anything that went wrong unexpectedly: logged with its traceback and who met it, reported to the
        operators' chat (once per place and while); a press gets a short apology, not a spinner."""
        user, chat = origin.user_id or None, origin.chat_id or None
        log.error(
            "game %s: update %s (user %s, chat %s) failed: %r",
            game_id or None,
            origin.update_id,
            user,
            chat,
            exc,
            exc_info=exc,
        )
        self.operator.failed(exc, user, chat, game_id or None)
        if origin.query_id is not None:
            await self.apologize(origin.query_id, origin.tr, Apology.FAILED)

    async def apologize(self, query_id: str, tr: Translator, why: Apology) -> None:
        """A press the bot could not do (it failed, the database is in trouble): answered with an apology."""
        await self.outbox.deliver([answers.apology(query_id, tr, why)])

    async def answer(self, query_id: str, answer: Answer, tr: Translator) -> None:
        """A press answered with ``answer`` in words, before any command (the incoming throttle's «Секунду…»)."""
        await self.outbox.deliver([answers.answered(query_id, answer, tr)])

    async def tell(self, chat_id: int, thread_id: int, answer: Answer, tr: Translator) -> None:
        """``answer`` in words, as a reply in the chat (a question beyond what waits its turn)."""
        await self.outbox.deliver([answers.told(chat_id, thread_id, answer, tr)])

    async def note(self, chat_id: int, thread_id: int, answer: Answer, tr: Translator) -> None:
        """The chat's one note from the incoming throttle reads ``answer`` (a member beyond their window)."""
        await self.outbox.deliver([answers.throttle_note(chat_id, thread_id, answer, tr)])

    async def coming(self, chat_id: int, message_id: int) -> None:
        """The member's question ``message_id`` waits its turn: it is marked as coming (once)."""
        await self.outbox.deliver([answers.coming(chat_id, message_id)])

    async def note_gone(self, chat_id: int, thread_id: int) -> None:
        """The chat's throttle note is deleted (its time over)."""
        await self.outbox.deliver([answers.throttle_note_gone(chat_id, thread_id)])

    # --------------------------------------------------------------------------------------------- lifecycle

    async def resume(self) -> int:
        """After a start: the notices a previous run left unsent go out (drawn from the games as stored), every
        active game is shown again and its timer restarted. Returns how many games."""
        games = await self.timers.resume()
        await self.people.post_kept(None)
        for game_id in games:
            game = await self.store.load(game_id)
            if game is not None:
                await self.show(game)
        return len(games)

    async def follow(self, reports: asyncio.Queue[DeliveryReport]) -> None:
        """What the outbox reports about chats (closed to the bot, moved), handled one at a time while it runs."""
        while True:
            report = await reports.get()
            try:
                if isinstance(report, ChatForbidden):
                    await self.run(cmd.Forbidden(report.chat_id))
                else:
                    await self.run(cmd.ChatMoved(report.old, report.new))
            except Exception:
                log.exception("could not act on the outbox's report %s", report)

    async def end_abandoned(self, idle_for: float) -> int:
        """Close the games nobody has moved in for ``idle_for`` seconds (the operator's hourly upkeep); how many."""
        return (await self.run(cmd.EndAbandoned(idle_for))).counted

    async def close(self) -> None:
        await self.timers.close()

    # ------------------------------------------------------------------------------------- one change of a game

    async def change(
        self, game_id: int, decide: Callable[[Game], Decision], origin: Origin = NOWHERE
    ) -> Decision:
        """Decide on game ``game_id`` under its lock and, if decided, store and draw what happened (a refusal:
        nothing; no such game: ``NO_GAME``)."""
        async with self.store.locks[game_id]:
            token = logs.GAME.set(game_id)
            try:
                before = await self.store.load(game_id)
                if before is None:
                    return Refusal(Answer.NO_GAME)
                decision = decide(before)
                if isinstance(decision, Decided) and decision.events:
                    await self.apply(before, decision.events, origin)
                return decision
            except (sqlite3.Error, GameFailed):
                raise
            except Exception as exc:
                raise GameFailed(game_id) from exc
            finally:
                logs.GAME.reset(token)

    async def create(self, decision: Decision, origin: Origin = NOWHERE, *, adopt: bool = False) -> Decision:
        """A decision that opens a new game (its first event: :class:`Opened`): stored and drawn (``adopt``: the
        pressed message becomes its live message). Another game of the chat stored meanwhile: ``GAME_RUNNING``."""
        if isinstance(decision, Refusal) or not decision.events:
            return decision
        opened = decision.events[0]
        assert isinstance(opened, Opened)
        async with self.store.locks[opened.game.id]:
            try:
                await self.apply(None, decision.events, origin if adopt else _no_press(origin))
            except sqlite3.IntegrityError:
                return Refusal(Answer.GAME_RUNNING)
        return decision

    async def apply(self, before: Game | None, events: Sequence[Event], origin: Origin) -> Game:
        """The events of a decision: the game after them, whom they are told, stored in one transaction with the
        update's mark; drawn and handed to the outbox; the game's timer told."""
        after = evolve(before, events) if before is not None else evolve(_unborn(events), events)
        ends = any(isinstance(event, PartyEnded) for event in events)
        rates = ends or (
            before is not None and before.is_on and any(isinstance(event, Cancelled) for event in events)
        )
        # A party's people are rated in its end's transaction; one party's end at a time, so that a person at two
        # tables never has one rating overwrite the other (the rebuild rates in the same order).
        async with self.store.rating if rates else contextlib.nullcontext():
            if rates:
                events = await self._rated(before, after, events)
            if ends:
                events = await self._achievements(after, events)
            notices = self.store.notices(after, events)
            await self.store.commit(before, after, events, notices, origin.update_id)
        for event in events:
            line = describe(event, after)
            if line is not None:
                log.info("game %s: %s", after.id, line)
            elif isinstance(event, Moved):
                log.debug(
                    "game %s: seat %s played %s (%s)", after.id, event.seat, event.code, event.actor.value
                )
        orders = draw(
            before,
            after,
            events,
            notices,
            self.bot_username,
            _pressed(origin),
            self._copies(after),
            page=self.page,
        )
        await self.outbox.deliver(orders)
        for watcher in self.watchers:
            watcher(after)
        if may_fall_due(before, after):
            self.timers.changed(after)
        return after

    async def _achievements(self, after: Game, events: Sequence[Event]) -> Sequence[Event]:
        """The party's end with what its people earned by it (what they held before read from the database)."""
        people = [seat.user_id for seat in after.people() if seat.user_id is not None]
        held = await players.standings(self.db, after.kind, people, achievements.MASTER_RUN)
        return achievements.award(after, events, held)

    async def _rated(self, before: Game | None, after: Game, events: Sequence[Event]) -> list[Event]:
        """The events with the party's end (or its cancelling by one of its players) carrying its people's ratings
        before and after it (read here)."""
        people = [seat.user_id for seat in after.people() if seat.user_id is not None]
        stored = await standings.skills_of(self.db, after.kind, people)
        priors = {user: skill.Skill(s.mu, s.sigma) for user, s in stored.items()}
        rated: list[Event] = []
        for event in events:
            if isinstance(event, PartyEnded):
                event = skill.rated_end(event, after, priors)
            elif isinstance(event, Cancelled) and before is not None:
                event = skill.rated_cancel(event, before, priors)
            rated.append(event)
        return rated

    async def show(self, game: Game) -> None:
        """Every message of ``game`` drawn from scratch (after a restart), its kept notices aside."""
        drawn = draw(None, game, (), (), self.bot_username, copies=self._copies(game), page=self.page)
        await self.outbox.deliver(drawn)
        for watcher in self.watchers:
            watcher(game)
        if may_fall_due(None, game):
            self.timers.changed(game)

    def _copies(self, game: Game) -> list[int]:
        """The players who keep a copy of the game's whole table («📋 Стол»): the outbox knows it was sent."""
        return [
            seat.user_id
            for seat in game.people()
            if seat.user_id is not None
            and self.outbox.message_id(table_slot(game.id, seat.user_id)) is not None
        ]

    def seed(self) -> int:
        """A new party's seed: the configured one (tests), else a fresh random one."""
        return self.config.game_seed if self.config.game_seed is not None else secrets.randbits(48)

    # ------------------------------------------------------------------------------- the lobby and its games

    def _by_id(self, decide: Callable[[Any, Game], Decision]) -> Handle:
        """A command naming its game, decided on it alone."""

        async def handle(command: Any, origin: Origin) -> Done:
            decision = await self.change(command.game_id, lambda game: decide(command, game), origin)
            return _done(decision, command.game_id)

        return handle

    def _timed(self, decide: Callable[[Any, Game, float, FlowConfig], Decision]) -> Handle:
        """A command naming its game, decided on it at the time and under the flow's settings."""

        async def handle(command: Any, origin: Origin) -> Done:
            def decision(game: Game) -> Decision:
                return decide(command, game, self.clock.now(), self.config)

            return _done(await self.change(command.game_id, decision, origin), command.game_id)

        return handle

    async def _opening(
        self, chat_id: int, thread_id: int, host: int, people: Sequence[int], kind: str = ""
    ) -> lobby.Opening:
        """What opening a game in ``chat_id`` reads: its active game, the host's lobbies, the people who sit down,
        and (a group's game of ``kind``) the settings the chat saved for it."""
        running = await repo.active_game_in_chat(self.db, chat_id, thread_id)
        return lobby.Opening(
            game_id=self.store.new_id(),
            now=self.clock.now(),
            refused=self.outbox.is_refused(chat_id),
            running=running.status if running is not None else None,
            open_lobbies=await repo.open_lobbies_of(self.db, host),
            users=await repo.users_by_id(self.db, list(dict.fromkeys(people))),
            lang=await repo.chat_lang(self.db, chat_id),
            saved=(await repo.chat_settings(self.db, chat_id)).get(kind) if kind else None,
        )

    async def _open(self, command: cmd.OpenLobby, origin: Origin) -> Done:
        host = command.creator.user_id if command.host is None else command.host
        async with self.store.openings[host]:
            people = [command.creator.user_id, *(s.user_id for s in command.seats if s.user_id is not None)]
            opening = await self._opening(command.chat_id, command.thread_id, host, people, command.kind)
            if opening.refused:
                log.info("no lobby in chat %s: the bot cannot post there", command.chat_id)
            decision = await self.create(lobby.open_lobby(command, opening, self.config), origin)
        if isinstance(decision, Decided) and decision.events and isinstance(decision.events[0], Opened):
            try:  # the lobby is open and answered whatever befalls its calls (logged with the game)
                await self.replies.call_next_game(decision.events[0].game)
            except Exception:
                log.exception("game %s: could not call the chat's /nextgame list", opening.game_id)
        return _done(decision, opening.game_id)

    async def _solo(self, command: cmd.StartSolo, origin: Origin, *, adopt: bool = True) -> Done:
        person = command.person
        async with self.store.openings[person.user_id]:
            opening = await self._opening(person.user_id, 0, person.user_id, [person.user_id])
            decision = lobby.start_solo(command, opening, self.seed(), self.config)
            decision = await self.create(decision, origin, adopt=adopt)
        return _done(decision, opening.game_id)

    async def _join(self, command: cmd.Join, origin: Origin) -> Done:
        """Game ids are sequential, so a join link is easy to guess: membership of the lobby's group is asked of
        Telegram first (outside the game's lock)."""
        game = await self.store.load(command.game_id)
        if game is None:
            return Done(Refusal(Answer.NO_GAME), command.game_id)
        member: bool | None = True
        if game.mode is GameMode.GROUP and game.status is GameStatus.LOBBY:
            standing = await self.membership.standing(game.chat_id, command.person.user_id)
            member = standing.is_member if standing.is_known else None
            if member is False:
                log.info(
                    "game %s: %s is not in chat %s and may not join",
                    game.id,
                    command.person.user_id,
                    game.chat_id,
                )
        decision = await self.change(command.game_id, lambda g: lobby.join(command, g, member), origin)
        return _done(decision, command.game_id)

    async def _start(self, command: cmd.Start, origin: Origin) -> Done:
        seed = self.seed()

        def decide(game: Game) -> Decision:
            return lobby.start(command, game, seed, self.clock.now(), self.config)

        return _done(await self.change(command.game_id, decide, origin), command.game_id)

    async def _cancel(self, command: cmd.Cancel, origin: Origin) -> Done:
        """The creator, or an admin of the game's own chat: admin rights are asked of Telegram before the game's
        lock is taken (a flood of presses by people who may not cancel must never hold up the players' moves)."""
        game_id = command.game_id
        if game_id is None:
            found = await repo.active_game_in_chat(self.db, command.chat_id, command.thread_id)
            if found is None:
                return Done(Refusal(Answer.NO_GAME))
            game_id = found.id
        game = await self.store.load(game_id)
        if game is None or not game.status.is_active:
            return Done(Refusal(Answer.NO_GAME), game_id)
        rights = None
        if command.person.user_id != game.creator_id and game.mode is GameMode.GROUP:
            standing = await self.membership.standing(game.chat_id, command.person.user_id)
            rights = lobby.Rights(game.chat_id, standing.is_admin if standing.is_known else None)
        decision = await self.change(
            game_id, lambda g: lobby.cancel(command, g, rights, self.clock.now()), origin
        )
        return _done(decision, game_id)

    async def _rematch(self, command: cmd.Rematch, origin: Origin) -> Done:
        """A new game with the same players and options as a finished one (a group's: a lobby; solo: a game)."""
        plan = lobby.rematch(command, await self.store.load(command.game_id))
        if isinstance(plan, Refusal):
            return Done(plan, command.game_id)
        if isinstance(plan, cmd.StartSolo):
            return await self._solo(plan, origin, adopt=False)
        return await self._open(plan, origin)

    # ---------------------------------------------------------------------- commands of a person's games

    async def running(self, user_id: int, *, solo_only: bool = False) -> list[Game]:
        """The running games this person plays in (``solo_only``: their game with bots)."""
        found = []
        for row in await repo.games_of_user(self.db, user_id, (GameStatus.PLAYING,)):
            if solo_only and row.mode is not GameMode.SOLO:
                continue
            game = await self.store.load(row.id)
            if game is not None and game.status is GameStatus.PLAYING:
                found.append(game)
        return found

    async def each(self, games: Sequence[Game], decide: Callable[[Game], Decision], origin: Origin) -> Done:
        """The same decision on each game: the first refusal stops it; how many were decided."""
        counted = 0
        for game in games:
            decision = await self.change(game.id, decide, origin)
            if isinstance(decision, Refusal):
                return Done(decision, game.id, counted)
            counted += 1
        return Done(None, games[0].id if games else 0, counted)

    async def _leave(self, command: cmd.LeaveGame, origin: Origin) -> Done:
        """/leave: the person's seat in the running group game of this chat (in private: in each of theirs)."""
        in_private = command.chat_id == command.person.user_id
        if in_private:
            games = await self.running(command.person.user_id)
        else:
            row = await repo.active_game_in_chat(self.db, command.chat_id, command.thread_id)
            game = await self.store.load(row.id) if row is not None else None
            games = [game] if game is not None else []
        found = people.leaving(games, in_private=in_private)
        if isinstance(found, Refusal):
            return Done(found)
        user_id = command.person.user_id
        return await self.each(
            found, lambda g: people.leave(g, user_id, self.clock.now(), self.config), origin
        )

    async def _hands_back(self, command: cmd.HandsBack, origin: Origin) -> Done:
        user_id = command.person.user_id
        games = await self.running(user_id, solo_only=command.solo_only)
        return await self.each(games, lambda g: people.hand_back(g, user_id), origin)

    async def _show_table(self, command: cmd.ShowTable, origin: Origin) -> Done:
        user_id = command.person.user_id
        if command.game_id is None:  # /score text in private: each running game, else the last one finished
            games = await self.running(user_id) or await self._last_finished(user_id=user_id)
        else:
            game = await self.store.load(command.game_id)
            games = [game] if game is not None else []
        if not games:
            return Done(Refusal(Answer.NO_GAME), command.game_id or 0)
        return await self.each(games, lambda g: people.show_table(g, user_id), origin)

    async def _show_sheet(self, command: cmd.ShowSheet, origin: Origin) -> Done:
        """``/score`` and «📋 Запись»: of the game pressed, else of the game open in that group chat (its lobby:
        the lobby again), or in a private chat of every running game of the person; with none open, of the last
        party finished there (of theirs)."""
        user_id, chat_id, thread_id = command.person.user_id, command.chat_id, command.thread_id
        pressed = command.game_id is not None
        if command.game_id is not None:
            game = await self.store.load(command.game_id)
            games = [game] if game is not None else []
        elif chat_id == user_id:
            games = await self.running(user_id) or await self._last_finished(user_id=user_id)
        else:
            row = await repo.active_game_in_chat(self.db, chat_id, thread_id)
            game = await self.store.load(row.id) if row is not None else None
            games = [game] if game is not None else await self._last_finished(chat=(chat_id, thread_id))
        if not games:
            return Done(Refusal(Answer.NO_GAME), command.game_id or 0)

        def decide(game: Game) -> Decision:
            return people.show_sheet(game, user_id, chat_id, thread_id, pressed=pressed)

        return await self.each(games, decide, origin)

    async def _last_finished(self, *, chat: tuple[int, int] | None = None, user_id: int = 0) -> list[Game]:
        """The party that finished last in a chat's topic, or of those ``user_id`` played (none: empty)."""
        last = await repo.last_finished(self.db, chat=chat, user_id=user_id)
        game = await self.store.load(last.id) if last is not None else None
        return [game] if game is not None and game.party is not None else []

    async def _repost(self, command: cmd.Repost, origin: Origin) -> Done:
        """``/score text`` in a group: its game's table again below; with none open, the last party finished
        there (as ``/score`` shows that party's final sheet)."""
        row = await repo.active_game_in_chat(self.db, command.chat_id, command.thread_id)
        if row is None:
            row = await repo.last_finished(self.db, chat=(command.chat_id, command.thread_id))
        if row is None:
            return Done(Refusal(Answer.NO_GAME))
        return _done(await self.change(row.id, people.repost, origin), row.id)


def _done(decision: Decision, game_id: int) -> Done:
    if isinstance(decision, Refusal):
        return Done(decision, game_id)
    return Done(decision.answer, game_id, 1)


def may_fall_due(before: Game | None, after: Game) -> bool:
    """Whether a change may have moved what falls due in a game: its timer must look again (a game that is over:
    it is forgotten). A game with nothing that falls due by itself — people to move, no limit per turn — needs no
    timer: a press there costs no task."""
    if before is not None and before.timing == after.timing:
        return False
    return after.timed or not after.status.is_active


def _pressed(origin: Origin) -> Pressed | None:
    """The message a button was pressed in (None: no press)."""
    if origin.query_id is None or origin.message_id is None or origin.person is None:
        return None
    return Pressed(origin.chat_id, origin.message_id, origin.person.user_id)


def _no_press(origin: Origin) -> Origin:
    """``origin`` without its pressed message (the press is still answered)."""
    return dataclasses.replace(origin, message_id=None)


def _unborn(events: Sequence[Event]) -> Game:
    opened = events[0]
    assert isinstance(opened, Opened), "a new game's first event opens it"
    return opened.game


def _ratings(event: PartyEnded | Cancelled, game: Game) -> str:
    """The people's ratings a party's end (or cancelling) set, for its log line."""
    return "; ".join(
        f"seat {r.seat} place {r.place} rated {skill_scale.shown(r.after.mu)} ({r.change:+d})"
        for r in skill.changes_of(event, game)
    )


def describe(event: Event, game: Game) -> str | None:
    """An event as one line of the log (None: not worth a line — a look, a screen turned; a move is a debug line)."""
    match event:
        case Opened():
            if game.mode is GameMode.SOLO:
                bots = [seat for seat in game.seats if seat.is_bot]
                level = bots[0].level if bots else "?"
                return f"a solo {game.kind} game started by {game.creator_id} against {len(bots)} bot players ({level})"
            return f"a {game.kind} lobby opened in chat {game.chat_id} by {game.creator_id}"
        case Seated(user_id=None, level=level):
            return f"a bot player ({level}) added"
        case Seated(user_id=user_id):
            return f"{user_id} took a seat"
        case Unseated(seat=seat):
            return f"seat {seat} left"
        case OptionsSet():
            return f"options set: {dict(event.options)}, {event.turn_timeout} s a turn"
        case Dealt(bots=bots):
            return f"started with {len(game.seats)} seats ({bots} bot players added)"
        case Cancelled(by=0):
            return "cancelled: the bot cannot post in its chat"
        case Cancelled(by=by, rated=changes) if changes:
            return f"cancelled by {by}, who played: counted as their loss; " + _ratings(event, game)
        case Cancelled(by=by):
            return f"cancelled by {by}"
        case Expired():
            return "the lobby expired"
        case Abandoned():
            return "no move since long ago; ended as abandoned"
        case PartyEnded():
            outcome = game.party.outcome if game.party is not None else None
            winners = (
                ", ".join(
                    f"seat {w} ({plain_name(game.seats[w], 'en', game.seats)})" for w in outcome.winners
                )
                if outcome
                else ""
            )
            feats = "".join(f"; seat {seat} earned {code}" for seat, code in event.earned)
            line = _ratings(event, game) or "not rated"
            return f"the party ended after {game.version} moves; won by {winners or 'nobody'}; {line}{feats}"
        case DealEnded(deal=deal):
            return f"deal {deal} scored"
        case TimedOut(player=player, code=code) | SeatReplaced(player=player, code=code):
            taken = " and a bot player took the seat" if isinstance(event, SeatReplaced) else ""
            return f"seat {player}'s time ran out: the bot played {code}{taken}"
        case SeatBack(player=player):
            return f"seat {player} taken back from the bot player"
        case SeatLeft(player=player):
            return f"seat {player} left to a bot player"
        case StartBotFirst(player=player):
            return f"the bot cannot write to seat {player}'s player"
        case RematchCalled(player=player):
            return f"a rematch called by seat {player}"
        case Blocked(user_id=user_id):
            return f"{user_id} blocked the bot"
        case Reminded(seat=seat):
            return f"seat {seat} reminded of its turn"
    return None
