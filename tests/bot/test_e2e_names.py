"""People's names are put in lines the bot writes (the table, the score, the lobby, notices, /stats): a name
that starts with a right-to-left override (U+202E) or holds other bidi controls must not reverse the rest of
the line. Its bidi controls are taken out (its own PDI would close the isolate early), and a name in a
right-to-left script is set inside a Unicode isolate, FSI (U+2068) … PDI (U+2069); a left-to-right name is left as
it was typed. ``test_views_bidi.py`` lays every screen out with a real bidi algorithm."""

from __future__ import annotations

import re

from bot.callbacks import HistoryCb, LobbyCb, LobbyOp
from tests.bot.conftest import BotRunner, find_lobby, lobby_of, play_until, start_party, turn_message
from tests.bot.test_e2e_table_talk import Party
from tests.fakebot import FakeMessage, FakeTelegram

FSI, PDI = "\u2068", "\u2069"
TRICKY = "\u2069\u202eБорис דוד"
"""A name that closes an isolate and starts a RIGHT-TO-LEFT OVERRIDE: kept as it is, it would show the rest of its
line reversed."""
SHOWN = "Борис דוד"
"""How the bot writes it: the controls gone, the rest isolated (it holds right-to-left letters)."""


def _unisolated(messages: list[FakeMessage], name: str) -> list[str]:
    """The lines of ``messages`` where ``name`` appears outside an FSI … PDI isolate."""
    bad = []
    for message in messages:
        for version in message.history:
            for line in version.text.splitlines():
                rest = line.replace(FSI + name + PDI, "")
                if name in rest or "\u202e" in rest:
                    bad.append(line)
    return bad


async def test_a_name_with_a_bidi_override_is_isolated_wherever_the_bot_writes_it(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    await bot_runner()
    anna, boris = tg.add_user("Аня"), tg.add_user(TRICKY)
    group = tg.add_group("Друзья", [anna, boris], admins=[anna])
    await start_party(tg, group, anna, [anna, boris])
    await tg.wait_for(lambda: turn_message(anna) or turn_message(boris), what="a turn")
    await play_until(tg, [anna, boris], lambda: False, moves=6, timeout=30)
    await boris.send(group, "/stats")
    await anna.send(group, "/top")
    await tg.settle()
    seen = [m for chat in (group, anna.private_chat, boris.private_chat) for m in chat.bot_messages()]
    assert any(FSI + SHOWN + PDI in m.text for m in group.bot_messages())
    assert not _unisolated(seen, SHOWN)
    assert not [m for m in seen if re.search(f"{FSI}[^{PDI}]*$", m.text, re.MULTILINE)], (
        "an isolate left open"
    )
    assert not [m for m in seen if FSI + "Аня" in m.text], "a left-to-right name isolated"


OPEN_ISOLATE = "\u2067Вера דוד"
"""A name that opens a RIGHT-TO-LEFT ISOLATE and never closes it: it would take the rest of its line with it."""
BLANK = "\u3164\u200b"
"""A name that shows nothing: a Hangul filler and a zero-width space."""


async def test_the_history_file_isolates_names_and_a_blank_name_is_a_player_everywhere(
    tg: FakeTelegram, bot_runner: BotRunner
) -> None:
    running = await bot_runner(default_target=11)
    people = [tg.add_user(TRICKY), tg.add_user(OPEN_ISOLATE), tg.add_user(BLANK)]
    group = tg.add_group("Друзья", people, admins=people[:1])
    await people[0].send(group, "/konchinka")
    await tg.wait_for(lambda: find_lobby(group) is not None, what="the lobby")
    lobby = lobby_of(group)
    url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
    for person in people:
        await person.send_private(f"/start {url.split('start=', 1)[1]}")
    await tg.wait_for(lambda: "(3/4)" in lobby.text, what="everyone seated")
    game = url.split("start=j_", 1)[1]
    assert (await people[0].press(lobby, data=LobbyCb(game=game, op=LobbyOp.START).pack())).answered
    await Party(tg, running, game, people).play(group)

    # The result line names the blank person «Игрок», as the table did; no line of the chat is left blank where a
    # name should be.
    end = next(m for m in reversed(group.bot_messages()) if "Партия окончена" in m.text)
    assert "Игрок" in end.text and BLANK not in end.text
    seen = [m for chat in [group, *(p.private_chat for p in people)] for m in chat.bot_messages()]
    assert not [m for m in seen if BLANK in m.text or "\u3164" in m.text]

    # «📜 История»: the names as the chats write them — no override, no isolate left open, the blank one «Игрок».
    await people[1].press(end, data=HistoryCb(game=game).pack())
    await tg.wait_for(
        lambda: any(m.current.media for m in group.bot_messages() if "История" in m.text), what="the file"
    )
    [history] = [m for m in group.bot_messages() if m.current.media and m.current.media.kind == "document"]
    assert history.current.media is not None
    lines = history.current.media.file.data.decode().splitlines()
    players = next(line for line in lines if line.startswith("Игроки: "))
    assert players == f"Игроки: 1 {FSI}{SHOWN}{PDI} · 2 {FSI}Вера דוד{PDI} · 3 Игрок"
    assert not [line for line in lines if "\u202e" in line or "\u2067" in line or "\u3164" in line]
    assert not [line for line in lines if line.count(FSI) != line.count(PDI)]
    assert not [line for line in lines if re.search(f"{FSI}[^{PDI}]*$", line)], "an isolate left open"
    assert any(line.startswith("Победа: ") for line in lines)
