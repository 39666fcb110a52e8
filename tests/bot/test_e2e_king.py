"""Кинг through the fake Telegram: a group party of two people and two bot players, and a solo party against
three bots, each played to the end of the 15th deal by button presses; the trump choice; an unplayable card; a
player who walks away (his turns played for him, then a bot in his seat, which he takes back) across a restart."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.callbacks import LobbyCb, LobbyOp, MoveCb, PickCb, SeatCb, SoloCb, SoloStep
from bot.games.king.settings import KingSetting
from bot.storage import repo
from engine.core import replay
from engine.king import KingState
from tests.bot.conftest import BotRunner, Running, has_rematch, lobby_of, open_king_lobby, turn_message
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser

FAST = {"bot_delay": 0.05}
"""Bot players move after 0.05 s of the bot's clock (under a millisecond of real time), so the group's table is
edited as often as its budget allows all party long: the outbox must still never be answered 429."""
REASONS = (
    "Нужно класть карту в масть",
    "Заходить с червей нельзя",
    "нужно отдать кинга",
    "нужно бить козырем",
)
"""The beginnings of the answers to an unplayable card."""
LATE = "Этот ход уже сделан."


def _moves(message: FakeMessage) -> list[str]:
    return [
        b.callback_data for b in message.flat_buttons if b.callback_data and b.callback_data.startswith("m:")
    ]


def _unplayable(message: FakeMessage) -> list[str]:
    return [
        b.callback_data for b in message.flat_buttons if b.callback_data and b.callback_data.startswith("p:")
    ]


async def _state(running: Running, game: str) -> KingState:
    record = await repo.record_of(running.app.db, int(game))
    assert record is not None
    state = replay(record)
    assert isinstance(state, KingState)
    return state


class Table:
    """People playing Кинг the way a person does: press a card (or a trump) of their newest turn message."""

    def __init__(
        self, tg: FakeTelegram, running: Running, game: str, people: list[FakeUser], *, refusals: int = 2
    ) -> None:
        self.tg = tg
        self.running = running
        self.game = game
        self.people = people
        self.rng = random.Random(7)
        self.refusals: list[str] = []
        self.refusals_wanted = refusals
        self.trump_screens = 0
        self.by_last = False
        self.late_ok = False

    async def play(
        self, done: FakeChat, *, timeout: float = 50.0, until: Callable[[], bool] | None = None
    ) -> int:
        """Play until the Реванш button shows up in ``done`` (or ``until`` holds); the moves the people made."""
        deadline = self.tg.monotonic() + timeout
        made = 0
        while not has_rematch(done.visible_messages()) and not (until is not None and until()):
            assert self.tg.monotonic() < deadline, f"not finished in {timeout} s ({made} moves)"
            played = False
            for user in self.people:
                message = turn_message(user)
                if message is None:
                    continue
                if await self._turn(user, message):
                    made += 1
                    played = True
            if not played:
                await self.tg.sleep(0.005)
        return made

    async def _turn(self, user: FakeUser, message: FakeMessage) -> bool:
        moves = _moves(message)
        if not moves:
            return False
        data = self.rng.choice(moves)
        if "♠" in [b.text for b in message.flat_buttons]:
            await self._check_trump_choice(user, message)
            if not self.by_last:
                self.by_last = True
                data = next(b.callback_data or "" for b in message.flat_buttons if "По последней" in b.text)
        elif _unplayable(message) and len(self.refusals) < self.refusals_wanted:
            await self._check_refusal(user, message)
        answer = await user.press(message, data=data)
        if self.late_ok and answer.text == LATE:
            return False  # the turn ran out just before the press: it was played for this person
        assert answer.answered and not answer.text, answer.text
        # The live message changes (or goes) before the person looks at it again.
        await self.tg.wait_for(
            lambda: message.is_deleted or data not in _moves(message), what="the move shown"
        )
        return True

    async def _check_trump_choice(self, chooser: FakeUser, message: FakeMessage) -> None:
        """The chooser sees three cards and the five choices; everyone else waits without a hand."""
        self.trump_screens += 1
        assert "Ваши первые три карты" in message.text
        labels = [
            b.text for b in message.flat_buttons if b.callback_data and b.callback_data.startswith("m:")
        ]
        assert labels == ["♠", "♥", "♦", "♣", "🂠 По последней"]
        state = await _state(self.running, self.game)
        assert MoveCb.unpack(_moves(message)[0]).version == state.version
        for other in self.people:
            if other is chooser:
                continue
            chat = other.private_chat
            # The hand is the newest message once it went below the last deal's result.
            await self.tg.wait_for(
                lambda chat=chat: (m := chat.last_bot_message()) is not None and "Ждём козыря" in m.text,  # type: ignore[misc]
                what="the others wait",
            )
            live = chat.last_bot_message()
            assert live is not None and not _moves(live) and not _unplayable(live)

    async def _check_refusal(self, user: FakeUser, message: FakeMessage) -> None:
        """Pressing an unplayable card says why, and changes nothing."""
        before = (await _state(self.running, self.game)).version
        data = _unplayable(message)[0]
        answer = await user.press(message, data=data)
        assert answer.text is not None and answer.text.startswith(REASONS), answer.text
        self.refusals.append(answer.text)
        assert (await _state(self.running, self.game)).version == before
        assert PickCb.unpack(data).version == before
        assert turn_message(user) is message, "the same turn message stays"


@pytest.mark.long
async def test_a_group_king_party_of_two_people_and_two_bots_is_played_to_the_end(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(**FAST)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_king_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)
    assert "Кинг" in lobby.text
    # The creator picks another order of the «не брать» deals; one bot is added, the last seat fills itself.
    order = LobbyCb(game=game, op=LobbyOp.SET, key=KingSetting.ORDER.value, value="jacks").pack()
    answer = await boris.press(lobby, data=order, force=True)
    assert answer.text is not None and "организатор" in answer.text
    await anna.press(lobby, data=order, force=True)
    await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="easy").pack(), force=True)
    await tg.wait_for(lambda: "Новичок" in lobby_of(group).text, what="the bot player")
    answer = await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.answered and not answer.text

    table = Table(tg, running, game, [anna, boris])
    made = await table.play(group)
    await tg.settle()

    state = await _state(running, game)
    assert state.is_terminal and len(state.score_sheet) == 15
    assert sum(state.results) == 0
    assert [str(c) for c in state.game.options.order][:2] == ["jacks", "tricks"]
    texts = [m.text for m in group.visible_messages() if m.is_from_bot]
    deal_ends = [t for t in texts if "окончена ·" in t and t.startswith("Раздача")]
    assert len(deal_ends) == 14, "each deal's points are posted in the group (the last one's with the end)"
    assert deal_ends[0].startswith("Раздача 1/15 окончена · «не брать мальчиков»")
    final = texts[-1]
    assert "Партия окончена" in final and "Итоги (отыгрыш − штрафы)" in final
    assert "Раздача 15/15 окончена" in final
    # Said once: the whole sheet is the picture above it; the end and each deal's end in a few lines, the people's
    # ratings in one line below them (an achievement earned, a line of its own below that).
    body = final.split("\n\n🏅", 1)[0]
    result, rated = body.split("\n\n📈 Рейтинг: ")
    assert "Σ" not in result and result.count("\n") <= 10, final
    assert "\n" not in rated and "Аня" in rated and "Борис" in rated, final
    assert all(t.count("\n") <= 3 for t in deal_ends), deal_ends
    assert any("по последней:" in t for t in _table_versions(group)), "the 8th card is shown to the group"
    assert table.trump_screens >= 2 and table.refusals
    # The score sheet: one photo in the group, edited at each of the fifteen deals' ends; the final one in each
    # person's own chat.
    [sheet] = [m for m in group.visible_messages() if m.is_from_bot and m.current.media is not None]
    assert len(sheet.history) == 15 and "Итог партии" in sheet.text
    assert sheet.history[0].text.startswith("📋 Запись после раздачи 1:")
    for user in (anna, boris):
        [mine] = [m for m in user.private_chat.visible_messages() if m.current.media is not None]
        assert mine.current.media == sheet.current.media
        assert turn_message(user) is None
    assert tg.stats.too_many_requests == 0 and tg.stats.not_modified == 0
    print(f"\nКинг group party: {made} moves by people; refusals {table.refusals}")


def _table_versions(group: FakeChat) -> list[str]:
    return [v.text for m in group.bot_messages() for v in m.history]


@pytest.mark.long
async def test_a_solo_king_party_against_three_bots_is_played_to_the_end(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(**FAST)
    vera = tg.add_user("Вера")
    chat = vera.private_chat
    await vera.send_private("/play")
    await tg.wait_for(lambda: chat.last_bot_message() is not None, what="the game menu")
    menu = chat.last_bot_message()
    assert menu is not None
    forged = SoloCb(step=SoloStep.LEVEL, game="king", opponents=1, level="normal").pack()
    answer = await vera.press(menu, data=forged, force=True)
    assert answer.text == "Так нельзя.", "Кинг is always played by four"
    await vera.press(menu, "👑 Кинг — с тремя ботами")
    level = SoloCb(step=SoloStep.LEVEL, game="king", opponents=3, level="normal").pack()
    await tg.wait_for(lambda: level in [b.callback_data for b in menu.flat_buttons], what="the levels")
    await vera.press(menu, data=level)
    await tg.wait_for(lambda: turn_message(vera) is not None, what="the first turn")
    async with running.app.db.tx() as tx:
        game = await repo.active_game_in_chat(tx, vera.id, 0)
    assert game is not None and game.kind == "king"

    table = Table(tg, running, str(game.id), [vera], refusals=0)
    made = await table.play(chat)
    await tg.settle()
    state = await _state(running, str(game.id))
    assert state.is_terminal and sum(state.results) == 0
    texts = [m.text for m in chat.visible_messages() if m.is_from_bot]
    # The last deal's result is folded into the party's end: one message for one event.
    assert sum(1 for t in texts if t.startswith("Раздача") and "/15 окончена" in t) == 14
    assert any("Партия окончена" in t and "Раздача 15/15 окончена" in t and "Итоги" in t for t in texts)
    assert made >= 8 * 7 // 2
    assert tg.stats.too_many_requests == 0


@pytest.mark.long
async def test_a_king_player_who_walks_away_is_replaced_and_comes_back_across_a_restart(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    first = await bot_runner(turn_timeout=60, reminder_before=15, **FAST)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_king_lobby(tg, group, anna, [anna, boris])
    add_bot = LobbyCb(game=game, op=LobbyOp.ADD_BOT, value="normal").pack()
    await anna.press(lobby_of(group), data=add_bot, force=True)
    await tg.wait_for(lambda: "Любитель" in lobby_of(group).text, what="the bot player")
    await anna.press(lobby_of(group), data=LobbyCb(game=game, op=LobbyOp.START).pack())
    seat = SeatCb(game=game).pack()

    def seat_message() -> FakeMessage | None:
        """The group's message with the «Вернуться за стол» button, if one is showing."""
        return next(
            (m for m in group.visible_messages() if any(b.callback_data == seat for b in m.flat_buttons)),
            None,
        )

    def seat_offered() -> bool:
        return seat_message() is not None

    # Boris never presses: his turns run out and are played for him, then a bot takes his seat.
    table = Table(tg, first, game, [anna], refusals=0)
    table.late_ok = True  # with turns that run out, a press can come a moment too late on a busy machine
    await table.play(group, until=seat_offered, timeout=60)
    assert not has_rematch(group.visible_messages())
    private = [m.text for m in boris.private_chat.bot_messages()]
    assert any(t.startswith("⏰ Борис, ваш ход!") for t in private), "Boris was reminded"
    assert any("Борис пропускает ходы" in m.text for m in group.bot_messages()), "the group was told"
    moved = (await _state(first, game)).version
    assert tg.stats.too_many_requests == 0

    # The bot is restarted in the middle of the party; nothing is lost.
    await first.stop()
    running = await bot_runner(turn_timeout=60, reminder_before=15, **FAST)
    table.running = running
    assert (await _state(running, game)).version >= moved

    # Boris comes back and takes his seat with one tap; both people play the party out.
    message = seat_message()
    assert message is not None
    answer = await boris.press(message, data=seat)
    assert answer.answered and not answer.text  # the notice in his chat says it
    await tg.wait_for(
        lambda: any("Борис снова за столом" in m.text for m in group.visible_messages()), what="the return"
    )
    for user in (boris, anna):  # pressed again, or by somebody at the table: a clear answer, no change
        answer = await user.press(message, data=seat)
        assert answer.text == "Вы и так за столом."
    await tg.settle()
    assert sum("Борис снова за столом" in m.text for m in group.visible_messages()) == 1
    table.people = [anna, boris]
    made = await table.play(group, timeout=90)
    await tg.settle()
    state = await _state(running, game)
    assert state.is_terminal and len(state.score_sheet) == 15 and sum(state.results) == 0
    assert made > 0
    # The new process counted the calls the old one had made in the group's minute window: still no 429.
    assert tg.stats.too_many_requests == 0


async def test_a_king_lobby_and_its_table_wear_the_same_emblem(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await open_king_lobby(tg, group, anna, [anna, boris])
    lobby = lobby_of(group)
    assert lobby.text.startswith("👑 Кинг ·"), lobby.text
    await anna.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())
    await tg.wait_for(lambda: "раздача 1/15" in lobby.text, what="the lobby become the table")
    assert lobby.text.startswith("👑 Кинг · раздача 1/15"), lobby.text
