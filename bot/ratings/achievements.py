"""Achievements: what a person did in a finished party that is worth remembering, each told once.

A game names its own (its plug-in's ``feats``: a finish on the capture in Кончинка, a clean «ералаш» in Кинг …),
read from the party alone; two belong to every game with bot players: the first win against «мастер», and ten
wins in a row against «мастер» (solo parties where every bot player is «мастер»). Which are new is a pure function
of the finished game and what its people held before (:class:`~bot.storage.players.Standing`, read by the
pipeline): the pipeline puts them into the party's end (:class:`~bot.model.game.PartyEnded`), the commit stores
them with it, and its notices tell them."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Final

from bot.games import plugin_of
from bot.games.base import drawn
from bot.model.game import Actor, Event, Game, GameMode, PartyEnded
from bot.storage.players import Standing
from engine.ai import Level

MASTER_FIRST: Final = "master-first"
"""The first party won against «мастер» alone."""
MASTER_TEN: Final = "master-ten"
"""Ten parties in a row won against «мастер» alone."""
MASTER_RUN: Final = 10
SHARED: Final = (MASTER_FIRST, MASTER_TEN)
"""The achievements every game has (a game's own come first on a page)."""


def catalogue(kind: str) -> tuple[str, ...]:
    """Every achievement of game ``kind``, in the order a page lists them."""
    return (*plugin_of(kind).feats, *SHARED)


def is_against_master(game: Game) -> bool:
    """A person's solo party where every bot player is «мастер»."""
    bots = [seat for seat in game.seats if seat.is_bot]
    return game.mode is GameMode.SOLO and bool(bots) and all(s.bot_level is Level.HARD for s in bots)


def played_all_own_moves(game: Game, seat: int) -> bool:
    """Every move of ``seat`` was its person's own press: none made by the timer or a bot player standing in."""
    return all(move.actor is Actor.PLAYER for move in game.moves if move.seat == seat)


def earned(game: Game, standings: Mapping[int, Standing]) -> tuple[tuple[int, str], ...]:
    """The achievements the people of the finished ``game`` earn with it, each (seat, code), given what they held
    before: a person earns only what they played themselves, and only once."""
    party = game.party
    if party is None or not party.is_terminal or party.outcome is None:
        return ()
    winners = party.outcome.winners
    master = is_against_master(game)
    found: list[tuple[int, str]] = []
    for seat in game.people():
        assert seat.user_id is not None
        if not played_all_own_moves(game, seat.seat):
            continue
        before = standings.get(seat.user_id, Standing())
        codes = list(drawn(party).feats_of(seat.seat))
        if master and seat.seat in winners:
            codes.append(MASTER_FIRST)
            if before.master_run + 1 >= MASTER_RUN:
                codes.append(MASTER_TEN)
        found += [(seat.seat, code) for code in codes if code not in before.held]
    return tuple(found)


def award(game: Game, events: Sequence[Event], standings: Mapping[int, Standing]) -> tuple[Event, ...]:
    """``events`` with the party's end (if among them) carrying what its people earned (``game``: after them)."""
    return tuple(
        dataclasses.replace(event, earned=earned(game, standings)) if isinstance(event, PartyEnded) else event
        for event in events
    )
