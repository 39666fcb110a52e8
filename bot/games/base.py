"""The typed plug-in every game implements for the bot: one class per game, every hook required.

The service stays generic — seats, records, timers, publishing — and asks the game's :class:`GamePlugin` for
everything that depends on the game: the lobby's defaults and settings screen, the engine options, each message's
look (group table, private hand, solo screen, deal end, party end), which actions a card button stands for, and
why a card cannot be played now. A third game adds a folder beside ``konchinka/`` and ``king/`` with its plug-in,
views and settings screen, and one line in :mod:`bot.games`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar, Generic, TypeVar

from bot.callbacks import GameKind, RulesSection, SettingKey
from bot.i18n import Translator
from bot.views.models import LobbyInfo, Rendered, TableInfo
from engine.core import Action, IllegalActionError, JSONValue, State

ActionT = TypeVar("ActionT", bound=Action)
ViewT = TypeVar("ViewT")

Options = Mapping[str, JSONValue]
"""A lobby's options as stored (JSON data)."""


class GamePlugin(ABC, Generic[ActionT, ViewT]):
    """What the bot needs to know about one game (``ActionT``/``ViewT``: the engine's action and view types)."""

    kind: ClassVar[GameKind]
    min_players: ClassVar[int]
    """People needed to start a group game (Кинг fills the rest with bot players)."""
    max_players: ClassVar[int]
    fills_with_bots: ClassVar[bool]
    """At the start, the empty seats up to ``max_players`` go to bot players."""

    # ------------------------------------------------------------------------------------- lobby and options

    @abstractmethod
    def default_options(self, target: int | None) -> dict[str, JSONValue]:
        """A new lobby's options (without the number of players), with an optional target override."""

    @abstractmethod
    def set_option(self, options: Options, key: SettingKey, value: str) -> dict[str, JSONValue]:
        """The options with one setting changed; ValueError if the value is not allowed."""

    @abstractmethod
    def game_options(self, options: Options, players: int) -> dict[str, JSONValue]:
        """The engine's options for ``players`` seats."""

    @abstractmethod
    def summary(self, options: Options, tr: Translator) -> str:
        """One line naming the game and its options, for the lobby's title («Кончинка · до 15, …»)."""

    @abstractmethod
    def rules_section(self, options: Options) -> RulesSection:
        """The rules section that fits these options (the «📖 Правила» button)."""

    @abstractmethod
    def render_settings(self, info: LobbyInfo, tr: Translator) -> Rendered:
        """The lobby's settings screen: each option with buttons that set it."""

    # ------------------------------------------------------------------------------------------- messages

    @abstractmethod
    def render_table(self, table: TableInfo[ViewT], tr: Translator) -> Rendered:
        """The group's table message (public information only)."""

    @abstractmethod
    def render_hand(self, table: TableInfo[ViewT], tr: Translator, picked: str | None) -> Rendered:
        """A player's live private message in a group game; ``picked`` is the card of a first tap."""

    @abstractmethod
    def render_solo(self, table: TableInfo[ViewT], tr: Translator, picked: str | None) -> Rendered:
        """The one live message of a solo game against bot players."""

    @abstractmethod
    def render_deal_end(self, table: TableInfo[ViewT], tr: Translator, deal: int) -> Rendered:
        """The scoring of deal number ``deal`` (1-based), posted when it ends."""

    @abstractmethod
    def render_party_end(self, table: TableInfo[ViewT], tr: Translator, *, rematch: bool = True) -> Rendered:
        """The end of the party: winner, final tally and, when ``rematch``, «🔁 Реванш» (the group's message
        and each private chat's)."""

    @abstractmethod
    def hint(self, view: ViewT, action: ActionT, tr: Translator) -> str:
        """«💡 Подсказка» (solo): one line, ≤ 200 characters, saying what ``action`` (the «мастер» bot
        player's choice from ``view``) is and why."""

    # -------------------------------------------------------------------------------------------- buttons

    @abstractmethod
    def actions_of_card(self, view: ViewT, code: str) -> list[int]:
        """Indexes in the view's legal actions of the actions that play the card with this code."""

    @abstractmethod
    def card_action(self, code: str) -> ActionT | None:
        """The plainest action that plays this card (a lay, a play): the engine's refusal of it says why the
        card cannot be played now. None if ``code`` is no card of this game."""

    def refusal(self, state: State[ActionT, ViewT], code: str) -> IllegalActionError | None:
        """Why the card with this code cannot be played now, in the engine's own words; None if it can."""
        action = self.card_action(code)
        if action is None:
            return None
        probe = state.clone()
        try:
            probe.apply(action)
        except IllegalActionError as exc:
            return exc
        return None
