"""Кинг screens: the group table, a player's private hand, the trump choice, and the ends of deals and parties.

Group screens read only the public part of the engine view (the trick, tricks and penalty cards taken, the
score sheet), so the view of any seat will do for them; a hand is shown only by the private screens. In the
private hand the cards are grouped by suit, one keyboard row per suit: a legal card plays on one tap, an
unplayable one is a "pick" the service answers with the reason (follow suit, no heart lead, K♥, trump).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeAlias

from aiogram.types import InlineKeyboardButton

from bot.callbacks import DeepLink, MoveCb, PickCb, start_link
from bot.games.king.sections import KingSection
from bot.i18n import Translator
from bot.views.common import (
    Rendered,
    SeatInfo,
    TableInfo,
    button,
    card,
    cards,
    fit,
    hand_last_row,
    keyboard,
    name_of,
    rules_button,
    seat_name,
    take_seat_row,
    time_note,
    turn_line,
    unplayable,
    url_button,
    waiting_line,
)
from bot.views.common import signed as common_signed
from engine.cards import Card, Suit
from engine.king import (
    NEGATIVE_DEALS,
    NUM_DEALS,
    POSITIVE_DEALS,
    ChooseTrump,
    Contract,
    KingView,
    Phase,
    Play,
)

KingTable: TypeAlias = TableInfo[KingView]

SUIT_ROWS: Final = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
"""The order of the suit rows of a hand and of the trump buttons: ♠ ♥ ♦ ♣."""


def signed(n: int) -> str:
    """A score as the sheet writes it: +6, −4, 0."""
    return common_signed(n, plus=True)


# --------------------------------------------------------------------------------------------- pieces


def contract_name(contract: Contract, tr: Translator) -> str:
    return tr.t("king-contract-name", contract=contract.value)


def deal_label(deal_index: int, contract: Contract | None, tr: Translator) -> str:
    """«не брать кинга» for a negative deal, «отыгрыш 3/8» for a positive one."""
    if contract is not None:
        return contract_name(contract, tr)
    return tr.t("king-positive", n=deal_index - NEGATIVE_DEALS + 1, total=POSITIVE_DEALS)


def contract_of(view: KingView, deal_index: int) -> Contract | None:
    return view.options.order[deal_index] if 0 <= deal_index < NEGATIVE_DEALS else None


def _header(view: KingView, seats: Sequence[SeatInfo], tr: Translator, *, private: bool = False) -> list[str]:
    title = f"👑 <b>{tr.t('game-king')}</b>"
    if view.is_terminal:
        return [f"{title} · {tr.t('king-over')}"]
    deal = tr.t(
        "king-deal", deal=view.deal_index + 1, total=NUM_DEALS, dealer=name_of(seats, view.dealer, tr)
    )
    return [f"{title} · {deal}", _contract_line(view, seats, tr, private)]


def _contract_line(view: KingView, seats: Sequence[SeatInfo], tr: Translator, private: bool) -> str:
    if view.contract is not None:
        return "📜 " + contract_name(view.contract, tr)
    positive = deal_label(view.deal_index, None, tr)
    chooser = name_of(seats, view.chooser, tr)
    if view.phase is Phase.CHOOSE_TRUMP or view.trump is None:
        if private and view.player == view.chooser:
            return f"🎺 {positive} · " + tr.t("king-you-choose-trump")
        return f"🎺 {positive} · " + tr.t("king-wait-trump", name=chooser)
    if view.trump_card_shown is not None:
        trump = tr.t(
            "king-trump-last", suit=view.trump.symbol, card=card(view.trump_card_shown, tr), name=chooser
        )
    else:
        trump = tr.t("king-trump", suit=view.trump.symbol, name=chooser)
    return f"🎺 {positive} · {trump}"


def plays_text(plays: Sequence[tuple[int, Card]], seats: Sequence[SeatInfo], tr: Translator) -> str:
    return " · ".join(f"{name_of(seats, player, tr)} {card(c, tr)}" for player, c in plays)


def _trick_line(view: KingView, seats: Sequence[SeatInfo], tr: Translator) -> str | None:
    if view.phase is not Phase.PLAY:
        return None
    if not view.trick:
        return tr.t("table-empty")
    return tr.t("table-cards", cards=plays_text(view.trick, seats, tr))


def _time_note(table: KingTable, tr: Translator) -> str:
    return time_note(table.turn_seconds, tr)


def _turn_line(table: KingTable, tr: Translator) -> str | None:
    view = table.view
    if view.is_terminal or view.phase is not Phase.PLAY or view.current_player < 0:
        return None
    return turn_line(table.seats, view.current_player, tr, _time_note(table, tr))


def _auto_move_line(table: KingTable, tr: Translator) -> list[str]:
    """«⏰ Борис: 9♦ — сыграл бот: время вышло» when the timer made the last play."""
    view = table.view
    if not table.auto_move or view.is_terminal:
        return []
    if view.trick:
        player, played = view.trick[-1]
    elif view.last_trick is not None:
        player, played = view.last_trick.plays[-1]
    else:
        return []
    move = f"{name_of(table.seats, player, tr)} {card(played, tr)}"
    return [tr.t("move-auto", move=move)]


def _player_lines(table: KingTable, tr: Translator) -> list[str]:
    view = table.view
    if view.is_terminal:
        return []
    lines = []
    for seat_index, seat in enumerate(table.seats):
        marker = "👉 " if seat_index == view.current_player else ""
        line = marker + tr.t("king-player", name=seat_name(seat, tr), tricks=view.tricks_won[seat_index])
        taken = view.penalty_cards[seat_index]
        if taken:
            line += " · " + cards(taken, tr)
        points = view.deal_points[seat_index]
        if points:
            line += f" · <b>{signed(points)}</b>"
        if seat.is_replaced:
            line += " · " + tr.t("table-replaced")
        elif not seat.is_reachable and not seat.is_bot:
            line += " · " + tr.t("table-unreachable")
        lines.append(line)
    return lines


def _last_trick_line(view: KingView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    if view.is_terminal or not view.tricks_this_deal:
        return []
    last = view.tricks_this_deal[-1]
    return [
        tr.t("king-last-trick", plays=plays_text(last.plays, seats, tr), name=name_of(seats, last.winner, tr))
    ]


def totals_line(view: KingView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    if not view.score_sheet:
        return []
    scores = " · ".join(f"{seat_name(seat, tr)} {signed(view.totals[i])}" for i, seat in enumerate(seats))
    return [tr.t("king-totals", scores=scores)]


def join_blocks(blocks: Sequence[Sequence[str]]) -> str:
    return "\n\n".join("\n".join(block) for block in blocks if block)


def _suit_groups(hand: Sequence[Card]) -> list[list[Card]]:
    """The hand in suit rows (♠ ♥ ♦ ♣), each from the highest card down; empty suits left out."""
    groups = []
    for suit in SUIT_ROWS:
        group = sorted((c for c in hand if c.suit is suit), key=lambda c: c.rank, reverse=True)
        if group:
            groups.append(group)
    return groups


# --------------------------------------------------------------------------------------------- group


def render_table(table: KingTable, tr: Translator) -> Rendered:
    """The group's table message (edited in place): public information only."""
    view = table.view
    seats = table.seats

    def build(_keep: int | None) -> str:
        top = _header(view, seats, tr)
        for line in (_trick_line(view, seats, tr), _turn_line(table, tr)):
            if line:
                top.append(line)
        return join_blocks(
            [
                top,
                _player_lines(table, tr),
                _auto_move_line(table, tr) or _last_trick_line(view, seats, tr),
                totals_line(view, seats, tr),
            ]
        )

    row = [rules_button(tr, KingSection.BASICS, table.game_id)]
    if table.bot_username and not view.is_terminal:
        row.append(
            url_button(tr.t("btn-my-cards"), start_link(table.bot_username, DeepLink.GAME, table.game_id))
        )
    return Rendered(fit(build), keyboard([row]))


# --------------------------------------------------------------------------------------------- private


def _is_my_turn(view: KingView) -> bool:
    return not view.is_terminal and view.is_my_turn and bool(view.legal_actions)


def play_index(view: KingView, c: Card) -> int | None:
    """The index in ``view.legal_actions`` of playing ``c``; None if ``c`` cannot be played now."""
    for index, action in enumerate(view.legal_actions):
        if isinstance(action, Play) and action.card is c:
            return index
    return None


def _trump_rows(table: KingTable, tr: Translator) -> list[Sequence[InlineKeyboardButton]]:
    view = table.view
    suits: list[InlineKeyboardButton] = []
    last: list[InlineKeyboardButton] = []
    by_suit = {
        action.suit: index
        for index, action in enumerate(view.legal_actions)
        if isinstance(action, ChooseTrump)
    }
    for suit in SUIT_ROWS:
        if suit in by_suit:
            data = MoveCb(game=table.game_id, version=view.version, index=by_suit[suit]).pack()
            suits.append(button(suit.symbol, data))
    if None in by_suit:
        data = MoveCb(game=table.game_id, version=view.version, index=by_suit[None]).pack()
        last.append(button(tr.t("btn-trump-last"), data))
    return [suits, last]


def _card_rows(table: KingTable, tr: Translator) -> list[Sequence[InlineKeyboardButton]]:
    view = table.view
    rows: list[Sequence[InlineKeyboardButton]] = []
    for group in _suit_groups(view.hand):
        row = []
        for c in group:
            index = play_index(view, c)
            if index is None:
                data = PickCb(game=table.game_id, version=view.version, card=c.code).pack()
                label = unplayable(card(c, tr))
            else:
                data = MoveCb(game=table.game_id, version=view.version, index=index).pack()
                label = card(c, tr)
            row.append(button(label, data))
        rows.append(row)
    return rows


def _hand_line(hand: Sequence[Card], tr: Translator) -> str:
    """The cards on one line, suit by suit: «Ваши карты: Т♠ 8♠ · К♥ · 10♦ 7♦»."""
    return tr.t("hand-cards", cards=" · ".join(cards(group, tr) for group in _suit_groups(hand)))


def _your_turn_line(table: KingTable, me: SeatInfo, tr: Translator) -> str:
    line = tr.t("hand-your-turn", name=seat_name(me, tr))
    note = _time_note(table, tr)
    return f"{line} · {note}" if note else line


def _bottom(view: KingView, tr: Translator, my_turn: bool) -> list[str]:
    if view.is_terminal:
        return [tr.t("hand-game-over")]
    if my_turn and view.phase is Phase.CHOOSE_TRUMP:
        return [tr.t("king-first-three", cards=cards(view.hand, tr, "  ")), tr.t("king-choose-trump")]
    if my_turn:
        return [tr.t("king-pick-card")]
    return [_hand_line(view.hand, tr)] if view.hand else []


def _this_deal_last_trick(view: KingView, seats: Sequence[SeatInfo], tr: Translator) -> list[str]:
    """The deal's previous trick and who took it: with the trick on the table, every play since one's own last
    («С вашего хода»; the deal's first trick follows the last deal's result, which shows its last trick)."""
    if view.phase is not Phase.PLAY:
        return []
    return _last_trick_line(view, seats, tr)


def _waiting_line(view: KingView, seats: Sequence[SeatInfo], me: SeatInfo, tr: Translator) -> str | None:
    """Who moves until one's turn, true from one's own card (when the hand is drawn) to one's next turn, so the
    hand is not edited as the others play: after one's card in mid-trick, who follows it in that trick and that
    whoever takes it leads the next; else who leads the trick and who follows up to oneself. None: say it as any
    game does (a bot player holds the seat, or one leads)."""
    player, n = view.player, len(seats)
    if me.is_replaced or view.phase is Phase.CHOOSE_TRUMP:
        return None
    done = view.tricks_this_deal[-1] if view.tricks_this_deal else None
    if any(p == player for p, _ in view.trick):
        leader = view.trick[0][0]
    elif done is not None and any(p == player for p, _ in done.plays[:-1]):
        leader = done.leader  # one's trick was ended by the others, and the next one runs
    else:
        leader = view.trick[0][0] if view.trick else view.current_player
        if leader == player:
            return None
        between = [(leader + i) % n for i in range(1, (player - leader) % n)]
        key = "king-waiting-lead-then" if between else "king-waiting-lead"
        return tr.t(
            key, leader=name_of(seats, leader, tr), order=" → ".join(name_of(seats, p, tr) for p in between)
        )
    after = [(player + i) % n for i in range(1, (leader - player) % n or n)]
    return tr.t("king-waiting-after", order=" → ".join(name_of(seats, p, tr) for p in after))


def _compact_text(table: KingTable, tr: Translator, me: SeatInfo, my_turn: bool) -> str:
    """A group game's private hand: on one's turn at most six lines — the deal, the previous trick and who took
    it, the table, a move the timer made, the turn and what to do; while others move only the deal and one's cards. The whole table is the group's
    message (and «📋 Стол»)."""
    view = table.view
    seats = table.seats
    if view.is_terminal:
        lines = [_header(view, seats, tr)[0], *totals_line(view, seats, tr), *_bottom(view, tr, my_turn)]
        return "\n".join(lines)
    deal = tr.t("king-deal-short", deal=view.deal_index + 1, total=NUM_DEALS)
    lines = [f"👑 <b>{tr.t('game-king')}</b> · {deal} · {_contract_line(view, seats, tr, True)}"]
    if not my_turn:
        # While others move: nothing another player's play changes (the deal, that the table is in the group,
        # one's cards, undimmed), so the message is edited only when one's own cards or the deal change.
        plays = [
            c
            for p, c in (*(p for t in view.tricks_this_deal for p in t.plays), *view.trick)
            if p == view.player
        ]
        last = card(plays[-1], tr) if plays else ""
        lines.append(_waiting_line(view, seats, me, tr) or waiting_line(seats, me, view.player, tr, last))
        if view.hand:
            lines.append(_hand_line(view.hand, tr))
        return "\n".join(lines)
    lines += _this_deal_last_trick(view, seats, tr)
    trick = _trick_line(view, seats, tr)
    if trick:
        lines.append(trick)
    lines += _auto_move_line(table, tr)
    lines.append(_your_turn_line(table, me, tr))
    lines += _bottom(view, tr, my_turn)
    return "\n".join(lines)


def _solo_text(table: KingTable, tr: Translator, me: SeatInfo, my_turn: bool) -> str:
    """A solo game's one message (no group to look at): ≤ 15 lines — the deal, the trick, every player's
    tricks and penalties, the last trick, the totals, what to do."""
    view = table.view
    seats = table.seats
    top = [_your_turn_line(table, me, tr)] if my_turn else []
    top += _header(view, seats, tr, private=True)
    trick = _trick_line(view, seats, tr)
    if trick:
        top.append(trick)
    if not my_turn:
        turn = _turn_line(table, tr)
        if turn:
            top.append(turn)
    return join_blocks(
        [
            top,
            _player_lines(table, tr),
            _auto_move_line(table, tr) or _last_trick_line(view, seats, tr),
            totals_line(view, seats, tr),
            _bottom(view, tr, my_turn),
        ]
    )


def render_private(table: KingTable, tr: Translator) -> Rendered:
    """A player's private message: in a group game what they need to move and their cards in suit rows (a card
    plays on one tap; the trump chooser gets ♠ ♥ ♦ ♣ and «по последней»); a solo game's one live message (a
    rematch button at the end)."""
    view = table.view
    seats = table.seats
    me = seats[view.player] if 0 <= view.player < len(seats) else SeatInfo(name="")
    my_turn = _is_my_turn(view) and not me.is_replaced  # a bot player plays this seat: never «your move»
    text = (_solo_text if table.solo else _compact_text)(table, tr, me, my_turn)
    rows: list[Sequence[InlineKeyboardButton]] = []
    if my_turn:
        rows = _trump_rows(table, tr) if view.phase is Phase.CHOOSE_TRUMP else _card_rows(table, tr)
    if me.is_replaced and not view.is_terminal:
        rows.append(take_seat_row(tr, table.game_id))
    last_row = hand_last_row(
        tr,
        table.game_id,
        KingSection.BASICS,
        version=view.version,
        my_turn=my_turn,
        solo=table.solo,
        finished=view.is_terminal,
    )
    rows.append(last_row)
    return Rendered(fit(lambda _keep: text), keyboard(rows))
