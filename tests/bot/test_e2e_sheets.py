"""The score sheet's picture and the party's history in play (issue 37), through the fake Bot API with the real bot:
one photo in the group, sent as the first deal ends and edited in place at each later deal's end; the final sheet
in every player's own chat; «📋 Запись» and ``/score`` bring the picture anew below (``/score text``: the table);
«📜 История» sends the party as a text file that the engine replays to the same result, once however often it is
pressed; and a restart draws nothing twice."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.callbacks import HistoryCb, SheetCb
from bot.games.history import replay_history
from tests.bot.conftest import BotRunner, has_rematch
from tests.bot.test_e2e_table_talk import Party, party_state, start_full_party
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram


def photos(chat: FakeChat) -> list[FakeMessage]:
    """The bot's photos in ``chat`` that are still there."""
    return [
        m
        for m in chat.visible_messages()
        if m.is_from_bot and m.current.media and m.current.media.kind == "photo"
    ]


def documents(chat: FakeChat) -> list[FakeMessage]:
    return [
        m
        for m in chat.visible_messages()
        if m.is_from_bot and m.current.media and m.current.media.kind == "document"
    ]


def replaced(chat: FakeChat, sheet: FakeMessage) -> Callable[[], bool]:
    """Whether ``sheet`` is gone and one photo is in ``chat`` again (the sheet sent anew below)."""
    return lambda: sheet.is_deleted and len(photos(chat)) == 1


def answered_below(chat: FakeChat, asked: FakeMessage) -> Callable[[], bool]:
    """Whether the bot has said something in ``chat`` below ``asked``."""
    return lambda: (chat.last_bot_message() or asked).message_id > asked.message_id


def pressable(chat: FakeChat, prefix: str) -> FakeMessage:
    """The newest bot message in ``chat`` with a button whose data starts with ``prefix``."""
    for message in reversed(chat.visible_messages()):
        if any((b.callback_data or "").startswith(prefix) for b in message.flat_buttons):
            return message
    raise AssertionError(f"no button {prefix!r} in chat {chat.id}")


async def group_party(tg: FakeTelegram, bot_runner: BotRunner) -> tuple[Party, FakeChat, str]:
    """Аня and Борис in a started group Кончинка party to 11 (the bot running); the party, the group, the id."""
    running = await bot_runner(default_target=11)
    people = [tg.add_user("Аня"), tg.add_user("Борис")]
    group = tg.add_group("Друзья", people, admins=people[:1])
    game = await start_full_party(tg, group, people)
    return Party(tg, running, game, people), group, game


async def until_the_first_sheet(party: Party, group: FakeChat) -> None:
    """Moves are made until the first deal has ended and its sheet is in the group."""
    deadline = party.tg.monotonic() + 60
    made = 0
    while not photos(group):
        assert party.tg.monotonic() < deadline, "no sheet after the first deal"
        if await party.move(pick=made, deadline=deadline):
            made += 1
        else:
            await party.tg.sleep(0.01)
    await party.tg.settle()


async def test_a_group_party_keeps_one_sheet_photo_sends_the_final_sheets_and_a_history_that_replays(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    party, group, game = await group_party(tg, bot_runner)
    people, running = party.people, party.running
    await party.play(group)
    state = await party_state(running, game)
    assert state.is_terminal and state.outcome is not None and state.deals_completed >= 2

    # One photo in the group: sent with the first deal's end, edited at each later one (the final edit: the
    # party's result in its caption); every version a different picture.
    [sheet] = photos(group)
    versions = [v for v in sheet.history if v.media is not None]
    assert len(versions) == state.deals_completed, [v.text for v in versions]
    assert len({v.media.file_unique_id for v in versions if v.media}) == len(versions)
    assert "Итог партии" in sheet.text and all(p.full_name in sheet.text for p in people)
    assert tg.stats.not_modified == 0
    # The final sheet in each player's own chat, the same picture (uploaded once, then sent by its file_id).
    for person in people:
        [mine] = photos(person.private_chat)
        assert mine.current.media is not None and versions[-1].media is not None
        assert mine.current.media.file_unique_id == versions[-1].media.file_unique_id
        assert "Итог партии" in mine.text

    # «📜 История» under the party's end: the party as a file the engine replays to the same result; pressing
    # again sends nothing more.
    end = pressable(group, "hs:")
    assert has_rematch([end])
    for _ in range(2):
        answer = await people[1].press(end, data=HistoryCb(game=game).pack())
        assert answer.answered and not answer.text
        await tg.settle()
    [history] = documents(group)
    assert history.current.media is not None
    text = history.current.media.file.data.decode()
    replayed = replay_history(text)
    assert replayed.record() == state.record()
    words = text.split("\n#game ", 1)[0]  # the moves in words; their codes in a section of their own below
    assert "Аня: " in words and not any(f" {code} " in words for code in state.record().actions)
    assert replayed.outcome is not None and replayed.outcome.scores == state.outcome.scores
    assert history.text == "📜 История партии"

    # «📋 Запись» under a deal's scoring in the group: the picture anew below (the old one deleted).
    await people[1].press(pressable(group, "sh:"), data=SheetCb(game=game).pack())
    await tg.wait_for(lambda: sheet.is_deleted and len(photos(group)) == 1, what="the sheet anew below")
    [again] = photos(group)
    assert again.message_id > sheet.message_id and again.current.media == sheet.current.media
    # «📋 Запись» under a deal's scoring in a player's own chat: the picture there, anew below.
    chat = people[0].private_chat
    [old] = photos(chat)
    await people[0].press(pressable(chat, "sh:"), data=SheetCb(game=game).pack())
    await tg.wait_for(lambda: old.is_deleted and len(photos(chat)) == 1, what="the private sheet anew")
    assert tg.stats.not_modified == 0

    # /score once the party is over (no game open): the last party's final sheet anew below, in the group and in
    # a player's own chat — not «no game here».
    for where, send in ((group, people[1].send), (chat, people[0].send)):
        [shown] = photos(where)
        asked = await send(where, "/score")
        await tg.wait_for(replaced(where, shown), what="the last sheet anew below")
        [last] = photos(where)
        assert last.message_id > asked.message_id and last.current.media == shown.current.media
        assert "Итог партии" in last.text
    # /score text then: the last party's table as text, as /score shows its sheet — not «Партии нет».
    for where, send in ((group, people[1].send), (chat, people[0].send)):
        asked = await send(where, "/score text")
        await tg.wait_for(answered_below(where, asked), what="the answer")
        await tg.settle()
        said = [m.text for m in where.visible_messages() if m.is_from_bot and m.message_id > asked.message_id]
        assert said and not any("Партии нет" in t for t in said) and "Кончинка" in said[-1], said
    assert tg.stats.not_modified == 0


async def test_score_in_the_first_deal_says_there_is_no_score_yet_below_the_table(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    party, group, _ = await group_party(tg, bot_runner)
    await tg.settle()
    table = group.last_bot_message()
    asked = await party.people[1].send(group, "/score")
    note = "📋 Записи ещё нет: первая раздача не доиграна — стол выше."
    await tg.wait_for(lambda: any(m.text == note for m in group.visible_messages()), what="the note")
    await tg.settle()
    said = [m for m in group.visible_messages() if m.is_from_bot and m.message_id > asked.message_id]
    assert table is not None and table.is_deleted and not photos(group)
    assert [m.text for m in said][-1] == note and "На столе" in said[-2].text, [m.text[:40] for m in said]


async def test_a_restart_mid_party_sends_no_sheet_again(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    party, group, game = await group_party(tg, bot_runner)
    # Play until the first deal has ended and its sheet is shown, then restart the bot mid-party.
    await until_the_first_sheet(party, group)
    [sheet] = photos(group)
    shown = len(sheet.history)
    await party.running.stop()
    party.running = await bot_runner(default_target=11)
    await tg.settle()
    assert len(sheet.history) == shown and tg.stats.not_modified == 0  # nothing drawn or sent twice
    # /score text: the table again below, as text; /score: the picture anew below.
    table = group.last_bot_message()
    await party.people[1].send(group, "/score text")
    await tg.wait_for(lambda: group.last_bot_message() is not table, what="the table again")
    assert photos(group) == [sheet] and "На столе" in (group.last_bot_message() or sheet).text
    await party.people[1].send(group, "/score")
    await tg.wait_for(lambda: sheet.is_deleted and len(photos(group)) == 1, what="the sheet anew below")
    [sheet] = photos(group)
    await party.play(group)
    state = await party_state(party.running, game)
    assert photos(group) == [sheet] and len(sheet.history) == state.deals_completed  # sent again at deal 1


async def test_cancel_says_it_once_below_with_the_standings_so_far(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    party, group, game = await group_party(tg, bot_runner)
    people, running = party.people, party.running
    await until_the_first_sheet(party, group)
    last = group.visible_messages()[-1].message_id
    await people[0].send(group, "/cancel")
    cancelled = "✖️ Партия отменена."
    await tg.wait_for(lambda: any(cancelled in m.text for m in group.visible_messages()), what="the cancel")
    await tg.settle()
    said = [m for m in group.visible_messages() if m.is_from_bot and "отменена" in m.text]
    assert len(said) == 1 and said[0].message_id > last, [m.text for m in said]
    state = await party_state(running, game)
    deals = state.deals_completed
    assert said[0].text.startswith(f"{cancelled}\n📋 Запись после раздачи {deals}:")
    assert all(p.full_name in said[0].text for p in people)


def text_sheets(chat: FakeChat) -> list[FakeMessage]:
    """The bot's score sheets in ``chat`` sent as text (a picture Telegram refused), still there."""
    return [
        m
        for m in chat.visible_messages()
        if m.is_from_bot and m.current.media is None and "Кончинка · запись" in m.text
    ]


async def test_a_sheet_picture_telegram_refuses_goes_as_text_and_the_next_deal_as_a_picture_again(
    tg: FakeTelegram, bot_runner: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    party, group, game = await group_party(tg, bot_runner)
    tg.fail(24 * 3600, "sendPhoto", code=400)  # Telegram refuses every photo (IMAGE_PROCESS_FAILED)
    deadline = tg.monotonic() + 60
    made = 0
    while not text_sheets(group):
        assert tg.monotonic() < deadline, "no sheet after the first deal"
        if await party.move(pick=made, deadline=deadline):
            made += 1
        else:
            await tg.sleep(0.01)
    await tg.settle()
    # The first deal's sheet in words, in the picture's place: the standings, the players, a row per deal.
    [sheet] = text_sheets(group)
    assert photos(group) == []
    lines = sheet.text.splitlines()
    assert lines[0].startswith("📋 Запись после раздачи 1: ")
    assert "1 Аня · 2 Борис" in lines
    assert any(e.type == "pre" for e in sheet.entities)
    state = await party_state(party.running, game)
    assert lines[-1].split() == ["Σ", *(str(t) for t in state.view(0).deal_scores[-1].totals)]
    refused = [r for r in caplog.records if "refused the score sheet's picture" in r.getMessage()]
    assert len(refused) == 1 and f"game {game}:" in refused[0].getMessage()

    # Telegram takes photos again: the next deal's sheet is a picture, and the text no longer shows as a sheet.
    tg.heal()
    while not photos(group):
        assert tg.monotonic() < deadline + 60, "no picture after the second deal"
        if await party.move(pick=made, deadline=deadline + 60):
            made += 1
        else:
            await tg.sleep(0.01)
    await tg.settle()
    [picture] = photos(group)
    assert picture.text.startswith(("📋 Запись после раздачи 2: ", "🏆 Итог партии: "))
    assert text_sheets(group) == []
