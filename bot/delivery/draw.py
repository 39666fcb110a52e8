"""The one step that draws a game: from the game before and after a committed change, and its events, every chat's
messages — the group's table or lobby, each player's hand (sent anew where someone must notice: the next player's
turn, a new deal), a player's copy of the table, the score sheet, the history file, a turn's reminder and its
deletion, the change's notices in their place among them — as orders for the outbox. Pure: nothing here reads or
writes anything but its arguments.

A game has one live message in its group (slot ``g<game>``: the lobby, then the table) and one in each player's
private chat (``h<game>:<user>``: the hand, or a solo game's only screen); a player may also keep a copy of the
whole table (``v<game>:<user>``, «📋 Стол») and see a reminder of their turn. Every live message's name is in
:mod:`bot.storage.models`."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from bot import views
from bot.delivery import paper
from bot.delivery.notices import draw_notice
from bot.delivery.outbox import Priority
from bot.delivery.outbox.orders import Adopt, Drop, Hurry, Order, Post, Reply, Show
from bot.delivery.outbox.queue import group_slot, hand_slot, reminder_slot, table_slot
from bot.delivery.web import Page
from bot.games import plugin_of
from bot.games.base import Party, drawn
from bot.i18n import Translator, translator_for
from bot.model.game import (
    Actor,
    Cancelled,
    DealEnded,
    Dealt,
    Event,
    Game,
    GameMode,
    GameStatus,
    HandAsked,
    HistoryAsked,
    Moved,
    Opened,
    PartyEnded,
    Picked,
    Reminded,
    Seat,
    SeatBack,
    SheetAsked,
    TableAsked,
    TableCopyAsked,
    Unpicked,
    load_told,
)
from bot.storage import Notice
from bot.views import LobbyInfo, LobbyStatus
from bot.views.common import (
    TableFrame,
    live_frame,
    number_bots,
    seat_info,
    table_frame,
    with_page_button,
    with_page_link,
)


@dataclass(frozen=True, slots=True)
class Pressed:
    """The message a button was pressed in, by ``user_id``."""

    chat_id: int
    message_id: int
    user_id: int


LOBBY_STATUS = {
    GameStatus.LOBBY: LobbyStatus.OPEN,
    GameStatus.PLAYING: LobbyStatus.STARTED,
    GameStatus.CANCELLED: LobbyStatus.CANCELLED,
    GameStatus.EXPIRED: LobbyStatus.EXPIRED,
    GameStatus.FINISHED: LobbyStatus.STARTED,
}


def draw(
    before: Game | None,
    after: Game,
    events: Sequence[Event],
    notices: Sequence[Notice],
    bot_username: str,
    pressed: Pressed | None = None,
    copies: Collection[int] = (),
    page: Page | None = None,
) -> list[Order]:
    """What the game's messages show after a committed change (``before`` None: drawn from scratch, as after a
    restart), with the change's ``notices`` (stored, not drawn yet) in their place. ``copies``: the people who
    keep a copy of the whole table («📋 Стол»), which follows it. ``page``: the Mini App (a hand in play gets a
    button that opens it, a group's table a link; None: no Mini App)."""
    orders: list[Order] = [*_adopted(after, events, pressed)]
    resend, resend_table = _resends(after, events)
    ended = after.party is not None and after.party.is_terminal
    posted = Post(tuple(drawn_notices(notices, after, bot_username)))
    if not ended:
        orders.append(posted)
    group_notices = tuple(n.id for n in notices if n.chat_id == after.chat_id and n.chat_id < 0)
    orders += _reminders_over(before, after)
    sheets = before is None or any(isinstance(e, DealEnded | PartyEnded) for e in events)
    orders += _game(
        after, bot_username, resend, resend_table, group_notices, sheets=sheets, copies=copies, page=page
    )
    if ended:  # the party's result comes last, below its final sheet, with its buttons
        orders.append(posted)
    for event in events:
        if isinstance(event, TableCopyAsked):
            orders.append(table_copy(after, event.user_id))
        elif isinstance(event, SheetAsked):
            orders += _sheet_asked(after, event, bot_username)
        elif isinstance(event, HistoryAsked):
            orders.append(paper.history(after, event.chat_id, event.thread_id))
        elif isinstance(event, Reminded):
            orders += _reminder(after, event)
    return orders


def drawn_notices(notices: Iterable[Notice], game: Game | None, bot_username: str) -> list[Notice]:
    """Stored notices as they go out: a game's drawn from ``game`` (as committed); those of a game that is gone
    are left out (the caller forgets them)."""
    out: list[Notice] = []
    for notice in notices:
        if notice.event is None:
            out.append(notice)
        elif game is not None and game.id == notice.game_id:
            event, seat = load_told(notice.event)
            rendered = draw_notice(event, seat, game, bot_username)
            markup = rendered.markup.model_dump_json(exclude_none=True) if rendered.markup else None
            out.append(dataclasses.replace(notice, text=rendered.text, markup=markup))
    return out


def _adopted(game: Game, events: Sequence[Event], pressed: Pressed | None) -> list[Order]:
    """The message whose button started a solo game becomes its live message; a private hand pressed at the
    party's current version may be one the bot never recorded sending (a crash lost the mark): it is adopted if
    it is newer than the one known."""
    if pressed is None or pressed.chat_id != pressed.user_id:
        return []
    slot = hand_slot(game.id, pressed.user_id)
    if any(isinstance(e, Opened) for e in events) and game.mode is GameMode.SOLO:
        return [Adopt(slot, pressed.chat_id, pressed.message_id)]
    played = any(
        (isinstance(e, Moved) and e.actor is Actor.PLAYER) or isinstance(e, Picked | Unpicked) for e in events
    )
    return [Adopt(slot, pressed.chat_id, pressed.message_id, newer_only=True)] if played else []


def _resends(game: Game, events: Sequence[Event]) -> tuple[set[int], bool]:
    """Whose private message is sent anew below (a notification: the next player's turn in a group, every hand at
    a new deal or the start, a seat taken back, a hand asked for), and whether the group's table is."""
    resend: set[int] = set()
    resend_table = False
    party = game.party
    on = game.is_on and party is not None
    people = {s.user_id for s in game.seats if s.user_id is not None}
    for event in events:
        if isinstance(event, Moved) and on and game.mode is GameMode.GROUP and party is not None:
            mover = game.seats[party.current_player]
            if party.current_player != event.seat and mover.user_id is not None and not mover.replaced:
                resend.add(mover.user_id)
        elif isinstance(event, DealEnded) and on:
            # Every live hand goes below the deal's scoring (a group game sends it to each private chat too); at
            # the party's end it stays where it is, the result below it the last word.
            resend |= people
        elif isinstance(event, Dealt):
            resend |= people
        elif isinstance(event, SeatBack):
            user_id = game.seats[event.player].user_id
            if user_id is not None:
                resend.add(user_id)
        elif isinstance(event, HandAsked):
            resend.add(event.user_id)
        elif isinstance(event, TableAsked):
            resend_table = True
        elif isinstance(event, Cancelled) and event.in_chat:
            # Said once: a button's message changes in place; /cancel gets the game's message anew below it.
            if game.mode is GameMode.GROUP:
                resend_table = True
            else:
                resend.add(event.by)
        elif (
            isinstance(event, SheetAsked)
            and event.chat_id < 0
            and (party is None or party.deals_completed == 0)
        ):
            resend_table = True  # no sheet yet: the table instead
    return resend, resend_table


def _reminders_over(before: Game | None, after: Game) -> list[Order]:
    """The reminders of turns that are over (a move, the timer's move, the end, a cancel) are deleted."""
    if before is None:
        return []
    shown = after.screens.reminders
    return [
        Drop(reminder_slot(after.id, user_id, version), user_id)
        for user_id, version in before.screens.reminders.items()
        if shown.get(user_id) != version
    ]


def _reminder(game: Game, event: Reminded) -> list[Order]:
    """«⏰ …, ваш ход!» in the private chat of the player to move; deleted once the turn is over."""
    seat = game.seats[event.seat]
    user = game.user_of(seat)
    if user is None or not user.reachable or game.party is None:
        return []
    rendered = views.render_turn_reminder(
        seat_info(seat, game.users), event.seconds_left, translator_for(user.lang)
    )
    slot = reminder_slot(game.id, user.user_id, game.party.version)
    return [Show(slot, user.user_id, rendered.text, rendered.markup, priority=Priority.TURN)]


def table_copy(game: Game, user_id: int) -> Show:
    """«📋 Стол»: the whole table, privately, to a player of the game (one copy, sent anew below)."""
    seat = game.seat_of(user_id)
    assert seat is not None and game.party is not None
    rendered = drawn(game.party).render_table(table_frame(game), paper.reader(game, user_id), seat.seat)
    return Show(table_slot(game.id, user_id), user_id, rendered.text, rendered.markup, resend=True)


def _sheet_asked(game: Game, event: SheetAsked, bot_username: str) -> list[Order]:
    """``/score``, «📋 Запись»: the score sheet anew below (before the first deal's end: the table — in a group
    the table message itself, drawn with the game, and a line below it saying there is no score yet)."""
    shown = paper.sheet(game, event.chat_id, thread_id=event.thread_id, resend=True)
    if shown is not None:
        return [shown]
    if event.chat_id < 0:  # the table itself goes below (drawn with the game), and this says why it came
        note = translator_for(game.lang).t("sheet-not-yet")
        return [Reply(event.chat_id, note, thread_id=event.thread_id, priority=Priority.ASKED)]
    return [table_copy(game, event.chat_id)]


def _game(
    game: Game,
    bot_username: str,
    resend: set[int],
    resend_table: bool,
    group_notices: tuple[int, ...],
    *,
    sheets: bool,
    copies: Collection[int],
    page: Page | None = None,
) -> list[Order]:
    """The current look of every message of this game (``resend``: these people's messages sent anew, below;
    ``resend_table``: the group's; ``group_notices``: the change's notices to the group, which the private hands
    wait for; ``sheets``: a deal ended, so the score sheet shows it)."""
    tr = translator_for(game.lang)
    party = game.party
    at_table = party is not None and game.status in (
        GameStatus.PLAYING,
        GameStatus.FINISHED,
        GameStatus.CANCELLED,
    )
    orders: list[Order] = []
    if game.mode is GameMode.GROUP and not at_table:
        orders.append(_lobby(game, tr, bot_username, resend_table))
        if game.status is GameStatus.CANCELLED:
            orders += _closed_hands(game, resend)
        return orders
    if party is None:
        return _closed_hands(game, resend) if game.status is GameStatus.CANCELLED else []
    frame = live_frame(game, bot_username)
    painted = drawn(party)
    if game.mode is GameMode.GROUP:
        if game.status is GameStatus.CANCELLED:
            rendered = views.render_game_cancelled(tr, paper.standings(game, tr))
        else:
            # The timer's move is said to the group once, by its notice («⏰ Борис: время на ход вышло»): each
            # notice is sent, while this paced table may skip the version that would mark the move.
            rendered = painted.render_table(dataclasses.replace(frame, auto_move=False), tr)
            if page is not None and page.link and not party.is_terminal:
                rendered = with_page_link(rendered, tr, page.for_group(game.id))
        orders.append(
            Show(
                group_slot(game.id),
                game.chat_id,
                rendered.text,
                rendered.markup,
                thread_id=game.thread_id,
                resend=resend_table,
                paced=game.status is GameStatus.PLAYING and not party.is_terminal,
            )
        )
        if resend_table:  # the copy left above would show a table no longer kept up to date
            orders.append(Hurry(game.chat_id))
    if game.status is GameStatus.CANCELLED:
        return orders + _closed_hands(game, resend, copies)
    if sheets:
        orders += _sheets(game)
    mover = None if party.is_terminal else party.current_player
    hurry = party.is_terminal or bool(group_notices)  # a deal or the party ended: old messages go now
    for seat in game.people():
        user_id = seat.user_id
        assert user_id is not None
        user = game.users.get(user_id)
        if user is not None and user.blocked:
            continue
        utr = translator_for(user.lang if user else game.lang)
        if party.is_terminal and game.mode is GameMode.GROUP and user_id not in resend:
            # The party's end in the private chat says it all (the result, the review, the rematch, the rules, the
            # history): the hand goes with the chat's old messages instead of staying with buttons of a party over.
            orders.append(Drop(hand_slot(game.id, user_id), user_id))
        else:
            orders.append(_hand(game, painted, frame, seat, utr, resend, mover, group_notices, page))
        if hurry:
            orders.append(Hurry(user_id))
        if party.is_terminal or user_id in copies:
            # A «📋 Стол» copy follows the table (paced, as the group's), never showing a past move as now.
            copy = painted.render_table(table_frame(game), utr, seat.seat)
            orders.append(
                Show(
                    table_slot(game.id, user_id),
                    user_id,
                    copy.text,
                    copy.markup,
                    only_existing=True,
                    paced=not party.is_terminal,
                )
            )
    return orders


def _hand(
    game: Game,
    painted: Party,
    frame: TableFrame,
    seat: Seat,
    tr: Translator,
    resend: set[int],
    mover: int | None,
    group_notices: tuple[int, ...],
    page: Page | None,
) -> Show:
    """A player's hand as the party stands (sent anew if ``resend`` names them; after the change's notices to the
    group), with the Mini App's button while the party runs."""
    party = game.party
    user_id = seat.user_id
    assert party is not None and user_id is not None
    rendered = painted.render_private(frame, seat.seat, tr, game.screens.picked(user_id, party.version))
    if page is not None and not party.is_terminal and game.status is GameStatus.PLAYING:
        rendered = with_page_button(rendered, tr, page.for_hand(game.id))
    return Show(
        hand_slot(game.id, user_id),
        user_id,
        rendered.text,
        rendered.markup,
        resend=user_id in resend,
        priority=Priority.TURN if seat.seat == mover else Priority.HAND,
        after=group_notices,
    )


def _sheets(game: Game) -> list[Order]:
    """The group's sheet photo shows the deals ended (sent with the first deal's end, then edited); as the party
    ends, each player gets the final sheet in their own chat too (a solo game: its player)."""
    party = game.party
    assert party is not None
    if party.deals_completed == 0:
        return []
    orders: list[Order] = []
    if game.mode is GameMode.GROUP:
        shown = paper.sheet(game, game.chat_id, thread_id=game.thread_id)
        orders += [shown] if shown is not None else []
    if party.is_terminal:
        for seat in game.people():
            user = game.user_of(seat)
            if user is not None and user.reachable:
                shown = paper.sheet(game, user.user_id)
                orders += [shown] if shown is not None else []
    return orders


def _lobby(game: Game, tr: Translator, bot_username: str, resend: bool) -> Show:
    status = LOBBY_STATUS[game.status]
    creator = next((s.name for s in game.seats if s.user_id == game.creator_id), "")
    plugin = plugin_of(game.kind)
    info = LobbyInfo(
        game_id=game.key,
        kind=plugin.kind,
        options=game.options,
        seats=number_bots(seat_info(s, game.users) for s in game.seats),
        bot_username=bot_username,
        creator_name=creator,
        creator_id=game.creator_id,
        turn_seconds=game.turn_timeout,
        min_players=plugin.min_players,
        max_players=plugin.max_players,
        screen=game.screens.lobby,
        status=status,
        summary=plugin.summary(game.options, tr),
        rules_section=plugin.rules_section(game.options),
        fills_with_bots=plugin.fills_with_bots,
    )
    if info.screen is views.LobbyScreen.SETTINGS and status is LobbyStatus.OPEN:
        rendered = plugin.render_settings(info, tr)
    else:
        rendered = views.render_lobby(info, tr)
    return Show(
        group_slot(game.id),
        game.chat_id,
        rendered.text,
        rendered.markup,
        thread_id=game.thread_id,
        resend=resend,
        priority=Priority.LOW,  # a lobby: behind the games in play (a started one's table is its own message)
    )


def _closed_hands(game: Game, resend: set[int], copies: Collection[int] = ()) -> list[Order]:
    """Each person's message of a cancelled game says so (``copies``: a «📋 Стол» copy too, as the group's table
    does — it would otherwise go on showing whose turn it was)."""
    orders: list[Order] = []
    for seat in game.people():
        user_id = seat.user_id
        assert user_id is not None
        tr = paper.reader(game, user_id)
        rendered = views.render_game_cancelled(tr, paper.standings(game, tr))
        slot = hand_slot(game.id, user_id)
        orders.append(Show(slot, user_id, rendered.text, resend=user_id in resend, only_existing=True))
        if user_id in copies:
            orders.append(Show(table_slot(game.id, user_id), user_id, rendered.text, only_existing=True))
    return orders
