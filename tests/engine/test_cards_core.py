"""Cards, the shared core and the engine's purity."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import pytest

from engine.cards import FULL_DECK, PIQUET_DECK, Card, Rank, Suit, codes, parse_cards
from engine.core import GameRecord


def test_every_card_round_trips_through_its_code_and_both_display_forms() -> None:
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    for card in FULL_DECK:
        assert Card.parse(card.code) is card
        assert Card.parse(card.text) is card
        assert Card.parse(card.ru) is card
        assert FULL_DECK[card.index] is card
        assert Card(card.rank, card.suit) is card
        assert card.code.isascii() and len(card.code) == 2


def test_display_forms() -> None:
    assert Card.parse("Td").text == "10♦"
    assert Card.parse("Qh").ru == "Д♥"
    assert Card.parse("Js").ru == "В♠"
    assert Card.parse("Ac").ru == "Т♣"
    assert Card.parse("Kd").text == "K♦"
    assert parse_cards("10♦, К♠ 2c") == [
        Card(Rank.TEN, Suit.DIAMONDS),
        Card(Rank.KING, Suit.SPADES),
        Card(Rank.TWO, Suit.CLUBS),
    ]
    assert codes(parse_cards("Td 2c")) == "Td 2c"


def test_piquet_deck_is_seven_to_ace() -> None:
    assert len(PIQUET_DECK) == 32
    assert {c.rank for c in PIQUET_DECK} == {r for r in Rank if r >= Rank.SEVEN}


def test_cards_are_interned_and_immutable() -> None:
    card = Card.parse("2c")
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc,unused-ignore]


@pytest.mark.parametrize("bad", ["", "1c", "Zz", "10", "♦", "11♦", "Tx"])
def test_bad_card_text_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_record_json_round_trip() -> None:
    record = GameRecord("konchinka", {"players": 3, "variant": "points"}, 42, ("l:Td", "f"))
    assert GameRecord.from_json(record.to_json()) == record


def test_engine_pulls_in_no_bot_side_modules() -> None:
    code = (
        "import sys, engine, engine.arena\n"
        "import engine.ai\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in {'bot', 'aiogram', 'aiosqlite', 'asyncio', 'sqlite3'}]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""
