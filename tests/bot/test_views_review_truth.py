"""Hints and review lines a player can check (issue 48): over random positions of both games, every hint of
«мастер» and every review line (the move «мастер» prefers against another legal move made) is replayed with the
engine — the two moves applied to the position — and

- its reason is true of the move «мастер» prefers and not of the other one (what the one takes, leaves or gives
  away that the other does not: never a reason equally true of both),
- its figure, if any, is in the player's points and within what their score can still change this deal
  (Кончинка's search values an edge over the others, so it tells none; never a cap shown as a figure),
- a Кинг reason that says the card takes the trick is said only by the trick's last card.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from bot.games.base import GamePlugin
from bot.games.king import KING
from bot.games.konchinka import KONCHINKA
from bot.i18n import Locale, translator
from bot.views.common import SeatInfo
from engine import make_game
from engine.ai import Level
from engine.ai.advice import Advice
from engine.ai.players import choose_action
from engine.ai.review import Decision, Review, _search
from engine.cards import FULL_DECK, Card, Rank, parse_cards
from engine.king import ChooseTrump, KingView, Play
from engine.king.ai.advice import Why as KingWhy
from engine.king.ai.advice import advise as king_advise
from engine.king.ai.advice import king_why
from engine.king.ai.policy import table_from_view
from engine.king.rules import (
    CARD_PENALTY,
    POINTS_PER_TRICK,
    TRICK_PENALTY,
    TRICKS_PER_DEAL,
    beats,
    winning_play,
)
from engine.konchinka import Capture, Finish, KonchinkaView, Lay
from engine.konchinka.ai.advice import Why as KonchinkaWhy
from engine.konchinka.ai.advice import advise as konchinka_advise
from engine.konchinka.ai.advice import konchinka_why
from engine.konchinka.ai.policy import exposure, position_from_view
from engine.konchinka.rules import KONCHINKI
from tests.tiers import size

RU = translator(Locale.RU)
SEATS = tuple(SeatInfo(name=n) for n in ("Аня", "Борис", "Вера", "Гоша"))
POSITIONS = size(50, 200)
"""Positions of each game (so at least 100 of both on every run)."""
FIGURE = re.compile(r"на (\d+,\d) очка")


# --- what each move does, read off the engine ------------------------------------------------------------------


def _gets(action: object) -> tuple[object, ...]:
    """The cards a Кончинка move puts on the player's pile (none for a lay or the finish alone)."""
    if isinstance(action, Capture):
        return (*action.taken, action.card)
    return ()


def _left_exposure(view: KonchinkaView, action: object) -> float:
    """What the next player may expect to take from the table this move leaves (the model the reason names)."""
    if isinstance(action, Capture):
        left = [c for c in view.table if c not in action.taken]
    else:
        assert isinstance(action, Lay)
        left = [*view.table, action.card]
    position = position_from_view(view)
    return exposure(left, position.worth, position.chances, position.points)


def _finishes(action: object) -> bool:
    return isinstance(action, Finish) or (isinstance(action, Capture) and action.finish)


def _taken(action: object) -> int:
    return len(action.taken) if isinstance(action, Capture) else 0


def konchinka_claim_holds(view: KonchinkaView, why: KonchinkaWhy, better: object, other: object) -> bool:
    """Whether what reason ``why`` says of ``better`` is true of it and not of ``other``."""
    mine, theirs = _gets(better), _gets(other)
    if why is KonchinkaWhy.FINISH:
        return _finishes(better) and not _finishes(other)
    if why is KonchinkaWhy.KONCHINKA:
        return sum(c in KONCHINKI for c in mine) > sum(c in KONCHINKI for c in theirs)
    if why is KonchinkaWhy.SWEEP:
        assert isinstance(better, Capture)
        whole = better.card.rank is Rank.JACK and len(better.taken) == len(view.table)
        return whole and not (isinstance(other, Capture) and len(other.taken) == len(view.table))
    if why in (KonchinkaWhy.LAST_MOVE, KonchinkaWhy.LAST_CAPTURE):
        return isinstance(better, Capture) and not isinstance(other, Capture)
    if why is KonchinkaWhy.CLUBS:
        return sum(c.suit.code == "c" for c in mine) > sum(c.suit.code == "c" for c in theirs)  # type: ignore[attr-defined]
    if why is KonchinkaWhy.MOST_CARDS:
        return _taken(better) > _taken(other)
    if why is KonchinkaWhy.CAPTURE:
        return len(mine) > len(theirs)
    if why in (KonchinkaWhy.CAPTURE_SAFEST, KonchinkaWhy.SAFEST_LAY):
        return isinstance(other, Capture | Lay) and _left_exposure(view, better) < _left_exposure(view, other)
    if why is KonchinkaWhy.HOLD_BACK:
        return isinstance(better, Lay) and isinstance(other, Capture)
    if why is KonchinkaWhy.KEEP_KONCHINKA:
        return isinstance(other, Lay) and other.card in KONCHINKI
    return False  # «взять нечего …» is as true of any other lay; «other moves: none» has no other move


def king_claim_holds(view: KingView, why: KingWhy, better: object, other: object) -> bool:
    """Whether what reason ``why`` says of ``better`` is true of it and not of ``other``."""
    if isinstance(better, ChooseTrump):
        assert isinstance(other, ChooseTrump)

        def count(a: ChooseTrump) -> int:
            return sum(c.suit is a.suit for c in view.hand) if a.suit is not None else -1

        if why is KingWhy.TRUMP_LAST:
            return better.suit is None and other.suit is not None
        return why is KingWhy.TRUMP_SUIT and count(better) > count(other)
    assert isinstance(better, Play) and isinstance(other, Play)
    mine, theirs = better.card, other.card
    trick = view.trick
    table = table_from_view(view)
    if not trick:

        def top(c: Card) -> bool:
            return table.higher_out(c) == 0

        trump = view.trump
        return {
            KingWhy.LEAD_LOW: not top(mine) and top(theirs),
            KingWhy.LEAD: not top(mine) and top(theirs),
            KingWhy.LEAD_SAFE: top(mine) and not top(theirs),
            KingWhy.CASH: top(mine) and not top(theirs),
            KingWhy.DRAW_TRUMPS: mine.suit is trump and theirs.suit is not trump,
            KingWhy.LEAD_KEEP_TRUMPS: mine.suit is not trump and theirs.suit is trump,
        }.get(why, False)
    best = winning_play(trick, view.trump)[1]

    def over(c: Card) -> bool:
        return beats(c, best, view.trump)

    last = len(trick) == len(view.hand_sizes) - 1
    if why in (KingWhy.TAKE_EMPTY, KingWhy.TAKE_FORCED, KingWhy.TAKE_LEAST, KingWhy.WIN, KingWhy.RUFF):
        # «забирает эту взятку»: only the trick's last card knows it takes it
        takes = why in (KingWhy.WIN, KingWhy.RUFF) or last
        return takes and over(mine) and not over(theirs)
    if why is KingWhy.DUCK:
        return mine.suit is trick[0][1].suit and not over(mine) and over(theirs)
    if why is KingWhy.DISCARD:
        return not over(mine) and over(theirs)
    pen = CARD_PENALTY[view.contract] if view.contract is not None else (0,) * len(FULL_DECK)
    if why is KingWhy.DUMP_PENALTY:
        return pen[mine.index] > pen[theirs.index]
    if why is KingWhy.DUMP_HIGH:

        def highest(c: Card) -> bool:
            top = max(h.rank for h in view.hand if h.suit is c.suit)
            return c.suit is not trick[0][1].suit and c.rank == top

        return highest(mine) and not (highest(theirs) and pen[theirs.index] == 0)
    return False


def king_can_change(view: KingView) -> float:
    """The most the player's score can still change this deal, from the cards not yet taken."""
    if view.contract is None:
        return float((TRICKS_PER_DEAL - len(view.tricks_this_deal)) * POINTS_PER_TRICK)
    gone = {c for trick in view.tricks_this_deal for _, c in trick.plays}
    cards = sum(CARD_PENALTY[view.contract][c.index] for c in FULL_DECK if c not in gone)
    tricks = sum(TRICK_PENALTY[view.contract][n] for n in range(len(view.tricks_this_deal), TRICKS_PER_DEAL))
    return float(cards + tricks)


# --- the replay -----------------------------------------------------------------------------------------------


def positions(game: str, options: dict[str, object], count: int) -> list[object]:
    """``count`` views with a choice, from parties of bot players of every level (seeded)."""
    found: list[object] = []
    seed = 0
    while len(found) < count:
        state = make_game(game, options).new_initial_state(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal and len(found) < count:
            view = state.view(state.current_player)
            if len(view.legal_actions) > 1 and step % 7 == seed % 7:
                found.append(view)
            level = (Level.EASY, Level.NORMAL)[step % 2]
            state.apply(choose_action(view, level, rng))
            step += 1
        seed += 1
    return found


def check(
    views: list[Any],
    advise: Callable[..., Advice],
    why_of: Callable[..., object],
    holds: Callable[..., bool],
    most: Callable[..., float | None],
    plugin: GamePlugin[Any, Any],
    seats: int,
) -> tuple[int, int, list[str]]:
    """Every hint and review line of ``views``: (reasons said, figures said, what was false)."""
    said = figures = 0
    wrong: list[str] = []
    for n, view in enumerate(views):
        legal = list(view.legal_actions)
        advice = advise(view, random.Random(n))
        hint = plugin.hint(view, advice, RU)
        other = advice.other
        lines: list[tuple[str, object, object, object]] = [(hint, advice.action, other, advice.why)]
        rng = random.Random(1000 + n)
        played = rng.choice([a for a in legal if a != advice.action])
        verdict = _search(Decision(view.version, view, played), f"truth/{n}", 8)
        if verdict is not None and verdict.better != played:
            review = plugin.render_review(Review(0, 1, (verdict,)), SEATS[:seats], RU)
            line = review.text.splitlines()[-1]
            lines.append((line, verdict.better, played, why_of(view, verdict.better, played)))
        for text, better, alternative, why in lines:
            if alternative is None or why in ("only", "none"):
                continue
            said += 1
            if not holds(view, why, better, alternative):
                wrong.append(f"{text}  [{why}: {better} against {alternative}]")
            for figure in FIGURE.findall(text):
                figures += 1
                bound = most(view)
                if bound is None or float(figure.replace(",", ".")) > bound + 0.05:
                    wrong.append(f"{text}  [figure beyond {bound}]")
    return said, figures, wrong


def test_every_konchinka_hint_and_review_line_tells_its_move_from_the_other_and_no_figure() -> None:
    views = positions("konchinka", {"players": 3}, POSITIONS)
    said, figures, wrong = check(
        views, konchinka_advise, konchinka_why, konchinka_claim_holds, lambda _view: None, KONCHINKA, 3
    )
    assert wrong == [] and figures == 0
    assert said >= POSITIONS // 2, "most lines give a reason"


def test_every_king_hint_and_review_line_tells_its_move_from_the_other_within_the_points_left() -> None:
    views = positions("king", {}, POSITIONS)
    said, figures, wrong = check(views, king_advise, king_why, king_claim_holds, king_can_change, KING, 4)
    assert wrong == []
    assert said >= POSITIONS // 3 and figures >= POSITIONS // 2, (said, figures)


def test_a_card_over_the_trick_is_not_said_to_take_it_while_others_play_after() -> None:
    # The hint: the second player to 8♠ holds 10♠ and a higher spade; К♠ came after and took the trick.
    from engine.cards import Card, parse_cards
    from engine.king import Contract, KingState

    state = KingState.from_position(
        [parse_cards("As"), parse_cards("Ts Qs"), parse_cards("Ks 7d"), parse_cards("9s 7c")],
        contract=Contract.NO_TRICKS,
        dealer=3,
        leader=0,
        trick=[(0, Card.parse("8s"))],
    )
    view = state.view(1)
    for other in (None, Play(Card.parse("Qs"))):
        why = king_why(view, Play(Card.parse("Ts")), other)
        assert why not in (KingWhy.TAKE_FORCED, KingWhy.TAKE_EMPTY, KingWhy.TAKE_LEAST)
        text = KING.hint(view, advice_of(Play(Card.parse("Ts")), why, other), RU)
        assert "забирает эту взятку" not in text and "Мастер сыграл бы так: 10♠" in text


def test_an_empty_table_is_not_said_to_leave_the_next_player_least_to_take() -> None:
    from engine.konchinka import KonchinkaGame, KonchinkaOptions, KonchinkaState

    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2)),
        hands=[parse_cards("2h Kd"), parse_cards("5c 9s")],
        table=(),
        deck=parse_cards("3d 4d 5h 6d"),
    )
    view = state.view(0)
    two, king = Lay(Card.parse("2h")), Lay(Card.parse("Kd"))
    best, worse = (two, king) if _left_exposure(view, two) < _left_exposure(view, king) else (king, two)
    why = konchinka_why(view, best, worse)
    text = KONCHINKA.hint(view, advice_of(best, why, worse), RU)
    assert "со стола взять меньше всего" not in text
    if why is KonchinkaWhy.SAFEST_LAY:
        assert "стол пуст" in text


def advice_of(action: object, why: object, other: object) -> Advice:
    return Advice(action, str(why), other=other)


def test_a_jacks_sweep_is_said_in_one_phrase() -> None:
    from engine.ai.review import Verdict
    from engine.konchinka import KonchinkaGame, KonchinkaOptions, KonchinkaState

    state = KonchinkaState.from_position(
        KonchinkaGame(KonchinkaOptions(players=2)),
        hands=[parse_cards("Jh 4s"), parse_cards("5c 9s")],
        table=parse_cards("2d 3d 7h 9d Kc"),
        deck=parse_cards("3c 4d 5h 6d"),
    )
    view = state.view(0)
    sweep = next(a for a in view.legal_actions if isinstance(a, Capture))
    lay = Lay(Card.parse("4s"))
    text = KONCHINKA.render_review(
        Review(0, 9, (Verdict(0, view, sweep, lay, -1.0, 1.0),)), SEATS[:2], RU
    ).text
    assert "Вы: взять весь стол (5) картой В♥\n" in text
    hint = KONCHINKA.hint(view, Advice(sweep, str(konchinka_why(view, sweep, lay)), other=lay), RU)
    assert hint.startswith("💡 Мастер сыграл бы так: взять весь стол (5) картой В♥ — ") and "2♦" not in hint
