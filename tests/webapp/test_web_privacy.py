"""Nothing the page shows a person holds another player's hidden cards.

Over random parties of both games, stopped at a random move: each seated person's screen is the same in another
world their own view allows — the other hands and the deck dealt anew, as the bot players imagine them — and the
screen of someone without a seat is the same in a world any one seat's view allows (so it holds no seat's hand,
not even the one the group's table is drawn from; one seat's a party). The worlds differ from the true one in what the person cannot
see in most checks (the test counts it), so the equality is not for want of anything to leak. So are the looks the
page offers: the score sheet, and the hint a person's hand offers — advised from their own view, as the bot
players' worker is given it, and said in the same words in either world. A review is made after the party, from
its record: each of its moves holds its player's own view then, and nothing else of the party is drawn."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.delivery import paper
from bot.delivery.draw import draw
from bot.delivery.outbox.orders import Show
from bot.delivery.outbox.queue import group_slot, hand_slot
from bot.delivery.web import Look, Screen, screen
from bot.games import plugin_of
from bot.games.base import drawn
from bot.i18n import Locale, translator
from bot.model.game import Game
from bot.model.party import Party
from bot.views.common import table_frame
from bot.views.sheets import GridRow, GridSheet, Sheet
from engine.ai.players import advise
from engine.ai.review import ReviewBudget, review_party
from engine.core import replay
from engine.king.ai.worlds import sample_world as king_world
from engine.konchinka.ai.players import sample_world as konchinka_world
from tests.flow.builders import ANNA, BORIS, GLEB, VERA, group_party, solo_party
from tests.tiers import size

PARTIES = {"konchinka": size(240, 600), "king": size(160, 400)}
"""Random parties of each game (400 in all on every run, 1,000 in the slow tier)."""
WORLDS: dict[str, Callable[[Any, random.Random], Any]] = {"konchinka": konchinka_world, "king": king_world}
MOVES = {"konchinka": 120, "king": 200}
"""The most random moves a party is played before it is looked at."""
PEOPLE = (ANNA, BORIS, VERA, GLEB)
HINTS = size(24, 40)
"""Hints searched (tens of milliseconds each) and said in both worlds."""
RU = translator(Locale.RU)


def random_game(kind: str, rng: random.Random, *, to_the_end: bool = False) -> Game:
    """A group (or, one time in four, a solo) party of ``kind`` played a random number of random legal moves
    (``to_the_end``: until it is over)."""
    plugin = plugin_of(kind)
    solo = rng.random() < 0.25
    players = (
        plugin.max_players if plugin.fills_with_bots else rng.randint(plugin.min_players, plugin.max_players)
    )
    options = plugin.default_options(None)
    if to_the_end and "target" in options:  # a short party: one deal's target
        options = {**options, "target": 1}
    party: Party = plugin.new_party(options, players, rng.randrange(2**31))
    for _ in range(10_000 if to_the_end else rng.randrange(MOVES[kind])):
        legal = party.state.legal_actions()  # type: ignore[attr-defined]
        following, _code = party.after(rng.randrange(len(legal)))
        if following.is_terminal and not to_the_end:
            break
        party = following
        if party.is_terminal:
            break
    if solo:
        return solo_party(ANNA, kind=kind, opponents=players - 1, party=party)
    return group_party(*PEOPLE[:players], kind=kind, party=party)


def in_world(game: Game, world: Any) -> Game:
    party = game.party
    assert party is not None
    return dataclasses.replace(game, party=type(party)(party.plugin, world))  # type: ignore[attr-defined,call-arg]


def without_trumps(made: tuple[Sheet, str] | None) -> tuple[Sheet, str] | None:
    """A score sheet without Кинг's trumps: each отыгрыш's row is marked with the trump named as it began — shown to
    all then (``KingView.trump``) — read back from the party's history, which an imagined world does not carry."""
    if made is None:
        return None
    sheet, caption = made
    if not isinstance(sheet, GridSheet):
        return made

    def unmarked(rows: tuple[GridRow, ...]) -> tuple[GridRow, ...]:
        return tuple(dataclasses.replace(row, mark="") for row in rows)

    return dataclasses.replace(sheet, rows=unmarked(sheet.rows), pending=unmarked(sheet.pending)), caption


@pytest.mark.slow
def test_no_screen_holds_what_its_person_cannot_see() -> None:
    rng = random.Random(20261207)
    checks = differing = hinted = sheets = 0
    for kind, parties in PARTIES.items():
        for _ in range(parties):
            game = random_game(kind, rng)
            state = game.party.state  # type: ignore[union-attr]
            seats = [s.seat for s in game.seats]
            people = game.people()
            looked = rng.sample(people, min(2, len(people)))  # two people a party (a solo game has one)
            for seat in looked:
                view = state.view(seat.seat)
                world = WORLDS[kind](view, rng)
                assert world.view(seat.seat) == view, "a world the person's own view allows"
                others = [q for q in seats if q != seat.seat]
                differing += any(world.view(q) != state.view(q) for q in others)
                checks += 1
                imagined = in_world(game, world)
                shown: Screen | None = screen(imagined, seat.user_id)
                assert shown == screen(game, seat.user_id), (kind, game.party.version, seat)  # type: ignore[union-attr]
                if seat is looked[0]:  # the onlooker's screen, in the worlds of one of them
                    assert screen(imagined, None) == screen(game, None), (kind, seat)
                sheet = without_trumps(paper.score_sheet(game, RU))
                assert without_trumps(paper.score_sheet(imagined, RU)) == sheet, (kind, seat)
                sheets += sheet is not None
                offers = {extra.look for extra in shown.extras} if shown is not None else set()
                if Look.HINT in offers and hinted < HINTS:
                    advice = advise(
                        view, random.Random(hinted)
                    )  # the worker is given the person's view alone
                    assert imagined.party is not None and game.party is not None
                    said = drawn(game.party).hint(seat.seat, advice, RU)
                    assert drawn(imagined.party).hint(seat.seat, advice, RU) == said, (kind, seat)
                    hinted += 1
    assert checks >= 1.5 * sum(PARTIES.values())
    assert differing > 0.8 * checks, (differing, checks)
    assert hinted == HINTS and sheets > 100, (hinted, sheets)


def test_a_review_holds_only_its_players_own_views() -> None:
    """Finished parties of both games, reviewed (with a small search: the moves it finds do not matter here) for
    one of their people: each move the review draws holds that player's view at that point of the party, and
    the drawing is given the review and the seats' names alone."""
    rng = random.Random(7)
    budget = ReviewBudget(worlds=2, recheck=2, recheck_worlds=2)
    verdicts = 0
    for kind in ("konchinka", "king", "konchinka", "king"):
        game = random_game(kind, rng, to_the_end=True)
        party = game.party
        assert party is not None and party.is_terminal
        record = party.record()
        person = rng.choice(game.people())
        review = review_party(record, person.seat, budget=budget)
        for verdict in review.moves:
            then = replay(dataclasses.replace(record, actions=record.actions[: verdict.version]))
            assert verdict.view == then.view(person.seat), (kind, verdict.version)
            verdicts += 1
        assert drawn(party).render_review(review, table_frame(game), RU).text
    assert verdicts > 0


def test_the_page_shows_the_texts_the_chat_shows_the_limit_per_turn_included() -> None:
    game = group_party(ANNA, BORIS)  # a turn limit of 60 s, Аня to move
    shown = {o.slot: o.text for o in draw(None, game, (), (), "konchinka_bot") if isinstance(o, Show)}
    onlooker, anna = screen(game, None), screen(game, ANNA.user_id)
    assert onlooker is not None and onlooker.table is not None and anna is not None and anna.hand is not None
    assert onlooker.table.html == shown[group_slot(game.id)]
    assert anna.hand.html == shown[hand_slot(game.id, ANNA.user_id)]
    assert "60" in anna.hand.html and "60" in onlooker.table.html


def test_a_solo_game_is_shown_to_its_player_only_and_a_group_table_to_anyone() -> None:
    rng = random.Random(7)
    solo = solo_party(ANNA, kind="konchinka", opponents=2)
    assert screen(solo, BORIS.user_id) is None and screen(solo, None) is None
    mine = screen(solo, ANNA.user_id)
    assert mine is not None and mine.table is None and mine.hand is not None
    group = random_game("king", rng)
    while group.mode.value != "group":
        group = random_game("king", rng)
    looker = screen(group, 999)
    assert looker is not None and looker.hand is None and looker == screen(group, None)
