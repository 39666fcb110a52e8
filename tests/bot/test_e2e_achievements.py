"""Achievements in play (issue 50), through the fake Bot API with the real bot: a group Кончинка party to 1 point
that the first move ends by «взять … и прикончить» (seed 9: 10♦ takes 10♥). The achievement is told in the party's
result — the group's, by name, and the winner's own, as theirs — in no message of its own, stored once; the same
party played again earns it again, and nobody is told a second time."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable

import pytest

from bot.callbacks import MeCb, MoveCb, PickCb
from bot.games.konchinka.feats import FINISH_ON_CAPTURE
from bot.i18n import Locale, translator
from bot.model import skill_scale
from bot.model.game import GameStatus
from bot.storage import repo, standings
from bot.storage.players import achievements_of
from engine.konchinka import Capture, KonchinkaAction, KonchinkaState, Lay
from tests.bot.conftest import BotRunner, Running, game_row, has_rematch, turn_message
from tests.bot.test_e2e_table_talk import party_state, start_full_party
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

RU = translator(Locale.RU)
SEED = 9
"""The first mover holds 10♦ and 10♥ lies on the table: with a target of 1, taking it secures the point."""
TOLD = "🏅"


def choice(state: KonchinkaState) -> KonchinkaAction:
    """Take and finish if it can be done, else lay the first card."""
    actions = state.legal_actions()
    finishes = [a for a in actions if isinstance(a, Capture) and a.finish]
    return finishes[0] if finishes else next(a for a in actions if isinstance(a, Lay))


async def play_out(tg: FakeTelegram, running: Running, game: str, people: list[FakeUser]) -> None:
    """The party played by :func:`choice`, each move pressed as a person does: the card, then its move."""
    while not (state := await party_state(running, game)).is_terminal:
        await tg.wait_for(lambda: any(turn_message(u) for u in people), what="a turn")
        mover = next(u for u in people if turn_message(u))
        action = choice(state)
        version = state.version
        hand = turn_message(mover)
        assert hand is not None
        assert isinstance(action, Capture | Lay)
        await mover.press(hand, data=PickCb(game=game, version=version, card=action.card.code).pack())
        index = state.legal_actions().index(action)
        move = MoveCb(game=game, version=version, index=index).pack()

        def offered(mover: FakeUser = mover, move: str = move) -> FakeMessage | None:
            chat = mover.private_chat.visible_messages()
            return next(
                (m for m in reversed(chat) if move in [b.callback_data for b in m.flat_buttons]), None
            )

        await tg.wait_for(lambda: offered() is not None, what="the card's moves")
        shown = offered()
        assert shown is not None
        await mover.press(shown, data=move)
        while (await game_row(running, game)).version == version:
            await tg.sleep(0.01)
    await tg.settle()


async def calls_of(tg: FakeTelegram, playing: Awaitable[None]) -> Counter[str]:
    """The Bot API calls the bot made while ``playing`` ran (and its messages settled), by method."""
    await tg.settle()
    before = Counter(tg.stats.calls)
    await playing
    await tg.settle()
    return Counter(tg.stats.calls) - before


def pages(chat: FakeChat) -> list[FakeMessage]:
    """The pages (photos) the bot has in ``chat`` now."""
    return [
        m
        for m in chat.visible_messages()
        if m.is_from_bot
        and m.current.media is not None
        and m.current.media.kind == "photo"
        and "📊" in m.text
    ]


def told(chat: FakeChat) -> list[str]:
    """The bot's messages in ``chat`` (every version) that tell an achievement."""
    return [v.text for m in chat.bot_messages() for v in m.history if TOLD in v.text]


async def test_an_achievement_is_told_in_the_result_once_and_stored_once(
    tg: FakeTelegram, bot_runner: BotRunner, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.pipeline.service")
    running = await bot_runner(default_target=1, game_seed=SEED)
    people = [tg.add_user("Аня"), tg.add_user("Борис")]
    group = tg.add_group("Друзья", people, admins=people[:1])
    name = RU.t(f"feat-{FINISH_ON_CAPTURE}")

    first = await start_full_party(tg, group, people)
    first_calls = await calls_of(tg, play_out(tg, running, first, people))
    [winner] = [s for s in await repo.seats_of(running.app.db, int(first)) if s.won]
    person = next(u for u in people if u.id == winner.user_id)
    other = next(u for u in people if u is not person)
    # Told in the result itself (the message that offers the rematch), not in a message of its own.
    [in_group] = [m for m in group.bot_messages() if TOLD in m.text]
    assert has_rematch([in_group]) and f"{person.first_name} — {name}" in in_group.text
    [own] = [m for m in person.private_chat.bot_messages() if TOLD in m.text]
    assert RU.t("feat-yours", feat=name, about=RU.t(f"feat-{FINISH_ON_CAPTURE}-about")) in own.text
    assert has_rematch([own]) or "🔍" in str(own.current.reply_markup)
    assert told(other.private_chat) == []
    logged = [r.getMessage() for r in caplog.records if f"earned {FINISH_ON_CAPTURE}" in r.getMessage()]
    assert len(logged) == 1 and logged[0].startswith(f"game {first}: the party ended")
    [stored] = await achievements_of(running.app.db, person.id)
    assert (stored.kind, stored.code, stored.game_id) == ("konchinka", FINISH_ON_CAPTURE, int(first))

    # The same party again: the same move earns it again — nobody is told, nothing more is stored.
    second = await start_full_party(tg, group, people)
    second_calls = await calls_of(tg, play_out(tg, running, second, people))
    assert [s.won for s in await repo.seats_of(running.app.db, int(second))].count(True) == 1
    assert len(told(group)) == 1 and len(told(person.private_chat)) == 1
    assert await achievements_of(running.app.db, person.id) == [stored]
    # The party that told it cost Telegram the calls of the one that did not: not one more.
    assert first_calls == second_calls and first_calls["sendMessage"] >= 3, first_calls


async def test_me_sends_the_page_as_a_photo_and_in_words_when_telegram_refuses_the_picture(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Two parties of Аня and Борис, then /me: the page's photo with its caption; with photos refused, the same
    page in words — the form (a place per party), the rival met and the score against them, the achievement."""
    running = await bot_runner(default_target=1, game_seed=SEED)
    people = [tg.add_user("Аня"), tg.add_user("Борис")]
    group = tg.add_group("Друзья", people, admins=people[:1])
    for _ in range(2):
        await play_out(tg, running, await start_full_party(tg, group, people), people)
    games = await repo.games_of_user(running.app.db, people[0].id, [GameStatus.FINISHED])
    assert len(games) == 2
    seats = [await repo.seats_of(running.app.db, g.id) for g in games]
    winner = next(s for s in seats[0] if s.won)
    person = next(u for u in people if u.id == winner.user_id)
    other = next(u for u in people if u is not person)
    won = sum(next(s for s in party if s.user_id == person.id).won is True for party in seats)

    # «📊 Моя страница» under the result in the player's own chat, then /me: the page's photo below each time.
    chat = person.private_chat
    [result] = [m for m in chat.bot_messages() if MeCb().pack() in [b.callback_data for b in m.flat_buttons]][
        -1:
    ]
    answer = await person.press(result, data=MeCb().pack())
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: bool(pages(chat)), what="the page")
    [pressed] = pages(chat)
    sent = await person.send_private("/me")
    await tg.wait_for(lambda: bool(pages(chat)) and pages(chat)[-1].message_id > sent.message_id, what="/me")
    page = pages(chat)[-1]
    assert page.message_id > sent.message_id > pressed.message_id
    assert page.text == RU.t("page-caption", name=person.first_name)

    tg.fail(24 * 3600, "sendPhoto", code=400)
    asked = await person.send_private("/me")
    await tg.wait_for(
        lambda: any(m.message_id > asked.message_id and m.current.media is None for m in chat.bot_messages()),
        what="the page in words",
    )
    [words] = [m for m in chat.bot_messages() if m.message_id > asked.message_id]
    lines = words.text.splitlines()
    assert lines[0] == RU.t("page-caption", name=person.first_name)
    assert RU.t("page-record", games=2, wins=won) in lines
    # The game's line: the rating the parties gave (not settled after two: with its margin, and no place yet).
    own = (await standings.skills_of(running.app.db, "konchinka", [person.id]))[person.id]
    assert not skill_scale.is_settled(own.sigma)
    assert (
        RU.t("page-rating", rating=f"{skill_scale.shown(own.mu)} ± {skill_scale.margin(own.sigma)}") in lines
    )
    assert f"{other.first_name} — {won} : {2 - won}" in lines
    places = ["1" if next(s for s in party if s.user_id == person.id).won else "2" for party in seats]
    assert f"{RU.t('page-form')} {' '.join(places)}" in lines
    assert any(line.startswith(RU.t(f"feat-{FINISH_ON_CAPTURE}")) for line in lines)

    # /me in the group: where it works, nothing drawn there
    await person.send(group, "/me")
    await tg.settle()
    assert not [m for m in group.bot_messages() if m.current.media is not None and "📊" in m.text]
