"""Callback data: every button's data fits Telegram's 64 bytes in the worst case and unpacks to what was packed."""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import CallbackData

from bot.callbacks import (
    MAX_CALLBACK_BYTES,
    BackCb,
    DeepLink,
    HistoryCb,
    LobbyCb,
    LobbyOp,
    MeCb,
    MoveCb,
    PickCb,
    RematchCb,
    ReviewCb,
    RulesCb,
    SeatCb,
    SheetCb,
    SoloCb,
    SoloStep,
    parse_start_payload,
    start_link,
)
from bot.games import plugins, rules_library
from bot.model.game import TURN_TIME_KEY
from engine.ai import Level

GAME = "Zz9_Zz9_Zz9-"  # 12 characters: the longest game id
VERSION = 999_999
INDEX = 999
LONGEST_KEY = max((k for p in plugins() for k in p.setting_keys()), key=len)
LONGEST_OP = max((o.value for o in LobbyOp), key=len)
LONGEST_LEVEL = max((lv.value for lv in Level), key=len)
LONGEST_SECTION = max((s.id for s in rules_library().sections), key=len)
SECTION_LIMIT = "z" * 8
"""The longest section id a rules book may give (``bot.views.rules_book.SECTION_ID``)."""

WORST_CASES: list[CallbackData] = [
    LobbyCb(game=GAME, op=LobbyOp(LONGEST_OP), key=LONGEST_KEY, value="classic"),
    LobbyCb(game=GAME, op=LobbyOp.ADD_BOT, value=LONGEST_LEVEL),
    LobbyCb(game=GAME, op=LobbyOp.SET, key=TURN_TIME_KEY, value="999999"),
    MoveCb(game=GAME, version=VERSION, index=INDEX),
    PickCb(game=GAME, version=VERSION, card="Td"),
    BackCb(game=GAME, version=VERSION),
    RulesCb(section=SECTION_LIMIT, game=GAME, page=True),
    RematchCb(game=GAME),
    ReviewCb(game=GAME),
    SheetCb(game=GAME),
    HistoryCb(game=GAME),
    SoloCb(step=SoloStep.LEVEL, game="konchinka", opponents=3, level=LONGEST_LEVEL),
    SeatCb(game=GAME),
    MeCb(),
]


@pytest.mark.parametrize("data", WORST_CASES, ids=lambda d: type(d).__name__)
def test_worst_case_fits_64_ascii_bytes_and_round_trips(data: CallbackData) -> None:
    packed = data.pack()
    assert packed.isascii()
    assert len(packed.encode()) <= MAX_CALLBACK_BYTES, packed
    assert type(data).unpack(packed) == data


def test_prefixes_are_distinct_so_no_press_is_mistaken_for_another() -> None:
    prefixes = [type(d).__prefix__ for d in WORST_CASES]
    classes = {type(d) for d in WORST_CASES}
    assert len(set(prefixes)) == len(classes)
    # No packed data of one class starts like another class's data.
    for data in WORST_CASES:
        for other in classes - {type(data)}:
            with pytest.raises((TypeError, ValueError)):
                other.unpack(data.pack())


def test_move_press_unpacks_to_typed_fields() -> None:
    data = MoveCb.unpack(MoveCb(game="g1", version=17, index=2).pack())
    assert (data.game, data.version, data.index) == ("g1", 17, 2)
    lobby = LobbyCb.unpack("l:g1:set:variant:points")
    assert lobby.op is LobbyOp.SET and lobby.key == "variant" and lobby.value == "points"
    rules = RulesCb.unpack(RulesCb(section=LONGEST_SECTION).pack())
    assert rules.section == LONGEST_SECTION and rules.game == "" and not rules.page


def test_join_deep_link_and_payload_round_trip() -> None:
    link = start_link("cardbot", DeepLink.JOIN, GAME)
    assert link == f"https://t.me/cardbot?start=j_{GAME}"
    payload = link.split("start=", 1)[1]
    assert len(payload) <= 64
    assert parse_start_payload(payload) == (DeepLink.JOIN, GAME)
    assert parse_start_payload("g_abc") == (DeepLink.GAME, "abc")
    assert parse_start_payload("j_") is None
    assert parse_start_payload("hello") is None
