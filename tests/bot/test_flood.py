"""Incoming throttling: a burst of commands or presses gets a few answers (the waiting ones marked as coming, a
press «Секунду…»), not one each.

The bot's clock runs at ``CLOCK_SPEED``: its windows are a tenth of the production ones in real seconds (a press
window of 0.3 s, a group's command window of 3 s), still far longer than a burst takes to arrive (a few
milliseconds: a burst of presses comes in one ``getUpdates``), and its answers are paced ten times faster than at
real speed. The fake Bot API keeps its accelerated limits, which only makes it more permissive.
"""

from __future__ import annotations

import asyncio

from bot.callbacks import RulesCb
from bot.guards.throttle import MAX_WAIT, Kind, Rate, ThrottleLimits, Windows
from tests.bot.conftest import BotRunner
from tests.fakebot import FakeTelegram

TOO_FAST = "Секунду…"
TOO_MANY = "Слишком много вопросов подряд — на этот я не отвечу. Задайте его снова через полминуты."
LIMITS = ThrottleLimits()
CLOCK_SPEED = 10.0
QUIET = 0.5
"""Real seconds without a call after which the bot has answered the burst (its pace: a call a clock second)."""


async def test_a_burst_of_commands_in_a_group_waits_its_turn_twins_merge_and_only_the_fourth_is_refused(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(clock_speed=CLOCK_SPEED)
    users = [tg.add_user(name) for name in ("Аня", "Борис", "Вера")]
    group = tg.add_group("Друзья", users, admins=users[:1])
    asked = {
        (command, user.first_name): await user.send(group, command)
        for command in ("/stats", "/help", "/top", "/score")
        for user in users
    }
    # The three /stats (their askers' first) and two /help fill the group's window (five in 30 s) and are
    # answered at once; Вера's /help and Аня's /top wait for the window, Борис's and Вера's /top are answered by
    # Аня's (the same question, the same answer), and each one's fourth command in 10 s is refused. The waiting
    # ones are marked as coming at once (the bot's reaction: no message of the group's minute).
    waiting = [asked["/help", "Вера"], *(asked["/top", user.first_name] for user in users)]
    await tg.wait_for(
        lambda: all(m.reactions for m in waiting), timeout=5, what="the waiting questions marked as coming"
    )
    window = LIMITS.command_per_group.seconds / CLOCK_SPEED
    await tg.wait_for(
        lambda: sum("/konchinka" in m.text for m in group.bot_messages()) == 3,
        timeout=window + 10,
        what="the waiting /help answered",
    )
    await tg.settle(quiet=QUIET, timeout=30)
    answers = [m.text for m in group.bot_messages() if m.text != TOO_MANY]
    assert len(answers) == 7, answers
    assert sum(text.startswith("📊 Статистика") for text in answers) == 3
    assert sum("/konchinka" in text for text in answers) == 3
    assert sum(text.startswith("В этом чате ещё не доиграли") for text in answers) == 1, "/top answered once"
    assert all(m.reactions == [("👀",)] for m in waiting), "each waiting question marked once"
    assert not any(asked["/score", user.first_name].reactions for user in users), "refused: not marked"
    await tg.sleep(running.app.clock.real(LIMITS.command_per_user.seconds))  # the spammers' window is over
    await users[0].send(group, "/help")
    await tg.settle(quiet=QUIET, timeout=30)
    said = [m for m in group.messages.values() if m.is_from_bot and m.text in (TOO_FAST, TOO_MANY)]
    assert len(said) == 1 and said[0].text == TOO_MANY, "one note, to the spammers, and no «Секунду…»"
    assert said[0].is_deleted, "the note goes after its window"


async def test_a_command_waiting_for_the_groups_window_is_answered_not_refused(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 8: a person who did not flood (a /stats 3 s after the group's busy minute) is answered."""
    running = await bot_runner(clock_speed=CLOCK_SPEED)
    people = [tg.add_user(name) for name in ("Аня", "Борис", "Вера", "Глеб", "Дима")]
    group = tg.add_group("Друзья", people, admins=people[:1])
    for user in people:  # five first commands: the group's window is full, nobody waited
        await user.send(group, "/help")
    await tg.sleep(running.app.clock.real(3.0))  # three seconds of the bot's clock
    await people[0].send(group, "/stats")  # Аня's second command in 10 s: within her own window
    await tg.wait_for(
        lambda: any(m.text.startswith("📊") and "Аня" in m.text for m in group.bot_messages()),
        timeout=LIMITS.command_per_group.seconds / CLOCK_SPEED + 10,
        what="Аня's /stats answered after the wait",
    )
    await tg.settle(quiet=QUIET, timeout=30)
    assert all(m.text not in (TOO_FAST, TOO_MANY) for m in group.bot_messages())


async def test_one_person_spamming_a_command_in_private_is_answered_in_turn_then_told_to_wait(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(clock_speed=CLOCK_SPEED)
    anna = tg.add_user("Аня")
    for _ in range(10):
        await anna.send_private("/stats")
    await tg.wait_for(lambda: len(anna.private_chat.bot_messages()) >= 10, timeout=30, what="ten answers")
    await tg.settle(quiet=MAX_WAIT / CLOCK_SPEED + QUIET, timeout=30)
    answers = [m.text for m in anna.private_chat.visible_messages() if m.is_from_bot]
    # Three at once, three a window later, three two windows later; the tenth would wait longer than MAX_WAIT.
    rate = LIMITS.command_per_user
    assert rate.count * (int(MAX_WAIT // rate.seconds) + 1) == 9
    assert answers.count(TOO_MANY) == 1
    assert answers.count(TOO_FAST) == 0
    assert len(answers) == 9 + 1


async def test_a_burst_of_presses_is_answered_too_fast_beyond_the_limit(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(clock_speed=CLOCK_SPEED)
    anna = tg.add_user("Аня")
    await anna.send_private("/rules")
    await tg.wait_for(lambda: anna.private_chat.last_bot_message() is not None, what="the rules")
    rules = anna.private_chat.last_bot_message()
    assert rules is not None
    sections = [
        b.callback_data
        for b in rules.flat_buttons
        if b.callback_data and b.callback_data.startswith(f"{RulesCb.__prefix__}:")
    ]
    assert sections
    presses = [anna.press(rules, data=sections[i % len(sections)], force=True) for i in range(15)]
    answers = await asyncio.gather(*presses)
    assert all(a.answered for a in answers)
    refused = [a for a in answers if a.text == TOO_FAST]
    assert len(refused) == 15 - LIMITS.press_per_user.count


def test_windows_let_rate_count_events_through_and_forget_idle_keys() -> None:
    windows = Windows()
    rate = Rate(2, 10.0)
    key = (Kind.PRESS_USER, 1)
    for now in (0.0, 1.0):
        assert windows.has_room(key, rate, now)
        windows.take(key, rate, now)
    assert not windows.has_room(key, rate, 5.0)
    assert windows.has_room(key, rate, 10.5)  # the first event left the window
    for user in range(2, 1000):
        windows.take((Kind.PRESS_USER, user), rate, 20.0)
    assert len(windows) == 999
    windows.sweep(100.0)
    assert len(windows) == 0


def test_a_reserved_window_lets_events_wait_in_turn_up_to_the_longest_wait() -> None:
    windows = Windows()
    rate = Rate(2, 10.0)
    key = (Kind.COMMAND_USER, 1)
    assert [windows.reserve(key, rate, 0.0, 15.0) for _ in range(5)] == [0.0, 0.0, 10.0, 10.0, None]
    assert windows.reserve(key, rate, 12.0, 15.0) == 20.0


async def test_two_people_spamming_in_private_never_get_a_third_persons_first_question_refused(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """The private queue is capped per person: two people pasting a dozen commands each fill their own queues,
    their waiting questions hold no place among the updates in flight, and a third person's /start is answered."""
    running = await bot_runner(clock_speed=CLOCK_SPEED)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    for _ in range(12):
        await anna.send_private("/stats")
        await boris.send_private("/stats")
    await tg.wait_for(lambda: running.app.throttle.waiting >= 8, what="the questions waiting their turn")
    assert running.app.guards.in_flight.in_flight < running.app.throttle.waiting
    await vera.send_private("/start")
    await tg.wait_for(lambda: vera.private_chat.bot_messages(), what="an answer to Vera")
    await tg.settle(quiet=MAX_WAIT / CLOCK_SPEED + QUIET, timeout=30)
    assert TOO_MANY not in [m.text for m in vera.private_chat.visible_messages()]
    for spammer in (anna, boris):  # each still gets their window's worth of answers, and one word to wait
        answers = [m.text for m in spammer.private_chat.visible_messages() if m.is_from_bot]
        assert answers.count(TOO_MANY) == 1 and len(answers) == 9 + 1
