"""Skill ratings (issue 50), played through the strict fake Bot API on the manual clock: a party's end rates its
person in its transaction as openskill itself computes it, bot players stay fixed anchors, the result says the
rating, and the rebuild from the stored games gives the very same numbers."""

from __future__ import annotations

import re

from openskill.models import PlackettLuce

from bot.ratings import rebuild
from bot.ratings.seasons import next_season, season_of, season_start
from bot.storage import Batch, Database, standings
from tests.bot.conftest import (
    BotRunner,
    has_rematch,
    play_until,
    start_party,
    start_solo_konchinka,
)
from tests.fakebot import FakeChat, FakeTelegram, FakeUser

LIBRARY = PlackettLuce()
"""openskill's own model, with its defaults: the test computes with the library, not with the bot's code."""
BOT_LEVELS = {"easy": (20.0, 1.0), "normal": (25.0, 1.0), "hard": (30.0, 1.0)}
"""The fixed ratings the bot players stand at (README, /help: 1350, 1500, 1650)."""


async def solo_party(tg: FakeTelegram, anna: FakeUser, level: str) -> str:
    """A one-deal solo Кончинка against one bot player of ``level``, played to its end; the result's text."""
    chat = anna.private_chat
    last = chat.bot_messages()[-1].message_id if chat.bot_messages() else 0
    await start_solo_konchinka(tg, anna, opponents=1, level=level)

    def over() -> bool:
        return has_rematch([m for m in chat.visible_messages() if m.message_id > last])

    await play_until(tg, [anna], over, timeout=90)
    await tg.settle()
    return chat.bot_messages()[-1].text


async def stored_parties(db: Database) -> list[tuple[int, str | None, bool, int, bool]]:
    """Each finished party's seats as stored, in the order the parties finished: (game, level, won, score,
    person's seat)."""
    rows = await db.all(
        "SELECT g.id AS game, s.level AS level, s.won AS won, s.score AS score, s.user_id IS NOT NULL AS person "
        "FROM games g JOIN seats s ON s.game_id = g.id WHERE g.status = 'finished' ORDER BY g.finished_at, s.seat"
    )
    return [(r["game"], r["level"], bool(r["won"]), r["score"], bool(r["person"])) for r in rows]


async def test_solo_parties_rate_the_person_as_openskill_does_anchored_on_the_bots_and_rebuild_alike(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1)
    anna = tg.add_user("Аня")
    results = [await solo_party(tg, anna, "hard"), await solo_party(tg, anna, "easy")]

    db = running.app.db
    seats = await stored_parties(db)
    person = LIBRARY.rating()  # a newcomer: the library's default
    expected: list[tuple[float, float]] = []
    for game in dict.fromkeys(s[0] for s in seats):
        table = [s for s in seats if s[0] == game]
        teams = [[person] if s[4] else [LIBRARY.rating(*BOT_LEVELS[str(s[1])])] for s in table]
        ranks = [(0 if s[2] else 1, -s[3]) for s in table]
        places = [float(1 + sum(other < mine for other in ranks)) for mine in ranks]
        rated = LIBRARY.rate(teams, ranks=places)
        (person,) = next(team for team, s in zip(rated, table, strict=True) if s[4])
        expected.append((person.mu, person.sigma))
        for team, s in zip(rated, table, strict=True):
            if not s[4]:  # the bot's own rating moves in the library; the bot never stores it
                assert (team[0].mu, team[0].sigma) != BOT_LEVELS[str(s[1])]

    stored = await standings.ratings(db)
    assert stored == {(anna.id, "konchinka"): standings.StoredSkill(*expected[-1], 2)}, (
        "only the person is rated"
    )
    changes = await db.all("SELECT mu, sigma, mu_before FROM rating_changes ORDER BY at, game_id")
    assert [(r["mu"], r["sigma"]) for r in changes] == expected
    assert changes[0]["mu_before"] == 25.0 and changes[1]["mu_before"] == expected[0][0]

    # The result says the rating on the shown scale, with its uncertainty while it has not settled.
    shown = round(1500 + 30 * (expected[-1][0] - 25))
    change = shown - round(1500 + 30 * (expected[0][0] - 25))
    said = re.search(r"📈 Ваш рейтинг: (\d+) ± (\d+) \(([+−]?\d+)\)", results[-1])
    assert said is not None, results[-1]
    assert int(said[1]) == shown and int(said[3].replace("−", "-")) == change
    assert int(said[2]) == round(60 * expected[-1][1])

    # The rebuild computes every rating again from the stored games: the very same numbers.
    before = await db.all("SELECT * FROM rating_changes ORDER BY game_id, user_id")
    await db.write(_scrambled())
    done = await rebuild.rebuild(db)
    assert done.parties == 2
    assert await standings.ratings(db) == stored
    after = await db.all("SELECT * FROM rating_changes ORDER BY game_id, user_id")
    assert [tuple(r) for r in after] == [tuple(r) for r in before]


def _scrambled() -> Batch:
    """Ratings made wrong, so that the rebuild must compute them again to pass."""
    batch = Batch()
    batch.add("UPDATE ratings SET mu = mu + 1")
    batch.add("UPDATE rating_changes SET mu = 0")
    return batch


async def answer_to(tg: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> str:
    """What the bot answers ``text`` sent by ``user`` in ``chat`` (its next message there)."""
    last = chat.bot_messages()[-1].message_id if chat.bot_messages() else 0
    if chat is user.private_chat:
        await user.send_private(text)
    else:
        await user.send(chat, text)
    await tg.wait_for(lambda: chat.bot_messages() and chat.bot_messages()[-1].message_id > last, what=text)
    return chat.bot_messages()[-1].text


async def test_the_global_board_shows_only_people_who_opted_in_with_privacy(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(default_target=1)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    await solo_party(tg, anna, "normal")
    board = await answer_to(tg, boris, boris.private_chat, "/top")
    assert "Аня" not in board and board.startswith("В общей таблице пока никого"), board

    said = await answer_to(tg, anna, anna.private_chat, "/privacy")
    assert said.startswith("🌍 Вы в общей таблице"), said
    board = await answer_to(tg, boris, boris.private_chat, "/top")
    assert re.search(r"^1\. Аня — \d+ ± \d+ · 1 партия, [01] побед", board, re.MULTILINE), board
    group = tg.add_group("Чужие", [boris])  # a chat Аня never played in: only the global board names her
    assert "Аня" not in await answer_to(tg, boris, group, "/top")
    assert "1. Аня — " in await answer_to(tg, boris, group, "/top all")

    said = await answer_to(tg, anna, anna.private_chat, "/privacy")
    assert said.startswith("🔒 Вас нет в общей таблице"), said
    board = await answer_to(tg, boris, boris.private_chat, "/top")
    assert "Аня" not in board, board


async def test_a_season_s_end_tells_the_group_its_top_once_on_the_bots_clock_even_after_a_restart_or_an_upgrade(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await play_until(tg, [anna, boris], lambda: has_rematch(group.visible_messages()), timeout=120)
    await tg.settle()
    final = next(m.text for m in group.visible_messages() if m.is_from_bot and "Партия окончена" in m.text)
    winner, loser = ("Аня", "Борис") if "Победа: Аня" in final else ("Борис", "Аня")
    supergroup = tg.migrate(group, anna)  # the group's ratings and season go with it
    await tg.settle()
    board = await answer_to(tg, boris, supergroup, "/top")
    assert re.search(rf"^1\. {winner} — \d+ ± \d+ · 1 партия, 1 победа$", board, re.MULTILINE), board

    def ends() -> list[str]:
        return [m.text for m in supergroup.bot_messages() if "Сезон закончился" in m.text]

    assert tg.driver is not None
    clock = tg.driver.clock
    season = season_of(clock.now())
    clock.move_to(season_start(next_season(season)) - 60)  # the month's last minute: not over yet
    await tg.settle()
    assert ends() == []
    await tg.sleep(2)  # two minutes of the bot's clock: the month is over
    (told,) = ends()
    lines = told.splitlines()
    assert lines[0] == f"🏁 Сезон закончился: {_month(season)}", told
    assert re.fullmatch(rf"1\. {winner} \+\d+ за 1 партию", lines[4]), told
    assert re.fullmatch(rf"2\. {loser} −\d+ за 1 партию", lines[5]), told

    await running.stop()
    await bot_runner(default_target=1)  # a restart in the next month: told already
    await tg.sleep(60)
    assert len(ends()) == 1


def _month(season: str) -> str:
    months = [
        "январь",
        "февраль",
        "март",
        "апрель",
        "май",
        "июнь",
        "июль",
        "август",
        "сентябрь",
        "октябрь",
        "ноябрь",
        "декабрь",
    ]
    year, month = season.split("-")
    return f"{months[int(month) - 1]} {year}"


async def test_a_party_its_player_cancels_midway_counts_as_their_loss_and_rebuilds_alike(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=11)  # a party that goes on
    anna = tg.add_user("Аня")
    await start_solo_konchinka(tg, anna, opponents=2, level="easy")
    await play_until(tg, [anna], lambda: False, moves=2, timeout=30)
    said = await answer_to(tg, anna, anna.private_chat, "/cancel")
    assert "отмен" in said.lower(), said

    db = running.app.db
    (row,) = await db.all("SELECT status, cancelled_by FROM games")
    assert (row["status"], row["cancelled_by"]) == ("cancelled", anna.id)
    seats = await db.all("SELECT user_id, level FROM seats ORDER BY seat")
    teams = [[LIBRARY.rating(*BOT_LEVELS[s["level"]]) if s["level"] else LIBRARY.rating()] for s in seats]
    ranks = [
        2.0 if s["user_id"] == anna.id else 1.0 for s in seats
    ]  # she is last, the bots share the first place
    rated = LIBRARY.rate(teams, ranks=ranks)
    (mine,) = next(team for team, s in zip(rated, seats, strict=True) if s["user_id"] == anna.id)
    stored = await standings.ratings(db)
    assert stored == {(anna.id, "konchinka"): standings.StoredSkill(mine.mu, mine.sigma, 1)}
    assert mine.mu < 25.0, "a loss"

    await db.write(_scrambled())
    assert (await rebuild.rebuild(db)).parties == 1
    assert await standings.ratings(db) == stored
