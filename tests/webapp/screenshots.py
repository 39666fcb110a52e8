"""Screenshots of the Mini App for docs/: a group Кончинка (its turn timed) and a solo Кинг (the hint open), each at
its player's turn after a few moves, in Telegram's light and dark themes, on a phone's screen, taken from the real bot and the real page as the
browser tests drive them (tests/webapp/browser.py).

    python -m tests.webapp.screenshots [folder]   # docs/webapp by default

Needs the distribution's Chromium (``apt-get install chromium``; ``scripts/test.sh`` installs it), and for the
emoji as a phone shows them, its emoji font (``apt-get install fonts-noto-color-emoji``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import Browser

from tests.bot.conftest import (
    fake_telegram,
    runner,
    start_party,
    start_solo_king,
    take_turn,
    turn_message,
)
from tests.fakebot import FakeTelegram, FakeUser
from tests.webapp.browser import Served, browser, hand_message, open_app, shows, until
from tests.webapp.launching import launch_of, page_of


async def shoot(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    taken: list[Path] = []
    with tempfile.TemporaryDirectory() as scratch:
        async with (
            fake_telegram(over_http=False, speed=1.0) as tg,
            runner(tg, Path(scratch) / "bot.sqlite3") as start,
        ):
            # the turn's time in real seconds, as the page counts it down
            served = Served(start, clock_speed=1.0, default_target=15, bot_delay=0.2, turn_timeout=60)
            await served.start()
            try:
                async with browser() as opened:
                    anna = tg.add_user("Аня")
                    boris, vera = tg.add_user("Борис"), tg.add_user("Вера")
                    group = tg.add_group("Друзья", [anna, boris, vera], admins=[anna])
                    await start_party(tg, group, anna, [anna, boris, vera])
                    await _play_until_her_turn(tg, anna, [anna, boris, vera], moves=3)
                    taken += await _shoot_both(opened, tg, served.base, anna, folder / "konchinka")
                    solo = tg.add_user("Аня", username="anna_solo")
                    await start_solo_king(tg, solo)
                    await _play_until_her_turn(tg, solo, [solo], moves=4)
                    taken += await _shoot_both(opened, tg, served.base, solo, folder / "king")
            finally:
                await served.stop()
    return taken


async def _shoot_both(opened: Browser, tg: FakeTelegram, base: str, user: FakeUser, stem: Path) -> list[Path]:
    """``user``'s page of their game, light and dark (the bot's clock kept still meanwhile: the page alone
    works, and the turn's time stays as it is)."""
    game = page_of(hand_message(user))
    taken = []
    for theme in ("light", "dark"):
        person = await open_app(opened, base, launch_of(tg, user), game=game, dark=theme == "dark")
        await until(_still, f"{stem.name}'s page", shows, person, "buttons")
        if "hint" in (await person.shown())["looks"]:  # solo: the master's hint open
            await person.look("hint")
            await until(_still, "the hint", shows, person, "hint")
        path = stem.with_name(f"{stem.name}-{theme}.png")
        await person.page.screenshot(path=str(path), full_page=True)
        taken.append(path)
        await person.close()
    return taken


async def _play_until_her_turn(tg: FakeTelegram, her: FakeUser, people: list[FakeUser], moves: int) -> None:
    """Play ``moves`` moves by the chat (each person their first card), then up to her next turn."""
    made = 0
    while True:
        await tg.settle()
        mover = next((user for user in people if turn_message(user) is not None), None)
        if mover is None:  # the bot players' turn
            await tg.wait_for(lambda: any(turn_message(u) for u in people), timeout=30, what="a turn")
            continue
        if made >= moves and mover is her:
            return
        assert await take_turn(tg, mover)
        made += 1


async def _still() -> None:
    await asyncio.sleep(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("folder", nargs="?", type=Path, default=Path("docs/webapp"))
    for path in asyncio.run(shoot(parser.parse_args().folder)):
        print(path)


if __name__ == "__main__":
    main()
