"""What a player of a group party sees in their own chat, read back from the fake Telegram (issue 21, part A).

Every move of the others reaches each player's private chat before their next turn («С вашего хода»); the timer's
move and a bot taking the seat are told in the player's own chat, where the seat can be taken back; every card
with two or more moves takes two taps and «🏁 Прикончить!» says why and asks once; the party ends in one message per chat, by place, with
«Вы победили!» / «Вы на 2-м месте» privately, and nothing after the end says whose move it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest

from bot.callbacks import LobbyCb, LobbyOp
from bot.games.konchinka.views import event_text
from bot.i18n import Locale, Translator, translator
from bot.model.game import Seat
from bot.storage import repo
from bot.views.common import SeatInfo
from engine.core import replay
from engine.konchinka import EventKind, KonchinkaState
from tests.bot.conftest import (
    BotRunner,
    Running,
    find_lobby,
    game_row,
    has_rematch,
    lobby_of,
    move_buttons,
    plain,
    seat_names,
    start_party,
    take_turn,
    turn_message,
)
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.fakebot.html import EntityType

RU = translator(Locale.RU)
EN = translator(Locale.EN)


async def party_state(running: Running, game: str) -> KonchinkaState:
    record = await repo.record_of(running.app.db, int(game))
    assert record is not None
    state = replay(record)
    assert isinstance(state, KonchinkaState)
    return state


def everything_seen(chat: FakeChat) -> str:
    """Every version of every message the bot sent to ``chat`` so far (deleted ones too), as plain text."""
    return "\n".join(plain(v.text) for m in chat.messages.values() if m.is_from_bot for v in m.history)


@dataclass
class Party:
    """People playing a group Кончинка party as people do; at each turn, what the mover's chat had shown."""

    tg: FakeTelegram
    running: Running
    game: str
    people: list[FakeUser]
    seen_at_turn: dict[int, list[str]] = field(default_factory=dict)

    async def play(self, group: FakeChat, *, timeout: float = 120) -> int:
        made = 0
        deadline = self.tg.monotonic() + timeout
        while not has_rematch(group.visible_messages()):
            assert self.tg.monotonic() < deadline, f"the party did not finish ({made} moves)"
            if await self.move(pick=made, deadline=deadline):
                made += 1
            else:
                await self.tg.sleep(0.01)
        await self.tg.settle()
        return made

    async def move(self, *, pick: int = 0, deadline: float) -> bool:
        """The player to move makes one move (the ``pick``-th card) and it is made; False when nobody can move yet
        (a hand the last move made stale, not yet redrawn)."""
        mover = next((u for u in self.people if turn_message(u) is not None), None)
        if mover is None:
            return False
        seen = everything_seen(mover.private_chat)
        version = (await game_row(self.running, self.game)).version
        message = turn_message(mover)
        if message is None or not any(d.split(":")[2] == str(version) for d in move_buttons(message)):
            return False
        await take_turn(self.tg, mover, pick=pick, through=message)
        while (await game_row(self.running, self.game)).version == version:
            assert self.tg.monotonic() < deadline, "the move was not made"
            await self.tg.sleep(0.01)
        self.seen_at_turn.setdefault(mover.id, []).append(seen)
        return True


async def start_full_party(tg: FakeTelegram, group: FakeChat, people: list[FakeUser]) -> str:
    """``/konchinka`` in the group, everyone joins (a full lobby offers no join link any more), the first
    starts it; the game id."""
    creator = people[0]
    await creator.send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    lobby = lobby_of(group)
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    payload = url.split("start=", 1)[1]
    for user in people:
        await user.send_private(f"/start {payload}")
    await tg.wait_for(lambda: all(u.full_name in lobby.text for u in people), what="everyone seated")
    game = payload.removeprefix("j_")
    answer = await creator.press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())
    assert answer.answered and not answer.text
    return game


def seats_of(names: list[str]) -> tuple[SeatInfo, ...]:
    return tuple(SeatInfo(name, i + 1) for i, name in enumerate(names))


def moves_each_seat_missed(state: KonchinkaState, names: list[str]) -> list[list[list[str]]]:
    """For each seat, for each of its moves in the party: the others' moves since its own previous move, as the
    table writes them (rebuilt from the record, move by move)."""
    record = state.record()
    game = state.game
    seats = seats_of(names)
    again = game.new_initial_state(state.seed)
    pending: list[list[str]] = [[] for _ in range(game.num_players)]
    missed: list[list[list[str]]] = [[] for _ in range(game.num_players)]
    for code in record.actions:
        mover = again.current_player
        missed[mover].append(pending[mover])
        pending[mover] = []
        told = len(again.events)
        again.apply(game.parse_action(code))
        for event in again.events[told:]:
            text = event_text(event, seats, RU)
            text = plain(text) if text is not None else None
            if event.kind is EventKind.DEAL_START or text is None:
                continue
            for seat in range(game.num_players):
                if seat != event.player:
                    pending[seat].append(text)
    return missed


async def test_every_move_of_the_others_reaches_each_private_chat_before_that_players_next_turn(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner()
    people = [tg.add_user(name) for name in ("Аня", "Борис", "Вера", "Гоша")]
    group = tg.add_group("Друзья", people, admins=people[:1])
    game = await start_full_party(tg, group, people)
    party = Party(tg, running, game, people)
    made = await party.play(group)

    state = await party_state(running, game)
    names = await seat_names(running, game)
    missed = moves_each_seat_missed(state, names)
    checked = 0
    for seat, name in enumerate(names):
        user = next(u for u in people if u.full_name == name)
        seen = party.seen_at_turn[user.id]
        assert len(seen) == len(missed[seat]), name
        for turn, (shown, lines) in enumerate(zip(seen, missed[seat], strict=True)):
            for line in lines:
                assert line in shown, f"{name}, turn {turn + 1}: «{line}» never reached the private chat"
                checked += 1
    assert made == state.version and checked > made  # four seats: up to three moves before each turn
    for user in people:
        hands = [  # the hand's message is deleted at the party's end: what it showed in between stays in its history
            v
            for m in user.private_chat.messages.values()
            if m.is_from_bot
            for v in m.history
            if move_buttons_of(v.reply_markup)
        ]
        assert hands and max(len(v.text.split("\n")) for v in hands) <= 6, user.full_name


def move_buttons_of(markup: dict[str, object] | None) -> bool:
    rows = (markup or {}).get("inline_keyboard") or []
    assert isinstance(rows, list)
    return any(str(b.get("callback_data") or "").startswith(("m:", "p:")) for row in rows for b in row)


SEAT_TEXTS = {
    "ru": (
        "⏰ Время вышло — бот сыграл за вас {card}.",
        "🤖 Вы пропустили несколько ходов подряд — теперь за вас играет бот. Вернуться можно кнопкой ниже.",
        "🤖 За вас играет бот — вернуться можно кнопкой ниже.",
        "↩️ Вернуться за стол",
        "Вы снова за столом.",
    ),
    "en": (
        "⏰ Time ran out — the bot played {card} for you.",
        "🤖 You missed several turns in a row — the bot plays for you now. Tap below to come back.",
        "🤖 The bot plays for you — tap below to come back.",
        "↩️ Back to the game",
        "You're back at the table.",
    ),
}


LAST_MOVE = {"ru": "Последний ход бота за вас: ", "en": "The bot’s last move for you: "}


def seat_cards(state: KonchinkaState, seat: int, tr: Translator) -> list[str]:
    """The cards ``seat`` played in the party, in order, as ``tr`` writes them."""
    again = state.game.new_initial_state(state.seed)
    played = []
    for code in state.record().actions:
        mover = again.current_player
        action = state.game.parse_action(code)
        card = getattr(action, "card", None)
        if mover == seat and card is not None:
            played.append(card.ru if tr is RU else card.text)
        again.apply(action)
    return played


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_your_own_chat_hears_the_timer_and_the_bot_and_the_seat_comes_back_from_there(
    tg: FakeTelegram, bot_runner: BotRunner, lang: str
) -> None:
    running = await bot_runner(turn_timeout=30, reminder_before=10)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис", language_code=lang)
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    timed_out, replaced, waiting, back_button, back_answer = SEAT_TEXTS[lang]
    chat = boris.private_chat

    def notice(start: str) -> FakeMessage | None:
        return next((m for m in chat.visible_messages() if m.is_from_bot and m.text.startswith(start)), None)

    def seat_notice() -> FakeMessage | None:
        return next((m for m in chat.visible_messages() if replaced in m.text), None)

    # Boris never presses: the timer plays for him twice, then a bot player takes his seat.
    deadline = tg.monotonic() + 60
    while seat_notice() is None:
        assert tg.monotonic() < deadline, "no seat notice in Boris's chat"
        if turn_message(anna) is not None:
            await take_turn(tg, anna)
        await tg.sleep(0.05)
    await tg.settle()
    state = await party_state(running, game)
    names = await seat_names(running, game)
    cards = seat_cards(state, names.index("Борис"), translator(lang))
    first = notice(timed_out.split("{")[0])
    assert first is not None and first.text == timed_out.format(card=cards[0])
    message = seat_notice()
    assert message is not None
    assert message.text == timed_out.format(card=cards[1]) + "\n" + replaced
    assert [b.text for b in message.flat_buttons] == [back_button]
    # The hand that waits says the seat is replaced, with the same button, and what the bot played for him last.
    hand = next(m for m in reversed(chat.visible_messages()) if m.is_from_bot and waiting in m.text)
    assert back_button in [b.text for b in hand.flat_buttons]
    last = hand.text.split(waiting + "\n", 1)[1].splitlines()[0]
    assert last.startswith(LAST_MOVE[lang]) and cards[1] in last, hand.text
    assert "Борис" not in last, "his own hand tells him his move, not «Борис кладёт …»"

    # One tap in his own chat takes the seat back; the hand stops saying a bot plays for him, and his chat says
    # what the bot played for him meanwhile.
    answer = await boris.press(message, back_button)
    assert answer.answered and not answer.text, "said once: by the notice below, not a toast too"
    await tg.wait_for(
        lambda: any("Борис снова за столом" in m.text for m in group.visible_messages()), what="the return"
    )
    await tg.settle()
    back = notice("↩️ " + back_answer)
    assert back is not None
    listed = back.text.split(": ", 1)[1].rstrip(".").split(", ")
    played = seat_cards(await party_state(running, game), names.index("Борис"), translator(lang))
    assert len(listed) >= 2 and listed == played[: len(listed)], (back.text, played)
    assert not any(waiting in m.text for m in chat.visible_messages() if m.is_from_bot)
    assert not any(seat.replaced for seat in await seat_rows(running, game))


async def seat_rows(running: Running, game: str) -> list[Seat]:
    async with running.app.db.tx() as tx:
        return await repo.seats_of(tx, int(game))


def finish_button(message: FakeMessage) -> str | None:
    return next((d for d in move_buttons(message) if d.startswith("p:") and d.endswith(":f")), None)


async def test_a_card_with_one_move_plays_on_its_tap_and_the_finish_says_why_and_asks_once(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=1)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    game = await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: any(turn_message(u) for u in (anna, boris)), what="a turn")
    mover = anna if turn_message(anna) else boris
    hand = turn_message(mover)
    assert hand is not None
    version = (await game_row(running, game)).version

    # A card with more moves than it can show on the hand is marked «…» and asks what to do («← Другая карта»
    # undoes the tap); a card with two or three moves (a capture or two, and the table) has each as a button
    # named by the card; a card that can only be laid is laid on its one tap.
    state = await party_state(running, game)
    view = state.view(state.current_player)

    def moves_of(c: object) -> list[str]:
        return [a.code for a in view.legal_actions if getattr(a, "card", None) is c]

    lay_only = [c for c in view.hand if len(moves_of(c)) == 1 and moves_of(c)[0].startswith("l:")]
    asking = [c for c in view.hand if hand.has_button(c.ru + "…")]
    assert lay_only, "a card that can only be laid"
    assert all(len(moves_of(c)) > 1 for c in asking)
    spelled = [b for b in hand.flat_buttons if (b.callback_data or "").startswith("m:")]
    for c in view.hand:
        own = [b for b in spelled if b.text.startswith(f"{c.ru} ")]
        assert len(own) in (0, len(moves_of(c))), "each of the card's moves, or none"
        assert not own or len(moves_of(c)) in (2, 3)
    assert len(spelled) == sum(1 for c in view.hand for b in spelled if b.text.startswith(f"{c.ru} "))
    for card in asking:
        answer = await mover.press(hand, card.ru + "…")
        assert answer.answered and not answer.text
        question = f"{card.ru} — что делаем?"
        await tg.wait_for(lambda: question in hand.text, what="the card's moves")  # noqa: B023
        assert "← Другая карта" in [b.text for b in hand.flat_buttons]
        await mover.press(hand, "← Другая карта")
        await tg.wait_for(lambda: "что делаем" not in hand.text, what="the whole hand again")
    assert (await game_row(running, game)).version == version
    card = lay_only[0]
    answer = await mover.press(hand, card.ru)
    assert answer.answered and not answer.text
    await tg.wait_for(
        lambda: card.ru in plain(group.visible_messages()[-1].text), what="the card on the table"
    )
    record = (await party_state(running, game)).record()
    assert (await game_row(running, game)).version == version + 1 and record.actions[-1] == f"l:{card.code}"

    # Played on until «🏁 Прикончить!» is offered (a кончинка reaches the target of 1): it says why and asks.
    deadline = tg.monotonic() + 60
    made = 0
    while True:
        assert tg.monotonic() < deadline and not has_rematch(group.visible_messages()), (
            "no finish was offered"
        )
        who = next((u for u in (anna, boris) if turn_message(u) is not None), None)
        found = turn_message(who) if who is not None else None
        current = (await game_row(running, game)).version
        buttons = move_buttons(found) if found is not None else []  # an edit may have taken them meanwhile
        # Only a message that offers moves at the current version: a message whose edit is still on its way
        # offers the move just made (pressed, it is refused as made already, and nobody would move on).
        if who is None or found is None or not buttons or int(buttons[0].split(":")[2]) != current:
            await tg.sleep(0.01)
            continue
        mover, message = who, found
        if finish_button(message) is not None:
            break
        await take_turn(tg, mover, pick=made, through=message)
        while (await game_row(running, game)).version == current:
            assert tg.monotonic() < deadline, "the move was not made"
            await tg.sleep(0.01)
        made += 1
    state = await party_state(running, game)
    seat = state.current_player
    held = state.view(seat).konchinki[seat]
    gives = "даёт" if len(held) == 1 else "дают"
    reason = f"{' '.join(c.ru for c in held)} {gives} +{len(held)} → {len(held)}"
    answer = await mover.press(message, "🏁 Прикончить!")
    assert answer.answered and not answer.text
    await tg.wait_for(lambda: "Прикончить партию?" in message.text, what="the question")
    assert plain(message.text).split("\n")[-1] == f"🏁 Прикончить партию? {reason} — и партия ваша."
    assert [b.text for b in message.flat_buttons][:2] == ["🏁 Да, прикончить!", "← Не приканчивать"]
    assert (await game_row(running, game)).version == current
    await mover.press(message, "🏁 Да, прикончить!")
    await tg.wait_for(lambda: has_rematch(group.visible_messages()), what="the party's end")
    assert (await party_state(running, game)).is_terminal


@pytest.mark.long
async def test_the_party_ends_in_one_message_by_place_and_each_player_hears_their_place(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=6)  # two deals at least: a deal hands out at most 5
    anna, boris, vera = tg.add_user("Аня"), tg.add_user("Борис", language_code="en"), tg.add_user("Вера")
    people = [anna, boris, vera]
    group = tg.add_group("Друзья", people, admins=[anna])
    game = await start_party(tg, group, anna, people)
    await tg.wait_for(lambda: any(turn_message(u) for u in people), what="a turn")

    # Вера looks at the whole table during play: a copy that says whose move it is.
    def vera_hand() -> FakeMessage | None:
        mine = vera.private_chat.bot_messages()
        return next((m for m in mine if "📋 Стол" in [b.text for b in m.flat_buttons]), None)

    await tg.wait_for(lambda: vera_hand() is not None, what="Вера's hand")
    hand = vera_hand()
    assert hand is not None
    await vera.press(hand, "📋 Стол")
    await tg.wait_for(
        lambda: any("Ходит:" in m.text for m in vera.private_chat.visible_messages()), what="copy"
    )
    await Party(tg, running, game, people).play(group)
    await tg.settle()

    state = await party_state(running, game)
    outcome = state.outcome
    assert outcome is not None
    names = await seat_names(running, game)
    last = state.deal_scores[-1].deal_number
    assert last > 1, "a party of more than one deal"
    # The group: the last deal's result folded into the party's end, the totals by place, in a few lines.
    end = next(m for m in reversed(group.bot_messages()) if has_rematch([m]))
    assert f"Раздача {last} окончена" in end.text
    assert not any(m.text.startswith(f"Раздача {last} окончена") for m in group.bot_messages())
    ranked = sorted(range(len(names)), key=lambda s: -outcome.scores[s])
    places = " · ".join(f"{names[s]} {outcome.scores[s]}" for s in ranked)
    assert f"Итог: {places}" in plain(end.text).splitlines()
    # ... the people's ratings in one line below, and an achievement earned on a line of its own below that.
    result, rated = end.text.split("\n\n🏅", 1)[0].split("\n\n📈 Рейтинг: ")
    assert len([line for line in plain(result).splitlines() if line]) <= 8, end.text
    assert "\n" not in rated and all(name in rated for name in names), end.text
    # Each deal's end said once, in a few lines beside the picture that carries the tally and the grid: no
    # crossed-out «Запись:» list, no monospace grid in the deal's message or the table.
    deal_ends = [m for m in group.bot_messages() if re.match(r"Раздача \d+ окончена:", m.text)]
    assert len(deal_ends) == last - 1
    for message in deal_ends:
        assert len(plain(message.text).splitlines()) <= 5, message.text
    for message in group.bot_messages():
        for version in message.history:
            assert "Запись:" not in version.text, version.text
            assert EntityType.PRE not in [e.type for e in version.entities], version.text
    photos = [m for m in group.bot_messages() if m.text.startswith("🏆 Итог партии")]
    assert photos, "the final sheet's picture in the group"
    # Each private chat: the deals' results in short, the end with one's place.
    for user in people:
        seat = names.index(user.full_name)
        english = user is boris
        texts = [plain(m.text) for m in user.private_chat.visible_messages() if m.is_from_bot]
        deal = "Deal 1 is over:" if english else "Раздача 1 окончена:"
        assert any(t.startswith(deal) for t in texts), user.full_name
        mine = next(t for t in texts if t.startswith(("🏆 Партия окончена!", "🏆 The game is over!")))
        place = 1 + sum(1 for s in outcome.scores if s > outcome.scores[seat])
        # the points with their noun: «7 очков», "7 points"
        points = translator(Locale.EN if english else Locale.RU).t(
            "rules-answer-value", value=outcome.scores[seat]
        )
        score = outcome.scores[seat]  # in Russian «с 7 очками», «с 1 очком»
        with_points = f"с {score} {'очком' if abs(score) % 10 == 1 and abs(score) % 100 != 11 else 'очками'}"
        if seat in outcome.winners:
            expected = f"🎉 You won! — {points}" if english else f"🎉 Вы победили {with_points}!"
        else:
            ordinal = {2: "2nd", 3: "3rd"}[place]
            expected = f"You came {ordinal} — {points}" if english else f"Вы на {place}-м месте {with_points}"
        assert mine.split("\n")[1] == expected, user.full_name
    # Nothing after the end says whose move it is.
    copy = next(m for m in vera.private_chat.visible_messages() if m.is_from_bot and "взято" in m.text)
    assert "Ходит:" not in copy.text and "👉" not in copy.text


async def test_the_first_turn_of_a_group_party_names_the_game_and_the_deal(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: any(turn_message(u) for u in (anna, boris)), what="a turn")
    mover = anna if turn_message(anna) else boris
    hand = turn_message(mover)
    assert hand is not None
    first, turn = hand.text.split("\n")[:2]
    assert first.startswith("🃏 Кончинка · Раздача 1 · сдаёт ") and turn.startswith("👉 Ваш ход"), hand.text
    assert await take_turn(tg, mover)
    await tg.wait_for(lambda: turn_message(mover) is None, what="the move taken in")
    other = boris if mover is anna else anna
    await tg.wait_for(lambda: turn_message(other) is not None, what="the other's turn")
    assert await take_turn(tg, other)
    await tg.wait_for(lambda: turn_message(mover) is not None, what="the mover's second turn")
    again = turn_message(mover)
    assert again is not None and again.text.startswith("👉 Ваш ход"), "said once: not on every turn"


async def test_a_timer_move_is_said_once_in_the_group(tg: FakeTelegram, bot_runner: BotRunner) -> None:
    """The group hears the timer's move by its notice (each notice is sent; the paced table may skip the version
    that would mark it), not by the table's mark as well."""
    await bot_runner(turn_timeout=30, reminder_before=10)
    anna, boris = tg.add_user("Аня"), tg.add_user("Борис")
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])

    def saying() -> list[FakeMessage]:
        """The group's messages any version of which says the timer played for Boris."""
        return [
            m
            for m in group.visible_messages()
            if m.is_from_bot and any("⏰ Борис" in version.text for version in m.history)
        ]

    # Boris never presses; Anna plays her turns until the timer plays one for him, then waits.
    deadline = tg.monotonic() + 60
    while not saying():
        assert tg.monotonic() < deadline, "no timer move in the group"
        if turn_message(anna) is not None:
            await take_turn(tg, anna)
        await tg.sleep(0.05)
    await tg.settle()
    await tg.settle()
    said = saying()
    assert len(said) == 1, [m.history[-1].text for m in said]
    assert "время на ход вышло" in said[0].text
