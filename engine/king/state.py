"""The Кинг game, its state (one party of 15 deals) and a player's view of it.

Seats are 0..3 clockwise; the next player is ``seat + 1`` (the left neighbour). Deal ``n`` is shuffled with
``random.Random(f"{seed}/{n}")`` and the first dealer is drawn with ``random.Random(f"{seed}/dealer")``, so the
record (options, seed, action codes) rebuilds the party exactly.

Scores are signed: a penalty is a negative number, a positive-deal trick +3. ``score_sheet`` has one row per
finished deal and one column per player; a player's result is the sum of their column.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Final, NamedTuple

from engine.cards import PIQUET_DECK, Card, Suit
from engine.core import CommonIllegal, GameBase, IllegalActionError, Outcome, Player, StateBase
from engine.king.actions import CHOOSE_TRUMP_ACTIONS, PLAYS, ChooseTrump, KingAction, Play, parse_action
from engine.king.rules import (
    ACE_OF_HEARTS,
    CARD_PENALTY,
    CHOOSER_SEES,
    KING_OF_HEARTS,
    NEGATIVE_DEALS,
    NUM_DEALS,
    NUM_PLAYERS,
    POINTS_PER_TRICK,
    TRICK_PENALTY,
    TRICKS_PER_DEAL,
    Contract,
    KingIllegal,
    KingOptions,
    Phase,
    PlayedCard,
    chooser_of,
    dealer_after,
    winning_play,
)

_HEARTS: Final = Suit.HEARTS
_by_index: Final = attrgetter("index")
_PLAY_OF: Final = PLAYS.__getitem__
_NO_PENALTY: Final = (0,) * 52
_POSITIVE_TRICKS: Final = (-POINTS_PER_TRICK,) * TRICKS_PER_DEAL  # negated like a penalty: +3 to the winner


class CompletedTrick(NamedTuple):
    """A finished trick: who led, the four cards in play order, and who took it."""

    leader: Player
    plays: tuple[PlayedCard, ...]
    winner: Player


class DealEnd(NamedTuple):
    """How a finished deal ended: its last trick, and how many of the 8 tricks were played (fewer when the
    deal stopped early because every penalty was taken)."""

    deal_index: int
    last_trick: CompletedTrick
    tricks_played: int

    @property
    def stopped_early(self) -> bool:
        return self.tricks_played < TRICKS_PER_DEAL


@dataclass(frozen=True, slots=True)
class KingView:
    """What ``player`` may know, and nothing more.

    ``hand`` is the player's cards (sorted) — before trump is named in a positive deal, only the chooser's
    first 3 cards, and nothing for the others. Every card played this deal is public (``tricks_this_deal``,
    ``trick``), and so are ``penalty_cards`` (per player, the penalty cards taken this deal) and the scores.
    ``deal_points`` is this deal's running score per player (penalties negative). ``legal_actions`` is empty
    unless it is this player's turn.
    """

    player: Player
    options: KingOptions
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deal_index: int
    dealer: Player
    chooser: Player | None
    leader: Player
    contract: Contract | None
    trump: Suit | None
    trump_card_shown: Card | None
    trick: tuple[PlayedCard, ...]
    tricks_this_deal: tuple[CompletedTrick, ...]
    tricks_won: tuple[int, ...]
    penalty_cards: tuple[tuple[Card, ...], ...]
    deal_points: tuple[int, ...]
    score_sheet: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    current_player: Player
    legal_actions: tuple[KingAction, ...]
    last_trick: CompletedTrick | None
    is_terminal: bool
    outcome: Outcome | None
    version: int
    deal_ends: tuple[DealEnd, ...] = ()
    """One entry per finished deal, in order: its last trick and whether it stopped early."""

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.player


class KingGame(GameBase[KingOptions]):
    """Кинг with some options; ``new_initial_state(seed)`` starts a party."""

    name = "king"

    def __init__(self, options: KingOptions | None = None) -> None:
        super().__init__(options if options is not None else KingOptions())

    @property
    def num_players(self) -> int:
        return NUM_PLAYERS

    def new_initial_state(self, seed: int) -> KingState:
        return KingState._new(self, seed)

    def parse_action(self, code: str) -> KingAction:
        return parse_action(code)


def make_king_game(options: Mapping[str, Any]) -> KingGame:
    """The registered factory: a game from plain option data."""
    return KingGame(KingOptions.from_dict(options))


class KingState(StateBase[KingGame, KingAction]):
    """One party of Кинг. Create it with ``KingGame.new_initial_state(seed)``; for hand-built positions use
    :meth:`from_position`, for a world consistent with a player's view :meth:`from_view`."""

    __slots__ = (
        "_card_pen",
        "_chooser_dealt",
        "_contract",
        "_deal_ends",
        "_deal_index",
        "_dealer",
        "_hands",
        "_king_forced",
        "_last_trick",
        "_leader",
        "_legal",
        "_no_heart_lead",
        "_pen_cards",
        "_phase",
        "_points",
        "_remaining",
        "_sheet",
        "_trick",
        "_trick_no",
        "_trick_pen",
        "_tricks",
        "_trump",
        "_trump_card",
        "_version",
        "_won",
    )

    _game: KingGame
    _seed: int
    _phase: Phase
    _deal_index: int
    _dealer: Player
    _contract: Contract | None
    _trump: Suit | None
    _trump_card: Card | None
    _chooser_dealt: tuple[Card, ...]
    _hands: list[list[Card]]
    _leader: Player
    _current: Player
    _trick: list[PlayedCard]
    _trick_no: int
    _tricks: list[CompletedTrick]
    _last_trick: CompletedTrick | None
    _won: list[int]
    _points: list[int]
    _pen_cards: list[list[Card]]
    _remaining: int  # penalty points of the cards still in play (negative deals; stops a decided deal)
    _sheet: list[tuple[int, ...]]
    _deal_ends: tuple[DealEnd, ...]
    _history: list[KingAction]
    _version: int
    _legal: tuple[KingAction, ...] | None
    _card_pen: tuple[int, ...]
    _trick_pen: tuple[int, ...]
    _no_heart_lead: bool
    _king_forced: bool

    # ------------------------------------------------------------------ construction

    @classmethod
    def _blank(cls, game: KingGame, seed: int) -> KingState:
        state = object.__new__(cls)
        state._game = game
        state._seed = seed
        state._phase = Phase.PLAY
        state._deal_index = 0
        state._dealer = 0
        state._contract = None
        state._trump = None
        state._trump_card = None
        state._chooser_dealt = ()
        state._hands = [[], [], [], []]
        state._leader = 0
        state._current = 0
        state._trick = []
        state._trick_no = 0
        state._tricks = []
        state._last_trick = None
        state._won = [0] * NUM_PLAYERS
        state._points = [0] * NUM_PLAYERS
        state._pen_cards = [[], [], [], []]
        state._remaining = 0
        state._sheet = []
        state._deal_ends = ()
        state._history = []
        state._version = 0
        state._legal = None
        state._card_pen = _NO_PENALTY
        state._trick_pen = _POSITIVE_TRICKS
        state._no_heart_lead = False
        state._king_forced = False
        return state

    @classmethod
    def _new(cls, game: KingGame, seed: int) -> KingState:
        state = cls._blank(game, seed)
        state._dealer = random.Random(f"{seed}/dealer").randrange(NUM_PLAYERS)
        state._start_deal()
        return state

    def _set_contract(self, deal_index: int) -> None:
        """The per-deal rule switches, from the deal's contract."""
        contract = self._game.options.order[deal_index] if deal_index < NEGATIVE_DEALS else None
        self._contract = contract
        if contract is None:
            self._card_pen = _NO_PENALTY
            self._trick_pen = _POSITIVE_TRICKS
            self._no_heart_lead = self._king_forced = False
        else:
            self._card_pen = CARD_PENALTY[contract]
            self._trick_pen = TRICK_PENALTY[contract]
            self._no_heart_lead = contract.forbids_heart_lead
            self._king_forced = contract.forces_king_of_hearts

    def _start_deal(self) -> None:
        """Shuffle and deal deal number ``_deal_index`` (its dealer is already set)."""
        n = self._deal_index
        deck = list(PIQUET_DECK)
        random.Random(f"{self._seed}/{n}").shuffle(deck)
        self._set_contract(n)
        self._trump = None
        self._trump_card = None
        self._trick = []
        self._trick_no = 0
        self._tricks = []
        self._won = [0] * NUM_PLAYERS
        self._points = [0] * NUM_PLAYERS
        self._pen_cards = [[], [], [], []]
        self._legal = None
        dealer = self._dealer
        if n < NEGATIVE_DEALS:
            first = (dealer + 1) % NUM_PLAYERS
            self._phase = Phase.PLAY
            self._chooser_dealt = ()
            self._remaining = sum(self._card_pen)
        else:
            first = chooser_of(dealer)
            self._phase = Phase.CHOOSE_TRUMP
            self._chooser_dealt = tuple(deck[:TRICKS_PER_DEAL])
            self._remaining = 0
        hands = self._hands = [[], [], [], []]
        for i in range(NUM_PLAYERS):
            hands[(first + i) % NUM_PLAYERS] = sorted(deck[8 * i : 8 * i + 8], key=_by_index)
        self._leader = self._current = first

    @classmethod
    def from_position(
        cls,
        hands: Sequence[Sequence[Card]] | Mapping[int, Sequence[Card]],
        *,
        contract: Contract | None = None,
        deal_index: int | None = None,
        dealer: Player = 0,
        leader: Player | None = None,
        trump: Suit | None = None,
        trump_card: Card | None = None,
        trick: Sequence[PlayedCard] = (),
        tricks_done: int | None = None,
        options: KingOptions | None = None,
        seed: int = 0,
    ) -> KingState:
        """A hand-built position, for tests and puzzles.

        ``hands``: the cards of all four players (fewer than 32 cards is fine: the missing ones count as taken
        in earlier tricks, by nobody). Give the deal as ``contract`` (a negative deal) or ``deal_index``
        (0..14; 7..14 are positive deals). ``leader`` leads the current trick (default: the dealer's left
        neighbour in a negative deal, the chooser in a positive one); ``trick`` holds the cards already played
        to it, in order from the leader. In a positive deal without ``trump`` the position is the trump choice,
        and the chooser's hand is taken in dealt order (the first 3 are seen, the last is the 8th card).
        ``tricks_done`` is the number of tricks already finished this deal (default: from the hand sizes).
        Earlier deals are scored 0 for everyone.
        """
        game = KingGame(options)
        order = game.options.order
        if deal_index is None:
            deal_index = order.index(contract) if contract is not None else 0
        elif contract is not None and (deal_index >= NEGATIVE_DEALS or order[deal_index] is not contract):
            raise ValueError(f"deal {deal_index} is not the {contract} deal")
        if not 0 <= deal_index < NUM_DEALS:
            raise ValueError(f"deal_index must be 0..{NUM_DEALS - 1}")
        hand_list = [list(hands[p]) for p in range(NUM_PLAYERS)]
        positive = deal_index >= NEGATIVE_DEALS
        if leader is None:
            leader = chooser_of(dealer) if positive else (dealer + 1) % NUM_PLAYERS
        if tricks_done is None:
            tricks_done = TRICKS_PER_DEAL - len(hand_list[leader]) - (1 if trick else 0)
        phase = Phase.CHOOSE_TRUMP if positive and trump is None else Phase.PLAY
        if trump_card is not None and trump is None:
            trump = trump_card.suit
            phase = Phase.PLAY
        state = cls._build(
            game,
            seed=seed,
            phase=phase,
            deal_index=deal_index,
            dealer=dealer,
            hands=hand_list,
            leader=leader,
            trick=list(trick),
            trick_no=tricks_done,
            trump=trump,
            trump_card=trump_card,
            sheet=[(0,) * NUM_PLAYERS] * deal_index,
        )
        return state

    @classmethod
    def from_view(
        cls, view: KingView, hands: Mapping[int, Sequence[Card]], *, seed: int | None = None
    ) -> KingState:
        """A full state consistent with ``view``, the hidden cards assigned as given (bot players sample worlds).

        ``hands`` gives the cards of every player whose hand the viewer does not fully see (it may also give
        the viewer's own). Before trump is named the chooser's cards are taken in dealt order: the cards the
        chooser's view shows first, then the rest as given, the last being the 8th card. ``seed`` shuffles the
        deals after this one (the view does not carry the real seed; default 0). The new state has an empty
        history and the view's version, so ``from_view(view, true_hands).view(view.player) == view``.
        """
        full: list[list[Card]] = []
        for p in range(NUM_PLAYERS):
            if p in hands:
                full.append(list(hands[p]))
            elif p == view.player and view.phase is Phase.PLAY:
                full.append(list(view.hand))
            elif view.hand_sizes[p] == 0:
                full.append([])
            else:
                raise ValueError(f"no hand given for player {p}")
        for p in range(NUM_PLAYERS):
            if len(full[p]) != view.hand_sizes[p]:
                raise ValueError(f"player {p} must hold {view.hand_sizes[p]} cards, got {len(full[p])}")
        if not set(view.hand) <= set(full[view.player]):
            raise ValueError("the viewer's own hand must be kept")
        played = [c for t in view.tricks_this_deal for _, c in t.plays] + [c for _, c in view.trick]
        every = [c for h in full for c in h] + played
        if view.phase is not Phase.OVER and (
            len(every) != len(PIQUET_DECK) or set(every) != set(PIQUET_DECK)
        ):
            raise ValueError("the hands and the played cards must make up the 32-card deck exactly")
        chooser_dealt: tuple[Card, ...] = ()
        if view.phase is Phase.CHOOSE_TRUMP:
            chooser = chooser_of(view.dealer)
            seen = list(view.hand) if view.player == chooser else []
            chooser_dealt = (*seen, *(c for c in full[chooser] if c not in seen))
        state = cls._build(
            KingGame(view.options),
            seed=0 if seed is None else seed,
            phase=view.phase,
            deal_index=view.deal_index,
            dealer=view.dealer,
            hands=full,
            leader=view.leader,
            trick=list(view.trick),
            trick_no=len(view.tricks_this_deal),
            trump=view.trump,
            trump_card=view.trump_card_shown,
            sheet=list(view.score_sheet),
            chooser_dealt=chooser_dealt,
            tricks=list(view.tricks_this_deal),
            won=list(view.tricks_won),
            points=list(view.deal_points),
            pen_cards=[list(cs) for cs in view.penalty_cards],
            last_trick=view.last_trick,
            version=view.version,
            deal_ends=view.deal_ends,
        )
        return state

    @classmethod
    def _build(
        cls,
        game: KingGame,
        *,
        seed: int,
        phase: Phase,
        deal_index: int,
        dealer: Player,
        hands: list[list[Card]],
        leader: Player,
        trick: list[PlayedCard],
        trick_no: int,
        trump: Suit | None,
        trump_card: Card | None,
        sheet: list[tuple[int, ...]],
        chooser_dealt: tuple[Card, ...] | None = None,
        tricks: list[CompletedTrick] | None = None,
        won: list[int] | None = None,
        points: list[int] | None = None,
        pen_cards: list[list[Card]] | None = None,
        last_trick: CompletedTrick | None = None,
        version: int = 0,
        deal_ends: tuple[DealEnd, ...] = (),
    ) -> KingState:
        """The shared constructor of :meth:`from_position` and :meth:`from_view` (validates the basics)."""
        cards = [c for h in hands for c in h] + [c for _, c in trick]
        if len(set(cards)) != len(cards):
            raise ValueError("a card appears twice")
        if any(c not in PLAYS for c in cards):
            raise ValueError("only cards of the 32-card deck")
        if len(trick) >= NUM_PLAYERS:
            raise ValueError("the current trick holds at most 3 cards")
        for i, (p, _) in enumerate(trick):
            if p != (leader + i) % NUM_PLAYERS:
                raise ValueError("the trick must be played in turn from the leader")
        state = cls._blank(game, seed)
        state._phase = phase
        state._deal_index = deal_index
        state._dealer = dealer
        state._sheet = list(sheet)
        state._version = version
        state._last_trick = last_trick
        state._deal_ends = deal_ends
        if phase is Phase.OVER:
            state._contract = None
            state._leader = leader
            state._current = -1
            return state
        state._set_contract(deal_index)
        state._hands = [sorted(h, key=_by_index) for h in hands]
        state._leader = leader
        state._trick = trick
        state._current = (leader + len(trick)) % NUM_PLAYERS
        state._trick_no = trick_no
        state._tricks = tricks if tricks is not None else []
        state._won = won if won is not None else [0] * NUM_PLAYERS
        state._points = points if points is not None else [0] * NUM_PLAYERS
        state._pen_cards = pen_cards if pen_cards is not None else [[], [], [], []]
        state._trump = trump
        state._trump_card = trump_card
        if phase is Phase.CHOOSE_TRUMP:
            chooser = chooser_of(dealer)
            state._chooser_dealt = chooser_dealt if chooser_dealt is not None else tuple(hands[chooser])
            state._current = chooser
        if deal_index < NEGATIVE_DEALS:
            pen = state._card_pen
            state._remaining = sum(pen[c.index] for c in cards)
        else:
            state._remaining = 0
        return state

    def clone(self) -> KingState:
        new = object.__new__(KingState)
        new._game = self._game
        new._seed = self._seed
        new._phase = self._phase
        new._deal_index = self._deal_index
        new._dealer = self._dealer
        new._contract = self._contract
        new._trump = self._trump
        new._trump_card = self._trump_card
        new._chooser_dealt = self._chooser_dealt
        h = self._hands
        new._hands = [h[0][:], h[1][:], h[2][:], h[3][:]]
        new._leader = self._leader
        new._current = self._current
        new._trick = self._trick[:]
        new._trick_no = self._trick_no
        new._tricks = self._tricks[:]
        new._last_trick = self._last_trick
        new._won = self._won[:]
        new._points = self._points[:]
        pc = self._pen_cards
        new._pen_cards = [pc[0][:], pc[1][:], pc[2][:], pc[3][:]]
        new._remaining = self._remaining
        new._sheet = self._sheet[:]
        new._deal_ends = self._deal_ends
        new._history = self._history[:]
        new._version = self._version
        new._legal = None
        new._card_pen = self._card_pen
        new._trick_pen = self._trick_pen
        new._no_heart_lead = self._no_heart_lead
        new._king_forced = self._king_forced
        return new

    # ------------------------------------------------------------------ the State protocol

    @property
    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    @property
    def version(self) -> int:
        return self._version

    @property
    def deals_completed(self) -> int:
        return len(self._sheet)

    @property
    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.OVER:
            return None
        results = self.results
        best = max(results)
        return Outcome(
            winners=tuple(p for p in range(NUM_PLAYERS) if results[p] == best),
            scores=results,
            settlement=results,
        )

    def legal_actions(self) -> tuple[KingAction, ...]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> tuple[KingAction, ...]:
        phase = self._phase
        if phase is Phase.PLAY:
            return tuple(map(_PLAY_OF, self._legal_cards()))
        if phase is Phase.CHOOSE_TRUMP:
            return CHOOSE_TRUMP_ACTIONS
        return ()

    def _legal_cards(self) -> list[Card]:
        hand = self._hands[self._current]
        trick = self._trick
        if not trick:
            if self._no_heart_lead:
                others = [c for c in hand if c.suit is not _HEARTS]
                if others:
                    return others
            return hand
        led = trick[0][1].suit
        follow = [c for c in hand if c.suit is led]
        if follow:
            if (
                self._king_forced
                and led is _HEARTS
                and KING_OF_HEARTS in follow
                and self._game.options.king_forced_on_heart_lead
                and any(c is ACE_OF_HEARTS for _, c in trick)
            ):
                return [KING_OF_HEARTS]
            return follow
        if self._king_forced and KING_OF_HEARTS in hand:
            return [KING_OF_HEARTS]
        trump = self._trump
        if trump is not None:
            trumps = [c for c in hand if c.suit is trump]
            if trumps:
                return trumps
        return hand

    def apply(self, action: KingAction) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            self._refuse(action)
        if self._phase is Phase.PLAY:
            self._play(action.card)  # type: ignore[union-attr]
        else:
            self._choose_trump(action.suit)  # type: ignore[union-attr]
        self._history.append(action)
        self._version += 1
        self._legal = None

    def _refuse(self, action: object) -> None:
        """Raise the IllegalActionError that says why ``action`` is not legal now."""
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalActionError(CommonIllegal.GAME_OVER, "the party is over")
        if isinstance(action, ChooseTrump):
            raise IllegalActionError(CommonIllegal.NOT_LEGAL, "no trump to name now")
        if not isinstance(action, Play):
            raise IllegalActionError(CommonIllegal.MALFORMED, f"not a Кинг action: {action!r}")
        card = action.card
        if phase is Phase.CHOOSE_TRUMP:
            raise IllegalActionError(
                CommonIllegal.NOT_LEGAL, "trump must be named first", chooser=self._current
            )
        if card not in self._hands[self._current]:
            raise IllegalActionError(CommonIllegal.NOT_IN_HAND, f"{card} is not in the hand", card=card)
        if not self._trick:
            raise IllegalActionError(
                KingIllegal.NO_HEART_LEAD, "a heart may not be led while another suit is held", card=card
            )
        led = self._trick[0][1].suit
        hand = self._hands[self._current]
        holds_led = any(c.suit is led for c in hand)
        king_due = self._king_forced and KING_OF_HEARTS in hand
        if holds_led and card.suit is not led:
            raise IllegalActionError(
                KingIllegal.MUST_FOLLOW_SUIT, f"must follow suit {led.symbol}", suit=led, card=card
            )
        if king_due:
            raise IllegalActionError(
                KingIllegal.MUST_PLAY_KING_OF_HEARTS, "the king of hearts must be played now", card=card
            )
        trump = self._trump
        assert trump is not None
        raise IllegalActionError(
            KingIllegal.MUST_TRUMP, f"must play a trump {trump.symbol}", suit=trump, card=card
        )

    def _choose_trump(self, suit: Suit | None) -> None:
        if suit is None:
            last = self._chooser_dealt[-1]
            self._trump_card = last
            suit = last.suit
        self._trump = suit
        self._chooser_dealt = ()
        self._phase = Phase.PLAY

    def _play(self, card: Card) -> None:
        p = self._current
        self._hands[p].remove(card)
        trick = self._trick
        trick.append((p, card))
        if len(trick) < NUM_PLAYERS:
            self._current = (p + 1) & 3
            return
        winner = winning_play(trick, self._trump)[0]
        n = self._trick_no
        pen = self._card_pen
        c0, c1, c2, c3 = trick[0][1], trick[1][1], trick[2][1], trick[3][1]
        card_points = pen[c0.index] + pen[c1.index] + pen[c2.index] + pen[c3.index]
        points = self._trick_pen[n] + card_points
        if points:
            self._points[winner] -= points
            if card_points:
                self._pen_cards[winner].extend(c for c in (c0, c1, c2, c3) if pen[c.index])
                self._remaining -= card_points
        self._won[winner] += 1
        done = CompletedTrick(self._leader, tuple(trick), winner)
        self._tricks.append(done)
        self._last_trick = done
        self._trick = []
        self._trick_no = n = n + 1
        self._leader = self._current = winner
        if n == TRICKS_PER_DEAL or (
            self._remaining == 0 and self._game.options.stop_when_decided and self._contract_can_stop()
        ):
            self._finish_deal()

    def _contract_can_stop(self) -> bool:
        contract = self._contract
        return contract is not None and contract.can_stop_early

    def _finish_deal(self) -> None:
        self._sheet.append(tuple(self._points))
        n = self._deal_index
        if self._last_trick is not None:
            self._deal_ends = (*self._deal_ends, DealEnd(n, self._last_trick, self._trick_no))
        self._deal_index = n + 1
        if n + 1 == NUM_DEALS:
            self._phase = Phase.OVER
            self._current = -1
            self._contract = None
            self._trump = None
            self._trump_card = None
            self._trick = []
            self._tricks = []
            self._hands = [[], [], [], []]
            self._won = [0] * NUM_PLAYERS
            self._points = [0] * NUM_PLAYERS
            self._pen_cards = [[], [], [], []]
            return
        self._dealer = dealer_after(self._dealer, n)
        self._start_deal()

    # ------------------------------------------------------------------ Кинг specifics

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def deal_index(self) -> int:
        """The current deal, 0..14 (15 once the party is over)."""
        return self._deal_index

    @property
    def dealer(self) -> Player:
        return self._dealer

    @property
    def chooser(self) -> Player | None:
        """Who names trump in this deal (a positive deal), else None."""
        if NEGATIVE_DEALS <= self._deal_index < NUM_DEALS:
            return chooser_of(self._dealer)
        return None

    @property
    def leader(self) -> Player:
        return self._leader

    @property
    def contract(self) -> Contract | None:
        """The negative contract of this deal; None in the positive deals."""
        return self._contract

    @property
    def trump(self) -> Suit | None:
        return self._trump

    @property
    def trump_card_shown(self) -> Card | None:
        """The chooser's 8th card, shown to all when trump was named «по последней»."""
        return self._trump_card

    @property
    def trick(self) -> tuple[PlayedCard, ...]:
        return tuple(self._trick)

    @property
    def tricks_this_deal(self) -> tuple[CompletedTrick, ...]:
        return tuple(self._tricks)

    @property
    def tricks_done(self) -> int:
        """Tricks finished in this deal."""
        return self._trick_no

    @property
    def last_trick(self) -> CompletedTrick | None:
        """The last completed trick (it may belong to the previous deal)."""
        return self._last_trick

    @property
    def deal_ends(self) -> tuple[DealEnd, ...]:
        """One entry per finished deal: its last trick and how many tricks were played."""
        return self._deal_ends

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    @property
    def deal_points(self) -> tuple[int, ...]:
        """This deal's running score per player (penalties negative)."""
        return tuple(self._points)

    @property
    def penalty_cards(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(cs) for cs in self._pen_cards)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every player's cards (engine-side and tests only; players see :meth:`view`)."""
        return tuple(tuple(h) for h in self._hands)

    @property
    def score_sheet(self) -> tuple[tuple[int, ...], ...]:
        """One row per finished deal, one signed number per player (penalties negative)."""
        return tuple(self._sheet)

    @property
    def results(self) -> tuple[int, ...]:
        """Each player's total so far: positive points minus penalties."""
        sheet = self._sheet
        return tuple(sum(row[p] for row in sheet) for p in range(NUM_PLAYERS))

    def view(self, player: Player) -> KingView:
        if not 0 <= player < NUM_PLAYERS:
            raise ValueError(f"no such player: {player}")
        phase = self._phase
        if phase is Phase.CHOOSE_TRUMP:
            hand = (
                tuple(sorted(self._chooser_dealt[:CHOOSER_SEES], key=_by_index))
                if player == self._current
                else ()
            )
        else:
            hand = tuple(self._hands[player])
        return KingView(
            player=player,
            options=self._game.options,
            phase=phase,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self._hands),
            deal_index=self._deal_index,
            dealer=self._dealer,
            chooser=self.chooser,
            leader=self._leader,
            contract=self._contract,
            trump=self._trump,
            trump_card_shown=self._trump_card,
            trick=tuple(self._trick),
            tricks_this_deal=tuple(self._tricks),
            tricks_won=tuple(self._won),
            penalty_cards=self.penalty_cards,
            deal_points=tuple(self._points),
            score_sheet=tuple(self._sheet),
            totals=self.results,
            current_player=self._current,
            legal_actions=self.legal_actions() if player == self._current else (),
            last_trick=self._last_trick,
            is_terminal=phase is Phase.OVER,
            outcome=self.outcome,
            version=self._version,
            deal_ends=self._deal_ends,
        )

    def __repr__(self) -> str:
        return (
            f"<KingState deal={self._deal_index} {self._contract or 'trump=' + str(self._trump)} "
            f"phase={self._phase} to_move={self._current} version={self._version}>"
        )
