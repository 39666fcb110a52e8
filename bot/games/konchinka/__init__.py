"""Кончинка in the bot: its plug-in (lobby options, settings screen, views, card buttons)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import register
from bot.games.base import GamePlugin, Options
from bot.games.konchinka import results, views
from bot.games.konchinka.feats import FEATS, feats_in
from bot.games.konchinka.hint import hint_text
from bot.games.konchinka.review import render_review
from bot.games.konchinka.rules import rules_book
from bot.games.konchinka.sections import KonchinkaSection
from bot.games.konchinka.settings import KonchinkaSetting, render_konchinka_settings, set_konchinka_option
from bot.games.konchinka.sheet import tally_sheet
from bot.games.paper import Paper, history_name
from bot.i18n import Translator
from bot.views.common import Rendered, SeatInfo, TableInfo, card, option
from bot.views.lobby import LobbyInfo
from bot.views.rules_book import RulesBook
from bot.views.sheets import TallySheet
from engine.ai.advice import Advice
from engine.ai.review import Review
from engine.cards import Card
from engine.core import JSONValue, Player, State
from engine.konchinka import (
    Capture,
    KonchinkaAction,
    KonchinkaGame,
    KonchinkaOptions,
    KonchinkaView,
    Lay,
    Variant,
)
from engine.konchinka.actions import FINISH, Finish
from engine.konchinka.ai.policy import position_from_view, score_actions


def _card(code: str | None) -> Card | None:
    if not code:
        return None
    try:
        return Card.parse(code)
    except ValueError:
        return None


def _picked(code: str | None) -> views.Picked | None:
    """A first tap's choice: a card, or «🏁 Прикончить!» (the finish's own code)."""
    return FINISH if code == FINISH.code else _card(code)


class KonchinkaPaper(Paper[KonchinkaAction, KonchinkaView]):
    """Кончинка on paper: the crossed-out tally with its per-deal small print; the history's moves, dealers
    and deal results."""

    def score_sheet(
        self, state: State[KonchinkaAction, KonchinkaView], seats: Sequence[SeatInfo], tr: Translator
    ) -> TallySheet:
        return tally_sheet(state.view(0), seats, tr)  # the sheet is public: any seat's view has it

    def move_words(self, action: KonchinkaAction, tr: Translator) -> str:
        if isinstance(action, Lay):
            return tr.t("history-lay", card=card(action.card, tr))
        if isinstance(action, Capture):
            taken = " | ".join(" + ".join(card(c, tr) for c in group) for group in action.groups)
            return tr.t("history-capture", card=card(action.card, tr), cards=taken)
        return tr.t("history-finish")

    def deal_heading(
        self, state: State[KonchinkaAction, KonchinkaView], seats: Sequence[SeatInfo], tr: Translator
    ) -> str:
        dealer = state.view(0).dealer
        return tr.t(
            "history-dealer", name=history_name(seats[dealer], tr) if 0 <= dealer < len(seats) else "?"
        )

    def deal_result(
        self, state: State[KonchinkaAction, KonchinkaView]
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        scores = state.view(0).deal_scores
        return (tuple(scores[-1].points), tuple(scores[-1].totals)) if scores else None


class KonchinkaPlugin(GamePlugin[KonchinkaAction, KonchinkaView]):
    paper_type = KonchinkaPaper
    asking = frozenset({FINISH.code})
    kind = "konchinka"
    command = "konchinka"
    menu_order = 10
    solo_opponents = (1, 2, 3)
    min_players = 2
    max_players = 4
    fills_with_bots = False

    def new_choices(self, tr: Translator) -> list[tuple[str, str]]:
        """Either variant."""
        name = self.button(tr)
        return [(name + " · " + tr.t("opt-variant", variant=v.value), v.value) for v in Variant]

    def new_options(self, choice: str, target: int | None) -> dict[str, JSONValue]:
        return {**self.default_options(target), "variant": Variant(choice or Variant.CLASSIC).value}

    def setting_keys(self) -> tuple[str, ...]:
        return tuple(KonchinkaSetting)

    def default_options(self, target: int | None) -> dict[str, JSONValue]:
        options = KonchinkaOptions().to_dict()
        options.pop("players", None)
        if target is not None:
            options["target"] = target
        return options

    def set_option(self, options: Options, key: str, value: str) -> dict[str, JSONValue]:
        return set_konchinka_option(options, key, value)

    def game_options(self, options: Options, players: int) -> dict[str, JSONValue]:
        return KonchinkaOptions.from_dict({**options, "players": players}).to_dict()

    def summary(self, options: Options, tr: Translator) -> str:
        return f"🃏 <b>{self.name(tr)}</b> · {views.options_summary(options, tr)}"

    def rules(self) -> RulesBook:
        return rules_book(self.kind, self.command)

    def rules_section(self, options: Options) -> str:
        if str(option(options, "variant", "classic")) == "points":
            return KonchinkaSection.POINTS
        return KonchinkaSection.BASICS

    def render_settings(self, info: LobbyInfo, tr: Translator) -> Rendered:
        return render_konchinka_settings(info, tr)

    def make_game(self, options: Options) -> KonchinkaGame:
        return KonchinkaGame(KonchinkaOptions.from_dict(options))

    def render_table(self, table: TableInfo[KonchinkaView], tr: Translator) -> Rendered:
        return views.render_table(table, tr)

    def render_private(self, table: TableInfo[KonchinkaView], tr: Translator, picked: str | None) -> Rendered:
        return views.render_private(table, tr, _picked(picked))

    def render_deal_end(
        self, table: TableInfo[KonchinkaView], tr: Translator, deal: int, *, personal: bool = False
    ) -> Rendered:
        return results.render_deal_end(table, tr, deal, personal=personal)

    def render_party_end(
        self, table: TableInfo[KonchinkaView], tr: Translator, *, rematch: bool = True, personal: bool = False
    ) -> Rendered:
        return results.render_party_end(table, tr, rematch=rematch, personal=personal)

    feats = FEATS

    def feats_of(self, state: State[KonchinkaAction, KonchinkaView], player: Player) -> tuple[str, ...]:
        return feats_in(state, player)

    def played(self, action: KonchinkaAction, tr: Translator) -> str:
        if isinstance(action, Finish):
            return tr.t("btn-finish")
        return card(action.card, tr)

    def hint(self, view: KonchinkaView, advice: Advice, tr: Translator) -> str:
        return hint_text(view, advice, tr)

    def render_review(self, review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
        return render_review(review, seats, tr)

    def actions_of_card(self, view: KonchinkaView, code: str) -> list[int]:
        if code == FINISH.code:
            index = views.finish_index(view)
            return [] if index is None else [index]
        card = _card(code)
        if card is None:
            return []
        indexes = [index for index, _action in views.actions_of_card(view, card)]
        if len(indexes) > 1:
            scores = score_actions(position_from_view(view), [view.legal_actions[i] for i in indexes])
            order = sorted(range(len(indexes)), key=lambda i: (-scores[i], i))
            indexes = [indexes[i] for i in order]
        return indexes

    def card_action(self, code: str) -> KonchinkaAction | None:
        card = _card(code)
        return Lay(card) if card is not None else None


KONCHINKA = register(KonchinkaPlugin())
