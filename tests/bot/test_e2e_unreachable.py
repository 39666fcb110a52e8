"""A player the bot cannot write to does not freeze the game; AFK turns are played for them."""

from __future__ import annotations

from bot.callbacks import SeatCb
from tests.bot.conftest import BotRunner, has_rematch, play_until, turn_message
from tests.fakebot import FakeTelegram


async def test_a_player_who_blocked_the_bot_gets_a_start_link_and_bots_play_for_them(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner(turn_timeout=20, reminder_before=5)
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис"), tg.add_user("Вера")
    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
    from bot.callbacks import LobbyCb, LobbyOp
    from tests.bot.conftest import lobby_of, open_lobby

    game = await open_lobby(tg, group, anna, [anna, boris, vera])
    vera.block_bot()
    await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())

    def start_link_shown() -> bool:
        return any(
            "start=g_" + game in (b.url or "") for m in group.visible_messages() for b in m.flat_buttons
        )

    await tg.wait_for(start_link_shown, timeout=10, what="the «start the bot» link in the group")
    assert turn_message(vera) is None

    def replaced() -> bool:
        data = SeatCb(game=game).pack()
        return any(b.callback_data == data for m in group.visible_messages() for b in m.flat_buttons)

    # Anna and Boris keep playing; Vera's turns run out and are played for her, then a bot takes her seat.
    await play_until(tg, [anna, boris], replaced, timeout=60)
    assert not has_rematch(group.visible_messages())

    # Vera comes back through the link and takes her seat back with one tap.
    await vera.send_private(f"/start g_{game}")
    seat_message = next(
        m
        for m in group.visible_messages()
        if any(b.callback_data == SeatCb(game=game).pack() for b in m.flat_buttons)
    )
    answer = await vera.press(seat_message, data=SeatCb(game=game).pack())
    assert answer.answered and not answer.text  # said by the notice in her chat, not a toast too
    await play_until(tg, [anna, boris, vera], lambda: has_rematch(group.visible_messages()), timeout=90)
    assert tg.stats.too_many_requests == 0
