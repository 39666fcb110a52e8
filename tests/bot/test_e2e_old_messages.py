"""What the bot leaves behind in people's private chats and in its live store (issue 51): a group party's hand goes
once the party is over — its end in the private chat says it all, and no button of a party over is left on it —
and the rows of screens turned in place (/play's set-up, /lang's choice: one for each screen anyone ever pressed)
are forgotten by the start-up pass, the screens still working when pressed again."""

from __future__ import annotations

from bot.callbacks import LangCb, SoloCb, SoloStep
from bot.delivery.outbox.queue import hand_slot
from tests.bot.conftest import BotRunner
from tests.bot.test_e2e_sheets import group_party
from tests.fakebot import FakeMessage, FakeTelegram, FakeUser

PEOPLE = 6


async def test_a_group_partys_hands_go_when_it_ends_leaving_only_its_notices(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    party, group, game = await group_party(tg, bot_runner)
    await party.play(group)
    await tg.settle()
    outbox = party.running.app.outbox
    for person in party.people:
        assert await outbox.live.recall(hand_slot(int(game), person.id)) is None
        # What is left with buttons: the deals' scorings («📋 Запись») and the party's end (its result, the review,
        # the rematch, the rules, the history) — no hand of the party over.
        left = [m for m in person.private_chat.visible_messages() if m.is_from_bot and m.flat_buttons]
        assert left and all(m.text.startswith(("Раздача ", "🏆 Партия окончена")) for m in left), [
            m.text for m in left
        ]
        assert "Партия окончена" in left[-1].text


async def _turned(tg: FakeTelegram, person: FakeUser, command: str, data: str) -> FakeMessage:
    """``command`` in ``person``'s private chat, then the button ``data`` pressed on the screen it brings."""
    sent = await person.send_private(command)
    chat = person.private_chat

    def screen_of() -> (
        FakeMessage | None
    ):  # not an earlier command's answer that came after this one was sent
        return next(
            (
                m
                for m in chat.bot_messages()
                if m.message_id > sent.message_id and any(b.callback_data == data for b in m.flat_buttons)
            ),
            None,
        )

    await tg.wait_for(lambda: screen_of() is not None, what=f"the screen of {command}")
    screen = screen_of()
    assert screen is not None
    assert (await person.press(screen, data=data)).answered
    await tg.wait_for(lambda: len(screen.history) > 1, what="the screen turned")
    return screen


async def test_the_start_up_pass_forgets_the_rows_of_screens_turned_in_place(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    people = [tg.add_user(f"Игрок {n}") for n in range(PEOPLE)]
    opponents = SoloCb(step=SoloStep.OPPONENTS, game="konchinka", opponents=1).pack()
    screens = []
    for person in people:
        await person.send_private("/start")
        screens.append(await _turned(tg, person, "/play", opponents))
        await _turned(tg, person, "/lang", LangCb(lang="ru").pack())
    await tg.settle()
    before = [m.slot for m in await running.app.outbox.live_messages("p")]
    assert len(before) == 2 * PEOPLE  # two rows for each person: one per screen they turned

    await running.stop()
    running = await bot_runner()
    await tg.settle()
    assert await running.app.outbox.live_messages("p") == []

    # A screen pressed again still turns in place (its press names it again).
    screen, person = screens[0], people[0]
    shown = len(screen.history)
    level = SoloCb(step=SoloStep.LEVEL, game="konchinka", opponents=1, level="normal").pack()
    assert (await person.press(screen, data=level)).answered
    await tg.wait_for(lambda: len(screen.history) > shown, what="the screen turned again")
