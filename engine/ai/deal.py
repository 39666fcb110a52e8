"""Exact draws of hidden hands: every deal of the unseen cards that fits what a player knows, each drawn with its
exact odds.

A problem is the unseen cards, the number each hidden seat holds, and per seat the cards it may hold (a void
shown in play, a card it would have had to play) and the cards its play makes unlikely (each such card's odds
are multiplied by ``odds``). A deal's weight is the product of its cards' odds at their seats: with no unlikely
cards, every consistent deal is equally likely — uniform over the worlds consistent with the play.

Dealing card by card, each to a seat chosen by the room left in it, is not that: where a void binds, the seats
that may take a card differ in how many of the *later* cards they must take, and such a sampler over-fills them.
:class:`DealTable` counts the completions instead (dynamic programming over the cards in index order, the room
left at each seat as the state: a few thousand sums for 24 cards and 3 seats), then deals each card to a seat
with odds proportional to the weight of the completions that choice leaves.

The randomness of one deal comes from a 64-bit seed through SplitMix64, so that the compiled twin of this
module (engine/ai/csrc/deal.h, called by a game's kernel) deals the very same hands from the same seed,
operation for operation, floating point included.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import ModuleType
from typing import Final, Protocol, TypeAlias

Capacity: TypeAlias = tuple[int, ...]
"""The room left at each hidden seat."""

MASK64: Final = (1 << 64) - 1
_UNIT: Final = 1.0 / (1 << 53)
MAX_SEATS: Final = 4
MAX_CARDS: Final = 32
MAX_SIZE: Final = 8
"""The largest problem the compiled twin takes (e.g. three hidden seats of 8 cards each, 24 cards)."""


def splitmix64(state: int) -> tuple[int, int]:
    """The next state of a SplitMix64 generator and the 64-bit value it gives."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def _cards_of(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class DealTable:
    """The weighted count of the completions of one problem, from every point of a deal in index order.

    ``cards`` is the mask of the cards to deal (by :attr:`engine.cards.Card.index`), ``sizes`` how many each
    hidden seat takes, ``allowed[p]`` the cards seat ``p`` may take, ``unlikely[p]`` those its play doubts.
    """

    def __init__(
        self,
        cards: int,
        sizes: Sequence[int],
        allowed: Sequence[int],
        unlikely: Sequence[int],
        odds: float,
    ) -> None:
        self.cards = _cards_of(cards)
        self.sizes: Capacity = tuple(sizes)
        seats = range(len(self.sizes))
        self.weights = [
            tuple(0.0 if not allowed[p] >> c & 1 else odds if unlikely[p] >> c & 1 else 1.0 for p in seats)
            for c in self.cards
        ]
        n = len(self.cards)
        self.counts: list[dict[Capacity, float]] = [{} for _ in range(n + 1)]
        """``counts[i][room]``: the weight of the ways to deal cards ``i..`` into seats with ``room`` left."""
        self.counts[n][(0,) * len(self.sizes)] = 1.0
        ranges = [range(s + 1) for s in self.sizes]
        for i in range(n - 1, -1, -1):
            later = self.counts[i + 1]
            here = self.counts[i]
            for room in itertools.product(*ranges):
                if sum(room) == n - i:
                    here[room] = self._sum(i, room, later)

    def _sum(self, i: int, room: Capacity, later: dict[Capacity, float]) -> float:
        total = 0.0
        for p, w in enumerate(self.weights[i]):
            if room[p] > 0 and w > 0.0:
                total += w * later[(*room[:p], room[p] - 1, *room[p + 1 :])]
        return total

    @property
    def total(self) -> float:
        """The weight of every deal (0: no deal fits; with no unlikely cards, the number of deals)."""
        return self.counts[0].get(self.sizes, 0.0)

    def deal(self, seed: int) -> list[int] | None:
        """Each seat's cards as a mask, drawn with odds proportional to the deal's weight (None: no deal fits)."""
        if self.total <= 0.0:
            return None
        room = list(self.sizes)
        hands = [0] * len(room)
        state = seed & MASK64
        for i, card in enumerate(self.cards):
            later = self.counts[i + 1]
            state, bits = splitmix64(state)
            pick = (bits >> 11) * _UNIT * self.counts[i][tuple(room)]
            chosen = -1
            for p, w in enumerate(self.weights[i]):
                if room[p] > 0 and w > 0.0:
                    room[p] -= 1
                    part = w * later[tuple(room)]
                    room[p] += 1
                    if part > 0.0:
                        chosen = p
                        pick -= part
                        if pick < 0.0:
                            break
            hands[chosen] |= 1 << card
            room[chosen] -= 1
        return hands


class Dealer(Protocol):
    """A counted problem, on either path: :class:`DealTable`, or :class:`CompiledDealTable`."""

    @property
    def total(self) -> float: ...

    def deal(self, seed: int) -> Sequence[int] | None: ...


class CompiledDealTable:
    """:class:`DealTable` built and drawn by a game's compiled kernel (its ``deal_table``, ``deal_total`` and
    ``deal``: engine/ai/csrc/deal.h): the same totals and the same deals from the same seeds."""

    def __init__(
        self,
        kernel: ModuleType,
        cards: int,
        sizes: Sequence[int],
        allowed: Sequence[int],
        unlikely: Sequence[int],
        odds: float,
    ) -> None:
        self._kernel = kernel
        self._table = kernel.deal_table(cards, tuple(sizes), tuple(allowed), tuple(unlikely), odds)
        self.total: float = kernel.deal_total(self._table)

    def deal(self, seed: int) -> Sequence[int] | None:
        hands: Sequence[int] | None = self._kernel.deal(self._table, seed & MASK64)
        return hands

    @property
    def capsule(self) -> object:
        """The kernel's own table, for its functions that deal many worlds in one call."""
        return self._table


def deal_table(
    cards: int,
    sizes: Sequence[int],
    allowed: Sequence[int],
    unlikely: Sequence[int],
    odds: float,
    kernel: ModuleType | None = None,
) -> Dealer:
    """The problem counted by ``kernel`` where given and the problem fits it, else in Python (the same deals)."""
    if kernel is not None and fits_kernel(cards, sizes):
        return CompiledDealTable(kernel, cards, sizes, allowed, unlikely, odds)
    return DealTable(cards, sizes, allowed, unlikely, odds)


def fits_kernel(cards: int, sizes: Sequence[int]) -> bool:
    """Whether the compiled twin takes a problem of this size."""
    return (
        0 < len(sizes) <= MAX_SEATS
        and all(0 <= s <= MAX_SIZE for s in sizes)
        and cards.bit_count() <= MAX_CARDS
        and cards < 1 << 52
    )
