"""Seasons' ends: when a calendar month (UTC) is over, each group that played rated parties in it is told its top
three of each game, once.

It runs on the bot's clock: at start (a month that ended while the bot was down is told then) and at the first
second of every month. Each group's message is stored in the outbox's table in the same commit that marks the
season told there, so it goes exactly once: a restart never tells it again, and a kill before it was sent leaves
it waiting, sent at the next start with the other notices.
"""

from __future__ import annotations

import logging
from typing import Final

from bot.delivery.outbox import Priority
from bot.games import is_hosted, plugin_of
from bot.i18n import translator
from bot.pipeline.origin import Parts
from bot.ratings.seasons import next_season, previous_season, season_of, season_start
from bot.storage import Batch, Notice, repo, standings
from bot.views import ratings

log = logging.getLogger(__name__)

PODIUM: Final = 3
AFTER_THE_TURN: Final = 1.0
"""Seconds of the bot's clock after a month's last second that the season's end is looked at."""


class Seasons:
    def __init__(self, pipeline: Parts) -> None:
        self.pipeline = pipeline

    async def keep(self) -> None:
        """For as long as the bot runs: the season just over told, then a sleep until the next one ends."""
        clock = self.pipeline.clock
        while True:
            now = clock.now()
            season = season_of(now)
            try:
                await self.tell(previous_season(season))
            except Exception:
                log.exception("season %s: could not tell its end (tried again at the next start)", season)
            await clock.sleep(season_start(next_season(season)) - now + AFTER_THE_TURN)

    async def tell(self, season: str) -> int:
        """Each group that played in ``season`` and was not told of its end yet: its top three of each game. How
        many groups were told."""
        db, outbox = self.pipeline.db, self.pipeline.outbox
        told = 0
        for chat_id in await standings.season_untold(db, season):
            tr = translator(await self.pipeline.store.languages.of(chat_id) or "ru")
            podiums = []
            firsts: list[str] = []
            for kind in await standings.season_kinds(db, season, chat_id):
                if not is_hosted(kind):
                    continue
                lines = await standings.season_board(db, season, chat_id, kind, PODIUM)
                podiums.append((plugin_of(kind).button(tr), lines))
                firsts.extend(f"{kind} user {lines[0].user_id}" for _ in lines[:1])
            rendered = ratings.render_season_end(season, podiums, tr)
            notice = Notice(db.next_notice_id(), chat_id, 0, rendered.text, None)
            batch = Batch()
            now = self.pipeline.clock.now()
            standings.mark_told(batch, season, chat_id, now)
            repo.add_notice(batch, notice, now)
            await db.write(batch)
            outbox.post([notice], priority=Priority.ASKED)  # behind the group's games, as a member's answer
            log.info(
                "season %s: its end told in chat %s (first: %s)",
                season,
                chat_id,
                ", ".join(firsts) or "nobody",
            )
            told += 1
        return told
