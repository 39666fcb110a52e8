"""Кончинка's playout kernel: the hard player's rollouts, compiled where possible and in pure Python otherwise.

The compiled kernel (the extension ``engine.konchinka.ai._kernel``, built from engine/konchinka/ai/csrc; see
:mod:`engine.ai.kernel`) plays one deal's rules, the normal player's policy and the rollouts of
:mod:`engine.konchinka.ai.rollouts` bit for bit alike. :data:`BACKEND` says which path this process uses:
``"c"``, or ``"python"``. Every function takes ``pure=True`` to run the Python path whatever the backend.

States cross into the kernel as flat tuples (see engine/konchinka/ai/csrc/module.c); the encoders here build
them from the engine's states, and a round's beginning from a view (:class:`RoundReplay`: the kernel replays the
round to count a world's surprises, :mod:`engine.konchinka.ai.worlds`). A world the kernel declines (a table of
more than 16 cards) is played in Python.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from engine.ai.kernel import backend_of, load
from engine.cards import Card
from engine.core import Player
from engine.konchinka.actions import Capture, Finish, KonchinkaAction
from engine.konchinka.ai import rollouts
from engine.konchinka.ai.worlds import RoundStart, start_hands, surprises_in
from engine.konchinka.rules import KonchinkaOptions, Variant
from engine.konchinka.state import KonchinkaState
from engine.konchinka.views import EventKind, KonchinkaView

_C: Final = load("engine.konchinka.ai._kernel")
BACKEND: Final = backend_of(_C)
"""The path Кончинка's rollouts take in this process: ``"c"`` (the compiled kernel) or ``"python"``."""


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def encode_konchinka(state: KonchinkaState) -> tuple[object, ...]:
    """The kernel's tuple for a Кончинка state in the middle of a deal."""
    last = state.last_capturer
    return _encode(
        state.options,
        state.current_player,
        state.dealer,
        -1 if last is None else last,
        state.hands,
        state.piles,
        state.totals,
        state.table,
        state.deck,
    )


def _encode(
    options: KonchinkaOptions,
    current: Player,
    dealer: Player,
    last_capturer: Player,
    hands: Sequence[Sequence[Card]],
    piles: Sequence[Sequence[Card]],
    totals: Sequence[int],
    table: Sequence[Card],
    deck: Sequence[Card],
) -> tuple[object, ...]:
    zeros = (0,) * options.players
    return (
        options.players,
        int(options.variant is Variant.POINTS),
        int(options.multi_capture),
        int(options.forced_capture),
        int(options.early_finish),
        options.target,
        current,
        dealer,
        last_capturer,
        0,
        -1,
        tuple(_mask(h) for h in hands),
        tuple(len(p) for p in piles),
        tuple(sum(1 for c in p if c.index < 13) for p in piles),
        tuple(sum(1 for c in p if c.index in (0, 21)) for p in piles),
        tuple(totals),
        tuple(c.index for c in table),
        tuple(c.index for c in deck),
        zeros,
        zeros,
        zeros,
    )


def encode_konchinka_action(action: KonchinkaAction) -> tuple[int, int, int]:
    """(kind, card, taken mask): 0 lay, 1 capture, 2 finish, 3 capture and finish."""
    if isinstance(action, Capture):
        return (3 if action.finish else 1, action.card.index, _mask(action.taken))
    if isinstance(action, Finish):
        return (2, -1, 0)
    return (0, action.card.index, 0)


def konchinka_values(
    world: KonchinkaState,
    me: Player,
    candidates: Sequence[KonchinkaAction],
    plies: int | None,
    depth: int,
    *,
    pure: bool = False,
) -> tuple[list[float], int]:
    """The value for ``me`` after each candidate and a rollout of ``depth`` over at most ``plies`` more actions
    (:mod:`engine.konchinka.ai.rollouts`), and the steps taken."""
    if _C is not None and not pure:
        found = _C.konchinka_values(
            encode_konchinka(world),
            me,
            tuple(encode_konchinka_action(a) for a in candidates),
            -1 if plies is None else plies,
            depth,
        )
        if found is not None:
            values, steps = found
            return list(values), steps
    return rollouts.konchinka_values(world, me, candidates, plies, depth)


class RoundReplay:
    """The round of ``view`` replayed in the kernel for candidate worlds (:meth:`surprises`): what every world
    shares — the table, the piles, the cards each hand has played in the round, the plays — encoded once."""

    def __init__(self, view: KonchinkaView, start: RoundStart) -> None:
        self.view = view
        self.start = start
        none = {seat: () for seat in range(view.options.players) if seat != view.player}
        self._template = list(self.encode(none, ()))
        self._known = [_mask(hand) for hand in start_hands(view, start, none)]
        self._plays = [
            (
                event.player != view.player,
                (0, card.index, 0) if event.kind is EventKind.LAY else (1, card.index, _mask(event.taken)),
            )
            for event in start.plays
            if (card := event.card) is not None
        ]
        self._plays_tuple = tuple((int(other), action) for other, action in self._plays)

    def encode(self, hands: Mapping[Player, Sequence[Card]], deck: Sequence[Card]) -> tuple[object, ...]:
        """The kernel's tuple for the state as the round began in the world of ``hands`` and ``deck``
        (:func:`engine.konchinka.ai.worlds.start_state`, encoded, built without it)."""
        view, start = self.view, self.start
        return _encode(
            view.options,
            start.first,
            view.dealer,
            start.last_capturer,
            start_hands(view, start, hands),
            start.piles,
            [t[-1] if t else 0 for t in view.tally],
            start.table,
            deck,
        )

    def surprises(
        self, hands: Mapping[Player, Sequence[Card]], deck: Sequence[Card], *, pure: bool = False
    ) -> int:
        """:func:`engine.konchinka.ai.worlds.surprises_in`, the round replayed by the kernel."""
        view, start = self.view, self.start
        if _C is None or pure:
            return surprises_in(view, start, hands, deck)
        encoded = self._template.copy()
        encoded[11] = tuple(
            known | _mask(hands[seat]) if seat in hands else known for seat, known in enumerate(self._known)
        )
        encoded[17] = tuple(c.index for c in deck)
        found: int | None = _C.konchinka_surprises(tuple(encoded), self._plays_tuple)
        if found is None:  # declined (a table of more than 16 cards): Python replays the round
            return surprises_in(view, start, hands, deck)
        return found

    def surprises_stepwise(self, hands: Mapping[Player, Sequence[Card]], deck: Sequence[Card]) -> int:
        """:meth:`surprises` by one call of the kernel a step (its earlier form, kept as the one-call replay's
        oracle in the tests)."""
        view, start = self.view, self.start
        assert _C is not None
        encoded = self._template.copy()
        encoded[11] = tuple(
            known | _mask(hands[seat]) if seat in hands else known for seat, known in enumerate(self._known)
        )
        encoded[17] = tuple(c.index for c in deck)
        state: tuple[object, ...] | None = tuple(encoded)
        count = 0
        for other, action in self._plays:
            legal = _C.konchinka_legal(state) if state is not None else None
            if legal is None:  # declined (a table of more than 16 cards): Python replays the round
                return surprises_in(view, start, hands, deck)
            if action not in legal:
                return len(self._plays)
            if other and len(legal) > 1:
                chosen = _C.konchinka_policy(state)
                if chosen is None:
                    return surprises_in(view, start, hands, deck)
                count += legal[chosen] != action
            state = _C.konchinka_step(state, action)
        return count
