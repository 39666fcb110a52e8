"""A player's page (issue 50): what it says is computed from the parties the database keeps (a real SQLite file):
the form, the record, the people met most with the score against each, the run against «мастер» the
achievements read; and its picture keeps every name inside the page, a long one written whole."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

from PIL import Image

from bot.games.base import Party, drawn
from bot.i18n import Locale, translator
from bot.model import skill_scale
from bot.model.game import Game, GameMode, GameStatus, PartyEnded, Person, evolve
from bot.ratings.page import player_page, rated_line, standing_lines
from bot.storage import Batch, Database, repo
from bot.storage import standings as standings_of
from bot.storage.players import MASTER, PartySeat, PlayedParty, achievements_of, parties_of, standings
from bot.views.sheets import PlayerPage, Theme, draw
from bot.views.sheets.canvas import PAD, PALETTES, WIDTH
from bot.views.sheets.model import GameRating
from bot.views.sheets.text import fit_text, font
from engine.ai import Level
from tests.bench_sheets import LONG_NAME
from tests.flow.builders import ANNA, BORIS, VERA, finish_position, group_party, solo_party

RU = translator(Locale.RU)


def ended(game: Game, game_id: int, *order: Person) -> Game:
    """``game`` as its finished row: seat 0 (the first of ``order``) won by «🏁 Прикончить!», at time ``game_id``."""
    seats = tuple(
        dataclasses.replace(game.seats[[s.user_id for s in game.seats].index(p.user_id)], seat=i)
        for i, p in enumerate(order)
    )
    over = dataclasses.replace(
        game, id=game_id, seats=seats + game.seats[len(order) :], party=plain_finish_of(len(game.seats))
    )
    return evolve(dataclasses.replace(over, status=GameStatus.PLAYING), [PartyEnded(float(game_id))])


def plain_finish_of(players: int) -> Party:
    party = finish_position(players)
    (index,) = party.actions_of_card(0, "f")
    return drawn(party.after(index)[0])


async def stored(db: Database, *games: Game) -> None:
    batch = Batch()
    for game in games:
        for seat in game.people():
            assert seat.user_id is not None
            repo.upsert_user(batch, Person(seat.user_id, seat.name))
        repo.insert_game(batch, game)
    await db.write(batch)


async def test_form_record_and_rivals_come_from_the_stored_parties(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        pair, trio = group_party(ANNA, BORIS), group_party(ANNA, BORIS, VERA)
        await stored(
            db,
            ended(pair, 1, ANNA, BORIS),  # Аня wins
            ended(pair, 2, BORIS, ANNA),  # Борис wins
            ended(trio, 3, VERA, ANNA, BORIS),  # Вера wins; Аня and Борис left at 5 each: a tie below
            ended(pair, 4, ANNA, BORIS),
        )
        parties = await parties_of(db, ANNA.user_id)
        assert [p.game_id for p in parties] == [1, 2, 3, 4]
        page = player_page(
            ANNA.user_id, ANNA.name, parties, [], standing_lines(parties, ANNA.user_id, RU), RU
        )
    finally:
        await db.close()
    [game] = page.games
    assert game.form == ((1, 2), (2, 2), (2, 3), (1, 2))
    assert game.record == RU.t("page-record", games=4, wins=2)
    assert game.rating == GameRating("konchinka", RU.t("page-wins-share", share=50))
    assert [(r.name, r.wins, r.losses) for r in game.rivals] == [("Борис", 2, 1), ("Вера", 0, 1)]
    assert RU.t("page-best-margin", margin=15 - 5) in game.best


async def test_the_run_against_master_counts_the_latest_solo_parties_won_in_a_row(tmp_path: Path) -> None:
    """Won, lost, won, won against «мастер» (a won party against «любитель» between them does not count): a run
    of 2; a party against «мастер» given up after a move then breaks it."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        master, amateur = solo_party(ANNA, level=Level.HARD), solo_party(ANNA, level=Level.NORMAL)
        bot = master.seats[1]
        assert bot.level == MASTER
        won = [True, False, True, None, True]  # None: the party against «любитель»
        games = []
        for n, anna_won in enumerate(won, start=1):
            base = amateur if anna_won is None else master
            order = [ANNA] if anna_won in (True, None) else []
            game = ended(base, n, *order) if order else _lost(base, n)
            games.append(game)
        await stored(db, *games)
        assert (await standings(db, "konchinka", [ANNA.user_id], 10))[ANNA.user_id].master_run == 2
        assert master.party is not None
        moved, _ = master.party.after(0)
        given_up = dataclasses.replace(master, id=9, status=GameStatus.CANCELLED, party=moved)
        await stored(db, given_up)
        assert (await standings(db, "konchinka", [ANNA.user_id], 10))[ANNA.user_id].master_run == 0
        assert await achievements_of(db, ANNA.user_id) == []
    finally:
        await db.close()


def _lost(game: Game, game_id: int) -> Game:
    """Аня's solo party that the bot player (moved to seat 0) won."""
    seats = (dataclasses.replace(game.seats[1], seat=0), dataclasses.replace(game.seats[0], seat=1))
    over = dataclasses.replace(game, id=game_id, seats=seats, party=plain_finish_of(2))
    return evolve(dataclasses.replace(over, status=GameStatus.PLAYING), [PartyEnded(float(game_id))])


def page_with(name: str, rival: str) -> PlayerPage:
    pair = group_party(Person(1, name), Person(2, rival))
    people = [Person(1, name), Person(2, rival)]
    parties = [ended(pair, n, *people[:: 1 if n % 2 else -1]) for n in range(1, 4)]
    played = [
        PlayedParty(
            g.id,
            g.kind,
            GameMode.GROUP,
            float(g.id),
            tuple(PartySeat(s.user_id, s.name, s.level, s.score or 0, bool(s.won)) for s in g.seats),
        )
        for g in parties
    ]
    return player_page(1, name, played, [], standing_lines(played, 1, RU), RU)


def test_long_and_emoji_names_stay_inside_the_page_and_a_long_name_is_written_whole() -> None:
    """Nothing is drawn in the right margin (but the game's band, which runs across); a 64-character name makes
    the page taller (its name wrapped, not cut); the rating line the ratings will write fits its line."""
    for theme in Theme:
        palette = PALETTES[theme]
        allowed = {palette.paper, palette.band}
        for name, rival in (
            (LONG_NAME, "🦊🔥 Лиса 👩‍👩‍👧‍👦"),
            ("🐻" * 40, LONG_NAME),
            ("אברהם בן דוד", "Борис 🐻"),
        ):
            image = Image.open(io.BytesIO(draw(page_with(name, rival), theme))).convert("RGB")
            margin = {
                image.getpixel((x, y)) for x in range(WIDTH - PAD + 2, WIDTH) for y in range(image.height)
            }
            assert margin <= allowed, (name, rival, margin - allowed)
    short = Image.open(io.BytesIO(draw(page_with("Аня", "Борис"), Theme.LIGHT)))
    long = Image.open(io.BytesIO(draw(page_with(LONG_NAME, LONG_NAME), Theme.LIGHT)))
    assert long.height >= short.height + 2 * 40 + 28
    line = "Рейтинг 1534 ± 80 · 3-й в чате"
    assert fit_text(line, font(21), WIDTH - 2 * PAD) == line


def test_a_games_rating_line_is_the_one_given_and_the_share_of_wins_without_one() -> None:
    """The slot the ratings fill: a game's line as given; a game without one says its share of wins."""
    page = page_with("Аня", "Борис")
    parties = [PlayedParty(1, "konchinka", GameMode.GROUP, 1.0, (PartySeat(1, "Аня", None, 15, True),))]
    rated = GameRating("konchinka", "Рейтинг 1534 ± 80 · 3-й в чате")
    given = player_page(1, "Аня", parties, [], {"konchinka": rated}, RU)
    assert [g.rating for g in given.games] == [rated]
    assert [g.rating.text for g in page.games] == [RU.t("page-wins-share", share=67)]


async def test_a_settled_rating_is_placed_among_everyones_settled_ones_of_its_game(tmp_path: Path) -> None:
    """The page's place: among the settled ratings of the same game only (an unsettled one, a better one in the
    other game, do not count), and the line says it with the rating."""
    db = await Database.open(tmp_path / "bot.sqlite3")
    try:
        rows = [(1, "konchinka", 30.0, 2.0), (2, "konchinka", 28.0, 3.0), (3, "konchinka", 40.0, 8.0)]
        rows += [(4, "king", 45.0, 2.0), (5, "konchinka", 20.0, 4.0)]
        batch = Batch()
        for user, kind, mu, sigma in rows:
            batch.add(
                "INSERT INTO ratings (user_id, kind, mu, sigma, parties) VALUES (?, ?, ?, ?, 12)",
                (user, kind, mu, sigma),
            )
        await db.write(batch)
        assert await standings_of.rank_of(db, "konchinka", 28.0, skill_scale.SETTLED_BELOW) == (2, 3)
        assert await standings_of.rank_of(db, "konchinka", 30.0, skill_scale.SETTLED_BELOW) == (1, 3)
        assert await standings_of.rank_of(db, "king", 45.0, skill_scale.SETTLED_BELOW) == (1, 1)
    finally:
        await db.close()
    line = rated_line("konchinka", 28.0, 3.0, (2, 3), RU)
    assert line.text == f"Рейтинг {skill_scale.shown(28.0)} · место 2 из 3"
    assert (
        rated_line("konchinka", 40.0, 8.0, None, RU).text
        == f"Рейтинг {skill_scale.shown(40.0)} ± {skill_scale.margin(8.0)}"
    )
