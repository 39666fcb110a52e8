"""Looking without moving: «📋 Стол» and /score in private, the solo «💡 Подсказка», /stats in a group."""

from __future__ import annotations

import random

from bot.callbacks import HintCb, TableCb
from bot.games import plugin_of
from bot.i18n import Locale, translator
from bot.pipeline.thinker import decision_seed
from bot.storage import repo
from bot.views.stats import render_stats
from engine.ai import Level, choose_action
from engine.ai.players import advise
from engine.konchinka import KonchinkaView
from tests.bot.conftest import (
    BotRunner,
    Running,
    game_row,
    plain,
    start_solo_konchinka,
    take_turn,
    turn_message,
    two_player_party,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

GAMES = [("konchinka", "🃏 Кончинка"), ("king", "👑 Кинг")]

RU = translator(Locale.RU)


def group_table(group: FakeChat) -> FakeMessage:
    """The group's live table message (the one with the «🃏 Мои карты» link)."""
    for message in reversed(group.visible_messages()):
        if message.is_from_bot and any("start=g_" in (b.url or "") for b in message.flat_buttons):
            return message
    raise AssertionError("no table in the group")


def copies(user: FakeUser, text: str) -> list[FakeMessage]:
    """The bot's visible messages in the user's private chat that read ``text``."""
    return [m for m in user.private_chat.visible_messages() if m.is_from_bot and m.text == text]


def table_button(message: FakeMessage, game: str) -> str:
    data = TableCb(game=game).pack()
    assert data in [b.callback_data for b in message.flat_buttons], "the hand has «📋 Стол»"
    assert message.button(RU.t("btn-table")).callback_data == data
    return data


async def test_a_private_table_copy_follows_the_table_as_moves_are_made(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 9: «📋 Стол» is not a frozen snapshot that still shows a past move as the present."""
    _running, anna, boris, group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    hand = anna.private_chat.last_bot_message()
    assert hand is not None
    await anna.press(hand, data=table_button(hand, game))
    await tg.wait_for(lambda: copies(anna, group_table(group).text), what="the copy")
    copy = copies(anna, group_table(group).text)[0]
    for _ in range(3):
        before = group_table(group).text

        def moved(before: str = before) -> bool:
            return group_table(group).text != before

        for user in (anna, boris):
            await take_turn(tg, user)
        await tg.wait_for(moved, what="the move on the group's table")
        await tg.wait_for(lambda: copy.text == group_table(group).text, timeout=15, what="the copy follows")
    assert not copy.is_deleted and len(copy.history) > 1


async def test_the_table_sent_anew_by_score_text_deletes_the_old_one_at_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    """Issue 32, point 9: the table left above by ``/score text`` does not stay, stale, for the lazy batch's 20 s
    (the bot's clock at real speed here)."""
    _running, anna, _boris, group, _game = await two_player_party(tg, bot_runner, clock_speed=1.0)

    def table() -> FakeMessage | None:
        found = [m for m in group.bot_messages() if any("start=g_" in (b.url or "") for b in m.flat_buttons)]
        return found[-1] if found else None

    await tg.wait_for(table, timeout=10, what="the group's table")
    old = table()
    assert old is not None
    await anna.send(group, "/score text")
    await tg.wait_for(
        lambda: any(m.message_id > old.message_id and m.text == old.text for m in group.bot_messages()),
        what="the table anew below",
    )
    await tg.wait_for(lambda: old.is_deleted, timeout=5, what="the old table deleted at once")


async def test_the_table_button_shows_the_whole_table_privately_and_only_to_players(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    _running, anna, boris, group, game = await two_player_party(tg, bot_runner)
    await tg.settle()
    hand = anna.private_chat.last_bot_message()
    assert hand is not None
    data = table_button(hand, game)
    shown = group_table(group).text

    answer = await anna.press(hand, data=data)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: copies(anna, shown), what="the table in Anna's private chat")
    first = copies(anna, shown)[0]
    assert first.message_id > hand.message_id, "the table comes below the hand"
    assert not first.url_buttons, "no «🃏 Мои карты» link in the private chat"

    # A second look sends it anew below; the old copy goes, so copies do not pile up.
    answer = await anna.press(hand, data=data)
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: first.is_deleted, what="the older copy deleted")
    assert len(copies(anna, shown)) == 1 and copies(anna, shown)[0].message_id > first.message_id

    # Someone who does not play in the game is refused, and nothing is sent to them.
    gleb = tg.add_user("Глеб")
    group.members.append(gleb)
    answer = await gleb.press(group_table(group), data=data, force=True)
    assert answer.text == RU.t("answer-not-a-player")
    await tg.settle()
    assert gleb.private_chat.bot_messages() == []
    assert boris.private_chat.visible_messages()[-1].text != shown


async def test_score_in_private_shows_the_table_of_the_game_one_plays(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    _running, anna, _boris, group, _game = await two_player_party(tg, bot_runner)
    await tg.settle()
    shown = group_table(group).text
    await anna.send_private("/score")
    await tg.wait_for(lambda: copies(anna, shown), what="the table after /score")

    gleb = tg.add_user("Глеб")
    await gleb.send_private("/score")
    await tg.wait_for(lambda: gleb.private_chat.bot_messages(), what="the answer to a stranger's /score")
    assert [m.text for m in gleb.private_chat.bot_messages()] == [RU.t("answer-no-game")]


async def solo_turn(tg: FakeTelegram, user: FakeUser) -> FakeMessage:
    await tg.wait_for(lambda: turn_message(user), what="the player's turn", timeout=20)
    await tg.settle()
    message = turn_message(user)
    assert message is not None
    return message


async def expected_hint(running: Running, game: str) -> str:
    """What «мастер» would play now, said as the hint says it: decided here by the engine itself."""
    row = await game_row(running, game)
    record = await repo.record_of(running.app.db, int(game))
    assert record is not None
    party = plugin_of(row.kind).restore(record)
    view = party.view_of(0)
    assert isinstance(view, KonchinkaView)
    advice = advise(view, random.Random(decision_seed(party.seed, party.version)))
    assert advice.action == choose_action(
        view, Level.HARD, random.Random(decision_seed(party.seed, party.version))
    ), "the hint's move is the one «мастер» plays"
    return party.hint(0, advice, RU)


async def test_a_solo_hint_says_what_the_master_would_play_and_plays_nothing(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=1)
    hand = await solo_turn(tg, anna)
    game = str(await games_of_solo(running, anna))
    version = (await game_row(running, game)).version
    data = HintCb(game=game, version=version).pack()
    assert hand.button(RU.t("btn-hint")).callback_data == data
    expected = await expected_hint(running, game)
    assert expected.startswith("💡 ")

    answer = await anna.press(hand, data=data, timeout=30)
    assert answer.text == expected and answer.show_alert
    again = await anna.press(hand, data=data, timeout=30)
    assert again.text == expected, "the same question gets the same hint"
    await tg.settle()
    assert (await game_row(running, game)).version == version, "a hint plays nothing"
    assert turn_message(anna) is hand

    stale = HintCb(game=game, version=version - 1).pack()
    assert (await anna.press(hand, data=stale, force=True)).text == RU.t("answer-stale")

    # «📋 Стол» and /score work in a solo game too.
    await anna.press(hand, data=table_button(hand, game))
    await tg.wait_for(
        lambda: any(m.message_id > hand.message_id for m in anna.private_chat.visible_messages()),
        what="the solo table",
    )
    table = anna.private_chat.visible_messages()[-1]
    row = await game_row(running, game)
    record = await repo.record_of(running.app.db, int(game))
    assert record is not None
    view = plugin_of(row.kind).restore(record).view_of(0)
    assert isinstance(view, KonchinkaView)
    assert RU.t("table-deck", count=view.deck_size) in table.text
    assert table.text != hand.text


async def games_of_solo(running: Running, user: FakeUser) -> int:
    async with running.app.db.tx() as tx:
        game = await repo.active_game_in_chat(tx, user.id, 0)
    assert game is not None
    return game.id


async def test_a_hint_is_only_for_the_player_of_that_solo_game(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    await start_solo_konchinka(tg, anna, opponents=1)
    await solo_turn(tg, anna)
    game = str(await games_of_solo(running, anna))
    version = (await game_row(running, game)).version
    await boris.send_private("/start")
    await tg.wait_for(lambda: boris.private_chat.bot_messages(), what="Boris's help")
    help_message = boris.private_chat.bot_messages()[0]
    answer = await boris.press(help_message, data=HintCb(game=game, version=version).pack(), force=True)
    assert answer.text == RU.t("answer-not-a-player")


async def test_stats_in_a_group_names_the_person_and_in_private_says_yours(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    anna = tg.add_user("Аня <Ли>")
    group = tg.add_group("Друзья", [anna], admins=[anna])
    async with running.app.db.tx() as tx:
        stats = await repo.user_stats(tx, anna.id)

    await anna.send(group, "/stats")
    named = plain(render_stats(stats, GAMES, RU, name=anna.full_name).text)
    assert named.startswith("📊 " + RU.t("stats-of", name=anna.full_name))
    await tg.wait_for(lambda: [m.text for m in group.bot_messages()] == [named], what="/stats in the group")

    await anna.send_private("/stats")
    yours = plain(render_stats(stats, GAMES, RU).text)
    await tg.wait_for(lambda: [m.text for m in anna.private_chat.bot_messages()] == [yours], what="/stats")
