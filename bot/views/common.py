"""What every view shares: the small frozen inputs the views take and what they return, then the pieces they are
built from (cards, names, the crossed-out tally, time, keyboards and Telegram's limits).

The bot core builds the inputs from storage rows and engine views; the views never touch storage or Telegram.
Game screens take the engine's own view of one player (``state.view(player)``); group messages use only its
public fields, so any seat's view will do for them.
"""

from __future__ import annotations

import functools
import html
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Generic

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from typing_extensions import TypeVar

from bot.callbacks import HintCb, HistoryCb, MeCb, RematchCb, ReviewCb, RulesCb, SeatCb, SheetCb, TableCb
from bot.i18n import Locale, Translator
from bot.model.game import Game, GameMode, Seat, User
from engine.ai import Level
from engine.cards import Card
from engine.core import JSONValue

ViewT = TypeVar("ViewT")
"""The engine view a table carries (``TableInfo[SomeView]``: a table of the game whose view that is)."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message ready to send: Telegram HTML text (≤ 4096 characters) and an optional inline keyboard."""

    text: str
    markup: InlineKeyboardMarkup | None = None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat at the table (or in a lobby), in seat order.

    ``name`` is the raw user-supplied name (the views escape it). ``level`` is set for bot players.
    ``is_reachable`` is False for a person who never opened the bot or blocked it. ``is_replaced`` marks a
    person whose seat a bot player took over after missed turns. ``number`` tells apart unnamed bot players of
    the same level at one table («Бот-мастер 1», «Бот-мастер 2»); 0 when it is not needed.
    """

    name: str
    user_id: int | None = None
    is_bot: bool = False
    level: Level | None = None
    is_reachable: bool = True
    is_replaced: bool = False
    number: int = 0


def number_bots(seats: Iterable[SeatInfo]) -> tuple[SeatInfo, ...]:
    """The seats with unnamed bot players numbered wherever two or more of them share a level."""
    seats = tuple(seats)
    same = Counter(seat.level for seat in seats if seat.is_bot and not seat.name)
    seen: Counter[Level | None] = Counter()
    numbered = []
    for seat in seats:
        if seat.is_bot and not seat.name and same[seat.level] > 1:
            seen[seat.level] += 1
            seat = replace(seat, number=seen[seat.level])
        numbered.append(seat)
    return tuple(numbered)


def seat_info(seat: Seat, users: Mapping[int, User] | None = None) -> SeatInfo:
    """A seat as the views see it (``users``: the game's people, who say whether the bot reaches them)."""
    users = users or {}
    user = users.get(seat.user_id) if seat.user_id is not None else None
    return SeatInfo(
        name=seat.name,
        user_id=seat.user_id,
        is_bot=seat.is_bot,
        level=seat.bot_level,
        is_reachable=user.reachable if user is not None else seat.is_bot,
        is_replaced=seat.replaced,
    )


@dataclass(frozen=True, slots=True)
class TableFrame:
    """What a message of a party shows besides the engine's view: its seats, the bot's username (for the «🃏 Мои
    карты» link; empty for a look from the private chat itself), whether it is a private game against bot
    players (``solo``: one live message, more moves written out), the limit per turn and whether the timer made
    the last move.

    Time never shows as a countdown (a text that changes by itself would need an edit every second):
    ``turn_seconds`` is the limit per turn, shown once («⏱ 60 с на ход»; 0: none). ``auto_move`` marks the last
    move as made by a bot player because the time ran out («⏰ … — сыграл бот»).
    """

    game_id: str
    seats: tuple[SeatInfo, ...]
    bot_username: str = ""
    solo: bool = False
    turn_seconds: int = 0
    auto_move: bool = False


def table_frame(
    game: Game, bot_username: str = "", *, turn_seconds: int = 0, timer_move: bool = False
) -> TableFrame:
    """The frame of a game's messages: its seats numbered, the limit per turn, whether the timer made the last
    move (``bot_username`` empty: no «🃏 Мои карты» link, for a look from the private chat itself)."""
    seated = number_bots(seat_info(s, game.users) for s in game.seats)
    return TableFrame(game.key, seated, bot_username, game.mode is GameMode.SOLO, turn_seconds, timer_move)


def live_frame(game: Game, bot_username: str = "") -> TableFrame:
    """The frame of a game's live messages (its table, each hand) as they show it now: the limit per turn while a
    turn is timed, and whether the timer made the last move."""
    party = game.party
    timed = game.deadline is not None and party is not None and not party.is_terminal
    return table_frame(
        game,
        bot_username,
        turn_seconds=game.turn_timeout if timed else 0,
        timer_move=party is not None and game.screens.timer_move == party.version,
    )


@dataclass(frozen=True, slots=True)
class TableInfo(TableFrame, Generic[ViewT]):
    """A table as one player sees it: the frame and ``view``, ``state.view(player)`` of the game's engine (the
    group table and the deal/party results read only its public fields)."""

    view: ViewT = field(kw_only=True)

    @classmethod
    def of(cls, frame: TableFrame, view: ViewT) -> TableInfo[ViewT]:
        return cls(
            frame.game_id,
            frame.seats,
            frame.bot_username,
            frame.solo,
            frame.turn_seconds,
            frame.auto_move,
            view=view,
        )


# --- the pieces views are built from ---------------------------------------------------------------------------

MAX_TEXT: Final = 4096
MAX_ANSWER: Final = 200
MAX_ROW: Final = 8
MAX_BUTTONS: Final = 100
NAMES_KEPT: Final = 4096
"""Names :func:`isolated` keeps made safe (the most recently used)."""

TALLY_KEEP_STEPS: Final[tuple[int | None, ...]] = (None, 12, 8, 5, 3, 1, 0)
"""How many crossed-out totals a tally line keeps, tried in turn until the text fits."""


MINUS: Final = "\u2212"
"""A true minus sign (an ASCII hyphen reads as a dash)."""


def signed(number: int, *, plus: bool = False) -> str:
    """``-33`` -> «−33»; with ``plus`` also «+4» (and «0»)."""
    if number < 0:
        return f"{MINUS}{-number}"
    return f"+{number}" if plus and number > 0 else str(number)


def card(c: Card, tr: Translator) -> str:
    """A card as the locale writes it: ``Д♥`` in Russian, ``Q♥`` in English."""
    return c.ru if tr.locale is Locale.RU else c.text


def unplayable(label: str) -> str:
    """A card button that cannot be played now, dimmed by dots («·К♥·»); a tap answers why."""
    return f"·{label}·"


def cards(cs: Iterable[Card], tr: Translator, sep: str = " ") -> str:
    return sep.join(card(c, tr) for c in cs)


def esc(text: str) -> str:
    """Escape user text for Telegram HTML."""
    return html.escape(text, quote=False)


FSI: Final = "\u2068"
"""FIRST STRONG ISOLATE: what follows, up to :data:`PDI`, is laid out on its own."""
PDI: Final = "\u2069"
"""POP DIRECTIONAL ISOLATE: closes the isolate, and with it any bidi control the text inside left open."""


BIDI_MOVERS: Final = frozenset(
    {"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
)
"""Bidi classes of the characters that can reorder a line around them: right-to-left letters and digits, and the
explicit embeddings, overrides and isolates (Unicode's UAX #9)."""


BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The explicit bidi controls (embeddings, overrides, isolates and their terminators PDF and PDI): a name's own
PDI would close the isolate it is set in, and an override after it would run to the end of the line."""


def without_bidi_controls(text: str) -> str:
    """``text`` with the explicit bidi controls taken out (its letters, right-to-left ones included, stay)."""
    return "".join(ch for ch in text if ch not in BIDI_CONTROLS)


DRAWN_AS_NOTHING: Final = frozenset({"Cf", "Mn", "Me", "Cc", "Cs", "Co", "Cn"})
"""Categories of characters that draw nothing of their own: format characters (joiners, direction marks), combining
marks (with nothing to sit on), controls, surrogates, private use, unassigned — the score sheet's picture drops
them (:mod:`bot.views.sheets.text`)."""
UNSEEN_CATEGORIES: Final = DRAWN_AS_NOTHING | {"Zs", "Zl", "Zp"}
"""Categories of characters that show nothing on their own: those drawn as nothing, and the spaces."""
BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols drawn as nothing: the Hangul fillers and the blank braille pattern (a favourite of names
meant to look empty)."""


def shows_nothing(text: str) -> bool:
    """Whether ``text`` would show blank: none of its characters draws anything (an empty text included)."""
    return all(unicodedata.category(ch) in UNSEEN_CATEGORIES or ch in BLANK_LETTERS for ch in text)


def visible(text: str) -> str:
    """Text someone chose, its bidi controls taken out; "" when it shows nothing at all (a name made of spaces,
    joiners or fillers is shown as having none, so the caller's fallback — «Игрок», a bot player's level — shows
    instead of a blank)."""
    return "" if shows_nothing(text) else without_bidi_controls(text)


@functools.lru_cache(maxsize=NAMES_KEPT)
def isolated(text: str) -> str:
    """Text someone chose, made safe to stand in a line of other people's text (plain, not escaped): its bidi
    controls taken out, and — when it holds a right-to-left letter or digit — set in a Unicode isolate, so its
    direction cannot reorder the rest of the line. A left-to-right name stays as it was typed: some Telegram
    clients draw the isolate's marks, and it would change nothing there. "" for a text that shows nothing
    (:func:`visible`). (Kept for the names seen last: every message of a game writes its players' names, each
    looked at letter by letter.)"""
    clean = visible(text)
    if any(unicodedata.bidirectional(ch) in BIDI_MOVERS for ch in clean):
        return FSI + clean + PDI
    return clean


def named(text: str) -> str:
    """Text someone chose (a name, a group's title), :func:`isolated` and escaped for HTML ("" if it shows
    nothing)."""
    return esc(isolated(text))


def person_name(name: str, tr: Translator) -> str:
    """A person's name as a message writes it (:func:`named`), «Игрок» for one that shows nothing."""
    return named(name) or tr.t("player-nameless")


def level_name(level: Level | str, tr: Translator) -> str:
    return tr.t("level-name", level=Level(level).value)


def bot_name(level: Level | str | None, number: int, tr: Translator) -> str:
    """The plain (unescaped, no 🤖) name of an unnamed bot player: «Любитель», «Мастер 2» (≤ 12 characters).

    The service stores or shows this wherever it needs a bot's name as plain text.
    """
    name = tr.t("bot-default-name", level=Level(level or Level.NORMAL).value)
    return f"{name} {number}" if number else name


def seat_name(seat: SeatInfo, tr: Translator) -> str:
    """The escaped name of a seat, a chosen one isolated (:func:`named`); bot players get 🤖 and, without a name, a name from their level."""
    # "" for a name that shows nothing (spaces, joiners, bidi controls): as having none
    shown = named(seat.name)
    if seat.is_bot:
        if shown:
            return "🤖 " + shown + (f" {seat.number}" if seat.number else "")
        return "🤖 " + esc(bot_name(seat.level, seat.number, tr))
    return shown or tr.t("player-nameless")


def name_of(seats: Sequence[SeatInfo], player: int | None, tr: Translator) -> str:
    if player is None or not 0 <= player < len(seats):
        return tr.t("player-nobody")
    return seat_name(seats[player], tr)


def by_place(scores: Sequence[int]) -> list[int]:
    """The seats in the order of their places: the highest score first (a tie keeps seat order)."""
    return sorted(range(len(scores)), key=lambda seat: -scores[seat])


def place_of(scores: Sequence[int], seat: int) -> int:
    """The place (1-based) of ``seat``: one more than the number of seats with a higher score (ties share)."""
    return 1 + sum(1 for s in scores if s > scores[seat])


def place_line(scores: Sequence[int], seat: int, winners: Sequence[int], points: str, tr: Translator) -> str:
    """The first line of the party's end in a player's own chat: «🏆 Вы победили! — 16», «Вы на 2-м месте — 9»."""
    if seat in winners:
        return tr.t("party-you-won", points=points, count=scores[seat])
    return tr.t("party-your-place", place=place_of(scores, seat), points=points, count=scores[seat])


def waiting_line(seats: Sequence[SeatInfo], me: SeatInfo, player: int, tr: Translator, last: str = "") -> str:
    """A hand while others move: the order they move in, round to ``player`` (the same all the while: no edit as
    they move), or that a bot player plays for them and ``last``, its last move (changing with their cards)."""
    if me.is_replaced:
        return tr.t("hand-replaced") + (f"\n{tr.t('hand-bot-last', move=last)}" if last else "")
    n = len(seats)
    return tr.t("hand-waiting", order=" → ".join(seat_name(seats[(player + i) % n], tr) for i in range(1, n)))


def turn_line(seats: Sequence[SeatInfo], player: int, tr: Translator, note: str = "") -> str:
    """«Ходит: Аня», with a time note (:func:`time_note`) when the turn is limited."""
    line = tr.t("table-turn", name=name_of(seats, player, tr))
    return f"{line} · {note}" if note else line


def time_note(turn_seconds: int, tr: Translator) -> str:
    """«⏱ 60 с на ход» (the limit per turn); "" without a limit.

    Never a countdown: the text stays the same until the turn passes, so the message needs no edit.
    """
    if turn_seconds > 0:
        return tr.t("time-limit", seconds=turn_seconds)
    return ""


def clock(seconds: int) -> str:
    seconds = max(0, seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def fit(build: Callable[[int | None], str]) -> str:
    """The first text ``build(keep)`` that fits Telegram's limit, keeping ever fewer crossed-out totals."""
    text = ""
    for keep in TALLY_KEEP_STEPS:
        text = build(keep)
        if len(text) <= MAX_TEXT:
            return text
    return truncate_html(text, MAX_TEXT)


def truncate_html(text: str, limit: int) -> str:
    """Cut text to ``limit`` characters at a line break, never inside a tag (a last resort: closes nothing,
    so it cuts only at lines, and our lines are balanced on their own)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    nl = cut.rfind("\n")
    if nl > 0:
        cut = cut[:nl]
    return cut + "\n…"


def short_answer(text: str) -> str:
    """A callback answer within Telegram's 200 characters."""
    return text if len(text) <= MAX_ANSWER else text[: MAX_ANSWER - 1] + "…"


def keyboard(rows: Iterable[Sequence[InlineKeyboardButton]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard from rows (empty rows dropped; rows wider than 8 split); None when empty."""
    out: list[list[InlineKeyboardButton]] = []
    for row in rows:
        for start in range(0, len(row), MAX_ROW):
            chunk = list(row[start : start + MAX_ROW])
            if chunk:
                out.append(chunk)
    if not out:
        return None
    return InlineKeyboardMarkup(inline_keyboard=out)


def button(text: str, callback: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=callback)


def url_button(text: str, url: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, url=url)


def rules_button(tr: Translator, section: str, game_id: str = "") -> InlineKeyboardButton:
    """«📖 Правила»: the rules section with this id, sent to the presser's private chat."""
    return button(tr.t("btn-rules"), RulesCb(section=section, game=game_id).pack())


def hand_last_row(
    tr: Translator,
    game_id: str,
    section: str,
    *,
    version: int,
    my_turn: bool,
    solo: bool,
    finished: bool,
) -> list[InlineKeyboardButton]:
    """The last row of a private hand, every game alike: «🔁 Реванш» (a finished solo game) or «💡 Подсказка»
    (solo, on one's turn), «📋 Стол» (while the game runs), then the rules."""
    row = [rules_button(tr, section, game_id)]
    if not finished:
        row.insert(0, button(tr.t("btn-table"), TableCb(game=game_id).pack()))
    if my_turn and solo:
        row.insert(0, button(tr.t("btn-hint"), HintCb(game=game_id, version=version).pack()))
    if finished and solo:
        row.insert(0, button(tr.t("btn-rematch"), RematchCb(game=game_id).pack()))
    return row


def take_seat_row(tr: Translator, game_id: str) -> list[InlineKeyboardButton]:
    """«↩️ Вернуться за стол» under the hand of a player a bot player stands in for."""
    return [button(tr.t("btn-take-seat"), SeatCb(game=game_id).pack())]


def with_review_button(rendered: Rendered, tr: Translator, game_id: str) -> Rendered:
    """A party's end message with «🔍 Разбор партии» on a row of its own above its buttons (the reader's own
    moves, reviewed and sent to them privately)."""
    rows = [[button(tr.t("btn-review"), ReviewCb(game=game_id).pack())]]
    if rendered.markup is not None:
        rows.extend(rendered.markup.inline_keyboard)
    return Rendered(rendered.text, keyboard(rows))


def with_player_page_button(rendered: Rendered, tr: Translator) -> Rendered:
    """A party's result in a player's own chat with «📊 Моя страница» (their page, ``/me``, anew below) on its last
    row."""
    return _with_last_row(rendered, [button(tr.t("btn-player-page"), MeCb().pack())])


def with_sheet_button(rendered: Rendered, tr: Translator, game_id: str) -> Rendered:
    """A deal's scoring with «📋 Запись» (the score sheet's picture anew below, in the chat pressed in) on its
    last row."""
    return _with_last_row(rendered, [button(tr.t("btn-sheet"), SheetCb(game=game_id).pack())])


def with_page_button(rendered: Rendered, tr: Translator, page: str) -> Rendered:
    """A hand in play with «🖥 Стол и карты» on its last row: the Mini App's ``page`` (the table and the hand on one
    screen), opened inside Telegram."""
    return _with_last_row(
        rendered, [InlineKeyboardButton(text=tr.t("btn-page"), web_app=WebAppInfo(url=page))]
    )


def with_page_link(rendered: Rendered, tr: Translator, link: str) -> Rendered:
    """A group's table with «🖥 Стол и карты» on its last row: the Mini App's direct ``link``, which opens it for
    whoever taps it (their own hand if they play, else the table)."""
    return _with_last_row(rendered, [url_button(tr.t("btn-page"), link)])


def with_history_button(rendered: Rendered, tr: Translator, game_id: str) -> Rendered:
    """A party's end message with «📜 История» (the party as a text file, in the chat pressed in) on its last row."""
    return _with_last_row(rendered, [button(tr.t("btn-history"), HistoryCb(game=game_id).pack())])


def _with_last_row(rendered: Rendered, row: list[InlineKeyboardButton]) -> Rendered:
    """``rendered`` with ``row`` below its buttons."""
    rows = list(rendered.markup.inline_keyboard) if rendered.markup is not None else []
    return Rendered(rendered.text, keyboard([*rows, row]))


def decimal(value: float, tr: Translator, *, signed: bool = False) -> str:
    """A number with one decimal as the locale writes it (``+1,5``, ``−0,3`` in Russian; ``1.5`` in English),
    with a real minus sign."""
    text = f"{value:+.1f}" if signed else f"{value:.1f}"
    if text.lstrip("+-") == "0.0":
        text = "0.0"
    text = text.replace("-", MINUS)
    return text.replace(".", ",") if tr.locale is Locale.RU else text


def option(options: Mapping[str, JSONValue] | object, name: str, default: JSONValue) -> JSONValue:
    """An option from an options mapping or an engine's options object (a frozen dataclass)."""
    if isinstance(options, Mapping):
        value = options.get(name, default)
        return value if value is not None else default
    raw = getattr(options, name, default)
    if isinstance(raw, str | int | float | bool):
        return raw
    return default
