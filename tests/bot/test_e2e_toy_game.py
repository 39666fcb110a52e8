"""A third game the bot has never heard of — the toy «Старшая карта» of ``tests/toygame`` (its engine, its
plug-in, its texts, all in that folder) — is played in a group through the fake Bot API: its command opens a
lobby, two people join and play it to its end, and the stored record replays to the result the chats show."""

from __future__ import annotations

from bot.storage import GameStatus
from engine.core import replay
from tests.bot.conftest import BotRunner, game_row, play_until, start_party
from tests.fakebot import FakeTelegram
from tests.toygame.plugin import hosted


async def test_a_toy_game_is_played_in_a_group_from_its_own_folder(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    with hosted():
        running = await bot_runner()
        anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
        group = tg.add_group("Друзья", [anna, boris], admins=[anna])

        await anna.send(group, "/help")
        await tg.wait_for(lambda: any("/highcard" in m.text for m in group.bot_messages()), what="/help")

        game = await start_party(tg, group, anna, [anna, boris], command="/highcard")
        ended = lambda: any("🏆 Победа" in m.text for m in group.bot_messages())  # noqa: E731
        await play_until(tg, [anna, boris], ended, timeout=30)
        await tg.settle()

        row = await game_row(running, game)
        assert row.kind == "highcard" and row.status is GameStatus.FINISHED and row.record is not None
        state = replay(row.record)
        assert state.is_terminal and state.version in (4, 6)  # two tricks to nil, or two to one
        outcome = state.outcome
        assert outcome is not None
        winner = (anna, boris)[outcome.winners[0]]
        assert f"🏆 Победа: {winner.full_name}" in next(
            m.text for m in group.bot_messages() if "🏆" in m.text
        )
        # each player's private chat followed the party: the last hand shows no card to play
        for user in (anna, boris):
            assert "Взятки:" in user.private_chat.visible_messages()[-1].text
