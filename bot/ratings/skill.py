"""Skill ratings: what a party's places say of each person's strength at a game, pure.

The model is openskill's Weng–Lin **Plackett–Luce**: the likelihood of a whole finishing order of any number of
players, the natural model of a party of two to four. Measured (``python -m tests.bench_ratings --models``: 10,000
simulated parties of 2–4 among 500 people of hidden strength, the winner of each party of the second half foretold
as the one rated highest): all five Weng–Lin models foretell it alike (77–78 %, two seeds), Plackett–Luce among
the best and the cheapest (0.35 s of CPU against the Thurstone–Mosteller models' 0.5 s); Thurstone–Mosteller Full
also shrinks a newcomer's uncertainty from 8.3 to 2.9 in one party against two anchors (Plackett–Luce: to 7.9),
too sure too soon. The benchmark also rates 10,000 stored parties through the rebuild.

- Each seat is a team of one; places come from the party's result: the winners first, then by score (higher
  is better in every game here); equal results share a place. A person a bot player stood in for at the end
  (who left with /leave, or missed turns and did not come back) is placed last: the bot's play is not theirs.
  A party dealt and then cancelled by one of its own players counts as their loss (last, everyone else first):
  cancelling a party going badly saves no rating. A party abandoned (nobody moved for days), a lobby, or a party
  cancelled by an admin who does not play is not rated.
- People only are rated. Bot players are **anchors**: fixed ratings per level (:data:`ANCHORS`), never updated,
  so a party against bot players rates its person on the same scale in every chat, and a party with bot players
  in most seats rates just as fairly (the anchors' strength is known). A person has one rating per game.
- A rating is shown on one scale (:mod:`bot.model.skill_scale`): 1500 for a newcomer, 30 points per unit of the model's mu;
  with its uncertainty (two sigmas) while it has not settled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from openskill.models import PlackettLuce

from bot.model.game import Cancelled, Game, GameStatus, PartyEnded
from bot.model.skill_scale import START_MU, shown
from engine.ai.levels import Level

MODEL: Final = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (a rating keeps a little room to move)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating in the model's own units: the estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float


START: Final = Skill(MODEL.mu, MODEL.sigma)
assert START.mu == START_MU, "the shown scale is 1500 at the model's start"
"""A person's rating before their first party of a game."""
ANCHORS: Final[Mapping[Level, Skill]] = {
    Level.EASY: Skill(20.0, 1.0),
    Level.NORMAL: Skill(25.0, 1.0),
    Level.HARD: Skill(30.0, 1.0),
}
"""The bot players' fixed ratings: «новичок» 1350, «любитель» 1500 (a newcomer's start), «мастер» 1650."""


class RatedSeat(Protocol):
    """What rating needs of a seat at a finished party (the game's ``Seat`` and the stored row have it)."""

    @property
    def seat(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def level(self) -> str | None: ...
    @property
    def replaced(self) -> bool: ...
    @property
    def score(self) -> int | None: ...
    @property
    def won(self) -> bool | None: ...


@dataclass(frozen=True, slots=True)
class Rated:
    """One person's rating change at a party: their seat, place (from 1) and rating before and after."""

    seat: int
    user_id: int
    place: int
    before: Skill
    after: Skill

    @property
    def change(self) -> int:
        """The shown rating's change."""
        return shown(self.after.mu) - shown(self.before.mu)


def places(seats: Sequence[RatedSeat]) -> list[int]:
    """Each seat's place (1 is best; equal results share one, the next skips: 1, 2, 2, 4)."""
    keys = [
        (
            1 if seat.user_id is not None and seat.replaced else 0,
            0 if seat.won else 1,
            -(seat.score or 0),
        )
        for seat in seats
    ]
    return [1 + sum(other < key for other in keys) for key in keys]


def anchor(seat: RatedSeat) -> Skill:
    """A bot player's fixed rating (a level this bot does not know: «любитель»'s)."""
    try:
        return ANCHORS[Level(seat.level or Level.NORMAL)]
    except ValueError:
        return ANCHORS[Level.NORMAL]


def cancelled_places(seats: Sequence[RatedSeat], by: int) -> list[int]:
    """A party cancelled by the person ``by`` (a user id) while it was played: they are last, the others share
    the first place."""
    return [2 if seat.user_id == by else 1 for seat in seats]


def rate(
    seats: Sequence[RatedSeat], priors: Mapping[int, Skill], *, cancelled_by: int | None = None
) -> list[Rated]:
    """The people's ratings after a finished party (``priors``: their ratings before, by user id; a person
    missing there starts at :data:`START`), or after one its player ``cancelled_by`` cancelled. Empty when nobody
    at the table is a person."""
    people = [seat for seat in seats if seat.user_id is not None]
    if not people:
        return []
    before = [priors.get(s.user_id, START) if s.user_id is not None else anchor(s) for s in seats]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    ranks = places(seats) if cancelled_by is None else cancelled_places(seats, cancelled_by)
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [
        Rated(
            seat.seat,
            seat.user_id,
            ranks[i],
            before[i],
            Skill(after[i][0].mu, after[i][0].sigma),
        )
        for i, seat in enumerate(seats)
        if seat.user_id is not None
    ]


def rated_end(end: PartyEnded, game: Game, priors: Mapping[int, Skill]) -> PartyEnded:
    """The party's end with its people's ratings (``game``: the party finished; ``priors``: their ratings before)."""
    if game.status is not GameStatus.FINISHED or game.party is None or game.party.outcome is None:
        return end
    return dataclasses.replace(end, rated=_stored(rate(game.seats, priors)))


def rated_cancel(cancel: Cancelled, before: Game, priors: Mapping[int, Skill]) -> Cancelled:
    """A cancelled game with its people's ratings: a party dealt (``before``: the game as it was played) and
    cancelled by one of its own players counts as their loss — they are placed last, everyone else first. A
    lobby, or a party cancelled by an admin who does not play, is not rated."""
    if before.status is not GameStatus.PLAYING or before.party is None or before.seat_of(cancel.by) is None:
        return cancel
    rated = rate(before.seats, priors, cancelled_by=cancel.by)
    return dataclasses.replace(cancel, rated=_stored(rated))


def _stored(rated: Sequence[Rated]) -> tuple[tuple[int, int, float, float, float, float], ...]:
    return tuple((r.seat, r.place, r.before.mu, r.before.sigma, r.after.mu, r.after.sigma) for r in rated)


def changes_of(end: PartyEnded | Cancelled, game: Game) -> list[Rated]:
    """The ratings a party's end carries, as :class:`Rated` (each seat's person as ``game`` seats them)."""
    return [
        Rated(seat, game.seats[seat].user_id or 0, place, Skill(mu_before, sigma_before), Skill(mu, sigma))
        for seat, place, mu_before, sigma_before, mu, sigma in end.rated
    ]
