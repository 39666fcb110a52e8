"""Кинг's playout kernel: the hard player's rollouts, compiled where possible and in pure Python otherwise.

The compiled kernel (the extension ``engine.king.ai._kernel``, built from engine/king/ai/csrc; see
:mod:`engine.ai.kernel`) plays one deal's rules, the normal player's policy and the rollouts of
:mod:`engine.king.ai.rollouts` a hundred times faster, bit for bit alike. :data:`BACKEND` says which path this
process uses: ``"c"``, or ``"python"``. Every function takes ``pure=True`` to run the Python path whatever the
backend (tests and benchmarks compare the two in one process).

States cross into the kernel as flat tuples (see engine/king/ai/csrc/module.c); the encoders here build them
from the engine's states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from engine.ai.deal import CompiledDealTable
from engine.ai.kernel import backend_of, load
from engine.cards import PIQUET_DECK, Card
from engine.core import Player
from engine.king.actions import KingAction, Play
from engine.king.ai import rollouts
from engine.king.ai.worlds import Hands, Knowledge, cards_of, hidden_problem, screen, surprises_in
from engine.king.rules import CARD_PENALTY, Contract, Phase
from engine.king.state import KingState, KingView

_C: Final = load("engine.king.ai._kernel")
BACKEND: Final = backend_of(_C)
"""The path Кинг's rollouts take in this process: ``"c"`` (the compiled kernel) or ``"python"``."""

_CONTRACT_INDEX: Final = {contract: i for i, contract in enumerate(Contract)}
NO_CANDIDATE: Final = -1
_DECK: Final = sum(1 << c.index for c in PIQUET_DECK)


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def encode_king(state: KingState) -> tuple[object, ...]:
    """The kernel's tuple for a Кинг state in the play phase."""
    contract = state.contract
    pen = CARD_PENALTY[contract] if contract is not None else None
    hands = state.hands
    trick = state.trick
    remaining = 0
    if pen is not None:
        remaining = sum(pen[c.index] for hand in hands for c in hand) + sum(pen[c.index] for _, c in trick)
    options = state.game.options
    points = state.deal_points
    return (
        *(_mask(h) for h in hands),
        state.leader,
        state.tricks_done,
        -1 if contract is None else _CONTRACT_INDEX[contract],
        -1 if state.trump is None else int(state.trump),
        int(options.king_forced_on_heart_lead),
        int(options.stop_when_decided),
        remaining,
        *points,
        0,
        tuple(c.index for _, c in trick),
    )


def king_values(
    world: KingState,
    me: Player,
    candidates: Sequence[KingAction],
    depth: int,
    *,
    pure: bool = False,
) -> tuple[list[float], int]:
    """``me``'s deal points after each candidate and a rollout of ``depth`` (:mod:`engine.king.ai.rollouts`), and
    the steps taken."""
    if _C is None or pure:
        return rollouts.king_values(world, me, candidates, depth)
    if all(type(a) is Play for a in candidates):
        cards = tuple(a.card.index for a in candidates)  # type: ignore[union-attr]
        values, steps = _C.king_values(encode_king(world), me, cards, depth)
        return [float(v) for v in values], steps
    out: list[float] = []
    total = 0
    for action in candidates:  # the trump choice: named here, then rolled out by the kernel
        state = world.clone()
        state.apply(action)
        (value,), steps = _C.king_values(encode_king(state), me, (NO_CANDIDATE,), depth)
        out.append(float(value))
        total += steps + 1
    return out, total


def _encode_hands(
    view: KingView,
    masks: Sequence[int],
    leader: Player,
    trick_no: int,
    points: Sequence[int],
    trick: Sequence[Card],
) -> tuple[object, ...]:
    contract = view.contract
    remaining = 0
    if contract is not None:
        pen = CARD_PENALTY[contract]
        every = 0
        for m in masks:
            every |= m
        remaining = sum(pen[i] for i in range(52) if every >> i & 1) + sum(pen[c.index] for c in trick)
    options = view.options
    return (
        *masks,
        leader,
        trick_no,
        -1 if contract is None else _CONTRACT_INDEX[contract],
        -1 if view.trump is None else int(view.trump),
        int(options.king_forced_on_heart_lead),
        int(options.stop_when_decided),
        remaining,
        *points,
        0,
        tuple(c.index for c in trick),
    )


def _world_masks(view: KingView, hands: Mapping[Player, Sequence[Card]]) -> list[int]:
    return [_mask(hands[p]) if p in hands else _mask(view.hand) if p == view.player else 0 for p in range(4)]


def king_world_values(
    view: KingView,
    hands: Mapping[Player, Sequence[Card]],
    candidates: Sequence[KingAction],
    depth: int,
    *,
    pure: bool = False,
) -> tuple[list[float], int]:
    """:func:`king_values` for the world of ``view`` with the hidden hands ``hands``
    (`engine.king.ai.worlds.deal_world`), without building its state where the kernel plays it."""
    if _C is None or pure or view.phase is not Phase.PLAY:
        return king_values(KingState.from_view(view, hands), view.player, candidates, depth, pure=pure)
    encoded = _encode_hands(
        view,
        _world_masks(view, hands),
        view.leader,
        len(view.tricks_this_deal),
        view.deal_points,
        [c for _, c in view.trick],
    )
    cards = tuple(a.card.index for a in candidates)  # type: ignore[union-attr]
    values, steps = _C.king_values(encoded, view.player, cards, depth)
    return [float(v) for v in values], steps


def king_surprises(view: KingView, hands: Mapping[Player, Sequence[Card]], *, pure: bool = False) -> int:
    """How many plays of the others this deal the normal policy would not have made in the world of ``view``
    with the hidden hands ``hands`` (`engine.king.ai.worlds.surprises_in`)."""
    return Surprises(view, pure=pure)(hands)


class Surprises:
    """:func:`king_surprises` for many worlds of one view: what the worlds share (the plays, the deal's start
    but for the hidden hands) is worked out once."""

    def __init__(self, view: KingView, *, pure: bool = False) -> None:
        self.view = view
        self.pure = pure
        played = [pc for t in view.tricks_this_deal for pc in t.plays]
        played.extend(view.trick)
        self.plays = tuple(c.index for _, c in played)
        self.start = [0, 0, 0, 0]
        """Each seat's cards at the deal's start as far as the view knows them (mine all, the others' played)."""
        for p, c in played:
            self.start[p] |= 1 << c.index
        self.start[view.player] |= _mask(view.hand)
        first_leader = view.tricks_this_deal[0].leader if view.tricks_this_deal else view.leader
        # At the deal's start every card of the deck is in a hand: the fields after the hands are the same in
        # every world (the remaining penalty counts them all).
        self.tail = (
            _encode_hands(view, (_DECK, 0, 0, 0), first_leader, 0, (0, 0, 0, 0), ())[4:] if played else ()
        )

    def __call__(self, hands: Mapping[Player, Sequence[Card]]) -> int:
        if not self.plays:
            return 0
        if _C is None or self.pure:
            return surprises_in(self.view, hands)
        masks = tuple(self.start[p] | _mask(hands[p]) if p in hands else self.start[p] for p in range(4))
        count: int = _C.king_surprises(masks + self.tail, self.view.player, self.plays)
        return count


class Screen:
    """The reading of the play for many worlds of one view (:func:`engine.king.ai.worlds.screen`): of
    ``candidates`` worlds dealt, the one kept at ``temperature`` (0: the strict reading), in the kernel where it is
    built (one call deals and reads every candidate), else in Python (the same world from the same seed)."""

    def __init__(
        self, view: KingView, knowledge: Knowledge, candidates: int, temperature: float, *, pure: bool = False
    ) -> None:
        self.view = view
        self.knowledge = knowledge
        self.candidates = candidates
        self.temperature = temperature
        self.pure = pure or _C is None
        table, self.seats = hidden_problem(view, knowledge, pure=self.pure)
        self.capsule = table.capsule if isinstance(table, CompiledDealTable) else None
        shared = Surprises(view)
        self.start = tuple(shared.start) + shared.tail
        self.plays = shared.plays
        self.fixed = tuple(_mask(knowledge.fixed.get(p, ())) for p in range(4))

    def __call__(self, seed: int) -> Hands:
        if self.pure or self.capsule is None or _C is None:
            return screen(self.view, self.knowledge, seed, self.candidates, self.temperature, pure=self.pure)
        masks = _C.king_screen(
            self.capsule,
            seed,
            tuple(self.seats),
            self.fixed,
            self.start,
            self.view.player,
            self.plays,
            self.candidates,
            self.temperature,
        )
        if masks is None:
            raise ValueError("cannot deal the hidden cards into hands of these sizes")
        fixed = self.knowledge.fixed
        return {p: list(fixed.get(p, ())) + cards_of(m) for p, m in zip(self.seats, masks, strict=True)}
