"""The pipeline for what people ask that changes no game itself: the greeting and the ways on (a running game's
hand brought back instead), menus and the solo set-up, help, /score, /stats and /top, deep links, the languages,
/admin, the rules and the inline answer, the hint and the review. Each loads what its answer needs and has it
drawn (``bot.delivery.replies``); a game's part goes through :meth:`Pipeline.run` as a command."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Final

from bot.callbacks import AUTO_LANG, DeepLink, NewCb, SoloStep, game_id_of, parse_start_payload
from bot.delivery import calls, replies
from bot.delivery.answers import answered
from bot.delivery.outbox.orders import AnswerPress, Order, Show
from bot.delivery.outbox.queue import chat_rules_slot, review_slot
from bot.flow import commands as cmd
from bot.flow import hints
from bot.flow.commands import Refusal
from bot.games import is_hosted, plugin_of, plugins, rules_library
from bot.games.base import drawn
from bot.i18n import Locale, Translator
from bot.model import skill_scale
from bot.model.answers import Answer
from bot.model.game import Game, GameMode, GameStatus, Person
from bot.pipeline.kept import Kept
from bot.pipeline.origin import Origin, Parts
from bot.ratings import seasons
from bot.ratings.page import player_page, rated_line, standing_lines
from bot.storage import Batch, GameRow, players, repo, standings
from bot.views import Rendered, SoloGame, answer_text
from bot.views.chat_settings import render_settings_saved, render_settings_shown, settings_line
from bot.views.common import table_frame
from bot.views.rules import GameContext
from bot.views.rules_lookup import lookup
from engine.ai import Level, backends

if TYPE_CHECKING:
    from engine.ai.advice import Advice
    from engine.ai.review import Review

log = logging.getLogger(__name__)

HINTS_KEPT: Final = 256
"""Hints kept searched (a turn's, by game, version and seat): a player asking again, in the chat or the Mini App,
costs no second search."""
RESET_WORDS: Final = frozenset({"reset", "сброс", "сбросить", "обычные"})
"""What after /settings forgets the chat's own settings."""
TOP_ALL: Final = frozenset({"all", "все", "всё", "global", "общая"})
"""What after /top in a group asks for the global board."""
TOP_WINS: Final = frozenset({"wins", "победы", "очки", "points"})
"""What after /top in a group asks for the board by wins and points (the one before ratings)."""
TOP_LINES: Final = 10
SEASON_LINES: Final = 3
REVIEWS_KEPT: Final = 64
"""Reviews kept made (a few seconds of a worker each): a finished party's players asking again, or asking in the
Mini App too, cost nothing."""


def solo_games() -> list[SoloGame]:
    return [SoloGame(p.kind, p.solo_opponents) for p in plugins() if p.solo_opponents]


def _context(game: GameRow | None) -> GameContext | None:
    if game is None or rules_library().book(game.kind) is None:
        return None
    return GameContext(game.kind, game.options, str(game.id), turn_seconds=game.turn_timeout)


class Replies:
    def __init__(self, pipeline: Parts) -> None:
        self.pipeline = pipeline
        self.advice: Kept[tuple[int, int, int], Advice] = Kept(HINTS_KEPT)
        """Hints searched, by game, version and seat."""
        self.reviews: Kept[tuple[int, int], Review] = Kept(REVIEWS_KEPT)
        """Reviews made, by game and seat (a finished party's never change)."""

    @property
    def username(self) -> str:
        return self.pipeline.bot_username

    async def _deliver(self, *orders: Order) -> None:
        await self.pipeline.outbox.deliver(orders)

    async def _deliver_to(self, origin: Origin, *orders: Order) -> None:
        """Orders answering ``origin``'s person: in a group, answered in turn with the other members'."""
        await self.pipeline.outbox.deliver(replies.asked_by(origin.user_id, orders, origin.question_id))

    async def _answer(self, origin: Origin, text: str | None = None) -> None:
        if origin.query_id is not None:
            await self._deliver_to(origin, AnswerPress(origin.query_id, text))

    def _person(self, origin: Origin) -> Person:
        assert origin.person is not None, "a question without a person"
        return origin.person

    # --- greetings and menus -------------------------------------------------------------------------------

    async def greet(self, origin: Origin) -> None:
        """/start in private: a running game's hand comes back below; otherwise the greeting with the ways on."""
        pipeline, who = self.pipeline, self._person(origin)
        await pipeline.run(cmd.Seen(who, started=True), origin)
        if (await pipeline.run(cmd.HandsBack(who), origin)).counted:
            return
        tr = origin.tr
        names = [p.name(tr) for p in plugins()]
        commands = [f"/{p.command}" for p in plugins()]
        await self._deliver_to(
            origin,
            replies.start(tr, names, commands, self.username, rules_library().first.id, origin.chat_id),
        )

    async def start_play(self, origin: Origin) -> None:
        """``/start play``: the private chat opened from a group's «/play» answer: straight to the game menu."""
        pipeline, who = self.pipeline, self._person(origin)
        await pipeline.run(cmd.Seen(who, started=True), origin)
        if (await pipeline.run(cmd.HandsBack(who, solo_only=True), origin)).counted:
            return
        await self._deliver_to(
            origin, replies.say(origin.chat_id, replies.play_menu(origin.tr, solo_games()))
        )

    async def play(self, origin: Origin) -> None:
        """/play: with a solo game running, its hand at once, below (one game per private chat); else the menu, and
        below it the hand of any group game the person plays in (their game finds them again)."""
        pipeline, who = self.pipeline, self._person(origin)
        if (await pipeline.run(cmd.HandsBack(who, solo_only=True), origin)).counted:
            return
        await self._deliver_to(
            origin, replies.say(origin.chat_id, replies.play_menu(origin.tr, solo_games()))
        )
        await pipeline.run(cmd.HandsBack(who), origin)

    async def play_pressed(self, origin: Origin) -> None:
        """«🎮 Играть с ботами»: the running solo game's hand below; else the game menu — in place of this message,
        or, while the person plays in a group, anew below with that game's hand under it (as /play does: an old
        greeting high up in the chat must not open a set-up out of sight, the group game's hand lost above)."""
        pipeline, who = self.pipeline, self._person(origin)
        answer = AnswerPress(origin.query_id) if origin.query_id is not None else None
        if (await pipeline.run(cmd.HandsBack(who, solo_only=True), _no_answer(origin))).counted:
            await self._deliver_to(origin, *(answer,) if answer else ())
            return
        rendered = replies.play_menu(origin.tr, solo_games())
        in_private = origin.message_id is not None and origin.chat_id == who.user_id
        if in_private and not await pipeline.running(who.user_id):
            assert origin.message_id is not None
            await self._deliver_to(origin, *replies.setup_page(origin.chat_id, origin.message_id, rendered))
        else:
            await self._deliver_to(origin, replies.say(who.user_id, rendered))
            await pipeline.run(cmd.HandsBack(who), _no_answer(origin))
        await self._deliver_to(origin, *(answer,) if answer else ())

    async def solo_step(self, origin: Origin, kind: str, step: SoloStep, opponents: int, level: str) -> None:
        """The solo set-up's buttons: the number of opponents, then their level (which starts the game in this
        very message)."""
        if origin.message_id is None or not is_hosted(kind):
            await self.pipeline.refused(Refusal(Answer.UNKNOWN), origin)
            return
        if step is SoloStep.LEVEL:
            try:
                chosen = Level(level)
            except ValueError:
                await self.pipeline.refused(Refusal(Answer.UNKNOWN), origin)
                return
            await self.pipeline.run(cmd.StartSolo(self._person(origin), kind, opponents, chosen), origin)
            return
        games = solo_games()
        game = next(g for g in games if g.kind == kind)
        count = opponents if step is SoloStep.OPPONENTS else 0
        rendered = replies.solo_setup(origin.tr, games, game, count)
        await self._deliver_to(origin, *replies.setup_page(origin.chat_id, origin.message_id, rendered))
        await self._answer(origin)

    async def group_start(self, origin: Origin) -> None:
        """/start in a group (also the bot just added through «👥 Добавить в группу»): how to play here."""
        commands = [f"/{p.command}" for p in plugins()]
        await self._deliver_to(
            origin, replies.group_start(origin.tr, commands, self.username, origin.chat_id, origin.thread_id)
        )

    async def menu(self, origin: Origin) -> None:
        """Anything else written in private: the short menu."""
        await self._deliver_to(
            origin, replies.menu(origin.tr, self.username, rules_library().first.id, origin.chat_id)
        )

    async def elsewhere(self, origin: Origin, command: str, *, group_only: bool) -> None:
        """A command meant for the other kind of chat: where it works, with the button that gets there."""
        if group_only:
            await self._deliver_to(
                origin, replies.group_only(origin.tr, command, self.username, origin.chat_id)
            )
        else:
            reply = replies.private_only(origin.tr, command, self.username, origin.chat_id, origin.thread_id)
            await self._deliver_to(origin, reply)

    async def new_menu(self, origin: Origin) -> None:
        """/new in a group: each game's choices."""
        tr = origin.tr
        games = [
            [(label, NewCb(kind=p.kind, choice=choice).pack()) for label, choice in p.new_choices(tr)]
            for p in plugins()
        ]
        await self._deliver_to(origin, replies.new_menu(tr, games, origin.chat_id, origin.thread_id))

    async def new_choice(self, origin: Origin, kind: str, choice: str) -> None:
        """/new's button: the chosen game's lobby, with the options of that choice (groups only)."""
        if origin.message_id is None:
            await self._answer(origin)
            return
        if origin.chat_id > 0:
            await self.pipeline.refused(Refusal(Answer.GROUP_ONLY), origin)  # a forged press
            return
        if not is_hosted(kind):
            await self.pipeline.refused(Refusal(Answer.UNKNOWN), origin)
            return
        try:
            options = plugin_of(kind).new_options(choice, self.pipeline.config.default_target)
        except ValueError:
            await self.pipeline.refused(Refusal(Answer.UNKNOWN), origin)
            return
        command = cmd.OpenLobby(origin.chat_id, origin.thread_id, self._person(origin), kind, options)
        await self.pipeline.run(command, origin)

    # --- links, the score -----------------------------------------------------------------------------------

    async def start_link(self, origin: Origin, payload: str) -> None:
        """``/start j_<game>`` (join the lobby) or ``g_<game>`` (my cards) in private."""
        pipeline, who = self.pipeline, self._person(origin)
        await pipeline.run(cmd.Seen(who, started=True), origin)
        parsed = parse_start_payload(payload)
        game_id = game_id_of(parsed[1]) if parsed is not None else None
        if parsed is None or game_id is None:
            await self._deliver_to(origin, replies.say(origin.chat_id, _rendered(Answer.NO_GAME, origin)))
            return
        if parsed[0] is not DeepLink.JOIN:
            await pipeline.run(cmd.ShowHand(game_id, who), origin)
            return
        done = await pipeline.run(cmd.Join(game_id, who), _no_answer(origin))
        if isinstance(done.answer, Refusal):
            return  # refused: said as a reply already
        game = await pipeline.store.load(game_id)
        title = (
            await pipeline.membership.title(game.chat_id)
            if game is not None and done.answer is Answer.JOINED
            else ""
        )
        if game is not None and game.mode is GameMode.GROUP and title:
            tr = origin.tr
            await self._deliver_to(
                origin, replies.joined(title, tr.t(f"game-{game.kind}"), tr, origin.chat_id)
            )
        else:
            await self._deliver_to(
                origin, replies.say(origin.chat_id, _rendered(done.answer or Answer.JOINED, origin))
            )

    async def score(self, origin: Origin, *, as_text: bool) -> None:
        """/score: the score sheet's picture anew below — in a group of its game, in private of each game one
        plays in (before the first deal's end: the table). ``/score text``: the table as text (in a group again
        below; in private the whole table of each game). In private the hands come back below them."""
        pipeline, who = self.pipeline, self._person(origin)
        private = origin.chat_id == who.user_id
        if not as_text:
            await pipeline.run(cmd.ShowSheet(who, origin.chat_id, origin.thread_id), origin)
        elif private:
            await pipeline.run(cmd.ShowTable(who), origin)
        else:
            await pipeline.run(cmd.Repost(origin.chat_id, origin.thread_id), origin)
        if private:  # below them: a hand the person deleted comes back with its buttons
            await pipeline.run(cmd.HandsBack(who), origin)

    # --- /nextgame -------------------------------------------------------------------------------------------

    async def next_game(self, origin: Origin) -> None:
        """/nextgame in a group: the person goes on the chat's list to be called in private when its next lobby
        opens, or comes off it if already on; one the bot may not write to yet is told how to let it."""
        pipeline, who = self.pipeline, self._person(origin)
        await pipeline.run(cmd.Seen(who), origin)
        async with pipeline.db.tx() as tx:
            listed = await repo.toggle_next_game_call(tx, origin.chat_id, who.user_id, pipeline.clock.now())
        reachable = await self._can_write(who.user_id)
        log.info(
            "chat %s: %s %s the next game's calls",
            origin.chat_id,
            who.user_id,
            "joined" if listed else "left",
        )
        answer = calls.next_game_asked(
            origin.tr,
            who.name,
            origin.chat_id,
            origin.thread_id,
            listed=listed,
            reachable=reachable,
            bot_username=self.username,
        )
        await self._deliver_to(origin, answer)

    async def call_next_game(self, game: Game) -> None:
        """A lobby opened in a group: the people on its chat's /nextgame list are called in private (those the bot
        may write to), and the list is emptied."""
        pipeline = self.pipeline
        async with pipeline.db.tx() as tx:
            listed = await repo.take_next_game_calls(tx, game.chat_id)
        if not listed:
            return
        users = await repo.users_by_id(pipeline.db, listed)
        chosen = {u: locale for u in listed if (locale := await pipeline.store.languages.of(u)) is not None}
        called = calls.next_game_calls(game, [users[u] for u in listed if u in users], chosen, self.username)
        log.info("game %s: %d of %d on the chat's /nextgame list called", game.id, len(called), len(listed))
        await self._deliver(*called)

    # --- /settings ---------------------------------------------------------------------------------------------

    async def chat_settings(self, origin: Origin, words: str) -> None:
        """/settings in a group: an admin saves the open lobby's settings as the chat's own for new lobbies of its
        game (``reset``: forgets them all); anyone else, or with no lobby open, is shown the saved ones."""
        pipeline, tr = self.pipeline, origin.tr
        chat_id = origin.chat_id
        reset = " ".join(words.lower().split()) in RESET_WORDS
        lobby = await repo.active_game_in_chat(pipeline.db, chat_id, origin.thread_id)
        if lobby is not None and lobby.status is not GameStatus.LOBBY:
            lobby = None
        if (reset or lobby is not None) and not await self._admin(origin):
            text = tr.t("chatsettings-admins-only")
        elif reset:
            batch = Batch()
            repo.forget_chat_settings(batch, chat_id)
            await pipeline.db.write(batch)
            log.info("chat %s: its own settings forgotten by %s", chat_id, origin.user_id)
            text = tr.t("chatsettings-reset")
        elif lobby is not None:
            batch = Batch()
            repo.set_chat_settings(batch, chat_id, lobby.kind, dict(lobby.options), lobby.turn_timeout)
            await pipeline.db.write(batch)
            log.info("game %s: its settings saved as chat %s's own by %s", lobby.id, chat_id, origin.user_id)
            summary = plugin_of(lobby.kind).summary(lobby.options, tr)
            text = render_settings_saved(tr, settings_line(summary, lobby.turn_timeout, tr))
        else:
            saved = await repo.chat_settings(pipeline.db, chat_id)
            lines = [
                settings_line(plugin_of(kind).summary(options, tr), seconds, tr)
                for kind, (options, seconds) in saved.items()
                if is_hosted(kind)
            ]
            text = render_settings_shown(tr, lines)
        await self._deliver_to(origin, replies.say(chat_id, Rendered(text), origin.thread_id))

    # --- figures ---------------------------------------------------------------------------------------------

    async def help(self, origin: Origin) -> None:
        await self._deliver_to(
            origin, replies.help_(rules_library(), origin.tr, self.username, origin.chat_id, origin.thread_id)
        )

    async def stats(self, origin: Origin) -> None:
        """/stats: each game apart, groups apart from games with bots (named, when asked in a group)."""
        who = self._person(origin)
        tr = origin.tr
        figures = await repo.user_stats(self.pipeline.db, who.user_id)
        name = None if origin.chat_id == who.user_id else who.name
        games = [(p.kind, p.button(tr)) for p in plugins()]
        await self._deliver_to(
            origin, replies.stats(figures, games, tr, name, origin.chat_id, origin.thread_id)
        )

    async def me(self, origin: Origin) -> None:
        """/me in private: the person's page — per game the rating line, the form, the best results and the
        rivals, then the achievements — drawn as a picture (``bot.ratings.page``)."""
        who, tr, db = self._person(origin), origin.tr, self.pipeline.db
        parties = await players.parties_of(db, who.user_id)
        ratings = standing_lines(parties, who.user_id, tr)  # a game they have no rating in: the share won
        for kind in ratings:
            own = (await standings.skills_of(db, kind, [who.user_id])).get(who.user_id)
            if own is not None:
                settled = skill_scale.is_settled(own.sigma)
                rank = (
                    await standings.rank_of(db, kind, own.mu, skill_scale.SETTLED_BELOW) if settled else None
                )
                ratings[kind] = rated_line(kind, own.mu, own.sigma, rank, tr)
        earned = await players.achievements_of(db, who.user_id)
        page = player_page(who.user_id, who.name, parties, earned, ratings, tr) if parties else None
        await self._deliver_to(origin, replies.player_page(page, tr, origin.chat_id, who.name))
        await self._answer(origin)  # «📊 Моя страница» pressed: the page below says it

    async def top(self, origin: Origin, words: str) -> None:
        """/top: in a group, the chat's people by rating, each game apart, with the season's standings so far
        (``/top победы``: by wins and points, as before ratings); ``/top all`` or /top in private: the global board
        of those who opted in with /privacy."""
        tr, db = origin.tr, self.pipeline.db
        asked = words.strip().lower()
        group = origin.chat_id < 0
        if group and asked in TOP_WINS:
            tops = [(p.button(tr), await repo.chat_top(db, origin.chat_id, p.kind)) for p in plugins()]
            await self._deliver_to(origin, replies.top(tops, tr, origin.chat_id, origin.thread_id))
            return
        everywhere = not group or asked in TOP_ALL
        chat = None if everywhere else origin.chat_id
        season = seasons.season_of(self.pipeline.clock.now())
        boards = []
        for p in plugins():
            if everywhere:
                board = await standings.global_board(db, p.kind, skill_scale.SETTLED_BELOW, TOP_LINES)
            else:
                board = await standings.chat_board(
                    db, origin.chat_id, p.kind, skill_scale.SETTLED_BELOW, TOP_LINES
                )
            season_lines = await standings.season_board(db, season, chat, p.kind, SEASON_LINES)
            boards.append((p.button(tr), board, season_lines))
        reply = replies.rating_top(
            boards, season, tr, origin.chat_id, origin.thread_id, everywhere=everywhere
        )
        await self._deliver_to(origin, reply)

    async def privacy(self, origin: Origin) -> None:
        """/privacy in private: the person goes on the global board (/top all), or off it if on."""
        pipeline, who = self.pipeline, self._person(origin)
        await pipeline.run(cmd.Seen(who), origin)
        on = not await standings.is_on_board(pipeline.db, who.user_id)
        batch = Batch()
        standings.set_on_board(batch, who.user_id, on, pipeline.clock.now())
        await pipeline.db.write(batch)
        log.info("user %s %s the global board", who.user_id, "joined" if on else "left")
        await self._deliver_to(origin, replies.privacy(on, origin.tr, origin.chat_id))

    async def admin(self, origin: Origin, argument: str) -> bool:
        """``/admin`` (the figures) or ``/admin <user id>`` (that person's latest troubles), for an operator;
        False for anyone else (as if the command did not exist)."""
        operator = self.pipeline.operator
        who = self._person(origin)
        if not operator.is_admin(who.user_id):
            return False
        tr = origin.tr
        if argument.lstrip("-").isdigit():
            user_id = int(argument)
            kept = [(t.at, t.what, t.chat_id, t.game_id) for t in operator.troubles_of(user_id)]
            await self._deliver_to(
                origin, replies.admin_troubles(tr, user_id, kept, origin.chat_id, origin.thread_id)
            )
            return True
        waiting, age = operator.backlog()
        figures = replies.Figures(
            bot=self.username,
            version=operator.version,
            commit=operator.commit,
            uptime=int(operator.uptime()),
            games=await operator.games_running(),
            people=len(operator.traffic.seen_today),
            calls=operator.calls_per_second(),
            queued=waiting,
            waited=age,
            failures=operator.failures_within(3600.0),
            masters={kind: backend for kind, backend in backends().items() if is_hosted(kind)},
        )
        await self._deliver_to(origin, replies.admin_figures(tr, figures, origin.chat_id, origin.thread_id))
        return True

    # --- the languages ----------------------------------------------------------------------------------------

    async def lang(self, origin: Origin, choice: str | None, words: str) -> None:
        """/lang: a group's language (only its admins change it), or a person's choice for their private chat;
        ``/lang en`` (``choice``: a language, or ``auto``) chooses at once; else the choice is offered (``words``:
        what followed the command, when it named no language). In a group, someone who may not change it is told
        the language and who may."""
        pipeline = self.pipeline
        chat_id, thread_id = origin.chat_id, origin.thread_id
        current = await pipeline.store.languages.of(chat_id)
        if chat_id < 0 and not await self._admin(origin):
            await self._deliver_to(origin, replies.lang_not_yours(origin.tr, current, chat_id, thread_id))
            return
        if choice is None:
            reply = replies.lang_choice(
                origin.tr, current, unknown=words.strip(), chat_id=chat_id, thread_id=thread_id
            )
            await self._deliver_to(origin, reply)
            return
        chosen = None if choice == AUTO_LANG else Locale(choice)
        await pipeline.store.languages.choose(chat_id, chosen)
        await self._deliver_to(origin, replies.lang_chosen(chosen, origin.language_code, chat_id, thread_id))

    async def lang_pressed(self, origin: Origin, lang: str) -> None:
        if origin.message_id is None:
            await self._answer(origin)
            return
        if origin.chat_id < 0 and not await self._admin(origin):
            await self._answer(origin, origin.tr.t("lang-admins-only"))
            return
        chosen = None if lang == AUTO_LANG else Locale(lang)
        await self.pipeline.store.languages.choose(origin.chat_id, chosen)
        await self._deliver_to(
            origin, *replies.lang_page(chosen, origin.language_code, origin.chat_id, origin.message_id)
        )
        await self._answer(origin)

    async def _admin(self, origin: Origin) -> bool:
        """Whether the person administers the chat (a lost answer: not, for now)."""
        standing = await self.pipeline.membership.standing(origin.chat_id, origin.user_id)
        return standing.is_known and standing.is_admin

    # --- the rules --------------------------------------------------------------------------------------------

    async def rules(self, origin: Origin, words: str) -> None:
        """«/rules»: the first section (a group gets the contents); «/rules ералаш»: the section meant — where a game
        is open in the chat, its game and variant decide what the words mean."""
        library = rules_library()
        game = _context(await repo.active_game_in_chat(self.pipeline.db, origin.chat_id, origin.thread_id))
        found = lookup(library, words, game) if words else None
        if found is not None:
            log.info(
                "rules lookup in chat %s: %r -> %s%s",
                origin.chat_id,
                words[:80],
                list(found.sections[:3]),
                f" ({found.answer.key})" if found.answer else "",
            )
        order = replies.rules_asked(
            library,
            found,
            origin.tr,
            username=self.username,
            game=game,
            chat_id=origin.chat_id,
            thread_id=origin.thread_id,
            user_id=origin.user_id,
        )
        await self._deliver_to(origin, order)

    async def rules_start(self, origin: Origin, section: str) -> None:
        """``t.me/<bot>?start=r_<section>``: the whole section, with every button, in the private chat."""
        await self.pipeline.run(cmd.Seen(self._person(origin), started=True), origin)
        library = rules_library()
        shown = section if library.has(section) else library.first.id
        await self._deliver_to(origin, replies.rules_section(library, shown, origin.tr, origin.user_id))

    async def rules_pressed(
        self, origin: Origin, section: str, game_key: str, *, page: bool, shown: bool
    ) -> None:
        """A rules button: on a rules message its page turns in place (``shown``: the section it shows already —
        nothing to change); on a game message the section goes to the presser's private chat."""
        library = rules_library()
        game_id = game_id_of(game_key) if game_key else None
        row = await repo.get_game(self.pipeline.db, game_id) if game_id is not None else None
        game = _context(row)
        tr = origin.tr
        if page and origin.message_id is not None and shown:
            pass  # an identical edit would be refused, and there is nothing to change
        elif page and origin.message_id is not None:
            known = self.pipeline.outbox.message_id(
                chat_rules_slot(origin.chat_id, origin.thread_id, origin.user_id)
            )
            orders = replies.rules_page(
                library,
                section,
                tr,
                username=self.username,
                game=game,
                chat_id=origin.chat_id,
                thread_id=origin.thread_id,
                user_id=origin.user_id,
                message_id=origin.message_id,
                known=known,
            )
            await self._deliver(*orders)
        elif not await self._can_write(origin.user_id):
            if origin.query_id is not None:
                await self._deliver(replies.open_private_first(origin.query_id, tr, self.username, section))
            return
        else:
            await self._deliver(replies.rules_section(library, section, tr, origin.user_id))
        await self._answer(origin)

    async def _can_write(self, user_id: int) -> bool:
        user = await repo.get_user(self.pipeline.db, user_id)
        return user is not None and user.reachable

    async def inline(self, query_id: str, words: str, origin: Origin) -> None:
        """«@bot ералаш» in any chat: the matching sections to post there."""
        answer = replies.inline(rules_library(), query_id, words, origin.tr, self.username)
        log.info(
            "rules inline query from %s: %r -> %d results", origin.user_id, words[:80], len(answer.results)
        )
        await self._deliver_to(origin, answer)

    # --- looking ahead and back with «мастер» ------------------------------------------------------------------

    async def hint_text(self, game_id: int, user_id: int, version: int, tr: Translator) -> str | Refusal:
        """«💡 Подсказка» in words: what «мастер» would play in the solo game at ``version`` and why, in one line
        (only for its player, on their turn) — for the chat's alert and the Mini App alike. The choice is seeded
        by the game and the version, so asking again says the same: each turn's advice is searched once and kept
        (a search is tens of milliseconds of a worker, up to a fifth of a second)."""
        from bot.pipeline.thinker import ThinkerUnavailable, decision_seed

        pipeline = self.pipeline
        game = await pipeline.store.load(game_id)
        asked = hints.hint(game, user_id, version) if game is not None else Refusal(Answer.NO_GAME)
        if isinstance(asked, Refusal):
            return asked
        assert game is not None and game.party is not None
        try:
            advice = await self.advice.get(
                (game_id, version, asked.seat),
                lambda: pipeline.thinker.advise(asked.view, decision_seed(asked.seed, version)),
            )
        except ThinkerUnavailable:
            return Refusal(Answer.THINKER_DOWN)
        log.info("game %s: a hint at move %d", game_id, version)
        return drawn(game.party).hint(asked.seat, advice, tr)

    async def hint(self, origin: Origin, game_id: int, version: int) -> None:
        """«💡 Подсказка» pressed in the chat: :meth:`hint_text`, answered as an alert."""
        said = await self.hint_text(game_id, origin.user_id, version, origin.tr)
        if isinstance(said, Refusal):
            await self.pipeline.refused(said, origin, game_id)
            return
        if origin.query_id is not None:
            await self._deliver_to(origin, AnswerPress(origin.query_id, said, alert=True))

    async def review_of(self, game_id: int, user_id: int, tr: Translator) -> Rendered | Refusal:
        """«🔍 Разбор партии» drawn: the person's moves in the finished game where «мастер» would have gained most,
        computed by a bot players' worker (a second or several) once per player of a finished party, and kept —
        for the chat's message and the Mini App alike."""
        from bot.pipeline.thinker import ThinkerUnavailable

        pipeline = self.pipeline
        game = await pipeline.store.load(game_id)
        seat = hints.review(game, user_id) if game is not None else Refusal(Answer.NO_GAME)
        if isinstance(seat, Refusal):
            return seat
        assert game is not None and game.party is not None
        record = game.party.record()
        try:
            review = await self.reviews.get((game_id, seat), lambda: pipeline.thinker.review(record, seat))
        except ThinkerUnavailable:
            return Refusal(Answer.THINKER_DOWN)
        log.info("game %s: a review of seat %d (%d decisions)", game_id, seat, review.decisions)
        return drawn(game.party).render_review(review, table_frame(game), tr)

    async def review(self, origin: Origin, game_id: int) -> None:
        """«🔍 Разбор партии» pressed in the chat: :meth:`review_of` in the person's private chat; pressed again, it
        says it is there already."""
        user_id = origin.user_id
        slot = review_slot(game_id, user_id)
        if self.pipeline.outbox.message_id(slot) is not None:
            await self._deliver_to(origin, *_answered(origin, Answer.REVIEW_SHOWN))
            return
        rendered = await self.review_of(game_id, user_id, origin.tr)
        if isinstance(rendered, Refusal):
            await self.pipeline.refused(rendered, origin, game_id)
            return
        await self._deliver_to(origin, Show(slot, user_id, rendered.text, rendered.markup))
        await self._answer(origin)

    async def unknown_press(self, origin: Origin) -> None:
        """A press no other handler accepts (forged, or a button of an older bot): a short hint, not a spinner."""
        await self._deliver_to(origin, *_answered(origin, Answer.MALFORMED))


def _answered(origin: Origin, answer: Answer) -> list[Order]:
    return [answered(origin.query_id, answer, origin.tr)] if origin.query_id is not None else []


def _rendered(answer: Answer, origin: Origin) -> Rendered:
    return Rendered(answer_text(answer, origin.tr), None)


def _no_answer(origin: Origin) -> Origin:
    """``origin`` whose press (or reply) the caller draws itself (a refusal is still drawn, as a reply)."""
    return dataclasses.replace(origin, query_id=None, message_id=None)
