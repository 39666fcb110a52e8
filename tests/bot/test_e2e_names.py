"""People's names are put in lines the bot writes (the table, the score, the lobby, notices, /stats): a name
that starts with a right-to-left override (U+202E) or holds other bidi controls must not reverse the rest of
the line. Its bidi controls are taken out (its own PDI would close the isolate early), and a name in a
right-to-left script is set inside a Unicode isolate, FSI (U+2068) … PDI (U+2069); a left-to-right name is left as
it was typed. ``test_views_bidi.py`` lays every screen out with a real bidi algorithm."""

from __future__ import annotations

import re

from tests.bot.conftest import BotRunner, play_until, start_party, turn_message
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
