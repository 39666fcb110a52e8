"""The sheet picture and the history file through the fake Bot API with a real aiogram Bot, called the way the
bot's delivery will call them: one group photo edited in place at each deal's end, the final sheet in each
private chat by its file_id (uploaded once), and a history file that the engine replays to the same result.
(The bot's own message flow is wired to these functions elsewhere; this checks the calls Telegram takes.)

In-process: the calls go to the fake's logic directly (the bot's own session lays out the uploads as aiogram's
form would); nothing here waits for time."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputMediaPhoto

from bot.games import plugin_of
from bot.games.history import history_filename, replay_history, write_history
from bot.i18n import Locale, translator
from bot.views.common import SeatInfo
from bot.views.sheets import PictureCache, Theme
from tests.fakebot import FakeTelegram, FakeUser, Limits
from tests.fakebot.manual import ManualClock

RU = translator(Locale.RU)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    server = FakeTelegram(clock=ManualClock(), limits=Limits.off())
    assert server.driver is not None
    server.driver.install()
    try:
        yield server
    finally:
        await server.stop()
        await server.driver.close()


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(tg.token, session=tg.session())
    yield client
    await client.session.close()


async def test_one_group_photo_per_party_edited_at_each_deal_end_then_sent_to_each_player_and_the_history(
    tg: FakeTelegram, bot: Bot
) -> None:
    people: list[FakeUser] = []
    for name in ("Аня", "Борис", "Вера"):
        user = tg.add_user(name)
        await user.send_private("/start")
        people.append(user)
    group = tg.add_group("Кончинка по пятницам", people)
    seats = tuple(SeatInfo(u.first_name, u.id) for u in people)
    plugin = plugin_of("konchinka")
    state = plugin.make_game({"players": 3, "target": 11}).new_initial_state(21)
    rng = random.Random(21)
    cache = PictureCache()
    photo_id: int | None = None
    deals = 0
    while not state.is_terminal:
        before = state.deals_completed
        state.apply(rng.choice(list(state.legal_actions())))
        if state.deals_completed == before:
            continue
        deals += 1
        sheet = plugin.paper.score_sheet(state, seats, RU)
        assert sheet is not None
        picture = await cache.picture_off_loop(sheet, Theme.LIGHT)
        upload = BufferedInputFile(picture.png, picture.filename)
        caption = plugin.paper.sheet_caption(state, seats, RU)
        if photo_id is None:
            sent = await bot.send_photo(group.id, upload, caption=caption, parse_mode="HTML")
        else:
            edited = await bot.edit_message_media(
                InputMediaPhoto(media=upload, caption=caption, parse_mode="HTML"),
                chat_id=group.id,
                message_id=photo_id,
            )
            assert not isinstance(edited, bool)
            sent = edited
        assert sent.photo is not None
        photo_id = sent.message_id
        cache.remember(picture, sent.photo[-1].file_id)
    assert deals >= 2
    photos = [m for m in group.bot_messages() if m.current.media is not None]
    assert len(photos) == 1 and photos[0].edit_count == deals - 1
    assert photos[0].text.startswith("🏆 Итог партии: ")
    assert tg.media.uploads == deals

    # Again at the party's end: nothing changed, Telegram says so.
    last = plugin.paper.score_sheet(state, seats, RU)
    assert last is not None
    final = await cache.picture_off_loop(last, Theme.LIGHT)
    file_id = cache.file_id(final)
    assert file_id is not None and cache.drawn == deals
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(media=file_id, caption=photos[0].text), chat_id=group.id, message_id=photo_id
        )

    # Each player's private chat: the same picture by its file_id, not uploaded again; drawn at once for all.
    await asyncio.gather(*(bot.send_photo(u.id, file_id) for u in people))
    assert tg.media.uploads == deals and tg.media.reused >= len(people)
    for user in people:
        assert user.private_chat.bot_messages()[-1].current.media is not None

    # «📜 История»: the party as a text file that replays to the same result.
    text = write_history(plugin, state.record(), seats, RU, "g42")
    document = await bot.send_document(
        group.id,
        BufferedInputFile(text.encode(), history_filename("konchinka", "g42")),
        caption=RU.t("history-caption"),
    )
    assert document.document is not None and document.document.file_name == "konchinka-g42.txt"
    stored = tg.media[document.document.file_id]
    assert replay_history(stored.data.decode()).outcome == state.outcome
