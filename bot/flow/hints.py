"""Looking ahead and back with «мастер»: who may ask for the solo «💡 Подсказка» (what the strongest bot player
would play now; nothing is played) and «🔍 Разбор партии» (a finished party's costliest moves of one player), and
from which view. The search itself runs in the bot players' workers (the pipeline asks them)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.flow.commands import Refusal
from bot.flow.moves import turn_of
from bot.model.answers import Answer
from bot.model.game import Game, GameMode, GameStatus


@dataclass(frozen=True, slots=True)
class HintAsked:
    """What «мастер» is asked for a hint: the player's view and the decision's seed (the game's and the version's,
    so asking again says the same)."""

    seat: int
    view: object
    seed: int
    version: int


def hint(game: Game, user_id: int, version: int) -> HintAsked | Refusal:
    """A hint for the solo game's player on their turn at ``version``."""
    if game.mode is not GameMode.SOLO and game.seat_of(user_id) is not None:
        return Refusal(Answer.UNKNOWN)  # the button is drawn in solo games only: a forged press
    seat = turn_of(game, user_id, version)
    if isinstance(seat, Refusal):
        return seat
    assert game.party is not None
    return HintAsked(seat.seat, game.party.view_of(seat.seat), game.party.seed, version)


def review(game: Game, user_id: int) -> int | Refusal:
    """The seat whose moves «🔍 Разбор партии» reviews: a person who played the finished game."""
    seat = game.seat_of(user_id)
    party = game.party
    if seat is None:
        return Refusal(Answer.NOT_A_PLAYER)
    if game.status is not GameStatus.FINISHED or party is None or not party.is_terminal:
        return Refusal(Answer.STALE)
    if not party.reviewable:
        return Refusal(Answer.UNKNOWN)  # the button is drawn for games with bot players: a forged press
    return seat.seat
