"""Chatter in a group does not hold up its game or its other members (issue 51, point 5): the game's own messages
go ahead of the answers to members' commands in the group's 20 a minute, and the members who ask are answered in
turn, so a few members asking again and again slow down themselves, not the party's table or someone else's
question.

In-process, on the test's clock (seconds below are the bot's clock): a two-player party moves every few seconds
while members ask. The figures are printed (``-rP``): the table waited up to 24.1 s behind three members'
``/rules`` before the members' answers went behind the games, 13.8 s while an answer held back by its share kept
the group from being looked at again when the table came due; 5.0 s now (the table's own pace).

A member whose answer waits its turn is told so once: the bot's reaction on the message that asked (no message of
the group's 20 a minute is spent on it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.bot.conftest import BotRunner, Running, start_party, take_turn, turn_message
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.fakebot.server import ApiError, Params

TABLE_WAIT = 7.0
"""Clock seconds a move may wait to show on the group's table: the table is paced (one edit in 5 s) and a group
takes one message a second (24.1 s before the answers went behind the games, 13.8 s before the group was looked at
again when its table came due, 5.0 s after)."""
ANSWER_WAIT = 15.0
"""Clock seconds a member's first question may wait for its answer while others chatter (13.1 s at most before
the answers went behind the games, 12.9 s after, 14.4 s with the table at its own pace: a guard that the table's
place is not taken from the members)."""
CROWD_TABLE_WAIT = 7.0
"""Clock seconds a move may wait to show on the table while forty members' answers wait their turn (40.8 s at this
branch's start, 12.5 s before the answers left a changing table its places, 5.0 s after)."""
COMING = ("👀",)
"""The bot's reaction on a question whose answer waits."""
COMING_AFTER = 3.0
"""Clock seconds an answer waits before its question is marked as coming."""


@dataclass
class GroupCalls:
    """The bot's sends and edits into one group, each with the clock time it was made at."""

    tg: FakeTelegram
    chat_id: int
    made: list[tuple[float, dict[str, str | None]]] = field(default_factory=list)

    def on_call(self, method: str, params: Params, result: object, error: ApiError | None, at: float) -> None:
        if error is None and params.chat_id == self.chat_id and method.startswith(("send", "edit")):
            assert self.tg.driver is not None
            self.made.append((self.tg.driver.clock.now(), {k: params.str_(k) for k in params.raw}))

    def on_update(self, update: object, at: float) -> None:
        pass

    def first(self, since: float, shows: Callable[[dict[str, str | None]], bool]) -> float | None:
        """The clock time of the first call since ``since`` that ``shows`` something."""
        return next((t for t, params in self.made if t >= since and shows(params)), None)


def table_of(game: str) -> Callable[[dict[str, str | None]], bool]:
    """A call that shows the game's table (its buttons name the game)."""
    return lambda params: f":{game}:" in (params.get("reply_markup") or "")


def stats_of(user: FakeUser) -> Callable[[dict[str, str | None]], bool]:
    return lambda params: f"Статистика: {user.full_name}" in (params.get("text") or "")


def is_end(params: dict[str, str | None]) -> bool:
    """A call that shows the party's result."""
    return "Партия окончена" in (params.get("text") or params.get("caption") or "")


def is_rules(params: dict[str, str | None]) -> bool:
    """A send of a rules message (a member's ``/rules`` answered)."""
    return (params.get("text") or "").startswith("📖") and "message_id" not in params


@dataclass
class Group:
    tg: FakeTelegram
    running: Running
    group: FakeChat
    calls: GroupCalls
    game: str
    players: list[FakeUser]

    def now(self) -> float:
        return self.running.app.clock.now()

    async def sleep(self, seconds: float) -> None:
        await self.tg.sleep(self.running.app.clock.real(seconds))

    async def waited(self, since: float, shows: Callable[[dict[str, str | None]], bool], what: str) -> float:
        """Clock seconds from ``since`` until a call shows ``what`` (waited for, a minute and a half at most)."""
        await self.tg.wait_for(lambda: self.calls.first(since, shows) is not None, timeout=3, what=what)
        shown = self.calls.first(since, shows)
        assert shown is not None
        return shown - since

    def sent(self, since: float, shows: Callable[[dict[str, str | None]], bool]) -> list[float]:
        """The clock times of the calls since ``since`` that ``shows`` something."""
        return [t for t, params in self.calls.made if t >= since and shows(params)]

    async def play(self, until: float, waits: list[float], done: Callable[[], bool] = lambda: False) -> None:
        """The players move, one move every 3 s, until ``until``, ``done()`` or the party's end: how long each move
        took to show on the table."""
        while self.now() < until and not done():
            mover = next((u for u in self.players if turn_message(u) is not None), None)
            if mover is None:
                await self.sleep(0.5)
                continue
            await self.sleep(3.0)
            moved = self.now()
            await take_turn(self.tg, mover)
            await self.waited(moved, lambda p: table_of(self.game)(p) or is_end(p), "the move on the table")
            if self.calls.first(moved, is_end) is not None:
                return  # the party's last move: its result, not the table
            waits.append(await self.waited(moved, table_of(self.game), "the move on the table"))


async def group_with_party(
    tg: FakeTelegram, bot_runner: BotRunner, members: list[str]
) -> tuple[Group, list[FakeUser]]:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    others = [tg.add_user(name) for name in members]
    group = tg.add_group("Друзья", [anna, boris, *others], admins=[anna])
    calls = GroupCalls(tg, group.id)
    tg.observer = calls
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    return Group(tg, running, group, calls, game, [anna, boris]), others


async def test_three_members_asking_again_and_again_hold_up_neither_the_table_nor_another_member(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    party, members = await group_with_party(tg, bot_runner, ["Глеб", "Дима", "Егор", "Вера", "Жанна", "Зоя"])
    chatters, askers = members[:3], members[3:]
    end = party.now() + 100

    async def chatter(user: FakeUser, offset: float) -> None:
        await party.sleep(offset)
        while party.now() < end:
            await user.send(party.group, "/rules")
            await party.sleep(3.4)

    answers: list[float] = []

    async def ask() -> None:
        for user in askers:  # each asks once, 25 s apart, while the chatter goes on
            await party.sleep(25)
            asked = party.now()
            await user.send(party.group, "/stats")
            answers.append(await party.waited(asked, stats_of(user), f"{user.full_name}'s /stats"))

    table: list[float] = []
    await asyncio.gather(
        *(chatter(u, 1.1 * i) for i, u in enumerate(chatters)), party.play(end, table), ask()
    )
    print(
        f"3 members /rules every 3.4 s: the table waited {max(table):.1f} s at most ({len(table)} moves), "
        f"another member's /stats {', '.join(f'{a:.1f}' for a in answers)} s"
    )
    assert max(table) <= TABLE_WAIT, table
    assert max(answers) <= ANSWER_WAIT, answers


async def test_members_whose_answers_wait_are_each_told_once_that_they_come(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """A waiting command tells its asker once (issue 51, point 5): twelve members send one ``/rules`` each at once
    while a party runs. Those whose answers wait their turn more than a few seconds are marked as coming — the
    bot's reaction on their ``/rules``, which takes none of the group's 20 messages a minute — once, however long
    the answer waits, and nothing is said in the chat about it."""
    party, members = await group_with_party(tg, bot_runner, [f"Участник {i}" for i in range(12)])
    start = party.now()
    asked = [await user.send(party.group, "/rules") for user in members]

    def answered() -> bool:
        return len(party.sent(start, is_rules)) >= len(members)

    await party.play(start + 600, [], answered)
    await tg.wait_for(answered, timeout=30, what="an answer to each")
    await party.sleep(60)  # a minute more: no question is marked again
    answers = party.sent(start, is_rules)
    marked = [m for m in asked if m.reactions]
    late = sum(t - start > COMING_AFTER + 1 for t in answers)
    print(
        f"12 members /rules at once: the last answer after {max(answers) - start:.1f} s, {late} answers later than "
        f"{COMING_AFTER + 1:g} s, {len(marked)} questions marked as coming"
    )
    assert len(answers) == len(members), "one answer each"
    assert late > 0, "some answers wait their turn"
    assert len(marked) >= late, "each asker whose answer waits is told"
    assert all(m.reactions == [COMING] for m in marked), [m.reactions for m in marked]
    assert len(marked) <= sum(t - start >= COMING_AFTER - 1 for t in answers), "only those who waited"
    assert not any(m.is_from_bot and m.text == "Секунду…" for m in party.group.messages.values())


async def test_forty_members_asking_once_each_hold_up_no_table_and_each_is_told_once_that_the_answer_comes(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 51, point 5: forty members send one ``/rules`` each (one every half second) while a party runs. The
    table keeps its pace; the answers go in the places the games leave, in turn; each asker whose answer waits is
    told once — the bot's reaction on their ``/rules`` — and never again however long it waits."""
    party, members = await group_with_party(tg, bot_runner, [f"Участник {i}" for i in range(40)])
    start = party.now()
    asked: list[FakeMessage] = []

    async def ask() -> None:
        for user in members:
            asked.append(await user.send(party.group, "/rules"))
            await party.sleep(0.5)

    def answered() -> bool:
        return len(party.sent(start, is_rules)) >= len(members)

    table: list[float] = []
    await asyncio.gather(ask(), party.play(start + 900, table, answered))
    await tg.wait_for(answered, timeout=30, what="an answer to each")
    await party.sleep(60)  # a minute more: no question is marked again
    last = max(party.sent(start, is_rules)) - start
    marked = [m for m in asked if m.reactions]
    print(
        f"40 members /rules once each: the table waited {max(table):.1f} s at most ({len(table)} moves), the last "
        f"answer came {last:.1f} s after the first question; {len(marked)} questions marked as coming"
    )
    assert max(table) <= CROWD_TABLE_WAIT, table
    assert len(party.sent(start, is_rules)) == len(members), "one answer each"
    assert all(m.reactions == [COMING] for m in marked), [m.reactions for m in marked]
    assert len(marked) >= len(members) - 10, "those whose answers waited are told"
    assert not any(m.is_from_bot and m.text == "Секунду…" for m in party.group.messages.values())
