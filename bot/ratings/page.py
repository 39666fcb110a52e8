"""A player's page (``/me``): the data of its picture, a pure function of the parties the database keeps of them,
the achievements they earned and each game's rating line (:class:`~bot.views.sheets.GameRating`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from bot.games import plugins
from bot.i18n import Translator
from bot.ratings.achievements import SHARED, catalogue
from bot.storage.players import Earned, PartySeat, PlayedParty
from bot.views.common import SeatInfo
from bot.views.ratings import rating
from bot.views.sheets.model import GameRating, PageFeat, PageGame, PlayerPage, Rival
from bot.views.sheets.seats import picture_name

FORM_PARTIES: Final = 20
"""The form drawn: the last this many parties of a game."""
RIVALS: Final = 3


def place_of(me: PartySeat, seats: Sequence[PartySeat]) -> int:
    """A seat's place in a finished party: the winners first, then by score."""
    return 1 + sum(1 for other in seats if other is not me and (other.won, other.score) > (me.won, me.score))


def _mine(party: PlayedParty, user_id: int) -> PartySeat:
    return next(seat for seat in party.seats if seat.user_id == user_id)


def rated_line(
    kind: str, mu: float, sigma: float, rank: tuple[int, int] | None, tr: Translator
) -> GameRating:
    """A game's line once the person is rated: the rating (with its margin until it settles) and, settled, its
    place among everyone's settled ratings of the game and how many there are (``rank``)."""
    if rank is None:
        return GameRating(kind, tr.t("page-rating", rating=rating(mu, sigma)))
    place, total = rank
    return GameRating(kind, tr.t("page-rating-ranked", rating=rating(mu, sigma), place=place, total=total))


def standing_lines(parties: Sequence[PlayedParty], user_id: int, tr: Translator) -> dict[str, GameRating]:
    """Each game's line where the person has no rating (their parties there all before ratings were kept, and
    not rebuilt): the share of parties won."""
    lines: dict[str, GameRating] = {}
    for kind in dict.fromkeys(p.kind for p in parties):
        played = [p for p in parties if p.kind == kind]
        wins = sum(_mine(p, user_id).won for p in played)
        lines[kind] = GameRating(kind, tr.t("page-wins-share", share=round(100 * wins / len(played))))
    return lines


def _rivals(played: Sequence[PlayedParty], user_id: int, tr: Translator) -> tuple[Rival, ...]:
    met: Counter[int] = Counter()
    names: dict[int, str] = {}
    score: dict[int, list[int]] = {}
    for party in played:
        me = _mine(party, user_id)
        mine = place_of(me, party.seats)
        for other in party.seats:
            if other.user_id is None or other.user_id == user_id:
                continue
            met[other.user_id] += 1
            names[other.user_id] = picture_name(SeatInfo(other.name, other.user_id), tr)
            theirs = place_of(other, party.seats)
            tally = score.setdefault(other.user_id, [0, 0])
            tally[0] += mine < theirs
            tally[1] += mine > theirs
    ranked = sorted(met, key=lambda u: (-met[u], u))[:RIVALS]
    return tuple(Rival(names[u], *score[u]) for u in ranked)


def _game(
    kind: str, played: Sequence[PlayedParty], user_id: int, rating: GameRating, tr: Translator
) -> PageGame:
    mine = [_mine(p, user_id) for p in played]
    wins = sum(seat.won for seat in mine)
    form = tuple((place_of(_mine(p, user_id), p.seats), len(p.seats)) for p in played[-FORM_PARTIES:])
    best = [tr.t("page-best-score", score=max(seat.score for seat in mine))]
    margins = [
        seat.score - max((o.score for o in p.seats if o is not seat), default=seat.score)
        for p, seat in zip(played, mine, strict=True)
        if seat.won
    ]
    if margins:
        best.append(tr.t("page-best-margin", margin=max(margins)))
    streak = longest = 0
    for seat in mine:
        streak = streak + 1 if seat.won else 0
        longest = max(longest, streak)
    if longest > 1:
        best.append(tr.t("page-best-run", wins=longest))
    plugin = next(p for p in plugins() if p.kind == kind)
    return PageGame(
        title=plugin.button(tr),
        rating=rating,
        record=tr.t("page-record", games=len(played), wins=wins),
        form=form,
        best=tuple(best),
        rivals=_rivals(played, user_id, tr),
    )


def player_page(
    user_id: int,
    name: str,
    parties: Sequence[PlayedParty],
    earned: Sequence[Earned],
    ratings: Mapping[str, GameRating],
    tr: Translator,
) -> PlayerPage:
    """The page of ``user_id`` (named ``name``): each game they finished a party of, in the menu's order, with its
    line of ``ratings`` (a game missing from it: the share of parties won), and every achievement of those games,
    the earned ones first."""
    kinds = [p.kind for p in plugins() if any(party.kind == p.kind for party in parties)]
    shares = standing_lines(parties, user_id, tr)
    games = tuple(
        _game(kind, [p for p in parties if p.kind == kind], user_id, ratings.get(kind, shares[kind]), tr)
        for kind in kinds
    )
    held = {(e.kind, e.code) for e in earned}
    feats: list[PageFeat] = []
    for plugin in plugins():
        if kinds and plugin.kind not in kinds:
            continue
        for code in catalogue(plugin.kind):
            feat = tr.t(f"feat-{code}")
            named = f"{feat} · {plugin.name(tr)}" if code in SHARED else feat
            feats.append(PageFeat(named, tr.t(f"feat-{code}-about"), (plugin.kind, code) in held))
    feats.sort(key=lambda f: not f.earned)
    labels = (
        tr.t("page-form"),
        tr.t("page-best"),
        tr.t("page-rivals"),
        tr.t("page-feats", earned=len(held), total=len(feats)),
        tr.t("page-feats-none"),
    )
    subtitle = tr.t("page-subtitle", games=len(parties))
    return PlayerPage(picture_name(SeatInfo(name, user_id), tr), subtitle, games, tuple(feats), labels)
