"""Publishing, the one place that draws: a committed change (:meth:`Publisher.made`) becomes what its game's
messages show — its notices drawn from their events, its table, hands or lobby — handed to the outbox. Only
the game service hands changes over; handlers send replies and turn rules pages through it.

A game has one live message in its group (slot ``g<game>``: the lobby, then the table) and one in each player's
private chat (``h<game>:<user>``: the hand, or a solo game's only screen); a player may also keep a copy of the
whole table (``v<game>:<user>``, «📋 Стол») and see a reminder of their turn. One-off notices (a deal's scoring,
the party's end, a seat taken over) are stored as events with the change that causes them
(:mod:`~bot.flow.moves`) and drawn here (:mod:`~bot.delivery.notices`) once it has committed. Every live
message's name is in :mod:`~bot.delivery.slots`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from aiogram.types import InlineKeyboardMarkup

from bot import views
from bot.delivery import paper
from bot.delivery.notices import draw
from bot.delivery.outbox import Outbox, Priority
from bot.flow.events import load_event
from bot.flow.store import Change, Match
from bot.i18n import Translator, translator_for
from bot.storage import GameMode, GameStatus, Notice, SeatRow
from bot.storage.models import (
    REMINDERS,
    chat_rules_slot,
    group_slot,
    hand_slot,
    reminder_slot,
    review_slot,
    setup_slot,
    table_slot,
)
from bot.views import LobbyInfo, LobbyScreen, LobbyStatus, Rendered
from bot.views.common import number_bots, seat_info

log = logging.getLogger(__name__)


class Publisher:
    def __init__(self, outbox: Outbox, bot_username: str) -> None:
        self.outbox = outbox
        self.screens = Screens()
        self.bot_username = bot_username

    async def made(self, change: Change) -> None:
        """A committed change, drawn and handed to the outbox: what it says the messages show is kept, a hand
        pressed that the bot never recorded sending becomes the live hand, the change's notices are drawn and
        posted, the game's messages redrawn (the private table copy and a reminder, if asked for)."""
        match = change.match
        if change.started_in is not None:
            self.adopt_hand(match.game.id, match.game.chat_id, change.started_in)
        if change.adopt is not None:
            await self._adopt_pressed(match.game.id, *change.adopt)
        self.screens.note(change)
        ended = match.party is not None and match.party.is_terminal
        if not ended:
            self.post(change.notices, match)
        self.publish(
            match,
            resend=change.resend,
            resend_table=change.resend_table,
            after=() if ended else change.notices,
        )
        if ended:  # the party's result comes last, below its final sheet, with its buttons
            self.post(change.notices, match)
        if change.table_for is not None:
            self.show_table(match, change.table_for)
        if change.sheet_for is not None:
            self.show_sheet(match, *change.sheet_for)
        if change.history_for is not None:
            paper.send_history(self.outbox, match, *change.history_for)
        if change.reminder is not None:
            seat, seconds_left = change.reminder
            self.remind(match, match.seats[seat], seconds_left)

    async def _adopt_pressed(self, game_id: int, user_id: int, message_id: int) -> None:
        """A move button of the current version was pressed in ``message_id`` of the player's private chat: if
        it is a hand newer than the one the bot knows (its send was not recorded before a crash), it becomes
        the player's live hand."""
        if await self.outbox.adopt_newer(hand_slot(game_id, user_id), user_id, message_id):
            log.info(
                "game %s: hand message %s of %s adopted (its send was not recorded)",
                game_id,
                message_id,
                user_id,
            )

    async def delete_stray(self, game_id: int, user_id: int, chat_id: int, message_id: int) -> None:
        """A press came too late from ``message_id``: if that is not the player's live hand (which shows the
        present anyway), it is a dead keyboard the bot lost track of, and it goes."""
        if chat_id == user_id and await self.outbox.delete_stray(
            hand_slot(game_id, user_id), chat_id, message_id
        ):
            log.info("game %s: a stray hand message %s in chat %s deleted", game_id, message_id, chat_id)

    def allow(self, user_id: int) -> None:
        """The person opened the bot (again): their private chat may be written to."""
        self.outbox.allow(user_id)

    # ------------------------------------------------------------------------------------- one-off messages

    def post(self, notices: Iterable[Notice], match: Match | None = None) -> None:
        """Notices stored by a committed transaction go out; a game's are drawn first, from ``match`` (the game
        as committed; None: the game is gone, and its notices with it)."""
        drawn: list[Notice] = []
        for notice in notices:
            if notice.event is None:
                drawn.append(notice)
            elif match is None or match.game.id != notice.game_id:
                log.warning("game %s: notice %s dropped, the game is gone", notice.game_id, notice.id)
                self.outbox.forget_notice(notice.id)
            else:
                rendered = draw(load_event(notice.event), match, self.bot_username)
                markup = rendered.markup.model_dump_json(exclude_none=True) if rendered.markup else None
                drawn.append(dataclasses.replace(notice, text=rendered.text, markup=markup))
        self.outbox.post(drawn)

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off reply to a command or press (in a group: low stakes, behind the games in play)."""
        priority = Priority.LOW if chat_id < 0 else None
        await self.outbox.say(chat_id, text, markup, thread_id=thread_id, priority=priority)

    def show_review(self, game_id: int, user_id: int, rendered: Rendered) -> None:
        self.outbox.show(review_slot(game_id, user_id), user_id, rendered.text, rendered.markup)

    def review_shown(self, game_id: int, user_id: int) -> bool:
        return self.outbox.message_id(review_slot(game_id, user_id)) is not None

    def turn_page(self, slot: str, chat_id: int, message_id: int, rendered: Rendered) -> None:
        """An existing message (a rules page, a setup screen) shows ``rendered`` from now on."""
        self.outbox.adopt(slot, chat_id, message_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup)

    def turn_setup_page(self, chat_id: int, message_id: int, rendered: Rendered) -> None:
        """A setup screen (the solo game's, the language's) turned in place."""
        self.turn_page(setup_slot(chat_id, message_id), chat_id, message_id, rendered)

    def show_rules(self, chat_id: int, thread_id: int, user_id: int, rendered: Rendered) -> None:
        """A rules message for ``user_id``, sent anew below; their previous one in the chat (if any) is deleted."""
        slot = chat_rules_slot(chat_id, thread_id, user_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup, thread_id=thread_id, resend=True)

    def turn_rules_page(
        self, chat_id: int, thread_id: int, user_id: int, message_id: int, rendered: Rendered
    ) -> None:
        """A rules page turned by ``user_id``: the pressed message becomes (stays) theirs and shows ``rendered``."""
        slot = chat_rules_slot(chat_id, thread_id, user_id)
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
        assert seat is not None and party is not None
        rendered = party.render_table(match.frame(), paper.reader(match, user_id), seat.seat)
        slot = table_slot(match.game.id, user_id)
        self.outbox.show(slot, user_id, rendered.text, rendered.markup, resend=True)

    def show_sheet(self, match: Match, chat_id: int, thread_id: int = 0) -> None:
        """``/score``, «📋 Запись»: the score sheet anew below (before the first deal's end: the table)."""
        if paper.show_sheet(self.outbox, match, chat_id, thread_id=thread_id, resend=True):
            return
        if chat_id < 0:
            self.publish(match, resend_table=True)
        else:
            self.show_table(match, chat_id)

    def _publish_sheets(self, match: Match) -> None:
        """As a deal ends: the group's sheet photo shows it (sent with the first deal's end, then edited); as the
        party ends, each player gets the final sheet in their own chat too (a solo game: its player)."""
        game, party = match.game, match.party
        assert party is not None
        shown = (party.deals_completed, party.is_terminal)
        if party.deals_completed == 0 or self.screens.sheets.get(game.id) == shown:
            return
        if game.status.is_active:
            self.screens.sheets[game.id] = shown  # a game's sheet is drawn once per deal, not once per move
        if game.mode is GameMode.GROUP:
            paper.show_sheet(self.outbox, match, game.chat_id, thread_id=game.thread_id)
        if not party.is_terminal:
            return
        for seat in match.seats:
            user = match.users.get(seat.user_id) if seat.user_id is not None else None
            if user is not None and user.reachable and not user.blocked:
                paper.show_sheet(self.outbox, match, user.user_id)

    def remind(self, match: Match, seat: SeatRow, seconds_left: int) -> None:
        """«⏰ …, ваш ход!» in the private chat of the player to move; deleted once the turn is over."""
        user = match.users.get(seat.user_id) if seat.user_id is not None else None
        if user is None or not user.reachable or match.party is None:
            return
        version = match.party.version
        slot = reminder_slot(match.game.id, user.user_id, version)
        self.screens.reminders.setdefault(match.game.id, {})[user.user_id] = (slot, version)
        rendered = views.render_turn_reminder(
            seat_info(seat, match.users), seconds_left, translator_for(user.lang)
        )
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
        tr = translator_for(game.lang)
        at_table = party is not None and game.status in (
            GameStatus.PLAYING,
            GameStatus.FINISHED,
            GameStatus.CANCELLED,
        )
        if game.mode is GameMode.GROUP and not at_table:
            self._publish_lobby(match, tr, resend_table)
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match, resent)
            return
        if party is None:
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match, resent)
            return
        timed = game.deadline is not None and not party.is_terminal
        frame = match.frame(
            self.bot_username,
            turn_seconds=game.turn_timeout if timed else 0,
            timer_move=self.screens.timer_moves.get(game.id) == party.version,
        )
        if game.mode is GameMode.GROUP:
            if game.status is GameStatus.CANCELLED:
                rendered = views.render_game_cancelled(tr, paper.standings(match, tr))
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
            if resend_table:  # the copy left above would show a table no longer kept up to date
                self.outbox.hurry_deletions(game.chat_id)
        if game.status is GameStatus.CANCELLED:
            self._publish_closed_hands(match, resent)
            return
        self._publish_sheets(match)
        mover = None if party.is_terminal else party.current_player
        hurry = party.is_terminal or bool(group_notices)  # a deal or the party ended: old messages go now
        for seat in match.seats:
            if seat.user_id is None:
                continue
            user = match.users.get(seat.user_id)
            if user is not None and user.blocked:
                continue
            utr = translator_for(user.lang if user else game.lang)
            picked = self.screens.picked(game.id, seat.user_id, party.version)
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
            copy_slot = table_slot(game.id, seat.user_id)
            if party.is_terminal or self.outbox.message_id(copy_slot) is not None:
                # A «📋 Стол» copy follows the table (paced, as the group's), never showing a past move as now.
                copy = party.render_table(match.frame(), utr, seat.seat)
                paced = not party.is_terminal
                self.outbox.show(
                    copy_slot, seat.user_id, copy.text, copy.markup, only_existing=True, paced=paced
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

    def _publish_closed_hands(self, match: Match, resent: set[int]) -> None:
        for user_id in (seat.user_id for seat in match.seats if seat.user_id is not None):
            tr = paper.reader(match, user_id)
            rendered = views.render_game_cancelled(tr, paper.standings(match, tr))
            slot = hand_slot(match.game.id, user_id)
            self.outbox.show(slot, user_id, rendered.text, resend=user_id in resent, only_existing=True)


@dataclass(slots=True)
class Screens:
    """What the game's messages show that is not stored: a lobby's other screens, a card picked by a first tap,
    the moves the timer made, the reminders on show. The publisher alone writes it; it is lost with a restart
    (each message then shows its main screen again)."""

    lobby: dict[int, LobbyScreen] = field(default_factory=dict)
    """The screen each lobby shows, when not its main one."""
    picks: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)
    """(game, user) → the card code of a first tap and the party's version it was made at: the hand shows that
    card's moves while the party is still at that version."""
    timer_moves: dict[int, int] = field(default_factory=dict)
    """Games whose last move the timer made for a player, with the party's version after it."""
    reminders: dict[int, dict[int, tuple[str, int]]] = field(default_factory=dict)
    """Each game's reminders on show: user → (slot, the party's version it reminds of). Kept past the game's end
    (:meth:`forget` leaves them) until the publisher has them deleted."""
    sheets: dict[int, tuple[int, bool]] = field(default_factory=dict)
    """Each running game's deals ended (and whether the party is over) when its score sheet was last drawn."""

    def note(self, change: Change) -> None:
        """What a committed change says the messages show."""
        match = change.match
        game_id, party = match.game.id, match.party
        if change.timer_move and party is not None:
            self.timer_moves[game_id] = party.version
        if change.screen is not None:
            if change.screen is LobbyScreen.MAIN:
                self.lobby.pop(game_id, None)
            else:
                self.lobby[game_id] = change.screen
        if change.pick is not None and party is not None:
            user_id, card = change.pick
            if card is None:
                self.picks.pop((game_id, user_id), None)
            else:
                self.picks[(game_id, user_id)] = (card, party.version)
        if not match.game.status.is_active:
            self.forget(game_id)

    def picked(self, game_id: int, user_id: int, version: int) -> str | None:
        """The card ``user_id`` picked at ``version`` of the party, if any."""
        found = self.picks.get((game_id, user_id))
        return found[0] if found is not None and found[1] == version else None

    def forget(self, game_id: int) -> None:
        """The game is over: what its lobby and hands showed goes (its reminders are deleted as they end)."""
        self.lobby.pop(game_id, None)
        self.timer_moves.pop(game_id, None)
        self.sheets.pop(game_id, None)
        if self.picks:
            self.picks = {k: v for k, v in self.picks.items() if k[0] != game_id}
