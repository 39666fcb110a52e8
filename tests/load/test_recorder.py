"""The recorder's taps per move (issue 48): every tap on a hand's card or move counts, each move a person made
once — a card that played on its tap, a card that opened a choice and then its move, a refused second tap."""

from __future__ import annotations

from tests.load.recorder import Mode, Press, taps_per_move


def press(data: str, *, moved: bool = False, refused: bool = False) -> Press:
    p = Press(
        1,
        1,
        1,
        data,
        Mode.GROUP,
        at=0.0,
        answered=0.1,
        answer_text="Этот ход уже сделан." if refused else None,
    )
    p.next_turn = 0.2 if moved else None
    return p


def test_taps_per_move_counts_each_tap_on_a_hand_and_each_move_once() -> None:
    presses = [
        press("p:7:3:Td", moved=True),  # a card that played on its tap: one tap, one move
        press("m:7:5:2"),  # a card's move straight from the hand: one tap, one move
        press("p:7:7:Jh"),  # a card that opened a choice …
        press("m:7:7:4"),  # … and its move: two taps, one move
        press("m:7:7:4", refused=True),  # a second tap on the old hand, refused
        press("tb:7"),  # «📋 Стол»: no tap on a hand's move
    ]
    assert taps_per_move(presses) == round(5 / 3, 3)
    assert taps_per_move(presses[:2]) == 1.0
    assert taps_per_move([press("tb:7")]) is None
