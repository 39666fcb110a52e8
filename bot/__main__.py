"""``python -m bot``: read the settings (exit at once if they are wrong), then run the bot."""

from __future__ import annotations

import asyncio
import logging

from bot.settings import load_settings


def main() -> None:
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level.value,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("aiogram.event").setLevel(max(logging.WARNING, logging.getLogger().level))
    from bot.app import run  # imported after the settings are known good: a bad token fails fast

    asyncio.run(run(settings))


if __name__ == "__main__":
    main()
