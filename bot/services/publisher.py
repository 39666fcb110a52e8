"""Publishing: every live message of a game is built and named here, and handed to the outbox. Only the
façade calls it.

A game has one live message in its group (slot ``g<game>``: the lobby, then the table) and one in each player's
private chat (``h<game>:<user>``: the hand, or a solo game's only screen); a player may also keep a copy of the
whole table (``v<game>:<user>``, «📋 Стол») and see a reminder of their turn. One-off notices (a deal's scoring,
the party's end, a seat taken over) are stored by :mod:`~bot.services.notices` with the change that causes them
and posted here once it has committed. Other live messages the bot keeps — a rules page it turns, a solo setup
screen — are named here too.
"""

from __future__ import annotations

from collections.abc import Iterable

from aiogram.types import InlineKeyboardMarkup

from bot import views
from bot.i18n import Translator
from bot.services.errors import ServiceError
from bot.services.outbox import Outbox, Priority
from bot.services.screens import Screens
from bot.services.store import Match
from bot.services.tables import frame_of, seat_info, tr_for
from bot.storage import GameMode, GameStatus, Notice, SeatRow
from bot.views import LobbyInfo, LobbyScreen, LobbyStatus, Rendered
from bot.views.models import number_bots


def group_slot(game_id: int) -> str:
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    return f"h{game_id}:{user_id}"


REMINDERS = "m"


def reminder_slot(game_id: int, user_id: int, version: int) -> str:
    """The «⏰ your turn is running out» message of one turn (deleted when the turn is over)."""
    return f"{REMINDERS}{game_id}:{user_id}:{version}"


def chat_rules_slot(chat_id: int, thread_id: int = 0) -> str:
    """The one rules message of a chat (a forum topic): a new rules request replaces it, its pages turn in place."""
    return f"R{chat_id}:{thread_id}"


def setup_slot(chat_id: int, message_id: int) -> str:
    """The solo setup screen (opponents, level) turned in place."""
    return f"p{chat_id}:{message_id}"


def table_slot(game_id: int, user_id: int) -> str:
    """The one private copy of a game's whole table a player keeps: sent anew below on each look."""
    return f"v{game_id}:{user_id}"


class Publisher:
    def __init__(self, outbox: Outbox, screens: Screens, bot_username: str) -> None:
        self.outbox = outbox
        self.screens = screens
        self.bot_username = bot_username

    # ------------------------------------------------------------------------------------- one-off messages

    def post(self, notices: Iterable[Notice]) -> None:
        """Notices stored by a committed transaction go out."""
        self.outbox.post(notices)

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off reply to a command or press (in a group: low stakes, behind the games in play)."""
        priority = Priority.LOW if chat_id < 0 else None
        await self.outbox.say(chat_id, text, markup, thread_id=thread_id, priority=priority)

    def turn_page(self, slot: str, chat_id: int, message_id: int, rendered: Rendered) -> None:
        """An existing message (a rules page, a setup screen) shows ``rendered`` from now on."""
        self.outbox.adopt(slot, chat_id, message_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup)

    def show_rules(self, chat_id: int, thread_id: int, rendered: Rendered) -> None:
        """A rules message, sent anew below; the chat's previous one (if any) is deleted."""
        slot = chat_rules_slot(chat_id, thread_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup, thread_id=thread_id, resend=True)

    def turn_rules_page(self, chat_id: int, thread_id: int, message_id: int, rendered: Rendered) -> None:
        """A page of a rules message turned: the pressed message becomes (or stays) the chat's rules message and
        shows ``rendered``; content it already shows is not sent again."""
        slot = chat_rules_slot(chat_id, thread_id)
        if self.outbox.message_id(slot) != message_id:
            self.outbox.adopt(slot, chat_id, message_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup, thread_id=thread_id)

    def adopt_hand(self, game_id: int, user_id: int, message_id: int) -> None:
        """The message whose button started a solo game becomes its live message."""
        self.outbox.adopt(hand_slot(game_id, user_id), user_id, message_id)

    def show_table(self, match: Match, user_id: int) -> None:
        """«📋 Стол»: the whole table, privately, to a player of the game (one copy, sent anew below)."""
        seat = match.seat_of(user_id)
        party = match.party
        if seat is None:
            raise ServiceError(views.Answer.NOT_A_PLAYER)
        if party is None or match.game.status not in (GameStatus.PLAYING, GameStatus.FINISHED):
            raise ServiceError(views.Answer.NO_GAME)
        user = match.users.get(user_id)
        tr = tr_for(user.lang if user is not None else match.game.lang)
        rendered = party.render_table(frame_of(match, ""), tr, seat.seat)
        self.outbox.show(
            table_slot(match.game.id, user_id), user_id, rendered.text, rendered.markup, resend=True
        )

    def remind(self, match: Match, seat: SeatRow, seconds_left: int) -> None:
        """«⏰ …, ваш ход!» in the private chat of the player to move; deleted once the turn is over."""
        user = match.users.get(seat.user_id) if seat.user_id is not None else None
        if user is None or not user.reachable or match.party is None:
            return
        version = match.party.version
        slot = reminder_slot(match.game.id, user.user_id, version)
        self.screens.reminders.setdefault(match.game.id, {})[user.user_id] = (slot, version)
        rendered = views.render_turn_reminder(seat_info(seat, match.users), seconds_left, tr_for(user.lang))
        self.outbox.show(slot, user.user_id, rendered.text, rendered.markup, priority=Priority.TURN)

    async def recall_reminders(self, running: Iterable[int]) -> None:
        """After a start: the reminders on show, from the database (the memory of them died with the last run).
        Those of running games are deleted when their turn is over; any other at once."""
        active = set(running)
        for message in await self.outbox.live_messages(REMINDERS):
            game_id, user_id, version = (int(part) for part in message.slot[len(REMINDERS) :].split(":"))
            if game_id in active:
                self.screens.reminders.setdefault(game_id, {})[user_id] = (message.slot, version)
            else:
                self.outbox.drop(message.slot, message.chat_id)

    def _clear_reminders(self, match: Match) -> None:
        """Delete the reminders of turns that are over (a move, the timer's move, the end, a cancel)."""
        shown = self.screens.reminders.get(match.game.id)
        if not shown:
            return
        party = match.party
        playing = match.game.status is GameStatus.PLAYING and party is not None and not party.is_terminal
        for user_id, (slot, version) in list(shown.items()):
            if playing and party is not None and party.version == version:
                continue
            self.outbox.drop(slot, user_id)
            del shown[user_id]
        if not shown:
            del self.screens.reminders[match.game.id]

    def publish(
        self,
        match: Match,
        *,
        resend: Iterable[int] = (),
        resend_table: bool = False,
        after: Iterable[Notice] = (),
    ) -> None:
        """Hand the current look of every message of this game to the outbox (``resend``: these people's
        messages sent anew, below; ``resend_table``: the group's; ``after``: the change's notices, which the
        private hands wait for when they go to the group)."""
        resent = set(resend)
        game, party = match.game, match.party
        group_notices = [n.id for n in after if n.chat_id == game.chat_id and n.chat_id < 0]
        self._clear_reminders(match)
        tr = tr_for(game.lang)
        at_table = party is not None and game.status in (GameStatus.PLAYING, GameStatus.FINISHED)
        if game.mode is GameMode.GROUP and not at_table:
            self._publish_lobby(match, tr, resend_table)
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match)
            return
        if party is None:
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match)
            return
        timed = game.deadline is not None and not party.is_terminal
        frame = frame_of(
            match,
            self.bot_username,
            turn_seconds=game.turn_timeout if timed else 0,
            timer_move=self.screens.timer_moves.get(game.id) == party.version,
        )
        if game.mode is GameMode.GROUP:
            if game.status is GameStatus.CANCELLED:
                rendered = views.render_game_cancelled(tr)
            else:
                rendered = party.render_table(frame, tr)
            self.outbox.show(
                group_slot(game.id),
                game.chat_id,
                rendered.text,
                rendered.markup,
                thread_id=game.thread_id,
                resend=resend_table,
                paced=game.status is GameStatus.PLAYING and not party.is_terminal,
            )
        if game.status is GameStatus.CANCELLED:
            self._publish_closed_hands(match)
            return
        mover = None if party.is_terminal else party.current_player
        hurry = party.is_terminal or bool(group_notices)  # a deal or the party ended: old messages go now
        for seat in match.seats:
            if seat.user_id is None:
                continue
            user = match.users.get(seat.user_id)
            if user is not None and user.blocked:
                continue
            utr = tr_for(user.lang if user else game.lang)
            picked = self.screens.picks.get((game.id, seat.user_id))
            rendered = party.render_private(frame, seat.seat, utr, picked)
            self.outbox.show(
                hand_slot(game.id, seat.user_id),
                seat.user_id,
                rendered.text,
                rendered.markup,
                resend=seat.user_id in resent,
                priority=Priority.TURN if seat.seat == mover else Priority.HAND,
                after=group_notices,
            )
            if hurry:
                self.outbox.hurry_deletions(seat.user_id)
            if party.is_terminal:
                # A «📋 Стол» copy asked for during play would go on saying who is to move.
                copy = party.render_table(frame_of(match, ""), utr, seat.seat)
                self.outbox.show(
                    table_slot(game.id, seat.user_id),
                    seat.user_id,
                    copy.text,
                    copy.markup,
                    only_existing=True,
                )

    def _publish_lobby(self, match: Match, tr: Translator, resend: bool) -> None:
        game = match.game
        status = {
            GameStatus.LOBBY: LobbyStatus.OPEN,
            GameStatus.PLAYING: LobbyStatus.STARTED,
            GameStatus.CANCELLED: LobbyStatus.CANCELLED,
            GameStatus.EXPIRED: LobbyStatus.EXPIRED,
            GameStatus.FINISHED: LobbyStatus.STARTED,
        }[game.status]
        creator = next((s.name for s in match.seats if s.user_id == game.creator_id), "")
        plugin = match.plugin
        info = LobbyInfo(
            game_id=game.key,
            kind=plugin.kind,
            options=game.options,
            seats=number_bots(seat_info(s, match.users) for s in match.seats),
            bot_username=self.bot_username,
            creator_name=creator,
            creator_id=game.creator_id,
            turn_seconds=game.turn_timeout,
            min_players=plugin.min_players,
            max_players=plugin.max_players,
            screen=self.screens.lobby.get(game.id, LobbyScreen.MAIN),
            status=status,
            summary=plugin.summary(game.options, tr),
            rules_section=plugin.rules_section(game.options),
            fills_with_bots=plugin.fills_with_bots,
        )
        if info.screen is LobbyScreen.SETTINGS and status is LobbyStatus.OPEN:
            rendered = plugin.render_settings(info, tr)
        else:
            rendered = views.render_lobby(info, tr)
        self.outbox.show(
            group_slot(game.id),
            game.chat_id,
            rendered.text,
            rendered.markup,
            thread_id=game.thread_id,
            resend=resend,
            priority=Priority.LOW,  # a lobby: behind the games in play (a started one's table is its own message)
        )

    def _publish_closed_hands(self, match: Match) -> None:
        for seat in match.seats:
            if seat.user_id is None:
                continue
            user = match.users.get(seat.user_id)
            rendered = views.render_game_cancelled(tr_for(user.lang if user else match.game.lang))
            self.outbox.show(
                hand_slot(match.game.id, seat.user_id),
                seat.user_id,
                rendered.text,
                rendered.markup,
                only_existing=True,
            )
