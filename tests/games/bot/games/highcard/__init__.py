"""«Старшая карта» in the bot: its plug-in (lobby, table, hand, rules, hint, review), registered on import as
the project's own games' are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from aiogram.types import InlineKeyboardButton

from bot.callbacks import MoveCb
from bot.games import register
from bot.games.base import GamePlugin, Options
from bot.i18n import Translator
from bot.views.common import (
    Rendered,
    SeatInfo,
    TableInfo,
    button,
    card,
    cards,
    hand_last_row,
    keyboard,
    name_of,
    seat_name,
    turn_line,
)
from bot.views.lobby import LobbyInfo
from bot.views.review import ReviewWords, render_review
from bot.views.rules_book import RulesBook, RulesSection
from bot.views.settings import done_row, turn_time_row
from engine.ai.advice import Advice
from engine.ai.review import Review
from engine.cards import Card
from engine.core import JSONValue
from tests.games.engine.highcard import TOY, HighCardGame, HighCardView, Play, make_highcard_game

SECTION = "hc"
Table = TableInfo[HighCardView]


def _tricks_line(table: Table, tr: Translator) -> str:
    tricks = " · ".join(f"{seat_name(s, tr)} {table.view.tricks[i]}" for i, s in enumerate(table.seats))
    return tr.t("highcard-tricks", tricks=tricks)


def _lines(table: Table, tr: Translator) -> list[str]:
    view = table.view
    lines = [f"🂡 <b>{tr.t('game-highcard')}</b>", _tricks_line(table, tr)]
    if view.led is not None:
        lines.append(tr.t("highcard-led", card=card(view.led, tr)))
    if not view.is_terminal:
        lines.append(turn_line(table.seats, view.current_player, tr))
    return lines


def _winner(table: Table) -> int:
    tricks = table.view.tricks
    return 0 if tricks[0] > tricks[1] else 1


class HighCardPlugin(GamePlugin[Play, HighCardView]):
    kind = TOY
    command = TOY
    menu_order = 90
    solo_opponents: ClassVar[tuple[int, ...]] = (1,)
    min_players = 2
    max_players = 2
    fills_with_bots = False

    def setting_keys(self) -> tuple[str, ...]:
        return ()

    def default_options(self, target: int | None) -> dict[str, JSONValue]:
        return {}

    def set_option(self, options: Options, key: str, value: str) -> dict[str, JSONValue]:
        raise ValueError(f"the toy has no setting {key!r}")

    def game_options(self, options: Options, players: int) -> dict[str, JSONValue]:
        return {"players": players}

    def summary(self, options: Options, tr: Translator) -> str:
        return f"🂡 <b>{self.name(tr)}</b>"

    def rules(self) -> RulesBook:
        return RulesBook(
            kind=self.kind,
            command=self.command,
            sections=(RulesSection(SECTION, "highcard", "старшая карта; взятка; high card; trick"),),
            names=frozenset({"старшая карта", "high card"}),
            help_line="help-moves-highcard",
        )

    def render_settings(self, info: LobbyInfo, tr: Translator) -> Rendered:
        lines = [f"⚙️ <b>{tr.t('settings-title')}</b> · {self.name(tr)}", ""]
        lines.append(tr.t("settings-turn-time", seconds=info.turn_seconds))
        return Rendered("\n".join(lines), keyboard([turn_time_row(info, tr), done_row(info, tr)]))

    def make_game(self, options: Options) -> HighCardGame:
        return make_highcard_game(options)

    def render_table(self, table: Table, tr: Translator) -> Rendered:
        return Rendered("\n".join(_lines(table, tr)))

    def render_private(self, table: Table, tr: Translator, picked: str | None) -> Rendered:
        view = table.view
        my_turn = not view.is_terminal and view.current_player == view.player
        lines = _lines(table, tr)
        rows: list[Sequence[InlineKeyboardButton]] = []
        if my_turn:
            rows.append(
                [
                    button(
                        card(play.card, tr), MoveCb(game=table.game_id, version=view.version, index=i).pack()
                    )
                    for i, play in enumerate(view.legal_actions)
                ]
            )
        elif view.hand:
            lines.append(tr.t("highcard-hand", cards=" ".join(card(c, tr) for c in view.hand)))
        rows.append(self._last_row(table, tr, my_turn=my_turn))
        return Rendered("\n".join(lines), keyboard(rows))

    def _last_row(self, table: Table, tr: Translator, *, my_turn: bool) -> list[InlineKeyboardButton]:
        view = table.view
        return hand_last_row(
            tr,
            table.game_id,
            SECTION,
            version=view.version,
            my_turn=my_turn,
            solo=table.solo,
            finished=view.is_terminal,
        )

    def render_deal_end(self, table: Table, tr: Translator, deal: int, *, personal: bool = False) -> Rendered:
        return Rendered(_tricks_line(table, tr))

    def render_party_end(
        self, table: Table, tr: Translator, *, rematch: bool = True, personal: bool = False
    ) -> Rendered:
        winner = name_of(table.seats, _winner(table), tr)
        return Rendered("\n".join([tr.t("highcard-won", name=winner), _tricks_line(table, tr)]))

    def hint(self, view: HighCardView, advice: Advice, tr: Translator) -> str:
        assert isinstance(advice.action, Play)
        return card(advice.action.card, tr)

    def render_review(self, review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
        def position(view: object, n: int) -> list[str]:
            assert isinstance(view, HighCardView)
            if view.led is None:
                where = tr.t("highcard-review-lead")
            else:
                where = tr.t("highcard-led", card=card(view.led, tr))
            hand = tr.t("review-hand", hand=cards(view.hand, tr))
            return [tr.t("highcard-review-position", n=n, where=where), hand]

        def move_text(_view: object, action: object, tr: Translator) -> str:
            assert isinstance(action, Play)
            return card(action.card, tr)

        return render_review(review, tr, ReviewWords(position, move_text))

    def played(self, action: Play, tr: Translator) -> str:
        return card(action.card, tr)

    def actions_of_card(self, view: HighCardView, code: str) -> list[int]:
        return [i for i, play in enumerate(view.legal_actions) if play.card.code == code]

    def card_action(self, code: str) -> Play | None:
        try:
            return Play(Card.parse(code))
        except ValueError:
            return None


HIGHCARD = register(HighCardPlugin())
