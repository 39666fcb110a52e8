"""What a game's timer finds due, decided from the game and the time: a bot player's move after its pause, a
reminder shortly before a person's time runs out, the move the bot makes for a person whose time ran out, a
lobby's expiry — and the deadline a person to move gets. Pure: the pipeline's timers ask (``bot.pipeline.timers``)
and run what is due as a command like any other."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.flow.commands import Decided, Decision, FlowConfig
from bot.model.game import Game, GameStatus, Reminded
from engine.ai import Level


class DueKind(enum.Enum):
    EXPIRE = "expire"
    """An open lobby's time is up."""
    REMIND = "remind"
    """The person to move is reminded that their time runs out."""
    TURN = "turn"
    """The bot moves: a bot player's turn after its pause, or a person's whose time ran out."""


@dataclass(frozen=True, slots=True)
class Due:
    """What is due in a game: ``kind`` now, or nothing for ``wait`` clock seconds (None: nothing ever)."""

    kind: DueKind | None = None
    wait: float | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """A move the bot makes: ``seat``'s, from ``view``, at ``level``, in the party at ``version`` (seeded by
    ``seed``, the party's)."""

    view: object
    level: Level
    seed: int
    version: int
    seat: int


def due(game: Game, now: float, config: FlowConfig, paused_since: float) -> Due:
    """What is due in ``game`` at ``now``. A bot player's pause counts from ``paused_since`` (the last change the
    timer saw, or when it first looked after a restart)."""
    if not game.timed:
        return Due()
    if game.status is GameStatus.LOBBY:
        assert game.expires_at is not None
        left = game.expires_at - now
        return Due(DueKind.EXPIRE) if left <= 0 else Due(wait=left)
    mover = game.mover
    assert mover is not None
    if mover.bot_plays:
        left = paused_since + config.bot_delay - now
        return Due(DueKind.TURN) if left <= 0 else Due(wait=left)
    assert game.deadline is not None
    if now >= game.deadline:
        return Due(DueKind.TURN)
    remind_at = game.deadline - config.reminder_before
    if not game.reminded and config.reminder_before > 0:
        if remind_at <= now:
            return Due(DueKind.REMIND)
        return Due(wait=remind_at - now)
    return Due(wait=game.deadline - now)


def turn(game: Game) -> Turn:
    """The move the bot must make now (for a person whose time ran out: as «любитель» would)."""
    mover = game.mover
    assert mover is not None and game.party is not None
    party = game.party
    return Turn(party.view_of(mover.seat), mover.plays_at, party.seed, party.version, mover.seat)


def remind(game: Game, now: float, config: FlowConfig) -> Decision:
    """The person to move is reminded (nothing, if the reminder is not due any more)."""
    mover = game.mover
    if (
        mover is None
        or mover.bot_plays
        or game.deadline is None
        or game.reminded
        or config.reminder_before <= 0
        or not game.deadline - config.reminder_before <= now < game.deadline
    ):
        return Decided()
    return Decided((Reminded(mover.seat, int(game.deadline - now)),))
