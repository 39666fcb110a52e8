"""Fair throttling (issue 27, point 4; issue 21, point 3): one member who spams a command is slowed down alone;
everyone else's commands are answered. The group's own window only stops a flood by many people, and never
silences someone who has sent nothing. In private, questions asked one after another all get answers.

The waits below are seconds of the bot's clock. In-process the bot and the fake Bot API share the test's manual
clock; over HTTP the bot's clock runs 10 times faster than real time, so its windows (counted on that clock) pass
in a tenth of the time, and the fake Bot API's limits run faster still. (Drafted on branch «faults».)"""

from __future__ import annotations

import asyncio

from tests.bot.conftest import BotRunner, Running
from tests.fakebot import FakeTelegram

SPEED = 10.0


async def _clock_sleep(tg: FakeTelegram, running: Running, seconds: float) -> None:
    """``seconds`` of the bot's clock: real seconds at ``SPEED`` over HTTP; in-process, the manual clock's."""
    await tg.sleep(running.app.clock.real(seconds))


async def test_one_member_spamming_help_silences_nobody_else(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    running = await bot_runner(clock_speed=SPEED)
    spammer = tg.add_user("Глеб")
    others = [tg.add_user(name) for name in ("Аня", "Борис", "Вера", "Дима", "Егор", "Жанна")]
    group = tg.add_group("Друзья", [spammer, *others], admins=others[:1])

    async def spam() -> None:
        for _ in range(40):  # /help once a second for 40 s
            await spammer.send(group, "/help")
            await _clock_sleep(tg, running, 1.0)

    async def ask() -> None:
        for user in others:  # each of the others asks for their stats once, 5 s apart, while the spam goes on
            await _clock_sleep(tg, running, 5.0)
            await user.send(group, "/stats")

    await asyncio.gather(spam(), ask())
    await tg.wait_for(
        lambda: all(
            f"Статистика: {u.full_name}" in "\n".join(m.text for m in group.bot_messages()) for u in others
        ),
        timeout=60,
        what="an answer to each",
    )
    await tg.settle(quiet=1.0, timeout=60)
    answers = [m.text for m in group.bot_messages()]
    for user in others:
        assert f"Статистика: {user.full_name}" in "\n".join(answers), (
            f"{user.full_name}'s /stats went unanswered"
        )
    helps = sum(1 for text in answers if "/konchinka" in text)
    assert helps <= 13, f"the spammer got {helps} answers to 40 /help in 40 s"


async def test_a_flood_by_many_members_is_held_back_but_each_gets_an_answer(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(clock_speed=SPEED)
    people = [tg.add_user(f"Участник {i}") for i in range(12)]
    group = tg.add_group("Толпа", people, admins=people[:1])
    asked = []
    for _ in range(3):  # everyone sends /stats three times at once
        for user in people:
            asked.append(await user.send(group, "/stats"))
    await tg.wait_for(
        lambda: all(
            f"Статистика: {u.full_name}" in "\n".join(m.text for m in group.bot_messages()) for u in people
        ),
        timeout=60,
        what="an answer to each",
    )
    await tg.settle(quiet=1.0, timeout=60)
    answers = [m.text for m in group.bot_messages() if m.text.startswith("📊")]
    for user in people:
        assert f"Статистика: {user.full_name}" in "\n".join(answers), f"{user.full_name} got no answer"
    assert len(answers) == len(people) + 2 * 5, "a flood by many people is held back"
    # The second /stats of ten waits for the group's window (five answers in 30 s, for two windows at most), and the
    # third is the same question waiting already: each is marked as coming, once, and no note takes a message. The
    # last two people's are refused (a note says so): not marked.
    waited = [m for m in asked[len(people) :] if m.sender in people[:10]]
    assert all(m.reactions == [("👀",)] for m in waited), [m.reactions for m in waited]
    assert not any(m.reactions for m in asked[len(people) :] if m not in waited)
    assert all(len(m.reactions) <= 1 for m in asked)
    assert not any(m.is_from_bot and m.text == "Секунду…" for m in group.messages.values())


async def test_five_rules_questions_in_ten_seconds_in_private_get_five_answers(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(clock_speed=SPEED)
    anna = tg.add_user("Аня")
    questions = ["ералаш", "сколько карт сдают", "валет", "кончинка", "взятка"]
    for words in questions:
        await anna.send_private(f"/rules {words}")
        await _clock_sleep(tg, running, 2.0)
    await tg.wait_for(lambda: len(anna.private_chat.bot_messages()) >= 5, timeout=30, what="five answers")
    await tg.settle(quiet=1.0, timeout=30)
    answers = [m.text for m in anna.private_chat.bot_messages()]
    assert len(answers) == 5
    assert not any(text.startswith(("Секунду", "Слишком много")) for text in answers), answers
