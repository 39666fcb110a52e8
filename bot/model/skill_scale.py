"""How a skill rating (``bot.ratings.skill``, in openskill's units) is shown to people: 1500 at a newcomer's start,
30 points a unit of mu, with «± two sigmas» until it settles. Numbers only, so that the texts (``bot.views``) and
the ratings alike can say a rating the same way."""

from __future__ import annotations

from typing import Final

START_MU: Final = 25.0
"""A newcomer's estimate: openskill's default mu (``bot.ratings.skill.START``)."""
CENTRE: Final = 1500
"""What a newcomer's rating shows."""
SCALE: Final = 30.0
"""Shown points per unit of mu."""
SETTLED_BELOW: Final = 5.0
"""Sigma under which a rating is shown as a plain number (about ten parties against bot players, fewer in a
group of four); above it with «± two sigmas»."""


def shown(mu: float) -> int:
    """A rating as people see it: 1500 at the model's start."""
    return round(CENTRE + SCALE * (mu - START_MU))


def margin(sigma: float) -> int:
    """The uncertainty shown beside a rating that has not settled yet: two sigmas on the shown scale."""
    return round(2 * SCALE * sigma)


def is_settled(sigma: float) -> bool:
    return sigma < SETTLED_BELOW
