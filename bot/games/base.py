"""The typed plug-in every game implements for the bot: one class per game, every hook required.

The service stays generic — seats, records, timers, publishing — and asks the game's :class:`GamePlugin` for
everything that depends on the game: its id, command and menu entries, the lobby's defaults and settings (keys
and screen), the engine options, each message's look (group table, private message, deal end, party end), which
actions a card button stands for, and why a card cannot be played now. A game is a folder beside the others in
``bot/games/`` whose ``__init__`` registers its plug-in (see :mod:`bot.games`); its texts are a folder in each
``locales/<lang>/``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from bot.games.paper import Paper
from bot.i18n import Translator
from bot.model.party import Party as RulesParty
from bot.views.common import Rendered, SeatInfo, TableFrame, TableInfo
from bot.views.lobby import LobbyInfo
from bot.views.rules_book import RulesBook
from bot.views.sheets import Sheet
from engine.ai.advice import Advice
from engine.ai.players import bot_players
from engine.ai.review import Review
from engine.core import (
    Action,
    Game,
    GameRecord,
    IllegalActionError,
    JSONValue,
    Outcome,
    Player,
    State,
    replay,
)

ActionT = TypeVar("ActionT", bound=Action)
ViewT = TypeVar("ViewT")

Options = Mapping[str, JSONValue]
"""A lobby's options as stored (JSON data)."""


class GamePlugin(ABC, Generic[ActionT, ViewT]):
    """What the bot needs to know about one game (``ActionT``/``ViewT``: the engine's action and view types)."""

    kind: ClassVar[str]
    """The game's id: its engine's name, stored with each game, carried by buttons, naming its texts
    (``game-<kind>`` is its name)."""
    command: ClassVar[str]
    """The group command that opens its lobby (its menu line is the text ``cmd-<command>``)."""
    menu_order: ClassVar[int]
    """Where the game comes in menus and lists (lower first)."""
    solo_opponents: ClassVar[tuple[int, ...]]
    """How many bot players a solo game may have (one number: it is not asked; none: no solo game)."""
    min_players: ClassVar[int]
    """People needed to start a group game (one that ``fills_with_bots`` fills the rest with bot players)."""
    max_players: ClassVar[int]
    fills_with_bots: ClassVar[bool]
    """At the start, the empty seats up to ``max_players`` go to bot players."""

    def name(self, tr: Translator) -> str:
        return tr.t(f"game-{self.kind}")

    def button(self, tr: Translator) -> str:
        """The game on a button: its icon and name (the text ``game-<kind>-button``)."""
        return tr.t(f"game-{self.kind}-button")

    # ------------------------------------------------------------------------------------- lobby and options

    def new_choices(self, tr: Translator) -> list[tuple[str, str]]:
        """/new's buttons for this game: each a label and the choice it carries (see :meth:`new_options`)."""
        return [(self.button(tr), "")]

    def new_options(self, choice: str, target: int | None) -> dict[str, JSONValue]:
        """A new lobby's options for one of :meth:`new_choices` (ValueError for another choice)."""
        if choice:
            raise ValueError(f"no such choice: {choice!r}")
        return self.default_options(target)

    @abstractmethod
    def setting_keys(self) -> tuple[str, ...]:
        """The keys of this game's own lobby settings (:meth:`set_option` takes them)."""

    @abstractmethod
    def default_options(self, target: int | None) -> dict[str, JSONValue]:
        """A new lobby's options (without the number of players), with an optional target override."""

    @abstractmethod
    def set_option(self, options: Options, key: str, value: str) -> dict[str, JSONValue]:
        """The options with the setting ``key`` (one of this game's) changed; ValueError if the key or the value
        is not allowed."""

    @abstractmethod
    def game_options(self, options: Options, players: int) -> dict[str, JSONValue]:
        """The engine's options for ``players`` seats."""

    @abstractmethod
    def summary(self, options: Options, tr: Translator) -> str:
        """One line naming the game and its options, for the lobby's title («<игра> · до 15, …»)."""

    @abstractmethod
    def rules(self) -> RulesBook:
        """The game's rules: its sections with their texts, search words, direct answers and worked examples,
        what a party's options look like in the rules, its line of /help."""

    def rules_section(self, options: Options) -> str:
        """The id of the rules section that fits these options (the lobby's «📖 Правила» button): the first."""
        return self.rules().sections[0].id

    @abstractmethod
    def render_settings(self, info: LobbyInfo, tr: Translator) -> Rendered:
        """The lobby's settings screen: each option with buttons that set it."""

    @abstractmethod
    def make_game(self, options: Options) -> Game[ActionT, ViewT]:
        """The engine's game with these (engine) options; ValueError if they are not valid."""

    def new_party(self, options: Options, players: int, seed: int) -> Party:
        """A fresh party of ``players`` with the lobby's ``options``, dealt from ``seed``."""
        game = self.make_game(self.game_options(options, players))
        return _Party(self, game.new_initial_state(seed))

    def restore(self, record: GameRecord) -> Party:
        """The party a stored record describes, rebuilt move by move (the engine's :func:`replay`)."""
        if record.game != self.kind:
            raise ValueError(f"a {record.game!r} record is no {self.kind!r} game")
        return _Party(self, cast("State[ActionT, ViewT]", replay(record)))

    # ------------------------------------------------------------------------------------------- messages

    @abstractmethod
    def render_table(self, table: TableInfo[ViewT], tr: Translator) -> Rendered:
        """The group's table message (public information only)."""

    @abstractmethod
    def render_private(self, table: TableInfo[ViewT], tr: Translator, picked: str | None) -> Rendered:
        """A player's live private message: their hand in a group game, or a solo game's one screen
        (``table.solo``); ``picked`` is the card of a first tap."""

    @abstractmethod
    def render_deal_end(
        self, table: TableInfo[ViewT], tr: Translator, deal: int, *, personal: bool = False
    ) -> Rendered:
        """The scoring of deal number ``deal`` (1-based), posted when it ends. ``personal``: in short, for the
        private chat of ``table.view``'s player, with the deal's moves since that player's last one."""

    @abstractmethod
    def render_party_end(
        self, table: TableInfo[ViewT], tr: Translator, *, rematch: bool = True, personal: bool = False
    ) -> Rendered:
        """The end of the party, one message with the last deal's result folded in: winner, that deal, the final
        tally by place and, when ``rematch``, «🔁 Реванш». ``personal``: the message of the private chat of
        ``table.view``'s player («Вы победили!» / «Вы на 2-м месте», the deal in short)."""

    @abstractmethod
    def played(self, action: ActionT, tr: Translator) -> str:
        """What an action played, as a player names it: «8♥», a trump suit (the private «⏰ Время вышло — бот
        сыграл за вас 8♥»)."""

    @abstractmethod
    def hint(self, view: ViewT, advice: Advice, tr: Translator) -> str:
        """«💡 Подсказка» (solo): one line, ≤ 200 characters, saying what ``advice.action`` (the «мастер» bot
        player's choice from ``view``) is and why, with the expected points its search found."""

    # ------------------------------------------------------------------------------- the sheet and the history

    paper_type: ClassVar[type[Paper[Any, Any]]] = Paper
    """The game on paper (its score sheet and its history file's lines); a game without its own writes no sheet."""

    @property
    def paper(self) -> Paper[ActionT, ViewT]:
        return self.paper_type(self.played)

    def render_review(self, review: Review, seats: Sequence[SeatInfo], tr: Translator) -> Rendered:
        """«🔍 Разбор партии»: the player's moves where «мастер» would have gained most, each with its position,
        the move made, the better move and what it was worth. Offered only for a game whose engine registered
        bot players (:attr:`Party.reviewable`), which must then say it."""
        raise NotImplementedError(f"{self.kind}: no review without bot players")

    # ---------------------------------------------------------------------------------------- achievements

    feats: ClassVar[tuple[str, ...]] = ()
    """The game's own achievements, as a player's page lists them: each a code whose texts are ``feat-<code>``
    (its icon and name) and ``feat-<code>-about`` (one line: what earns it)."""

    def feats_of(self, state: State[ActionT, ViewT], player: Player) -> tuple[str, ...]:
        """Which of :attr:`feats` ``player`` earned in the finished party ``state`` (read from the party alone:
        whether they were earned before is not the game's to say)."""
        return ()

    # -------------------------------------------------------------------------------------------- buttons

    @abstractmethod
    def actions_of_card(self, view: ViewT, code: str) -> list[int]:
        """Indexes in the view's legal actions of the actions that play the card with this code, the best first
        as a plain player judges them (the timer plays that one for a player who picked the card, then let the
        time run out)."""

    asking: ClassVar[frozenset[str]] = frozenset()
    """Codes whose first tap always opens a confirmation, even for their one move (Кончинка's «🏁 Прикончить!»);
    any other card with one move plays on that tap."""

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


Frame = TableFrame
"""What a message of a party shows besides the engine's view (see :class:`TableInfo`)."""


class Party(RulesParty, Protocol):
    """A party in play, whatever its game: the plug-in and the engine state, paired with their types — what the
    flow asks of it (:class:`bot.model.party.Party`) and how it is drawn.

    The bot holds parties only through this protocol, so nothing in it goes untyped: every step that needs the
    game's own action and view types happens inside the plug-in's :class:`_Party`.
    """

    def render_table(self, frame: Frame, tr: Translator, player: Player = 0) -> Rendered:
        """The whole table as ``player`` sees it (the group's message reads only what everyone sees)."""
        ...

    def hint(self, player: Player, advice: Advice, tr: Translator) -> str:
        """«💡 Подсказка»: ``advice`` (a bot player's choice for ``player``, and why) said in one line."""
        ...

    def render_review(self, review: Review, frame: Frame, tr: Translator) -> Rendered:
        """«🔍 Разбор партии» of one player (``review.player``), sent to them privately."""
        ...

    def played(self, code: str, tr: Translator) -> str:
        """What the action with this code played, as a player names it («8♥»)."""
        ...

    @property
    def has_sheet(self) -> bool:
        """Whether the game draws a score sheet (its plug-in's paper has one)."""
        ...

    def feats_of(self, player: Player) -> tuple[str, ...]:
        """The game's own achievements ``player`` earned in this finished party (:meth:`GamePlugin.feats_of`)."""
        ...

    def score_sheet(self, frame: Frame, tr: Translator) -> tuple[Sheet, str] | None:
        """The party's score sheet so far (a picture's data) and the photo's caption; None before the first deal
        ends, or for a game that draws no sheet."""
        ...

    def render_private(
        self, frame: Frame, player: Player, tr: Translator, picked: str | None
    ) -> Rendered: ...
    def render_deal_end(
        self, frame: Frame, tr: Translator, deal: int, *, player: Player = 0, personal: bool = False
    ) -> Rendered: ...
    def render_party_end(
        self,
        frame: Frame,
        tr: Translator,
        *,
        player: Player = 0,
        rematch: bool = True,
        personal: bool = False,
    ) -> Rendered: ...


class _Party(Generic[ActionT, ViewT]):
    """A plug-in with a state of its own game (see :class:`Party`)."""

    __slots__ = ("plugin", "state")

    def __init__(self, plugin: GamePlugin[ActionT, ViewT], state: State[ActionT, ViewT]) -> None:
        self.plugin = plugin
        self.state = state

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def current_player(self) -> Player:
        return self.state.current_player

    @property
    def is_terminal(self) -> bool:
        return self.state.is_terminal

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def deals_completed(self) -> int:
        return self.state.deals_completed

    @property
    def reviewable(self) -> bool:
        return self.state.game.name in bot_players()

    def record(self) -> GameRecord:
        return self.state.record()

    def after(self, index: int) -> tuple[Party, str]:
        actions = self.state.legal_actions()
        if not 0 <= index < len(actions):
            raise IndexError(index)
        action = actions[index]
        state = self.state.clone()
        state.apply(action)
        return _Party(self.plugin, state), action.code

    def actions_of_card(self, player: Player, code: str) -> list[int]:
        return self.plugin.actions_of_card(self.state.view(player), code)

    def asks(self, code: str) -> bool:
        return code in self.plugin.asking

    def refusal(self, code: str) -> IllegalActionError | None:
        return self.plugin.refusal(self.state, code)

    def view_of(self, player: Player) -> ViewT:
        return self.state.view(player)

    def index_of(self, action: object) -> int:
        for index, legal in enumerate(self.state.legal_actions()):
            if legal == action:
                return index
        raise ValueError(f"not a legal action now: {action!r}")

    def _table(self, frame: Frame, player: Player) -> TableInfo[ViewT]:
        return TableInfo.of(frame, self.state.view(player))

    def render_table(self, frame: Frame, tr: Translator, player: Player = 0) -> Rendered:
        return self.plugin.render_table(self._table(frame, player), tr)

    def hint(self, player: Player, advice: Advice, tr: Translator) -> str:
        if advice.action not in self.state.legal_actions():
            raise ValueError(f"not a legal action now: {advice.action!r}")
        return self.plugin.hint(self.state.view(player), advice, tr)

    def render_review(self, review: Review, frame: Frame, tr: Translator) -> Rendered:
        return self.plugin.render_review(review, frame.seats, tr)

    def played(self, code: str, tr: Translator) -> str:
        return self.plugin.played(self.state.game.parse_action(code), tr)

    @property
    def has_sheet(self) -> bool:
        return self.plugin.paper_type.score_sheet is not Paper.score_sheet

    def feats_of(self, player: Player) -> tuple[str, ...]:
        return self.plugin.feats_of(self.state, player) if self.state.is_terminal else ()

    def score_sheet(self, frame: Frame, tr: Translator) -> tuple[Sheet, str] | None:
        if self.state.deals_completed == 0:
            return None
        paper = self.plugin.paper
        sheet = paper.score_sheet(self.state, frame.seats, tr)
        return None if sheet is None else (sheet, paper.sheet_caption(self.state, frame.seats, tr))

    def render_private(self, frame: Frame, player: Player, tr: Translator, picked: str | None) -> Rendered:
        return self.plugin.render_private(self._table(frame, player), tr, picked)

    def render_deal_end(
        self, frame: Frame, tr: Translator, deal: int, *, player: Player = 0, personal: bool = False
    ) -> Rendered:
        return self.plugin.render_deal_end(self._table(frame, player), tr, deal, personal=personal)

    def render_party_end(
        self,
        frame: Frame,
        tr: Translator,
        *,
        player: Player = 0,
        rematch: bool = True,
        personal: bool = False,
    ) -> Rendered:
        return self.plugin.render_party_end(
            self._table(frame, player), tr, rematch=rematch, personal=personal
        )


def drawn(party: RulesParty) -> Party:
    """A party in play as the drawing sees it: every party the bot holds was made by a plug-in
    (:meth:`GamePlugin.new_party`, :meth:`GamePlugin.restore`), so it is drawn as well as played."""
    return cast("Party", party)
