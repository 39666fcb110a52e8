"""``python -m bot [run | check | backup PATH]``: read the settings (exit at once if they are wrong), then act.

- ``run`` (the default) runs the bot until SIGINT or SIGTERM;
- ``check`` checks the settings, the database and Telegram, and exits (see :mod:`bot.ops`);
- ``backup PATH`` copies the database to ``PATH``, consistent while the bot runs.

Every failure to start is one line in the log naming the cause and the setting to fix, and an exit code from
:class:`bot.settings.ExitCode`. Only the settings are imported before they are read: aiogram and the rest of the
bot take seconds of CPU to import, and a bad setting must stop the bot at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

from bot.settings import ExitCode, StartupError, load_settings

log = logging.getLogger("bot")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Card games in Telegram.")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the bot (the default)")
    commands.add_parser(
        "check", help="check the settings, the database and Telegram; the exit code says which failed"
    )
    backup = commands.add_parser("backup", help="copy the database, consistent while the bot runs")
    backup.add_argument("path", type=Path, help="the file to write the copy to")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level.value,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("aiogram.event").setLevel(max(logging.WARNING, logging.getLogger().level))
    # Imported only now that the settings are known good: a bad token fails fast.
    from bot import ops
    from bot.app import run

    if args.command == "check":
        return asyncio.run(ops.check(settings))
    if args.command == "backup":
        return ops.run_backup(settings, args.path)
    try:
        asyncio.run(run(settings))
    except StartupError as error:
        log.error("cannot start: %s", error.message)
        return error.code
    except KeyboardInterrupt:
        pass
    return ExitCode.OK


if __name__ == "__main__":
    raise SystemExit(main())
