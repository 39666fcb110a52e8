"""A straightforward Кончинка: the same rules, with captures found by brute force and nothing cached.

The tests' oracle for the fast capture enumeration, and the baseline that ``python -m tests.bench`` measures in
the same run to report the fast engine's speed-up. It lives with the tests, outside the engine's registry of
games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from engine.cards import Card, Suit
from engine.konchinka.actions import FINISH, Capture, KonchinkaAction, Lay
from engine.konchinka.captures import canonical_partition
from engine.konchinka.rules import (
    JACK_VALUE,
    KONCHINKI,
    MAX_CLASSIC_PIP,
    VALUE,
    KonchinkaOptions,
    Variant,
    mask_of,
)
from engine.konchinka.state import KonchinkaGame, KonchinkaState


def _by_index(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index))


def naive_groups(card: Card, table: Sequence[Card], variant: Variant) -> list[tuple[Card, ...]]:
    """Every capture group of ``card`` by trying every subset of the table (no jack sweep)."""
    value = VALUE[card.index]
    groups: list[tuple[Card, ...]] = [(t,) for t in table if VALUE[t.index] == value]
    if variant is Variant.POINTS or value <= MAX_CLASSIC_PIP:
        pips = [t for t in table if variant is Variant.POINTS or VALUE[t.index] <= MAX_CLASSIC_PIP]
        for size in range(2, len(pips) + 1):
            for combo in combinations(pips, size):
                if sum(VALUE[t.index] for t in combo) == value:
                    groups.append(_by_index(combo))
    return groups


def naive_captures(card: Card, table: Sequence[Card], options: KonchinkaOptions) -> list[Capture]:
    """Every capture of ``card``: one per group, or with ``multi_capture`` one per distinct set of taken cards."""
    if options.variant is Variant.CLASSIC and VALUE[card.index] == JACK_VALUE:
        return [Capture(card, (_by_index(table),))] if table else []
    groups = naive_groups(card, table, options.variant)
    if not options.multi_capture:
        return [Capture(card, (g,)) for g in groups]
    unions: dict[frozenset[Card], None] = {}

    def extend(start: int, taken: frozenset[Card]) -> None:
        for i in range(start, len(groups)):
            group = groups[i]
            if taken.isdisjoint(group):
                grown = taken.union(group)
                unions[grown] = None
                extend(i + 1, grown)

    extend(0, frozenset())
    out = []
    for taken in unions:
        partition = canonical_partition(card, mask_of(list(taken)), options.variant)
        assert partition is not None
        out.append(Capture(card, partition))
    return out


class BaselineKonchinkaState(KonchinkaState):
    """The same state, enumerating by brute force on every call."""

    __slots__ = ()

    def legal_actions(self) -> tuple[KonchinkaAction, ...]:
        seat = self._current
        if seat < 0:
            return ()
        options = self._game.options
        out: list[KonchinkaAction] = []
        any_capture = False
        for card in self._hands[seat]:
            captures = naive_captures(card, self._table, options)
            any_capture = any_capture or bool(captures)
            for capture in captures:
                out.append(capture)
                if self._finishes_after(seat, capture):
                    out.append(Capture(capture.card, capture.groups, finish=True))
            out.append(Lay(card))
        if options.forced_capture and any_capture:
            out = [a for a in out if not isinstance(a, Lay)]
        if self.can_finish(seat):
            out.append(FINISH)
        return tuple(out)

    def _finishes_after(self, seat: int, capture: Capture) -> bool:
        """The finish rule written out plainly: the pile after the capture, its secured points, the totals."""
        options = self._game.options
        if not options.early_finish:
            return False
        pile = [*self._captured[seat], *capture.taken, capture.card]
        clubs = sum(1 for c in pile if c.suit is Suit.CLUBS)
        secured = sum(1 for c in pile if c in KONCHINKI) + (clubs >= 7) + 2 * (len(pile) >= 27)
        total = self._totals[seat]
        if secured == 0 or options.target - total > 2 or total + secured < options.target:
            return False
        return all(total + secured > t for s, t in enumerate(self._totals) if s != seat)


class BaselineKonchinkaGame(KonchinkaGame):
    name = "konchinka-baseline"

    def new_initial_state(self, seed: int) -> BaselineKonchinkaState:
        return BaselineKonchinkaState.new(self, seed)


def make_baseline_game(options: Mapping[str, Any]) -> BaselineKonchinkaGame:
    return BaselineKonchinkaGame(KonchinkaOptions.from_dict(options))
