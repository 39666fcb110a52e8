"""Publishing: every message of a game is built and named here, and handed to the outbox.

A game has one live message in its group (slot ``g<game>``: the lobby, then the table) and one in each player's
private chat (``h<game>:<user>``: the hand, or a solo game's only screen). One-off notices (a deal's scoring, the
party's end, a seat taken over, a reminder) are stored in the transaction of the change that causes them and
posted once it has committed. Other live messages the bot keeps — a rules page it turns, a solo setup screen —
are named here too.
"""

from __future__ import annotations

from collections.abc import Iterable

from aiogram.types import InlineKeyboardMarkup

from bot import views
from bot.games.base import Frame, Party
from bot.i18n import Translator, locale_for, translator
from bot.services.clock import Clock
from bot.services.outbox import Outbox, Priority
from bot.services.store import Match, Memory
from bot.storage import GameMode, GameRow, GameStatus, Notice, SeatRow, Tx, UserRow, repo
from bot.views import LobbyInfo, LobbyScreen, LobbyStatus, Rendered, SeatInfo
from bot.views.common import bot_name, with_review_button
from bot.views.models import number_bots
from engine.ai import Level


def group_slot(game_id: int) -> str:
    return f"g{game_id}"


def hand_slot(game_id: int, user_id: int) -> str:
    return f"h{game_id}:{user_id}"


REMINDERS = "m"


def reminder_slot(game_id: int, user_id: int, version: int) -> str:
    """The «⏰ your turn is running out» message of one turn (deleted when the turn is over)."""
    return f"{REMINDERS}{game_id}:{user_id}:{version}"


def rules_slot(chat_id: int, message_id: int) -> str:
    """A rules message whose pages are turned in place."""
    return f"r{chat_id}:{message_id}"


def setup_slot(chat_id: int, message_id: int) -> str:
    """The solo setup screen (opponents, level) turned in place."""
    return f"p{chat_id}:{message_id}"


def tr_for(lang: str | None) -> Translator:
    return translator(locale_for(lang))


def seat_info(seat: SeatRow, users: dict[int, UserRow]) -> SeatInfo:
    level: Level | None = None
    if seat.level:
        try:
            level = Level(seat.level)
        except ValueError:
            level = None
    user = users.get(seat.user_id) if seat.user_id is not None else None
    return SeatInfo(
        name=seat.name,
        user_id=seat.user_id,
        is_bot=seat.is_bot,
        level=level if seat.is_bot else None,
        is_reachable=user.reachable if user is not None else seat.is_bot,
        is_replaced=seat.replaced,
    )


def plain_name(seat: SeatRow, lang: str, seats: Iterable[SeatRow] = ()) -> str:
    """A seat's name as an answer names it (an unnamed bot player: its level's name, numbered as at the table
    when ``seats`` are given)."""
    if seat.name:
        return seat.name
    numbered = number_bots(seat_info(s, {}) for s in seats)
    number = numbered[seat.seat].number if seat.seat < len(numbered) else 0
    return bot_name(seat.level or Level.NORMAL, number, tr_for(lang))


class Publisher:
    def __init__(self, outbox: Outbox, clock: Clock, mem: Memory, bot_username: str) -> None:
        self.outbox = outbox
        self.clock = clock
        self.mem = mem
        self.bot_username = bot_username

    # ------------------------------------------------------------------------------------- one-off messages

    def post(self, notices: Iterable[Notice]) -> None:
        """Notices stored by a committed transaction go out."""
        self.outbox.post(notices)

    async def say(
        self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None, *, thread_id: int = 0
    ) -> None:
        """A one-off reply to a command or press."""
        await self.outbox.say(chat_id, text, markup, thread_id=thread_id)

    async def turn_page(self, slot: str, chat_id: int, message_id: int, rendered: Rendered) -> None:
        """An existing message (a rules page, a setup screen) shows ``rendered`` from now on."""
        await self.outbox.adopt(slot, chat_id, message_id)
        self.outbox.show(slot, chat_id, rendered.text, rendered.markup)

    async def adopt_hand(self, game_id: int, user_id: int, message_id: int) -> None:
        """The message whose button started a solo game becomes its live message."""
        await self.outbox.adopt(hand_slot(game_id, user_id), user_id, message_id)

    async def notice(
        self, tx: Tx, game: GameRow, rendered: Rendered, *, private_to: int | None = None
    ) -> Notice:
        """Store a notice to the game's chat (or to one person's private chat) in ``tx``."""
        chat_id, thread_id = (game.chat_id, game.thread_id) if private_to is None else (private_to, 0)
        markup = rendered.markup.model_dump_json(exclude_none=True) if rendered.markup else None
        notice_id = await repo.add_notice(tx, chat_id, thread_id, rendered.text, markup, self.clock.now())
        return Notice(notice_id, chat_id, thread_id, rendered.text, markup)

    async def start_bot_notice(self, tx: Tx, game: GameRow, seat: SeatRow) -> Notice:
        info = seat_info(seat, {})
        info = SeatInfo(info.name, info.user_id, is_reachable=False)
        rendered = views.render_start_bot(info, game.key, self.bot_username, tr_for(game.lang))
        return await self.notice(tx, game, rendered)

    async def replaced_notice(self, tx: Tx, match: Match, seat: SeatRow) -> Notice:
        info = seat_info(seat, match.users)
        rendered = views.render_seat_replaced(info, match.game.key, tr_for(match.game.lang))
        return await self.notice(tx, match.game, rendered)

    async def timed_out_notice(self, tx: Tx, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_timed_out(seat_info(seat, match.users), tr_for(match.game.lang))
        return await self.notice(tx, match.game, rendered)

    async def seat_back_notice(self, tx: Tx, match: Match, seat: SeatRow) -> Notice:
        rendered = views.render_seat_back(seat_info(seat, match.users), tr_for(match.game.lang))
        return await self.notice(tx, match.game, rendered)

    def remind(self, match: Match, seat: SeatRow, seconds_left: int) -> None:
        """«⏰ …, ваш ход!» in the private chat of the player to move; deleted once the turn is over."""
        user = match.users.get(seat.user_id) if seat.user_id is not None else None
        if user is None or not user.reachable or match.party is None:
            return
        version = match.party.version
        slot = reminder_slot(match.game.id, user.user_id, version)
        self.mem.reminders.setdefault(match.game.id, {})[user.user_id] = (slot, version)
        rendered = views.render_turn_reminder(seat_info(seat, match.users), seconds_left, tr_for(user.lang))
        self.outbox.show(slot, user.user_id, rendered.text, rendered.markup, priority=Priority.TURN)

    async def recall_reminders(self, running: Iterable[int]) -> None:
        """After a start: the reminders on show, from the database (the memory of them died with the last run).
        Those of running games are deleted when their turn is over; any other at once."""
        active = set(running)
        for message in await self.outbox.live_messages(REMINDERS):
            game_id, user_id, version = (int(part) for part in message.slot[len(REMINDERS) :].split(":"))
            if game_id in active:
                self.mem.reminders.setdefault(game_id, {})[user_id] = (message.slot, version)
            else:
                self.outbox.drop(message.slot, message.chat_id)

    def _clear_reminders(self, match: Match) -> None:
        """Delete the reminders of turns that are over (a move, the timer's move, the end, a cancel)."""
        shown = self.mem.reminders.get(match.game.id)
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
            del self.mem.reminders[match.game.id]

    async def result_notices(
        self, tx: Tx, match: Match, seats: list[SeatRow], before: Party, after: Party
    ) -> list[Notice]:
        """The scoring of every deal that ended with this move, and the party's end if it did."""
        game = match.game
        tr = tr_for(game.lang)
        frame = self._frame(match, seats, after)
        notices: list[Notice] = []
        for deal in range(before.deals_completed, after.deals_completed):
            notices.append(await self.notice(tx, game, after.render_deal_end(frame, tr, deal + 1)))
        if not after.is_terminal:
            return notices
        if game.mode is not GameMode.GROUP:
            # A solo game's chat is the player's: the end is theirs, with their moves' review on request.
            rendered = with_review_button(after.render_party_end(frame, tr), tr, game.key)
            notices.append(await self.notice(tx, game, rendered))
            return notices
        notices.append(await self.notice(tx, game, after.render_party_end(frame, tr)))
        for seat in seats:
            user = match.users.get(seat.user_id) if seat.user_id is not None else None
            if user is None or not user.reachable:
                continue
            # Every player of a finished party may start a rematch (the rule of ``Lobby.rematch``), and ask
            # for the review of their own moves.
            user_tr = tr_for(user.lang)
            rendered = after.render_party_end(frame, user_tr, player=seat.seat, rematch=True)
            rendered = with_review_button(rendered, user_tr, game.key)
            notices.append(await self.notice(tx, game, rendered, private_to=user.user_id))
        return notices

    # --------------------------------------------------------------------------------------- live messages

    def _frame(self, match: Match, seats: list[SeatRow], party: Party, turn_seconds: int = 0) -> Frame:
        game = match.game
        return Frame(
            game_id=game.key,
            seats=number_bots(seat_info(s, match.users) for s in seats),
            bot_username=self.bot_username,
            solo=game.mode is GameMode.SOLO,
            turn_seconds=turn_seconds,
            auto_move=self.mem.auto_moved.get(game.id) == party.version,
        )

    def publish(
        self,
        match: Match,
        *,
        renew: Iterable[int] = (),
        renew_group: bool = False,
        after: Iterable[Notice] = (),
    ) -> None:
        """Hand the current look of every message of this game to the outbox (``renew``: sent anew, below;
        ``after``: the change's notices, which the private hands wait for when they go to the group)."""
        renewed = set(renew)
        game, party = match.game, match.party
        group_notices = [n.id for n in after if n.chat_id == game.chat_id and n.chat_id < 0]
        self._clear_reminders(match)
        tr = tr_for(game.lang)
        at_table = party is not None and game.status in (GameStatus.PLAYING, GameStatus.FINISHED)
        if game.mode is GameMode.GROUP and not at_table:
            self._publish_lobby(match, tr, renew_group)
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match)
            return
        if party is None:
            if game.status is GameStatus.CANCELLED:
                self._publish_closed_hands(match)
            return
        timed = game.deadline is not None and not party.is_terminal
        frame = self._frame(match, match.seats, party, game.turn_timeout if timed else 0)
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
                renew=renew_group,
                paced=game.status is GameStatus.PLAYING and not party.is_terminal,
            )
        if game.status is GameStatus.CANCELLED:
            self._publish_closed_hands(match)
            return
        mover = None if party.is_terminal else party.current_player
        tidy = party.is_terminal or bool(group_notices)  # a deal or the party ended: old messages go now
        for seat in match.seats:
            if seat.user_id is None:
                continue
            user = match.users.get(seat.user_id)
            if user is not None and user.blocked:
                continue
            utr = tr_for(user.lang if user else game.lang)
            picked = self.mem.picks.get((game.id, seat.user_id))
            if game.mode is GameMode.SOLO:
                rendered = party.render_solo(frame, seat.seat, utr, picked)
            else:
                rendered = party.render_hand(frame, seat.seat, utr, picked)
            self.outbox.show(
                hand_slot(game.id, seat.user_id),
                seat.user_id,
                rendered.text,
                rendered.markup,
                renew=seat.user_id in renewed,
                priority=Priority.TURN if seat.seat == mover else Priority.HAND,
                after=group_notices,
            )
            if tidy:
                self.outbox.tidy(seat.user_id)

    def _publish_lobby(self, match: Match, tr: Translator, renew: bool) -> None:
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
            screen=self.mem.screens.get(game.id, LobbyScreen.MAIN),
            status=status,
        )
        rendered = views.render_lobby(info, tr)
        self.outbox.show(
            group_slot(game.id),
            game.chat_id,
            rendered.text,
            rendered.markup,
            thread_id=game.thread_id,
            renew=renew,
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
