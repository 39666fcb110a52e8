"""The fast Кончинка engine must behave exactly as it did before its speed work, bit for bit.

Seeded random parties under many option sets are folded into one SHA-256 digest: every list of legal actions,
the views of every seat, refused actions (reason, params and message), states rebuilt from views, clones,
hand-built positions with big tables (the value-pattern enumeration), the records and the final scores. The
golden digest was computed from the engine *before* the optimisation; any change of behaviour anywhere in
these parties changes it. If the rules are changed on purpose, recompute it (``python -m
tests.engine.test_konchinka_speed_equivalence``) and say why in the commit.
"""

from __future__ import annotations

import hashlib
import random

from engine.cards import FULL_DECK, Card
from engine.core import GameRecord, IllegalActionError, replay
from engine.konchinka import (
    Capture,
    Finish,
    KonchinkaGame,
    KonchinkaOptions,
    KonchinkaState,
    Lay,
    Settlement,
    Variant,
)
from engine.konchinka.baseline import BaselineKonchinkaGame

GOLDEN = "2855144b17dd56ffa548b8aefb9f862154483977f1070814380e3b93aa730a82"

OPTION_SETS: tuple[KonchinkaOptions, ...] = (
    KonchinkaOptions(players=2),
    KonchinkaOptions(players=3),
    KonchinkaOptions(players=4),
    KonchinkaOptions(players=2, variant=Variant.POINTS),
    KonchinkaOptions(players=3, variant=Variant.POINTS, multi_capture=True),
    KonchinkaOptions(players=2, multi_capture=True, target=5),
    KonchinkaOptions(players=4, forced_capture=True, target=5),
    KonchinkaOptions(players=2, variant=Variant.POINTS, forced_capture=True, multi_capture=True, target=4),
    KonchinkaOptions(players=3, early_finish=False, settlement=Settlement.STAKE, stake=3, target=4),
    KonchinkaOptions(players=2, target=1),
)


class Digest:
    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def feed(self, *parts: object) -> None:
        for part in parts:
            self._hash.update(repr(part).encode())
            self._hash.update(b"\x00")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def random_attempt(state: KonchinkaState, rng: random.Random) -> Lay | Capture | Finish:
    """A made-up action, usually illegal: a foreign lay, a random capture split, or a finish."""
    roll = rng.random()
    hand = state.hands[state.current_player]
    if roll < 0.15:
        return Finish()
    if roll < 0.3 or not state.table:
        return Lay(rng.choice(FULL_DECK))
    card = rng.choice(hand) if rng.random() < 0.9 else rng.choice(FULL_DECK)
    pool = list(state.table) + ([rng.choice(FULL_DECK)] if rng.random() < 0.1 else [])
    taken = rng.sample(pool, rng.randint(1, min(4, len(pool))))
    if rng.random() < 0.05:
        taken.append(taken[0])
    groups: list[tuple[Card, ...]] = []
    while taken:
        size = rng.randint(1, len(taken))
        groups.append(tuple(sorted(taken[:size], key=lambda c: c.index)))
        del taken[:size]
    if rng.random() < 0.05:
        groups.append(())
    return Capture(card, tuple(groups))


def try_apply(digest: Digest, state: KonchinkaState, action: Lay | Capture | Finish) -> None:
    """Apply ``action`` to a clone and fold in the refusal or the clone's new public state."""
    other = state.clone()
    try:
        other.apply(action)
    except IllegalActionError as exc:
        digest.feed("refused", action, exc.reason, sorted(exc.params.items()), str(exc))
        return
    digest.feed("accepted", action, other.view(max(other.current_player, 0)), other.piles, other.table)


def play_party(digest: Digest, game: KonchinkaGame, seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    while not state.is_terminal:
        actions = state.legal_actions()
        digest.feed([a.code for a in actions], actions)
        step = state.version
        if step % 5 == 0:
            digest.feed([state.view(seat) for seat in range(game.num_players)])
        if step % 3 == 0:
            try_apply(digest, state, random_attempt(state, rng))
        if step % 11 == 0:
            view = state.view(state.current_player)
            hands = dict(enumerate(state.hands))
            world = KonchinkaState.from_view(view, hands, state.deck, seed=seed)
            digest.feed(world.legal_actions(), world.view(state.current_player))
        if step % 13 == 0:
            state = state.clone()
        action = rng.choice(actions)
        if rng.random() < 0.3:
            action = game.parse_action(action.code)  # a fresh object: apply validates it
        state.apply(action)
    try_apply(digest, state, Finish())
    digest.feed(state.legal_actions(), state.outcome, state.tally, state.deal_scores, state.events)
    digest.feed(state.totals, state.piles, state.history, state.record().to_json())
    again = replay(GameRecord.from_json(state.record().to_json()))
    digest.feed(again.view(0))


def big_tables(digest: Digest, options: KonchinkaOptions, seed: int) -> None:
    """Hand-built positions whose tables outgrow the group index, every legal action tried on a clone."""
    rng = random.Random(seed)
    game = KonchinkaGame(options)
    for _ in range(6):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        size = rng.randint(10, 14 if options.multi_capture else 24)
        hands = [cards[4 * i : 4 * i + 4] for i in range(options.players)]
        rest = cards[4 * options.players :]
        state = KonchinkaState.from_position(
            game, hands=hands, table=rest[:size], deck=rest[size : size + 8], current_player=rng.randrange(2)
        )
        actions = state.legal_actions()
        digest.feed(actions)
        for action in actions:
            try_apply(digest, state, action)
        for _ in range(10):
            try_apply(digest, state, random_attempt(state, rng))


def compute_digest() -> str:
    digest = Digest()
    for number, options in enumerate(OPTION_SETS):
        game = KonchinkaGame(options)
        for seed in range(3):
            play_party(digest, game, number * 1000 + seed)
        big_tables(digest, options, number)
    baseline = BaselineKonchinkaGame(KonchinkaOptions(players=3, multi_capture=True, target=6))
    play_party(digest, baseline, 77)
    return digest.hexdigest()


def test_random_parties_play_exactly_as_before_the_speed_work() -> None:
    assert compute_digest() == GOLDEN


if __name__ == "__main__":
    print(compute_digest())
