"""The game flow in-process, with no Telegram and no HTTP: commands decided against a real SQLite file, each change
stored in one transaction with its events, and the events drawn only afterwards — from the game as stored, as
after a restart (docs/ARCHITECTURE.md, «The pipeline»)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bot.flow.store import Change, Match, Store

from bot.clock import Clock
from bot.delivery.notices import draw
from bot.flow.commands import (
    Join,
    OpenLobby,
    Person,
    Play,
    ServiceConfig,
    ServiceError,
    Start,
)
from bot.model.game import DealEnded, PartyEnded, load_event
from bot.flow.lobby import Lobby
from bot.flow.moves import Moves
from bot.model.game import GameStatus
from bot.storage import Database, Notice, UserRow, repo
from bot.storage import repo as stored
from bot.storage.tx import Batch
from engine.core import CommonIllegal

GROUP = -100500
ANNA = Person(101, "Аня", lang="ru")
BORIS = Person(102, "Борис", lang="ru")


async def member(_chat_id: int) -> bool:
    return True


@dataclass
class Flow:
    db: Database
    store: Store
    lobby: Lobby
    moves: Moves


async def flow_at(path: Path) -> Flow:
    db = await Database.open(path)
    config = ServiceConfig(game_seed=7, turn_timeout=0)  # a party to 15: several deals
    store = Store(db, Clock(), config)
    return Flow(db, store, Lobby(store, config, lambda _chat: False), Moves(store, config))


@pytest.fixture
async def flow(tmp_path: Path) -> AsyncIterator[Flow]:
    made = await flow_at(tmp_path / "bot.sqlite3")
    batch = Batch()
    for person in (ANNA, BORIS):  # both opened the bot: it may write to them
        repo.upsert_user(batch, person.user_id, person.name, None, person.lang, started=True)
    await made.db.write(batch)
    try:
        yield made
    finally:
        await made.db.close()


async def started(flow: Flow) -> int:
    opened = await flow.lobby.open(OpenLobby(GROUP, 0, ANNA, "konchinka"))
    game_id = opened.match.game.id
    await flow.lobby.join(Join(game_id, BORIS, member))
    change = await flow.lobby.start(Start(game_id, ANNA))
    assert change.match.game.status is GameStatus.PLAYING
    return game_id


def mover(match: Match) -> Person:
    assert match.party is not None
    user_id = match.seats[match.party.current_player].user_id
    return ANNA if user_id == ANNA.user_id else BORIS


async def play_until(flow: Flow, game_id: int, done: type[DealEnded] | type[PartyEnded]) -> list[Change]:
    """Moves (each the first legal action) until a change tells ``done``; every change made on the way."""
    changes: list[Change] = []
    while True:
        match = await flow.store.read(game_id)
        assert match is not None and match.party is not None
        version = match.party.version
        change = await flow.moves.play(Play(game_id, mover(match), version, 0))
        changes.append(change)
        events = [load_event(n.event) for n in change.notices if n.event is not None]
        if any(isinstance(e, done) for e in events):
            return changes


async def test_a_move_is_one_transaction_and_its_notices_are_stored_as_events_not_text(flow: Flow) -> None:
    game_id = await started(flow)
    match = await flow.store.read(game_id)
    assert match is not None and match.party is not None
    before = flow.db.transactions
    change = await flow.moves.play(Play(game_id, mover(match), match.party.version, 0))
    assert flow.db.transactions == before + 1
    assert change.match.party is not None and change.match.party.version == match.party.version + 1

    changes = await play_until(flow, game_id, DealEnded)
    deal_end = changes[-1]
    rows = {n.id: n for n in await stored.pending_notices(flow.db)}
    assert [n.id for n in deal_end.notices] == sorted(n.id for n in deal_end.notices)
    for notice in deal_end.notices:
        row = rows[notice.id]
        assert row.text == "" and row.game_id == game_id and row.event is not None  # typed, not drawn
    told = {(n.chat_id, load_event(n.event)) for n in deal_end.notices if n.event is not None}
    assert (GROUP, DealEnded(1)) in told
    assert {(ANNA.user_id, DealEnded(1, 0)), (BORIS.user_id, DealEnded(1, 1))} <= told  # each player's own
    # The moves before the deal ended told nobody anything.
    assert all(not c.notices for c in changes[:-1])


async def test_a_refused_move_changes_nothing_and_costs_no_transaction(flow: Flow) -> None:
    game_id = await started(flow)
    match = await flow.store.read(game_id)
    assert match is not None and match.party is not None
    waiting = BORIS if mover(match) is ANNA else ANNA
    before = flow.db.transactions, flow.db.statements
    with pytest.raises(ServiceError) as refused:
        await flow.moves.play(Play(game_id, waiting, match.party.version, 0))
    assert refused.value.reason is CommonIllegal.NOT_YOUR_TURN
    with pytest.raises(ServiceError):
        await flow.moves.play(Play(game_id, mover(match), match.party.version + 1, 0))  # a stale version
    assert (flow.db.transactions, flow.db.statements) == before
    after = await flow.store.read(game_id)
    assert after is not None and after.party is not None and after.party.version == match.party.version


async def test_events_stored_before_a_restart_are_drawn_from_the_stored_game_as_they_were_at_once(
    flow: Flow, tmp_path: Path
) -> None:
    game_id = await started(flow)
    changes = await play_until(flow, game_id, PartyEnded)
    end = changes[-1]
    assert end.match.game.status is GameStatus.FINISHED
    drawn_at_once = {n.id: draw(load_event(n.event), end.match, "cardbot") for n in end.notices if n.event}
    await flow.db.close()

    again = await flow_at(tmp_path / "bot.sqlite3")  # a restart: nothing in memory
    try:
        kept: list[Notice] = await stored.pending_notices(again.db)
        assert {n.id for n in kept} >= drawn_at_once.keys()
        match = await again.store.read(game_id)
        assert match is not None
        for notice in kept:
            if notice.id in drawn_at_once:
                assert notice.event is not None
                assert draw(load_event(notice.event), match, "cardbot") == drawn_at_once[notice.id]
        users = await repo.users_by_id(again.db, [ANNA.user_id])
        assert users[ANNA.user_id] == UserRow(ANNA.user_id, "Аня", None, "ru", True, False)
        party_end = [n for n in kept if n.id in drawn_at_once and n.chat_id == GROUP]
        assert party_end and "Аня" in drawn_at_once[party_end[-1].id].text
    finally:
        await again.db.close()
