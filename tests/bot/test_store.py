"""The pipeline's store on a real SQLite file, with the flow's decisions and no Telegram: a change is one
transaction with its notices stored as events (who is told, not what), a refusal costs none, the game read back
after a restart is the game committed (its notices drawn the same from it), and a card picked survives a kill
before any transaction stored it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.clock import Clock
from bot.delivery.notices import draw_notice
from bot.flow import lobby, moves
from bot.flow.commands import Decided, FlowConfig, Join, OpenLobby, Pick, Play, Refusal, Start
from bot.model.game import (
    DealEnded,
    Event,
    Game,
    GameStatus,
    PartyEnded,
    Person,
    evolve,
    load_told,
)
from bot.pipeline.store import Store
from bot.storage import Batch, Database, repo
from engine.core import CommonIllegal
from engine.konchinka import KonchinkaView

GROUP = -100500
ANNA = Person(101, "Аня", lang="ru")
BORIS = Person(102, "Борис", lang="ru")
CONFIG = FlowConfig(game_seed=7, turn_timeout=0)
NOW = 1_000.0


@dataclass
class Flow:
    db: Database
    store: Store

    async def change(self, before: Game | None, events: tuple[Event, ...], mark: int | None = None) -> Game:
        """What the pipeline does with a decision's events: evolve, address the told ones, commit."""
        after = evolve(before if before is not None else events[0].game, events)  # type: ignore[attr-defined]
        notices = self.store.notices(after, events)
        await self.store.commit(before, after, events, notices, mark)
        return after


async def flow_at(path: Path) -> Flow:
    db = await Database.open(path)
    return Flow(db, Store(db, Clock()))


@pytest.fixture
async def flow(tmp_path: Path) -> AsyncIterator[Flow]:
    made = await flow_at(tmp_path / "bot.sqlite3")
    batch = Batch()
    for person in (ANNA, BORIS):  # both opened the bot: it may write to them
        repo.upsert_user(batch, person, started=True)
    await made.db.write(batch)
    try:
        yield made
    finally:
        await made.db.close()


def decided(decision: object) -> tuple[Event, ...]:
    assert isinstance(decision, Decided), decision
    return decision.events


async def started(flow: Flow) -> Game:
    users = await repo.users_by_id(flow.db, [ANNA.user_id])
    opening = lobby.Opening(flow.store.new_id(), NOW, users=users)
    game = await flow.change(
        None, decided(lobby.open_lobby(OpenLobby(GROUP, 0, ANNA, "konchinka"), opening, CONFIG))
    )
    game = await flow.change(game, decided(lobby.join(Join(game.id, BORIS), game, member=True)))
    game = await flow.change(game, decided(lobby.start(Start(game.id, ANNA), game, 7, NOW, CONFIG)))
    assert game.status is GameStatus.PLAYING
    return game


def mover(game: Game) -> Person:
    assert game.party is not None
    return ANNA if game.seats[game.party.current_player].user_id == ANNA.user_id else BORIS


async def play_until(
    flow: Flow, game: Game, done: type[DealEnded] | type[PartyEnded]
) -> list[tuple[Game, Event]]:
    """Moves (each the first legal action) until one tells ``done``; the game after each, and its told events."""
    played: list[tuple[Game, Event]] = []
    while True:
        assert game.party is not None
        events = decided(moves.play(Play(game.id, mover(game), game.party.version, 0), game, NOW, CONFIG))
        game = await flow.change(game, events)
        played += [(game, e) for e in events if e.kind]
        if any(isinstance(e, done) for e in events):
            return played


async def test_a_move_is_one_transaction_and_its_notices_are_stored_as_events_not_text(flow: Flow) -> None:
    game = await started(flow)
    assert game.party is not None
    before = flow.db.transactions
    events = decided(moves.play(Play(game.id, mover(game), game.party.version, 0), game, NOW, CONFIG))
    game = await flow.change(game, events)
    assert flow.db.transactions == before + 1
    stored = await repo.get_game(flow.db, game.id)
    assert stored is not None and stored.version == 1 and len(await repo.moves_of(flow.db, game.id)) == 1

    told = await play_until(flow, game, DealEnded)
    assert all(isinstance(e, DealEnded) for _, e in told), (
        "the moves before the deal's end told nobody anything"
    )
    rows = await repo.pending_notices(flow.db)
    assert all(row.text == "" and row.game_id == game.id and row.event is not None for row in rows)
    addressed_to = {(row.chat_id, load_told(row.event)) for row in rows if row.event is not None}
    assert (GROUP, (DealEnded(1), None)) in addressed_to
    assert {
        (ANNA.user_id, (DealEnded(1), 0)),
        (BORIS.user_id, (DealEnded(1), 1)),
    } <= addressed_to  # each their own


async def test_a_refused_move_changes_nothing_and_costs_no_transaction(flow: Flow) -> None:
    game = await started(flow)
    assert game.party is not None
    waiting = BORIS if mover(game) is ANNA else ANNA
    refused = moves.play(Play(game.id, waiting, game.party.version, 0), game, NOW, CONFIG)
    assert isinstance(refused, Refusal) and refused.reason is CommonIllegal.NOT_YOUR_TURN
    stale = moves.play(Play(game.id, mover(game), game.party.version + 1, 0), game, NOW, CONFIG)
    assert isinstance(stale, Refusal)
    before = flow.db.transactions, flow.db.statements
    assert await flow.store.commit(game, game, (), (), None) is False  # what a refusal stores: nothing
    assert (flow.db.transactions, flow.db.statements) == before


async def test_the_game_read_back_after_a_restart_is_the_game_committed_and_draws_its_notices_the_same(
    flow: Flow, tmp_path: Path
) -> None:
    game = await started(flow)
    told = await play_until(flow, game, PartyEnded)
    end, _ = told[-1]
    assert end.status is GameStatus.FINISHED
    rows = await repo.pending_notices(flow.db)
    drawn_at_once = {
        row.id: draw_notice(*load_told(row.event), end, "cardbot") for row in rows if row.event is not None
    }
    await flow.db.close()

    again = await flow_at(tmp_path / "bot.sqlite3")  # a restart: nothing in memory
    try:
        read = await again.store.load(end.id)
        assert read is not None
        assert (read.status, read.version, read.seats, read.moves) == (
            end.status,
            end.version,
            end.seats,
            end.moves,
        )
        assert read.party is not None and end.party is not None and read.party.record() == end.party.record()
        kept = await repo.pending_notices(again.db)
        assert {n.id for n in kept} == set(drawn_at_once)
        for notice in kept:
            assert notice.event is not None
            assert draw_notice(*load_told(notice.event), read, "cardbot") == drawn_at_once[notice.id]
    finally:
        await again.db.close()


async def test_a_card_picked_is_written_at_once_beside_the_database_and_read_back_after_a_kill(
    flow: Flow, tmp_path: Path
) -> None:
    """A first tap that opens a choice changes nothing but what the hand shows: it is answered without waiting for
    the database (a journal line), and a kill before any transaction stored it still finds it on the next start."""
    game = await started(flow)
    assert game.party is not None
    person = mover(game)
    view = game.party.view_of(game.party.current_player)
    assert isinstance(view, KonchinkaView)
    card = next(
        c.code for c in view.hand if len(game.party.actions_of_card(game.party.current_player, c.code)) > 1
    )
    before = flow.db.transactions
    picked = await flow.change(
        game, decided(moves.pick(Pick(game.id, person, game.party.version, card), game, NOW, CONFIG))
    )
    assert picked.screens.picked(person.user_id, game.party.version) == card
    assert flow.db.transactions == before, "no transaction of its own"
    assert (tmp_path / "bot.sqlite3-screens").read_text().strip()
    # The run dies here: nothing more is stored (its deferred rows never ride).

    again = await flow_at(tmp_path / "bot.sqlite3")
    try:
        read = await again.store.load(game.id)
        assert read is not None and read.screens.picked(person.user_id, game.party.version) == card
    finally:
        await again.db.close()
