"""Reading a whole party as its players do: every send, edit and delete the fake Telegram received, in order.

A 3-player group Кончинка party (one turn left to its reminder, one to the timer) and a solo Кинг game are played
to the end; then what people saw is checked: short private turn messages, no edit that only moves a clock,
every reminder gone, the party's end in every private chat, each Кинг deal's result before the next deal, and
the message calls a move costs.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.storage import repo
from tests.bot.conftest import (
    BotRunner,
    game_row,
    has_rematch,
    lobby_of,
    move_buttons,
    open_king_lobby,
    start_party,
    start_solo_king,
    take_turn,
    turn_message,
)
from tests.bot.test_e2e_king import Table
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram
from tests.fakebot.server import ApiError, Params

CALLS_PER_MOVE = 5.5
"""What a move may cost in message calls here, where people answer at once: a send for the next player's «ваш
ход», the mover's hand stripped of its moves, the first tap (every card takes two taps: 3.25 a move before,
4.96 after), a share of the group table's paced edits (at most one a move) and of the batched deletions of old
hands, and the deal's and party's notices (each player's own too). Waiting hands do not change on others'
moves. The figure is printed."""
MESSAGE_METHODS = ("sendMessage", "editMessageText", "deleteMessage", "deleteMessages")
CLOCK = re.compile(r"\d+:\d\d")
REMINDER = "ваш ход! Осталось"
DEAL = re.compile(r"(?:[Рр]аздача|Кинг ·) (\d+)/15")
"""A Кинг message's deal: the table's «раздача 3/15», the hand's «👑 Кинг · 3/15», the result's «Раздача 3/15»."""


@dataclass
class Call:
    method: str
    chat_id: int
    message_ids: list[int]
    text: str


@dataclass
class Recorder:
    """Every successful message call, in the order Telegram took them."""

    calls: list[Call] = field(default_factory=list)

    def on_call(self, method: str, params: Params, result: Any, error: ApiError | None, at: float) -> None:
        if error is not None or method not in MESSAGE_METHODS:
            return
        raw = params.raw
        ids: list[int] = []
        if isinstance(result, dict) and "message_id" in result:
            ids = [int(result["message_id"])]
        elif "message_id" in raw:
            ids = [int(raw["message_id"])]
        elif "message_ids" in raw:
            value = raw["message_ids"]
            ids = [int(i) for i in (value if isinstance(value, list) else json.loads(value))]
        self.calls.append(Call(method, int(raw.get("chat_id", 0)), ids, str(raw.get("text", ""))))

    def on_update(self, update: Any, at: float) -> None:
        return None

    def deleted(self, chat_id: int) -> set[int]:
        return {
            i
            for c in self.calls
            if c.chat_id == chat_id and c.method.startswith("delete")
            for i in c.message_ids
        }


def ever_sent(chat: FakeChat) -> list[FakeMessage]:
    """Every message the bot sent to ``chat``, deleted ones too, oldest first."""
    return [m for m in chat.messages.values() if m.is_from_bot]


def lines_above_buttons(chat: FakeChat) -> int:
    """The most lines any version of a private message with move buttons had."""
    most = 0
    for message in ever_sent(chat):
        for version in message.history:
            rows = (version.reply_markup or {}).get("inline_keyboard") or []
            data = [b.get("callback_data") or "" for row in rows for b in row]
            if any(d.startswith(("m:", "p:")) for d in data):
                most = max(most, len(version.text.split("\n")))
    return most


def clock_only_edits(chats: list[FakeChat]) -> list[tuple[str, str]]:
    """Consecutive versions of one message whose texts differ only in a «m:ss»."""
    found = []
    for chat in chats:
        for message in ever_sent(chat):
            for old, new in zip(message.history, message.history[1:], strict=False):
                if old.text != new.text and CLOCK.sub("#", old.text) == CLOCK.sub("#", new.text):
                    found.append((old.text, new.text))
    return found


@pytest.mark.long
async def test_a_group_konchinka_party_read_as_its_players_read_it(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    recorder = Recorder()
    tg.observer = recorder
    running = await bot_runner(turn_timeout=30, bot_delay=0.5)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    people = [anna, boris, vera]
    group = tg.add_group("Друзья", people, admins=[anna])
    game = await start_party(tg, group, anna, people)
    await tg.wait_for(lambda: any(turn_message(u) for u in people), what="a turn")
    started = len(recorder.calls)

    def finished() -> bool:
        return has_rematch(group.visible_messages())

    async def wait_out(what: str, until: Any) -> None:
        await tg.wait_for(until, timeout=20, what=what)

    made = 0
    waited_reminder = waited_timer = False
    deadline = tg.monotonic() + 90
    while not finished():
        assert tg.monotonic() < deadline, f"the party did not finish ({made} moves)"
        mover = next((u for u in people if turn_message(u) is not None), None)
        if mover is None:
            await tg.sleep(0.01)
            continue
        chat = mover.private_chat
        if made == 4 and not waited_reminder:
            waited_reminder = True
            await wait_out("a reminder", lambda c=chat: any(REMINDER in m.text for m in c.bot_messages()))
        elif made == 9 and not waited_timer:
            # The turn message must be the current one (a hand a move just made stale is edited soon).
            version = (await game_row(running, game)).version
            message = turn_message(mover)
            if message is None or not any(d.split(":")[2] == str(version) for d in move_buttons(message)):
                await tg.sleep(0.01)
                continue
            waited_timer = True
            while (await game_row(running, game)).version == version:
                assert tg.monotonic() < deadline, "the timer did not play for the player"
                await tg.sleep(0.05)
            continue
        if await take_turn(tg, mover, pick=made):
            made += 1
    await tg.settle()
    await tg.finish(running.app.outbox.drain())
    await tg.settle()

    row = await game_row(running, game)
    calls = recorder.calls[started:]
    per_move = len(calls) / row.version
    kinds = Counter((c.method, "group" if c.chat_id < 0 else "private") for c in calls)
    print(
        f"\nmessage calls per move: {per_move:.2f} ({len(calls)} calls, {row.version} moves): {dict(kinds)}"
    )

    for user in people:
        assert lines_above_buttons(user.private_chat) <= 6, user.full_name
    assert clock_only_edits([group, *[u.private_chat for u in people]]) == []
    for user in people:
        chat = user.private_chat
        reminders = [m for m in ever_sent(chat) if REMINDER in m.history[0].text]
        # Gone, if not at once then with the chat's next clean-up (an old message waits at most LAZY_AGE of the
        # clock; on a busy machine the party's end can come before the reminder's batch is due).
        await wait_out(
            f"{user.full_name}'s reminders deleted",
            lambda r=reminders, c=chat: all(m.message_id in recorder.deleted(c.id) for m in r),
        )
    assert waited_reminder and any(
        REMINDER in m.history[0].text for u in people for m in ever_sent(u.private_chat)
    )
    end = next(m for m in reversed(group.bot_messages()) if has_rematch([m]))
    title = end.text.split("\n")[0]
    for user in people:
        ends = [m for m in user.private_chat.visible_messages() if m.text.split("\n")[0] == title]
        assert ends and has_rematch(ends), user.full_name
    assert any("сыграл бот" in v.text for m in group.bot_messages() for v in m.history)
    assert per_move <= CALLS_PER_MOVE


@pytest.mark.long
async def test_a_solo_king_game_read_as_its_player_reads_it(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    recorder = Recorder()
    tg.observer = recorder
    running = await bot_runner(bot_delay=0.05)
    vera = tg.add_user("Вера")
    chat = vera.private_chat
    await start_solo_king(tg, vera)
    await tg.wait_for(lambda: turn_message(vera) is not None, what="the first turn")
    async with running.app.db.tx() as tx:
        game = await repo.active_game_in_chat(tx, vera.id, 0)
    assert game is not None
    await Table(tg, running, str(game.id), [vera], refusals=0).play(chat)
    await tg.settle()

    assert 0 < lines_above_buttons(chat) <= 15
    assert clock_only_edits([chat]) == []
    assert deals_in_order(recorder, {chat.id}) == set(range(1, 16))


def deals_in_order(recorder: Recorder, chats: set[int]) -> set[int]:
    """The Кинг deals whose result was sent, checking that nothing of a deal reached any of ``chats`` before the
    previous deal's result did."""
    ended: set[int] = set()
    for call in recorder.calls:
        if call.chat_id not in chats or call.method not in ("sendMessage", "editMessageText"):
            continue
        deal = DEAL.search(call.text)
        if deal is None:
            continue
        number = int(deal.group(1))
        if "окончена" in call.text:
            ended.add(number)
        elif number > 1:
            assert number - 1 in ended, f"deal {number} shown before the result of deal {number - 1}"
    return ended


@pytest.mark.long
async def test_a_group_king_party_shows_each_deals_result_before_the_next_deal(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    recorder = Recorder()
    tg.observer = recorder
    running = await bot_runner(bot_delay=0.05)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_king_lobby(tg, group, anna, [anna, boris])
    answer = await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.answered and not answer.text
    await Table(tg, running, game, [anna, boris], refusals=0).play(group)
    await tg.settle()

    chats = {group.id, anna.id, boris.id}
    assert deals_in_order(recorder, chats) == set(range(1, 16))
    for user in (anna, boris):
        assert lines_above_buttons(user.private_chat) <= 6, user.full_name
        assert any("Итоги" in m.text for m in user.private_chat.visible_messages()), user.full_name
    assert clock_only_edits([group, anna.private_chat, boris.private_chat]) == []
