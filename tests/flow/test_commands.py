"""Every command has its decision, and every decision is called by a test of this folder: :data:`DECISIONS` maps
each command type of ``bot.flow.commands`` to the decision the pipeline calls for it, so a new command without
a decision test fails here. Also what a decision's result carries: the press's answer, the engine's refusal."""

from __future__ import annotations

import ast
import functools
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.flow import commands as cmd
from bot.flow import lobby, moves, people, turns
from bot.flow.commands import Command, Decided, Refusal
from bot.model.answers import Answer
from engine.core import CommonIllegal, IllegalActionError
from tests.flow.builders import (
    ANNA,
    BORIS,
    CONFIG,
    GAME_ID,
    NOW,
    group_party,
    in_lobby,
    replaced,
)

DECISIONS: dict[type[Command], Callable[..., object]] = {
    cmd.OpenLobby: lobby.open_lobby,
    cmd.Join: lobby.join,
    cmd.LeaveLobby: lobby.leave_lobby,
    cmd.AddBot: lobby.add_bot,
    cmd.RemoveBot: lobby.remove_bot,
    cmd.ShowScreen: lobby.show_screen,
    cmd.SetOption: lobby.set_option,
    cmd.Start: lobby.start,
    cmd.Cancel: lobby.cancel,
    cmd.Rematch: lobby.rematch,
    cmd.StartSolo: lobby.start_solo,
    cmd.Pick: moves.pick,
    cmd.Back: moves.back,
    cmd.Play: moves.play,
    cmd.TakeSeat: moves.take_seat,
    cmd.LeaveGame: people.leave,
    cmd.BotMove: moves.bot_move,
    cmd.Remind: turns.remind,
    cmd.Expire: lobby.expire,
    cmd.ShowHand: people.show_hand,
    cmd.HandsBack: people.hand_back,
    cmd.ShowTable: people.show_table,
    cmd.ShowSheet: people.show_sheet,
    cmd.SendHistory: people.send_history,
    cmd.Repost: people.repost,
    cmd.Seen: people.back_after_blocking,
    cmd.Forbidden: people.blocked,
    cmd.ChatClosed: lobby.close_hidden_lobby,
    cmd.ChatOpened: people.repost,
    cmd.TopicReopened: people.repost,
    cmd.ChatMoved: people.repost,
    cmd.EndAbandoned: lobby.abandon,
}
"""Each command type → the decision the pipeline calls for it (``bot.pipeline``: the service, its people and
its timers)."""


def command_types() -> set[type[Command]]:
    return {
        value
        for value in vars(cmd).values()
        if inspect.isclass(value)
        and issubclass(value, Command)
        and value is not Command
        and value.__module__ == cmd.__name__
    }


@functools.cache
def called_in_tests() -> frozenset[tuple[str, str]]:
    """Every ``module.function(...)`` call written in this folder's tests."""
    calls: set[tuple[str, str]] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
            ):
                calls.add((node.func.value.id, node.func.attr))
    return frozenset(calls)


def test_every_command_type_has_its_decision_in_the_table() -> None:
    assert set(DECISIONS) == command_types()


COMMANDS = sorted(DECISIONS, key=lambda c: c.__name__)


@pytest.mark.parametrize("command", COMMANDS, ids=[c.__name__ for c in COMMANDS])
def test_every_commands_decision_is_called_by_a_test(command: type[Command]) -> None:
    decision = DECISIONS[command]
    module, name = decision.__module__.rsplit(".", 1)[-1], getattr(decision, "__name__", "")
    assert (module, name) in called_in_tests(), f"no test calls {module}.{name}"


@pytest.mark.parametrize(
    ("decision", "answer"),
    [
        (lambda: lobby.join(cmd.Join(GAME_ID, BORIS), in_lobby(ANNA), True), cmd.Join.answer),
        (
            lambda: lobby.leave_lobby(cmd.LeaveLobby(GAME_ID, BORIS), in_lobby(ANNA, BORIS)),
            cmd.LeaveLobby.answer,
        ),
        (lambda: lobby.add_bot(cmd.AddBot(GAME_ID, ANNA, "easy"), in_lobby(ANNA)), cmd.AddBot.answer),
        (
            lambda: lobby.set_option(cmd.SetOption(GAME_ID, ANNA, "target", "11"), in_lobby(ANNA)),
            cmd.SetOption.answer,
        ),
        (lambda: lobby.cancel(cmd.Cancel(ANNA, GAME_ID), in_lobby(ANNA), None, NOW), cmd.Cancel.answer),
    ],
    ids=["join", "leave", "add_bot", "set_option", "cancel"],
)
def test_a_press_is_answered_as_its_command_says(decision: Callable[[], object], answer: Answer) -> None:
    result = decision()
    assert isinstance(result, Decided) and result.answer is answer is not None


def test_a_move_is_answered_by_the_hand_it_changes_not_by_words() -> None:
    game = group_party(ANNA, BORIS)
    result = moves.pick(cmd.Pick(GAME_ID, ANNA, 0, "Kd"), game, NOW, CONFIG)
    assert isinstance(result, Decided) and result.answer is None and cmd.Pick.answer is None


def test_taking_a_seat_back_is_answered_by_the_notice_it_sends_not_by_a_toast_too() -> None:
    game = replaced(group_party(ANNA, BORIS), ANNA)
    result = moves.take_seat(cmd.TakeSeat(GAME_ID, ANNA), game, NOW, CONFIG)
    assert isinstance(result, Decided) and result.answer is None and cmd.TakeSeat.answer is None


def test_the_engines_refusal_keeps_its_reason_its_details_and_itself() -> None:
    error = IllegalActionError(CommonIllegal.NOT_IN_HAND, "8♥ is not in the hand", card="8h")
    assert Refusal.of(error) == Refusal(CommonIllegal.NOT_IN_HAND, {"card": "8h"}, error)
