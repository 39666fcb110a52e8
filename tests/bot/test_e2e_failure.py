"""An unexpected failure while handling a press: the press is still answered (a short apology in the presser's
language, not a spinning button), and the log names the game and carries the traceback."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.callbacks import MoveCb
from tests.bot.conftest import BotRunner, game_row, move_buttons, turn_message, two_player_party
from tests.fakebot import FakeTelegram


async def test_a_press_on_a_game_whose_record_is_broken_is_answered_and_logged(
    tg: FakeTelegram, bot_runner: BotRunner, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    running, anna, boris, _group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    mover = anna if turn_message(anna) else boris
    message = turn_message(mover)
    assert message is not None
    row = await game_row(running, game)
    assert row.record is not None
    # Someone edits the database file by hand: the stored record gains a move no game knows.
    broken = replace(row.record, actions=(*row.record.actions, "??"))
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute(
            "UPDATE games SET record = ?, version = ? WHERE id = ?",
            (broken.to_json(), row.version + 1, int(game)),
        )
    finally:
        conn.close()
    caplog.set_level(logging.ERROR)

    # The first move meets a stored game that is not the one in memory; the next reads the broken record.
    version = int(move_buttons(message)[0].split(":")[2])
    move = MoveCb(game=game, version=version, index=0).pack()  # a card's second tap
    for attempt in (1, 2):
        caplog.clear()
        answer = await mover.press(message, data=move, force=True)
        assert answer.answered
        assert answer.text == "Что-то пошло не так, попробуйте ещё раз.", attempt
        failures = [
            r for r in caplog.records if r.levelno >= logging.ERROR and f"game {game}:" in r.getMessage()
        ]
        assert failures, [r.getMessage() for r in caplog.records]
        assert failures[0].exc_info is not None
        assert (await game_row(running, game)).version == row.version + 1  # nothing was changed by the press
