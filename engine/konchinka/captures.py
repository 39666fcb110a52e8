"""Кончинка: capture enumeration — every capture a card can make on a table.

Capture groups (the decision the spec leaves to the engine):

- A **rank group** is one table card of the played card's rank.
- A **sum group** is a set of *two or more* table cards with pip values adding up to the played card's value.
  A single table card of equal value is the rank group, so it is never listed a second time as a "sum".
  Because every pip value is at least 1 and the group has two or more cards, a sum group never holds a card
  of the played card's own value: rank and sum groups never overlap.
- Classic variant: only A…10 have pip values (A = 1); J, Q, K capture by rank only, and a jack instead sweeps
  the whole table (one action, the whole table as its single group; on an empty table it can only be laid).
  Points variant: every card has a value (J = 11, Q = 12, K = 13) and captures by rank and by sum.
- Without ``multi_capture`` every group is a separate action. With it, a card may take any non-empty set of
  pairwise disjoint groups; the outcome depends only on the cards taken, so ``legal_actions`` lists one action
  per distinct *set of taken cards*, with a canonical partition (:func:`canonical_partition`). ``apply``
  accepts any valid partition of the same cards.

Different subsets are always different actions, even when they hold the same values: the suits matter
(clubs and кончинки score).

Enumeration cost. A state keeps a *group index* of its table (total -> masks of every single card and every
set of two or more pip cards adding up to at most 13), updated move by move: a laid card combines with the sets
already there, a capture filters out the sets that lost a card. Listing a card's captures is then one lookup.
Tables of more than ``INDEX_LIMIT`` cards (only after long runs of lays) are enumerated by *value patterns*
instead: the ways to write the value as a sum of the values present (cached by the table's value multiset below
the played value), expanded with combinations of the actual cards. Either way the work is proportional to the
number of groups produced, never to the number of subsets of the table: every A…9 on the table (36 cards) and a
ten to play gives 1,698 captures in a few milliseconds. With ``multi_capture`` the distinct unions of disjoint
groups are found by a dynamic programme over the groups (work: groups × unions); on pathological tables the
number of unions itself can be very large.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations, product
from typing import Final

from engine.cards import FULL_DECK, Card
from engine.konchinka.actions import Capture
from engine.konchinka.rules import (
    BIT,
    BY_INDEX,
    MAX_CLASSIC_PIP,
    VALUE,
    Variant,
    cards_of_mask,
    mask_of,
)

_PATTERNS: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
"""(value, counts of the smaller values on the table) -> the value patterns of sum groups."""

CAPTURES: Final[tuple[dict[int, Capture], ...]] = tuple({} for _ in FULL_DECK)
"""By played card index: taken mask -> the interned Capture (one group, or the canonical multi-group split)."""
_CAPTURE_CACHE_LIMIT: Final = 20_000  # per played card


_COUNT_BITS: Final = 3  # at most 4 cards of a value on the table (< 8)


def sum_patterns(value: int, signature: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to write ``value`` as a sum of two or more smaller values present on the table.

    A pattern is ``((v, k), ...)``: take ``k`` cards of value ``v``. ``signature`` counts the pip-valued table
    cards per value, 3 bits per value (bit ``3 * value``); only values below ``value`` matter (and are the cache
    key), so tables that differ in bigger cards share the entry.
    """
    low = signature & ((1 << (_COUNT_BITS * value)) - 1)
    key = (low << 4) | value
    found = _PATTERNS.get(key)
    if found is not None:
        return found
    counts = [(low >> (_COUNT_BITS * v)) & 7 for v in range(value)]
    out: list[tuple[tuple[int, int], ...]] = []
    chosen: list[tuple[int, int]] = []

    def walk(v: int, rest: int) -> None:
        if rest == 0:
            out.append(tuple(chosen))
            return
        if v == 0:
            return
        # values v..1 can add up to at most this much; prune dead branches early
        for k in range(min(counts[v], rest // v), -1, -1):
            if k:
                chosen.append((v, k))
            walk(v - 1, rest - k * v)
            if k:
                chosen.pop()

    walk(min(value - 1, len(counts) - 1), value)
    result = tuple(out)
    _PATTERNS[key] = result
    return result


def _intern_capture(card: Card, mask: int, groups: tuple[tuple[Card, ...], ...]) -> Capture:
    cache = CAPTURES[card.index]
    found = cache.get(mask)
    if found is None:
        if len(cache) >= _CAPTURE_CACHE_LIMIT:
            cache.clear()
        found = cache[mask] = Capture(card, groups)
    return found


def sweep_for(jack: Card, table: Sequence[Card]) -> Capture:
    """The classic sweep of ``table`` by ``jack``: one group, the whole table ordered by index.

    Built afresh: the table changes on every move, so a cache keyed by it would almost never be hit.
    """
    return Capture(jack, (tuple(sorted(table, key=BY_INDEX)),))


def group_masks(
    card: Card, buckets: Mapping[int, Sequence[Card]], signature: int, variant: Variant
) -> list[int]:
    """The masks of every capture group of ``card`` (rank groups, then sum groups), without the jack sweep.

    ``buckets`` maps value -> the table cards of that value; ``signature`` is the value signature of the
    pip-valued table cards.
    """
    value = VALUE[card.index]
    out = [BIT[t.index] for t in buckets.get(value, ())]
    if variant is Variant.POINTS or value <= MAX_CLASSIC_PIP:
        for pattern in sum_patterns(value, signature):
            if all(k == 1 and len(buckets[v]) == 1 for v, k in pattern):
                m = 0
                for v, _ in pattern:
                    m |= BIT[buckets[v][0].index]
                out.append(m)
                continue
            parts = [[mask_of(combo) for combo in combinations(buckets[v], k)] for v, k in pattern]
            for choice in product(*parts):
                m = 0
                for part in choice:
                    m |= part
                out.append(m)
    return out


def is_valid_group(card: Card, group: Sequence[Card], variant: Variant) -> bool:
    """Whether ``group`` (distinct table cards) is one capture group of ``card`` (jack sweeps excluded)."""
    if not group:
        return False
    value = VALUE[card.index]
    if len(group) == 1:
        return VALUE[group[0].index] == value
    if variant is Variant.CLASSIC and (
        value > MAX_CLASSIC_PIP or any(VALUE[c.index] > MAX_CLASSIC_PIP for c in group)
    ):
        return False
    return sum(VALUE[c.index] for c in group) == value


def canonical_partition(card: Card, taken: int, variant: Variant) -> tuple[tuple[Card, ...], ...] | None:
    """The canonical split of the taken cards into groups of ``card`` (None if there is none).

    Groups are chosen for the lowest-index card still to cover, trying its groups in ascending mask order,
    so the result depends on the taken cards alone (never on the rest of the table).
    """
    cards = cards_of_mask(taken)
    buckets: dict[int, list[Card]] = {}
    sig = 0
    for c in cards:
        v = VALUE[c.index]
        buckets.setdefault(v, []).append(c)
        if variant is Variant.POINTS or v <= MAX_CLASSIC_PIP:
            sig += 1 << (_COUNT_BITS * v)
    groups = sorted(group_masks(card, buckets, sig, variant))
    chosen: list[int] = []

    def cover(rest: int) -> bool:
        if not rest:
            return True
        low = rest & -rest
        for g in groups:
            if g & low and g & rest == g:
                chosen.append(g)
                if cover(rest ^ g):
                    return True
                chosen.pop()
        return False

    if not cover(taken):
        return None
    return tuple(cards_of_mask(g) for g in chosen)


def capture_for(card: Card, mask: int, variant: Variant, multi: bool) -> Capture:
    """The interned Capture of ``card`` taking the cards of ``mask``.

    Without ``multi`` (or for a jack sweep) the mask is one group. With ``multi`` it is split canonically. A mask
    that is one group is never also a union of two or more groups (their values would add up to a multiple of
    the played value), so both modes share one cache.
    """
    found = CAPTURES[card.index].get(mask)
    if found is not None:
        return found
    groups = canonical_partition(card, mask, variant) if multi else None
    return _intern_capture(card, mask, groups or (cards_of_mask(mask),))


def multi_unions(groups: Sequence[int]) -> list[int]:
    """Every union of one or more pairwise disjoint groups, each union once, in discovery order.

    A dynamic programme over the groups: the set of reachable unions grows by each group in turn, so the work is
    (number of groups) × (number of distinct unions), never the number of ways to build them.
    """
    seen: dict[int, None] = {}
    for g in groups:
        new = [u | g for u in seen if not u & g]
        if g not in seen:
            seen[g] = None
        for u in new:
            if u not in seen:
                seen[u] = None
    return list(seen)


# ---------------------------------------------------------------------------------------------- the group index

GroupIndex = list[list[int]]
"""Total (0…13) -> the masks of the table's groups with that total: every single card (by its value, for rank
captures) and every set of two or more pip-valued cards adding up to at most 13 (10 in the classic variant).

A state keeps it up to date move by move (a laid card combines with the sets already there; a capture drops
the sets that lost a card), so listing a card's captures is one lookup. Its order is a function of the table's
order alone (sets ordered by their positions on the table, the last laid card deciding first): a rebuild from
the table gives the same lists."""

INDEX_LIMIT: Final = 16
"""Tables with more cards than this are enumerated by value patterns instead (the index would grow large)."""
TOTALS: Final = 14

_SOURCES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(range(top - w, 0, -1)) for w in range(TOTALS)) for top in (MAX_CLASSIC_PIP, 13)
)
"""``_SOURCES[points][w]``: the totals a laid card of value ``w`` combines with, highest first (see index_add).

Precomputed so that the hot loop walks a ready tuple instead of building a ``range`` per lay."""


def index_add(index: GroupIndex, i: int, points: bool) -> None:
    """Update ``index`` for the card of index ``i`` laid on the table.

    A 0/1-knapsack step: every set adding up to ``s`` grows into one adding up to ``s + w``. The totals are
    walked from the highest down, so each source list is read before this very step extends it.

    Most source lists hold a single set (three in four in random play), and a list comprehension costs a
    function frame on Python 3.11, so that case takes a plain ``append``.
    """
    w = VALUE[i]
    b = BIT[i]
    if points or w <= MAX_CLASSIC_PIP:
        for s in _SOURCES[points][w]:
            found = index[s]
            if found:
                if len(found) == 1:
                    index[s + w].append(found[0] | b)
                else:
                    index[s + w] += [m | b for m in found]
    index[w].append(b)


def index_remove(index: GroupIndex, mask: int, low: int, points: bool) -> None:
    """Update ``index`` for the cards of ``mask`` leaving the table; ``low`` is the smallest value among them.

    A group holding a card of value ``w`` adds up to at least ``w``, so smaller totals need no look; in the
    classic variant sum groups stop at 10 and a face card (J, Q, K) is only ever in its own single group, which
    bounds the totals to filter from above too.
    """
    stop = TOTALS if points or low > MAX_CLASSIC_PIP else MAX_CLASSIC_PIP + 1
    for s in range(low, stop):
        masks = index[s]
        if masks:
            if len(masks) == 1:  # the common case, without a comprehension's frame (see index_add)
                if masks[0] & mask:
                    index[s] = []
            else:
                index[s] = [m for m in masks if not m & mask]


def build_index(table: Sequence[Card], points: bool) -> GroupIndex:
    index: GroupIndex = [[] for _ in range(TOTALS)]
    for card in table:
        index_add(index, card.index, points)
    return index
