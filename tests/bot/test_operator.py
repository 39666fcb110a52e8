"""The operators' view, in-process through the real dispatcher and the fake Bot API: ``/admin``, failures
reported to the operators' chat (once per place and while, not once per press), the outbox's backlog, and the
live messages of long-finished games forgotten."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.games import is_hosted, plugin_of, rules_library
from bot.i18n import Locale, translator
from bot.model.game import GameStatus
from bot.storage import Batch, Database
from bot.storage import repo as stored
from bot.version import version
from bot.views.chats import render_menu
from engine.ai import backends
from tests.bot.conftest import BotRunner, game_row, open_lobby, plain, two_player_party
from tests.fakebot import FakeTelegram
from tests.fakebot.models import FakeChat, FakeMessage
from tests.test_release import head_commit

RU = translator(Locale.RU)


async def _newer(tg: FakeTelegram, chat: FakeChat, after: int) -> FakeMessage:
    def newer() -> list[FakeMessage]:
        return [m for m in chat.bot_messages() if m.message_id > after]

    await tg.wait_for(lambda: newer(), what="the bot's answer")
    return newer()[0]


async def test_admin_from_a_non_admin_is_an_unknown_command_and_from_an_admin_shows_the_figures(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    olga = tg.add_user("Ольга")
    pavel = tg.add_user("Павел")
    await bot_runner(admin_ids=str(olga.id))
    group = tg.add_group("Клуб", [olga, pavel])
    await open_lobby(tg, group, pavel, [])

    # For anyone else /admin does not exist: answered as any unknown command (the menu), nothing of the figures.
    asked = await pavel.send_private("/admin")
    answer = await _newer(tg, pavel.private_chat, asked.message_id)
    assert answer.text == plain(render_menu(RU, tg.bot_username, rules_library().first.id).text)

    asked = await olga.send_private("/admin")
    answer = await _newer(tg, olga.private_chat, asked.message_id)
    lines = answer.text.splitlines()
    assert lines[0].startswith(
        f"🛠 @{tg.bot_username}, версия {version()} (коммит {head_commit()}), работает "
    )
    assert lines[1] == "Идут игры: Кончинка — 1 (всего 1)"
    assert lines[2] == "Людей за сегодня: 2"
    assert lines[3].startswith("Вызовов Bot API в секунду (за минуту): ")
    assert float(lines[3].rsplit(" ", 1)[1]) > 0
    assert lines[4].startswith("Вызовов в очереди: ")
    assert lines[5] == "Сбоев за час: 0"
    ru = translator(Locale.RU)
    paths = {"c": "компилированное ядро", "python": "чистый Python (слабее)"}
    hosted = [(plugin_of(game).name(ru), backend) for game, backend in backends().items() if is_hosted(game)]
    assert {"Кончинка", "Кинг"} <= {name for name, _ in hosted}
    masters = ", ".join(f"{name} — {paths[backend]}" for name, backend in hosted)
    assert lines[6] == f"«Мастер»: {masters}", "every hosted game's «мастер», and how it thinks"


async def test_a_failing_handler_reaches_the_operators_chat_once_not_once_per_press(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    olga = tg.add_user("Ольга")
    pavel = tg.add_user("Павел")
    await olga.send_private("/start")
    running = await bot_runner(admin_ids=str(olga.id), admin_chat_id=olga.id)
    await tg.settle()

    # A feature with a bug: what the bot does with any exception a handler raises is what is tested.
    broken = Router(name="broken")

    async def on_broken(message: Message) -> None:
        raise ZeroDivisionError("a bug in a handler")

    broken.message.register(on_broken, Command("broken"))
    running.app.dispatcher.include_router(broken)
    routers = running.app.dispatcher.sub_routers
    routers.insert(0, routers.pop())  # before the routers that answer any message (the menu in private)

    before = len(olga.private_chat.bot_messages())
    for _ in range(3):
        await pavel.send_private("/broken")

    def reports() -> list[FakeMessage]:
        return [m for m in olga.private_chat.bot_messages()[before:] if m.text.startswith("⚠️")]

    await tg.wait_for(lambda: reports(), what="the report")
    await tg.sleep(1.0)  # a Telegram minute: room for more reports, were there any
    await tg.settle()
    assert len(reports()) == 1, [m.text for m in reports()]
    report = reports()[0].text
    assert "ZeroDivisionError: a bug in a handler" in report
    assert f"user {pavel.id}" in report and f"chat {pavel.id}" in report
    assert "test_operator.py, on_broken" in report
    assert running.app.operator.failures_within(3600) == 3

    asked = await olga.send_private(f"/admin {pavel.id}")
    answer = await _newer(tg, olga.private_chat, asked.message_id)
    assert answer.text.startswith(f"Последние отказы и сбои у {pavel.id}, от новых к старым:")
    assert answer.text.count("ZeroDivisionError: a bug in a handler") == 3


async def test_failures_of_two_handlers_inside_the_bot_api_wrapper_are_reported_apart(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Two handlers whose Bot API calls Telegram refuses fail inside the same wrapper (the session's
    ``check_response``): they are two places, so two reports, each naming its handler."""
    olga = tg.add_user("Ольга")
    pavel = tg.add_user("Павел")
    await olga.send_private("/start")
    running = await bot_runner(admin_ids=str(olga.id), admin_chat_id=olga.id)
    await tg.settle()
    broken = Router(name="broken")

    async def on_first(message: Message) -> None:
        assert message.bot is not None
        await message.bot.send_message(-1, "to a chat that does not exist")

    async def on_second(message: Message) -> None:
        assert message.bot is not None
        await message.bot.send_message(-2, "to another chat that does not exist")

    broken.message.register(on_first, Command("first"))
    broken.message.register(on_second, Command("second"))
    running.app.dispatcher.include_router(broken)
    routers = running.app.dispatcher.sub_routers
    routers.insert(0, routers.pop())
    before = len(olga.private_chat.bot_messages())
    await pavel.send_private("/first")
    await pavel.send_private("/second")

    def reports() -> list[str]:
        return [m.text for m in olga.private_chat.bot_messages()[before:] if m.text.startswith("⚠️")]

    await tg.wait_for(lambda: len(reports()) >= 2, what="two reports")
    assert any("on_first" in r for r in reports()) and any("on_second" in r for r in reports()), reports()
    assert not any("session.py" in r for r in reports()), reports()
    assert running.app.operator.failure_count == 2


async def test_live_messages_of_games_that_ended_long_ago_are_forgotten(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running, *_, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    row = await game_row(running, game)
    db, operator = running.app.db, running.app.operator
    live = await stored.live_with_prefix(db, f"g{row.id}")
    assert live  # the group's table
    await db.write(_ended(row.id, operator.clock.now()))
    assert await operator.prune_live_messages() == 0  # just ended: a late press is still understood
    await db.write(_ended(row.id, operator.clock.now() - 8 * 24 * 3600))
    mine = await _slots_of(running.app.db, row.id)
    assert len(mine) >= 3  # the table and both hands
    assert await operator.prune_live_messages() == len(mine)
    assert await _slots_of(running.app.db, row.id) == []


async def _slots_of(db: Database, game_id: int) -> list[str]:
    slots = [m.slot for m in await stored.live_with_prefix(db, "")]
    return [s for s in slots if s[0] not in "rp" and s[1:].split(":")[0] == str(game_id)]


def _ended(game_id: int, at: float) -> Batch:
    batch = Batch()
    batch.add(
        "UPDATE games SET status = ?, finished_at = ? WHERE id = ?", (GameStatus.CANCELLED.value, at, game_id)
    )
    return batch


async def test_the_outbox_backlog_counts_what_waits_and_how_long_the_oldest_has(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    outbox = running.app.outbox
    anna = tg.add_user("Аня")
    assert outbox.backlog() == (0, 0.0)
    tg.hang(600, "sendMessage")  # ten real seconds without an answer: the first answer flies, the rest wait
    for _ in range(3):
        await anna.send_private("/help")
    await tg.wait_for(lambda: outbox.backlog()[0] >= 2, what="answers waiting")
    await tg.sleep(0.5)
    waiting, age = outbox.backlog()
    assert waiting >= 2 and 0.5 <= age < 5.0
    tg.heal()
