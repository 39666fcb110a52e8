"""The fake Bot API's photos and documents, driven by a real aiogram Bot: multipart uploads, file_id reuse, the
sizes and types Telegram accepts, captions up to 1024 characters, «message is not modified» for an identical
media edit."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramEntityTooLarge
from aiogram.types import BufferedInputFile, InputMediaDocument, InputMediaPhoto
from PIL import Image

from tests.fakebot import FakeTelegram, FakeUser, Limits
from tests.fakebot.media import MediaError


def png(width: int = 720, height: int = 900, color: tuple[int, int, int] = (250, 250, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(limits=Limits.off()) as server:
        yield server


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    client = Bot(tg.token, session=tg.session())
    yield client
    await client.session.close()


@pytest.fixture
async def alice(tg: FakeTelegram) -> FakeUser:
    user = tg.add_user("Аня", "Петрова", username="anya")
    await user.send_private("/start")
    return user


async def test_a_photo_upload_comes_back_in_sizes_and_its_file_id_sends_it_again(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_photo(
        alice.id, BufferedInputFile(png(720, 900), "sheet.png"), caption="<b>Запись</b>", parse_mode="HTML"
    )
    assert sent.photo is not None
    largest = sent.photo[-1]
    assert (largest.width, largest.height) == (720, 900)
    assert [max(p.width, p.height) for p in sent.photo] == [90, 320, 800, 900]
    assert sent.caption == "Запись" and sent.caption_entities and sent.caption_entities[0].type == "bold"
    assert tg.media.uploads == 1

    again = await bot.send_photo(alice.id, largest.file_id)
    assert again.photo is not None and again.photo[-1].file_unique_id == largest.file_unique_id
    assert (tg.media.uploads, tg.media.reused) == (1, 1)
    messages = alice.private_chat.bot_messages()
    assert [m.current.media is not None for m in messages[-2:]] == [True, True]


@pytest.mark.parametrize(
    ("data", "description"),
    [
        (lambda: b"not an image at all", MediaError.IMAGE_PROCESS_FAILED),
        (lambda: b"", MediaError.FILE_EMPTY),
        (lambda: png(9000, 1500), MediaError.PHOTO_DIMENSIONS),  # width + height > 10000
        (lambda: png(2100, 100), MediaError.PHOTO_DIMENSIONS),  # a ratio over 20
    ],
    ids=["not-an-image", "empty", "too-large-sides", "too-thin"],
)
async def test_a_photo_telegram_cannot_take_is_refused(
    bot: Bot, alice: FakeUser, data: Callable[[], bytes], description: str
) -> None:
    """``data`` made by the test (a large picture takes 0.3 s of CPU: not in every worker's collection)."""
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_photo(alice.id, BufferedInputFile(data(), "x.png"))
    assert refused.value.message == description
    assert alice.private_chat.bot_messages() == []


async def test_a_photo_over_ten_megabytes_is_refused(tg: FakeTelegram, bot: Bot, alice: FakeUser) -> None:
    noisy = Image.frombytes("RGB", (2000, 2000), bytes(range(256)) * (2000 * 2000 * 3 // 256 + 1))
    out = io.BytesIO()
    noisy.save(out, format="BMP")  # 12 MB: an image, but too heavy for a photo
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_photo(alice.id, BufferedInputFile(out.getvalue(), "big.bmp"))
    assert refused.value.message == MediaError.PHOTO_TOO_BIG


async def test_a_file_id_must_be_known_and_of_the_right_kind(bot: Bot, alice: FakeUser) -> None:
    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await bot.send_photo(alice.id, "AgPnever-sent")
    document = await bot.send_document(alice.id, BufferedInputFile(b"deal 1\n", "party.txt"))
    assert document.document is not None
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_photo(alice.id, document.document.file_id)
    assert refused.value.message == MediaError.TYPE_MISMATCH


async def test_a_caption_is_at_most_1024_characters(bot: Bot, alice: FakeUser) -> None:
    photo = BufferedInputFile(png(), "sheet.png")
    sent = await bot.send_photo(alice.id, photo, caption="я" * 1024)
    assert sent.caption == "я" * 1024
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_photo(alice.id, photo, caption="я" * 1025)
    assert refused.value.message == MediaError.CAPTION_TOO_LONG


async def test_a_document_keeps_its_name_and_type_and_may_not_be_empty_or_over_50_mb(
    bot: Bot, alice: FakeUser
) -> None:
    text = "Кончинка · партия g1\nseed 7\n".encode()
    sent = await bot.send_document(
        alice.id, BufferedInputFile(text, "party-g1.txt"), caption="📜 История партии"
    )
    assert sent.document is not None
    assert (sent.document.file_name, sent.document.file_size) == ("party-g1.txt", len(text))
    assert sent.caption == "📜 История партии"
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_document(alice.id, BufferedInputFile(b"", "empty.txt"))
    assert refused.value.message == MediaError.FILE_EMPTY
    with pytest.raises(TelegramEntityTooLarge):
        await bot.send_document(alice.id, BufferedInputFile(b"x" * (50 * 1024 * 1024 + 1), "huge.bin"))


async def test_edit_message_media_replaces_the_photo_in_place_and_an_identical_edit_is_not_modified(
    tg: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    first = await bot.send_photo(
        alice.id, BufferedInputFile(png(color=(255, 255, 255)), "a.png"), caption="1"
    )
    second = BufferedInputFile(png(color=(0, 0, 0)), "b.png")
    edited = await bot.edit_message_media(
        InputMediaPhoto(media=second, caption="Раздача 2"), chat_id=alice.id, message_id=first.message_id
    )
    assert not isinstance(edited, bool) and edited.photo is not None
    assert edited.message_id == first.message_id and edited.caption == "Раздача 2"
    assert first.photo is not None and edited.photo[-1].file_unique_id != first.photo[-1].file_unique_id
    message = alice.private_chat.messages[first.message_id]
    assert message.edit_count == 1

    same = InputMediaPhoto(media=edited.photo[-1].file_id, caption="Раздача 2")
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_media(same, chat_id=alice.id, message_id=first.message_id)
    # The same bytes uploaded again are the same file: still not modified.
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_media(
            InputMediaPhoto(media=BufferedInputFile(png(color=(0, 0, 0)), "c.png"), caption="Раздача 2"),
            chat_id=alice.id,
            message_id=first.message_id,
        )
    # A new caption alone is a change.
    await bot.edit_message_media(
        InputMediaPhoto(media=edited.photo[-1].file_id, caption="Раздача 3"),
        chat_id=alice.id,
        message_id=first.message_id,
    )
    assert message.edit_count == 2 and message.text == "Раздача 3"


async def test_edit_message_media_turns_a_photo_into_a_document_and_refuses_a_missing_message(
    bot: Bot, alice: FakeUser
) -> None:
    sent = await bot.send_photo(alice.id, BufferedInputFile(png(), "a.png"))
    edited = await bot.edit_message_media(
        InputMediaDocument(media=BufferedInputFile(b"history", "party.txt")),
        chat_id=alice.id,
        message_id=sent.message_id,
    )
    assert not isinstance(edited, bool) and edited.document is not None and edited.photo is None
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_media(
            InputMediaPhoto(media=BufferedInputFile(png(), "a.png")), chat_id=alice.id, message_id=9999
        )
