"""Кинг in the bot: its plug-in (lobby options, settings screen, views, card buttons)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import register
from bot.games.base import GamePlugin, Options
from bot.games.king import results, views
from bot.games.king.feats import FEATS, feats_in
from bot.games.king.hint import hint_text
from bot.games.king.review import render_review
from bot.games.king.rules import rules_book
from bot.games.king.settings import KingSetting, render_king_settings, set_king_option
from bot.games.king.sheet import deal_trumps, grid_sheet
from bot.games.king.views import contract_of, deal_label
from bot.games.paper import Paper, history_name
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, TableInfo, card
from bot.views.lobby import LobbyInfo
from bot.views.rules_book import RulesBook
from bot.views.sheets import GridSheet
from engine.ai.advice import Advice
from engine.ai.review import Review
from engine.core import IllegalActionError, JSONValue, Player, State
from engine.king import KingAction, KingGame, KingOptions, KingState, KingView, Play


class KingPaper(Paper[KingAction, KingView]):
    """Кинг on paper: the fifteen-row sheet; the history's moves, dealers and deal results."""

    def score_sheet(
        self, state: State[KingAction, KingView], seats: Sequence[SeatInfo], tr: Translator
    ) -> GridSheet:
        trumps = deal_trumps(state) if isinstance(state, KingState) else ()
        return grid_sheet(state.view(0), seats, tr, trumps)  # the sheet is public: any seat's view has it

    def move_words(self, action: KingAction, tr: Translator) -> str:
        if isinstance(action, Play):
            return card(action.card, tr)
        return tr.t("history-trump", suit=self._played(action, tr))

    def deal_heading(
        self, state: State[KingAction, KingView], seats: Sequence[SeatInfo], tr: Translator
    ) -> str:
        view = state.view(0)
        label = deal_label(view.deal_index, contract_of(view, view.deal_index), tr)
        dealer = history_name(seats[view.dealer], tr) if 0 <= view.dealer < len(seats) else "?"
        return f"{label} · " + tr.t("history-dealer", name=dealer)

    def deal_result(
        self, state: State[KingAction, KingView]
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        sheet = state.view(0).score_sheet
        if not sheet:
            return None
        totals = tuple(sum(row[p] for row in sheet) for p in range(len(sheet[-1])))
        return tuple(sheet[-1]), totals


class KingPlugin(GamePlugin[KingAction, KingView]):
    paper_type = KingPaper
    kind = "king"
    command = "king"
    menu_order = 20
    solo_opponents = (3,)
    min_players = 1
    max_players = 4
    fills_with_bots = True

    def setting_keys(self) -> tuple[str, ...]:
        return tuple(KingSetting)

    def default_options(self, target: int | None) -> dict[str, JSONValue]:
        return KingOptions().to_dict()  # a Кинг party is always the 15 deals

    def set_option(self, options: Options, key: str, value: str) -> dict[str, JSONValue]:
        return set_king_option(options, key, value)

    def game_options(self, options: Options, players: int) -> dict[str, JSONValue]:
        return KingOptions.from_dict(options).to_dict()

    def summary(self, options: Options, tr: Translator) -> str:
        return f"👑 <b>{self.name(tr)}</b> · {tr.t('lobby-king-summary')}"

    def rules(self) -> RulesBook:
        return rules_book(self.kind, self.command)

    def render_settings(self, info: LobbyInfo, tr: Translator) -> Rendered:
        return render_king_settings(info, tr)

    def make_game(self, options: Options) -> KingGame:
        return KingGame(KingOptions.from_dict(options))

    def render_table(self, table: TableInfo[KingView], tr: Translator) -> Rendered:
        return views.render_table(table, tr)

    def render_private(self, table: TableInfo[KingView], tr: Translator, picked: str | None) -> Rendered:
        return views.render_private(table, tr)

    def render_deal_end(
        self, table: TableInfo[KingView], tr: Translator, deal: int, *, personal: bool = False
    ) -> Rendered:
        return results.render_deal_end(table, tr, deal, personal=personal)

    def render_party_end(
        self, table: TableInfo[KingView], tr: Translator, *, rematch: bool = True, personal: bool = False
    ) -> Rendered:
        return results.render_party_end(table, tr, rematch=rematch, personal=personal)

    feats = FEATS

    def feats_of(self, state: State[KingAction, KingView], player: Player) -> tuple[str, ...]:
        return feats_in(state, player)

    def played(self, action: KingAction, tr: Translator) -> str:
        if isinstance(action, Play):
            return card(action.card, tr)
        return action.suit.symbol if action.suit is not None else tr.t("btn-trump-last")

    def hint(self, view: KingView, advice: Advice, tr: Translator) -> str:
        return hint_text(view, advice, tr)

    def render_review(self, review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
        return render_review(review, seats, tr)

    def actions_of_card(self, view: KingView, code: str) -> list[int]:
        return [
            index
            for index, action in enumerate(view.legal_actions)
            if isinstance(action, Play) and action.card.code == code
        ]

    def card_action(self, code: str) -> KingAction | None:
        try:
            return Play.parse(code)
        except IllegalActionError:
            return None


KING = register(KingPlugin())
