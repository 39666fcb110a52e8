"""Кончинка: the game and the state of one party (its views and events are in :mod:`engine.konchinka.views`).

A party is a sequence of deals. Each deal shuffles a fresh deck with ``random.Random(f"{seed}/{deal}")``; the
first dealer comes from ``random.Random(f"{seed}/dealer")``. Nothing else is random, so ``(options, seed,
actions)`` rebuilds a party exactly.

Decks are sequences with the top card first (``deck[0]`` is dealt next).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Self

from engine.cards import FULL_DECK, Card
from engine.core import CommonIllegal, GameBase, IllegalActionError, Outcome, Player, StateBase
from engine.konchinka.actions import FINISH, LAYS, Capture, Finish, KonchinkaAction, Lay, parse_action
from engine.konchinka.captures import (
    CAPTURES,
    INDEX_LIMIT,
    TOTALS,
    GroupIndex,
    build_index,
    capture_for,
    group_masks,
    index_add,
    index_remove,
    is_valid_group,
    multi_unions,
    sweep_for,
)
from engine.konchinka.rules import (
    BIT,
    BY_INDEX,
    CLUBS_MASK,
    FINISH_WITHIN,
    HAND_SIZE,
    IS_CLUB,
    IS_KONCHINKA,
    JACK_VALUE,
    KONCHINKI,
    KONCHINKI_MASK,
    MAX_CLASSIC_PIP,
    MAX_TARGET,
    SECURE_CARDS,
    SECURE_CLUBS,
    VALUE,
    KonchinkaIllegal,
    KonchinkaOptions,
    Variant,
    draw_table,
)
from engine.konchinka.scoring import score_deal, secured_points, settle, strict_winner
from engine.konchinka.views import DealScore, Event, EventKind, KonchinkaView

NAME: Final = "konchinka"
_COUNT_BITS: Final = 3


# A raw event, kept as a plain tuple on the hot path: (player, kind, card, taken, deal_number).
_RawEvent = tuple[int, EventKind, Card | None, tuple[Card, ...], int]

# Enum members bound to module names: ``EventKind.LAY`` is a class attribute lookup that costs about ten times
# a global name on Python 3.11, and the hot path names a kind on every move.
_LAY: Final = EventKind.LAY
_CAPTURE: Final = EventKind.CAPTURE
_SWEEP: Final = EventKind.SWEEP
_NO_SWEEP: Final = -1  # a value no card has: the "sweep value" of the points variant, where jacks sum


def _mask_of_capture(capture: Capture) -> int:
    """The bitmask of the cards a capture puts in the pile: the taken cards and the capturing card."""
    mask = BIT[capture.card.index]
    for t in capture.taken:
        mask |= BIT[t.index]
    return mask


class _Rules:
    """The options as the hot path reads them: plain attributes, worked out once per state.

    ``sweep_value`` is the value of a sweeping card (the jack in the classic variant, nothing in the points
    variant); ``finish_from`` the lowest running total from which an early finish is worth checking.
    """

    __slots__ = ("finish_from", "forced", "multi", "points", "sweep_value", "variant")

    def __init__(self, options: KonchinkaOptions) -> None:
        self.variant = options.variant
        self.points = options.variant is Variant.POINTS
        self.multi = options.multi_capture
        self.forced = options.forced_capture
        self.sweep_value = _NO_SWEEP if self.points else JACK_VALUE
        # a finish needs at most FINISH_WITHIN points to the target; without early_finish no total qualifies
        self.finish_from = options.target - FINISH_WITHIN if options.early_finish else MAX_TARGET + 1


class KonchinkaGame(GameBase[KonchinkaOptions]):
    """Frozen options of Кончинка; the factory of its states."""

    name = NAME

    def __init__(self, options: KonchinkaOptions | None = None) -> None:
        super().__init__(options or KonchinkaOptions())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(KonchinkaOptions.from_dict(data))

    @property
    def num_players(self) -> int:
        return self.options.players

    def new_initial_state(self, seed: int) -> KonchinkaState:
        return KonchinkaState.new(self, seed)

    def parse_action(self, code: str) -> KonchinkaAction:
        return parse_action(code)


class KonchinkaState(StateBase[KonchinkaGame, KonchinkaAction]):
    """One party of Кончинка. Create it with ``game.new_initial_state(seed)`` (or the position builders)."""

    __slots__ = (
        "_captured",
        "_clubs",
        "_deal_events_from",
        "_deal_number",
        "_deal_scores",
        "_dealer",
        "_deals_completed",
        "_deck",
        "_events",
        "_hands",
        "_index",
        "_konch",
        "_last_capturer",
        "_legal",
        "_n",
        "_outcome",
        "_rules",
        "_table",
        "_tally",
        "_totals",
        "_version_base",
    )

    _game: KonchinkaGame
    _seed: int
    _n: int
    _hands: list[list[Card]]
    _table: list[Card]
    _deck: list[Card]
    _captured: list[list[Card]]
    _clubs: list[int]
    _konch: list[int]
    _last_capturer: int
    _dealer: int
    _deal_number: int
    _current: int
    _totals: list[int]
    _tally: list[list[int]]
    _deal_scores: list[DealScore]
    _events: list[_RawEvent]
    _deal_events_from: int
    _history: list[KonchinkaAction]
    _version_base: int  # the version before the first action of ``_history`` (see ``version``)
    _deals_completed: int
    _outcome: Outcome | None
    _legal: tuple[KonchinkaAction, ...] | None
    _index: GroupIndex | None
    _rules: _Rules

    # ------------------------------------------------------------------------------------------ building

    @classmethod
    def _blank(cls, game: KonchinkaGame, seed: int) -> Self:
        self = object.__new__(cls)
        n = game.options.players
        self._game = game
        self._seed = seed
        self._n = n
        self._hands = [[] for _ in range(n)]
        self._table = []
        self._deck = []
        self._captured = [[] for _ in range(n)]
        self._clubs = [0] * n
        self._konch = [0] * n
        self._last_capturer = -1
        self._dealer = 0
        self._deal_number = 1
        self._current = 1 % n
        self._totals = [0] * n
        self._tally = [[] for _ in range(n)]
        self._deal_scores = []
        self._events = []
        self._deal_events_from = 0
        self._history = []
        self._version_base = 0
        self._deals_completed = 0
        self._outcome = None
        self._legal = None
        self._index = None
        self._rules = _Rules(game.options)
        return self

    @classmethod
    def new(cls, game: KonchinkaGame, seed: int) -> Self:
        """The party of ``seed``: the first dealer and the first deal's shuffle come from the seed."""
        self = cls._blank(game, seed)
        self._dealer = random.Random(f"{seed}/dealer").randrange(self._n)
        self._start_deal()
        return self

    @classmethod
    def from_deck(
        cls, game: KonchinkaGame, deck: Sequence[Card], *, dealer: Player = 0, seed: int = 0
    ) -> Self:
        """A party whose first deal is dealt from ``deck`` (top card first; all 52 cards) by ``dealer``.

        Later deals are shuffled from ``seed`` as usual. Useful to test dealing and the table redraw.
        """
        if sorted(c.index for c in deck) != list(range(52)):
            raise ValueError("the deck must hold each of the 52 cards once")
        self = cls._blank(game, seed)
        self._dealer = dealer % self._n
        self._start_deal(list(deck))
        return self

    @classmethod
    def from_position(
        cls,
        game: KonchinkaGame,
        *,
        hands: Sequence[Sequence[Card]],
        table: Sequence[Card] = (),
        deck: Sequence[Card] = (),
        current_player: Player = 0,
        dealer: Player | None = None,
        deal_number: int = 1,
        captured: Sequence[Sequence[Card]] | None = None,
        tally: Sequence[Sequence[int]] | None = None,
        deal_scores: Sequence[DealScore] = (),
        last_capturer: Player | None = None,
        events: Sequence[Event] = (),
        version: int = 0,
        seed: int = 0,
        check_cards: bool = False,
        outcome: Outcome | None = None,
    ) -> Self:
        """A hand-built position (tests, and worlds sampled for bot players).

        ``hands`` per seat; ``table`` in the order laid; ``deck`` top first; ``captured`` the piles of this deal;
        ``tally`` per seat the running totals of the finished deals. Cards not placed anywhere are simply out of
        play (a test may use a few cards). With ``check_cards`` all 52 must be placed, each once. Later deals are
        shuffled from ``seed``.
        """
        n = game.options.players
        if len(hands) != n:
            raise ValueError(f"{n} hands expected")
        self = cls._blank(game, seed)
        self._hands = [sorted(h, key=BY_INDEX) for h in hands]
        self._table = list(table)
        self._deck = list(deck)
        self._captured = [list(c) for c in captured] if captured is not None else [[] for _ in range(n)]
        if len(self._captured) != n:
            raise ValueError(f"{n} piles expected")
        self._clubs = [sum(1 for c in pile if IS_CLUB[c.index]) for pile in self._captured]
        self._konch = [sum(1 for c in pile if IS_KONCHINKA[c.index]) for pile in self._captured]
        placed = [c for part in (*self._hands, self._table, self._deck, *self._captured) for c in part]
        if len({c.index for c in placed}) != len(placed):
            raise ValueError("a card is placed twice")
        if check_cards and len(placed) != len(FULL_DECK):
            raise ValueError("all 52 cards must be placed")
        self._current = current_player % n
        self._dealer = (current_player - 1) % n if dealer is None else dealer % n
        self._deal_number = deal_number
        if tally is not None:
            if len(tally) != n or len({len(t) for t in tally}) > 1:
                raise ValueError("the tally needs one line per seat, all of one length")
            self._tally = [list(t) for t in tally]
            self._totals = [t[-1] if t else 0 for t in self._tally]
        self._deal_scores = list(deal_scores)
        self._deals_completed = len(self._tally[0])
        if last_capturer is None:
            last_capturer = -1
            for event in events:
                if event.kind in (EventKind.CAPTURE, EventKind.SWEEP):
                    last_capturer = event.player
        self._last_capturer = last_capturer
        self._events = [(e.player, e.kind, e.card, e.taken, e.deal_number) for e in events]
        self._version_base = version
        if outcome is not None:
            self._current = -1
            self._outcome = outcome
        elif not self._hands[self._current]:
            raise ValueError("the player to move must hold a card (or give the outcome of a finished party)")
        return self

    @classmethod
    def from_view(
        cls,
        view: KonchinkaView,
        hands: Mapping[int, Sequence[Card]],
        deck: Sequence[Card],
        *,
        seed: int = 0,
    ) -> Self:
        """A full state consistent with ``view``: the hidden hands and deck order as given.

        ``hands`` holds the other seats' hands (the viewer's own comes from the view); ``deck`` is top first. The
        state has no history (``version`` continues from the view); later deals are shuffled from ``seed``.
        """
        game = KonchinkaGame(view.options)
        all_hands: list[Sequence[Card]] = []
        for seat in range(view.options.players):
            hand = view.hand if seat == view.player else hands.get(seat, ())
            if len(hand) != view.hand_sizes[seat]:
                raise ValueError(f"seat {seat} must hold {view.hand_sizes[seat]} cards")
            all_hands.append(hand)
        if len(deck) != view.deck_size:
            raise ValueError(f"the deck must hold {view.deck_size} cards")
        self = cls.from_position(
            game,
            hands=all_hands,
            table=view.table,
            deck=deck,
            current_player=view.current_player,
            dealer=view.dealer,
            deal_number=view.deal_number,
            captured=view.captured,
            tally=view.tally,
            deal_scores=view.deal_scores,
            events=view.recent_events,
            version=view.version,
            seed=seed,
            outcome=view.outcome if view.is_terminal else None,
        )
        return self

    # ------------------------------------------------------------------------------------------ dealing

    def _start_deal(self, deck: list[Card] | None = None) -> None:
        """Shuffle (unless a deck is given), deal 4 cards each and the 4 table cards of a new deal."""
        n = self._n
        if deck is None:
            deck = list(FULL_DECK)
            random.Random(f"{self._seed}/{self._deal_number}").shuffle(deck)
        dealer = self._dealer
        hands = self._hands
        for i in range(1, n + 1):
            seat = (dealer + i) % n
            hand = deck[:HAND_SIZE]
            del deck[:HAND_SIZE]
            hand.sort(key=BY_INDEX)
            hands[seat] = hand
        self._table = draw_table(deck)
        self._index = None
        self._deck = deck
        self._captured = [[] for _ in range(n)]
        self._clubs = [0] * n
        self._konch = [0] * n
        self._last_capturer = -1
        self._deal_events_from = len(self._events)
        self._events.append((dealer, EventKind.DEAL_START, None, (), self._deal_number))
        self._current = (dealer + 1) % n

    def _after_round(self) -> None:
        """All hands are empty: deal 4 more each, or end the deal."""
        deck = self._deck
        n = self._n
        if deck:
            hands = self._hands
            dealer = self._dealer
            for i in range(1, n + 1):
                seat = (dealer + i) % n
                hand = deck[:HAND_SIZE]
                del deck[:HAND_SIZE]
                hand.sort(key=BY_INDEX)
                hands[seat] = hand
            return
        self._end_deal()

    def _end_deal(self) -> None:
        table = self._table
        lc = self._last_capturer
        if table:
            taken = tuple(table)
            if lc >= 0:
                self._take(lc, taken)
            self._events.append((lc, EventKind.LEFTOVERS, None, taken, self._deal_number))
            self._table = []
        cards = tuple(map(len, self._captured))
        clubs = tuple(self._clubs)
        konchinki = self._konchinki_holders()
        cards_winner, clubs_winner, points = score_deal(cards, clubs, konchinki)
        self._score(cards, clubs, konchinki, cards_winner, clubs_winner, points, None)
        totals = self._totals
        target = self._game.options.target
        if max(totals) >= target:
            winner = strict_winner(totals)
            if winner is not None:
                self._finish_party(winner)
                return
        self._deal_number += 1
        self._dealer = (self._dealer + 1) % self._n
        self._start_deal()

    def _konchinki_holders(self) -> dict[Card, int]:
        """The seat holding each captured кончинка, in ``KONCHINKI`` order (only piles that hold one are searched)."""
        holders: dict[Card, int] = {}
        for card in KONCHINKI:
            for seat, pile in enumerate(self._captured):
                if self._konch[seat] and card in pile:
                    holders[card] = seat
                    break
        return holders

    def _score(
        self,
        cards: tuple[int, ...],
        clubs: tuple[int, ...],
        konchinki: dict[Card, int],
        cards_winner: int | None,
        clubs_winner: int | None,
        points: list[int],
        finished_by: int | None,
    ) -> None:
        totals = self._totals
        for seat in range(self._n):
            totals[seat] += points[seat]
            self._tally[seat].append(totals[seat])
        self._deal_scores.append(
            DealScore(
                deal_number=self._deal_number,
                cards=cards,
                clubs=clubs,
                konchinki=konchinki,
                cards_winner=cards_winner,
                clubs_winner=clubs_winner,
                points=tuple(points),
                totals=tuple(totals),
                finished_early_by=finished_by,
            )
        )
        self._deals_completed += 1

    def _finish_party(self, winner: int) -> None:
        self._outcome = settle(self._game.options, self._totals, winner)
        self._current = -1

    def _take(self, seat: int, cards: Sequence[Card]) -> None:
        self._captured[seat].extend(cards)
        mask = 0
        for card in cards:
            mask |= BIT[card.index]
        self._count_taken(seat, mask)

    def _count_taken(self, seat: int, mask: int) -> None:
        """Add the clubs and кончинки among the cards of ``mask`` to ``seat``'s counts (popcounts, no loop)."""
        self._clubs[seat] += (mask & CLUBS_MASK).bit_count()
        if mask & KONCHINKI_MASK:
            self._konch[seat] += (mask & KONCHINKI_MASK).bit_count()

    # ------------------------------------------------------------------------------------------ the State protocol

    @property
    def options(self) -> KonchinkaOptions:
        return self._game.options

    @property
    def is_terminal(self) -> bool:
        return self._current < 0

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def version(self) -> int:
        # derived rather than counted: one attribute update less on every move
        return self._version_base + len(self._history)

    @property
    def deals_completed(self) -> int:
        return self._deals_completed

    @property
    def dealer(self) -> Player:
        return self._dealer

    @property
    def deal_number(self) -> int:
        return self._deal_number

    @property
    def table(self) -> tuple[Card, ...]:
        return tuple(self._table)

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck, top card first (engine-side and tests only: hidden from every player)."""
        return tuple(self._deck)

    @property
    def deck_size(self) -> int:
        return len(self._deck)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every hand (engine-side and tests only)."""
        return tuple(tuple(h) for h in self._hands)

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each seat captured in this deal (the last deal's, once the party is over)."""
        return tuple(tuple(p) for p in self._captured)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self._totals)

    @property
    def tally(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the running total after each finished deal: the crossed-out paper tally."""
        return tuple(tuple(t) for t in self._tally)

    @property
    def deal_scores(self) -> tuple[DealScore, ...]:
        return tuple(self._deal_scores)

    @property
    def last_capturer(self) -> Player | None:
        return self._last_capturer if self._last_capturer >= 0 else None

    @property
    def events(self) -> tuple[Event, ...]:
        """Every public event of the party, in order."""
        return tuple(Event(*raw) for raw in self._events)

    @property
    def recent_events(self) -> tuple[Event, ...]:
        """This deal's events (the last deal's, once the party is over)."""
        return tuple(Event(*raw) for raw in self._events[self._deal_events_from :])

    @property
    def previous_events(self) -> tuple[Event, ...]:
        """The last finished deal's events: from its DEAL_START up to this deal's (none in the first deal)."""
        end = self._deal_events_from
        events = self._events
        start = end - 1
        while start >= 0 and events[start][1] is not EventKind.DEAL_START:
            start -= 1
        return tuple(Event(*raw) for raw in events[max(start, 0) : end]) if end else ()

    def secured_points(self, seat: Player) -> int:
        """The points ``seat`` cannot lose any more in this deal: кончинки, ≥7 clubs, ≥27 cards."""
        return secured_points(len(self._captured[seat]), self._clubs[seat], self._konch[seat])

    def can_finish(self, seat: Player) -> bool:
        """Whether ``seat`` may «прикончить» now (ignoring whose turn it is).

        The seat needs at most 2 points to reach the target, and its secured points bring it to the target and
        strictly above every other running total (this matters only in a deal played to break a tie at the top,
        where both are already past the target).
        """
        if self._current < 0:
            return False
        return self._finishes_with(seat, self.secured_points(seat))

    def can_finish_with(self, seat: Player, capture: Capture) -> bool:
        """Whether ``seat`` may «прикончить» right after ``capture`` (a capture it may make now): the points the
        capture secures count, so a кончинка taken with the deck's last card finishes before the deal is scored.
        """
        if self._current < 0:
            return False
        return self._finishes_with(seat, self._secured_after(seat, _mask_of_capture(capture)))

    def _secured_after(self, seat: int, mask: int) -> int:
        """``seat``'s secured points once the cards of ``mask`` are in its pile."""
        return secured_points(
            len(self._captured[seat]) + mask.bit_count(),
            self._clubs[seat] + (mask & CLUBS_MASK).bit_count(),
            self._konch[seat] + (mask & KONCHINKI_MASK).bit_count(),
        )

    def _finishes_with(self, seat: int, secured: int) -> bool:
        """The finish rule for ``seat`` with ``secured`` points secured in this deal."""
        options = self._game.options
        if not options.early_finish:
            return False
        total = self._totals[seat]
        if options.target - total > 2 or secured <= 0:
            return False
        new_total = total + secured
        if new_total < options.target:
            return False
        return all(new_total > t for s, t in enumerate(self._totals) if s != seat)

    def _with_finishes(self, seat: int, out: list[KonchinkaAction]) -> list[KonchinkaAction]:
        """``out`` with «взять … и прикончить» right after every capture that would allow the finish."""
        with_finish: list[KonchinkaAction] = []
        for a in out:
            with_finish.append(a)
            if type(a) is Capture and self.can_finish_with(seat, a):
                assert isinstance(a, Capture)
                with_finish.append(Capture(a.card, a.groups, True))
        return with_finish

    def legal_actions(self) -> tuple[KonchinkaAction, ...]:
        """The current player's actions: per hand card (hand order) its captures then its lay; Finish last.

        With ``forced_capture`` the lays are left out whenever any capture exists. The list is cached until the
        next ``apply`` (the cache check and the enumeration share one method: a call less on every move).

        Lays and captures are interned (``LAYS``, ``CAPTURES``), so a move costs dictionary look-ups, not
        dataclass constructions, and the group index gives each card's groups in one look-up. Only a classic
        sweep is built afresh (its table changes on every move).
        """
        legal = self._legal
        if legal is not None:
            return legal
        seat = self._current
        if seat < 0:
            legal = self._legal = ()
            return legal
        rules = self._rules
        hand = self._hands[seat]
        table = self._table
        if not table:
            out: list[KonchinkaAction] = [LAYS[card.index] for card in hand]
        else:
            index = self._index
            if index is None and len(table) <= INDEX_LIMIT:
                index = self._index = build_index(table, rules.points)
            if index is None:
                out = self._legal_by_patterns(hand, table)
            else:
                out = []
                sweep_value = rules.sweep_value
                multi = rules.multi
                any_capture = False
                for card in hand:
                    ci = card.index
                    v = VALUE[ci]
                    if v == sweep_value:
                        out.append(sweep_for(card, table))
                        any_capture = True
                    else:
                        masks = index[v]
                        if masks:
                            any_capture = True
                            if multi:
                                if len(masks) > 1:
                                    masks = multi_unions(masks)
                                for m in masks:
                                    out.append(capture_for(card, m, rules.variant, True))
                            else:
                                captures = CAPTURES[ci]
                                for m in masks:
                                    action = captures.get(m)
                                    if action is None:
                                        action = capture_for(card, m, rules.variant, False)
                                    out.append(action)
                    out.append(LAYS[ci])
                if any_capture and rules.forced:
                    out = [a for a in out if type(a) is not Lay]
        # ``finish_from`` only skips the full check where it must fail (more than 2 points short)
        if self._totals[seat] >= rules.finish_from:
            out = self._with_finishes(seat, out)
            if self.can_finish(seat):
                out.append(FINISH)
        legal = self._legal = tuple(out)
        return legal

    def _legal_by_patterns(self, hand: Sequence[Card], table: Sequence[Card]) -> list[KonchinkaAction]:
        """The actions on a big table: sum groups from the value patterns of the table (see rules.py)."""
        options = self._game.options
        points = options.variant is Variant.POINTS
        multi = options.multi_capture
        buckets: dict[int, list[Card]] = {}
        sig = 0
        for t in table:
            v = VALUE[t.index]
            buckets.setdefault(v, []).append(t)
            if points or v <= MAX_CLASSIC_PIP:
                sig += 1 << (_COUNT_BITS * v)
        out: list[KonchinkaAction] = []
        any_capture = False
        for card in hand:
            if VALUE[card.index] == JACK_VALUE and not points:
                out.append(Capture(card, (tuple(sorted(table, key=BY_INDEX)),)))
                any_capture = True
            else:
                masks = group_masks(card, buckets, sig, options.variant)
                if masks:
                    any_capture = True
                    if multi and len(masks) > 1:
                        masks = multi_unions(masks)
                    for m in masks:
                        out.append(capture_for(card, m, options.variant, multi))
            out.append(LAYS[card.index])
        if any_capture and options.forced_capture:
            out = [a for a in out if type(a) is not Lay]
        return out

    def has_capture(self) -> bool:
        """Whether the current player holds any capture now."""
        return any(type(a) is Capture for a in self.legal_actions())

    def apply(self, action: KonchinkaAction) -> None:
        seat = self._current
        if seat < 0:
            raise IllegalActionError(CommonIllegal.GAME_OVER, "the party is over")
        kind = type(action)
        if kind is Lay:
            card = action.card  # type: ignore[union-attr]
            hand = self._hands[seat]
            if card not in hand:
                raise IllegalActionError(CommonIllegal.NOT_IN_HAND, f"{card} is not in the hand", card=card)
            if self._rules.forced and self.has_capture():
                raise IllegalActionError(KonchinkaIllegal.MUST_CAPTURE, "a capture is compulsory", card=card)
            hand.remove(card)
            table = self._table
            table.append(card)
            index = self._index
            if index is not None:
                if len(table) > INDEX_LIMIT:
                    self._index = None
                else:
                    index_add(index, card.index, self._rules.points)
            self._events.append((seat, _LAY, card, (), self._deal_number))
        elif kind is Capture:
            assert isinstance(action, Capture)
            if action.finish:
                self._check_capture(seat, action)
                if not self.can_finish_with(seat, action):
                    raise self._cannot_finish(seat, self._secured_after(seat, _mask_of_capture(action)))
                self._apply_capture(seat, action)
                self._history.append(action)
                self._legal = None
                self._finish_early(seat)
                return
            self._apply_capture(seat, action)
        elif kind is Finish:
            if not self.can_finish(seat):
                raise self._cannot_finish(seat, self.secured_points(seat))
            self._history.append(action)
            self._legal = None
            self._finish_early(seat)
            return
        else:
            raise IllegalActionError(CommonIllegal.MALFORMED, f"not a Кончинка action: {action!r}")
        self._history.append(action)
        self._legal = None
        nxt = seat + 1
        if nxt == self._n:
            nxt = 0
        self._current = nxt
        if not self._hands[nxt]:
            self._after_round()

    def _cannot_finish(self, seat: int, secured: int) -> IllegalActionError:
        # what the finish must bring: the target, and (after a tie at the top) more than every other total
        others = max((t for s, t in enumerate(self._totals) if s != seat), default=0)
        goal = max(self._game.options.target, others + 1)
        return IllegalActionError(
            KonchinkaIllegal.CANNOT_FINISH,
            "the secured points do not reach the target",
            need=goal - self._totals[seat],
            secured=secured,
            tie=goal > self._game.options.target,
        )

    def _apply_capture(self, seat: int, action: Capture) -> None:
        """Take the cards of ``action`` (validated unless it is the very object ``legal_actions`` offered).

        The taken cards are gathered into a bitmask once; the table index, the club and кончинка counts all
        update from it.
        """
        legal = self._legal
        if legal is None:
            self._check_capture(seat, action)
        else:
            for offered in legal:
                if offered is action:
                    break
            else:
                self._check_capture(seat, action)
        card = action.card
        self._hands[seat].remove(card)
        groups = action.groups
        taken = groups[0] if len(groups) == 1 else action.taken
        mask = 0
        low = TOTALS  # above every value
        for t in taken:
            i = t.index
            mask |= BIT[i]
            if VALUE[i] < low:
                low = VALUE[i]
        table = self._table
        rules = self._rules
        if len(taken) == len(table):
            table.clear()
            self._index = None
        else:
            if len(taken) == 1:
                table.remove(taken[0])
            else:
                self._table = [t for t in table if not BIT[t.index] & mask]
            index = self._index
            if index is not None:
                index_remove(index, mask, low, rules.points)
        pile = self._captured[seat]
        pile.extend(taken)
        pile.append(card)
        mask |= BIT[card.index]
        self._clubs[seat] += (mask & CLUBS_MASK).bit_count()  # as in _count_taken, without the call
        if mask & KONCHINKI_MASK:
            self._konch[seat] += (mask & KONCHINKI_MASK).bit_count()
        self._last_capturer = seat
        kind = _SWEEP if VALUE[card.index] == rules.sweep_value else _CAPTURE
        self._events.append((seat, kind, card, taken, self._deal_number))

    def _check_capture(self, seat: int, action: Capture) -> None:
        options = self._game.options
        card = action.card
        if card not in self._hands[seat]:
            raise IllegalActionError(CommonIllegal.NOT_IN_HAND, f"{card} is not in the hand", card=card)
        groups = action.groups
        if not groups or not all(groups):
            raise IllegalActionError(KonchinkaIllegal.NOTHING_TO_CAPTURE, "nothing to capture", card=card)
        taken = action.taken
        table = set(self._table)
        for t in taken:
            if t not in table:
                raise IllegalActionError(KonchinkaIllegal.NOT_ON_TABLE, f"{t} is not on the table", card=t)
        if len(set(taken)) != len(taken):
            raise IllegalActionError(KonchinkaIllegal.OVERLAPPING_GROUPS, "a card is taken twice", card=card)
        if options.variant is Variant.CLASSIC and VALUE[card.index] == JACK_VALUE:
            if len(groups) != 1 or len(taken) != len(table):
                raise IllegalActionError(
                    KonchinkaIllegal.JACK_SWEEPS_ALL, "a jack takes the whole table", card=card
                )
            return
        if len(groups) > 1 and not options.multi_capture:
            raise IllegalActionError(KonchinkaIllegal.ONE_GROUP_ONLY, "one capture per move", card=card)
        for group in groups:
            if not is_valid_group(card, group, options.variant):
                raise IllegalActionError(
                    KonchinkaIllegal.BAD_GROUP, f"{card} cannot take {' '.join(map(str, group))}", card=card
                )

    def _finish_early(self, seat: int) -> None:
        secured_clubs = self._clubs[seat] >= SECURE_CLUBS
        secured_cards = len(self._captured[seat]) >= SECURE_CARDS
        points = [0] * self._n
        points[seat] = self.secured_points(seat)
        konchinki = {card: holder for card, holder in self._konchinki_holders().items() if holder == seat}
        self._events.append((seat, EventKind.FINISH, None, (), self._deal_number))
        self._score(
            tuple(len(p) for p in self._captured),
            tuple(self._clubs),
            konchinki,
            seat if secured_cards else None,
            seat if secured_clubs else None,
            points,
            seat,
        )
        self._finish_party(seat)

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other._game = self._game
        other._seed = self._seed
        other._n = self._n
        other._hands = [h[:] for h in self._hands]
        other._table = self._table[:]
        other._deck = self._deck[:]
        other._captured = [p[:] for p in self._captured]
        other._clubs = self._clubs[:]
        other._konch = self._konch[:]
        other._last_capturer = self._last_capturer
        other._dealer = self._dealer
        other._deal_number = self._deal_number
        other._current = self._current
        other._totals = self._totals[:]
        other._tally = [t[:] for t in self._tally]
        other._deal_scores = self._deal_scores[:]
        other._events = self._events[:]
        other._deal_events_from = self._deal_events_from
        other._history = self._history[:]
        other._version_base = self._version_base
        other._deals_completed = self._deals_completed
        other._outcome = self._outcome
        other._legal = None  # a clone enumerates afresh (benchmarks time exactly that)
        other._index = None
        other._rules = self._rules
        return other

    def view(self, player: Player) -> KonchinkaView:
        n = self._n
        if not 0 <= player < n:
            raise ValueError(f"no seat {player}")
        captured = tuple(tuple(p) for p in self._captured)
        return KonchinkaView(
            player=player,
            options=self._game.options,
            hand=tuple(self._hands[player]),
            hand_sizes=tuple(len(h) for h in self._hands),
            table=tuple(self._table),
            deck_size=len(self._deck),
            pile_sizes=tuple(len(p) for p in captured),
            pile_clubs=tuple(self._clubs),
            konchinki=tuple(tuple(c for c in KONCHINKI if c in p) for p in captured),
            captured=captured,
            current_player=self._current,
            dealer=self._dealer,
            deal_number=self._deal_number,
            tally=self.tally,
            deal_scores=tuple(self._deal_scores),
            recent_events=self.recent_events,
            previous_events=self.previous_events,
            legal_actions=self.legal_actions() if player == self._current else (),
            is_terminal=self._current < 0,
            outcome=self._outcome,
            version=self.version,
        )

    def __repr__(self) -> str:
        return (
            f"<KonchinkaState deal {self._deal_number} dealer {self._dealer} to move {self._current} "
            f"table {' '.join(c.code for c in self._table)} deck {len(self._deck)} totals {self._totals}>"
        )


__all__ = ["KonchinkaGame", "KonchinkaState"]
