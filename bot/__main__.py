"""``python -m bot [run | check | migrate | backup PATH [--keep N]]``: read the settings (exit at once if they are
wrong), then act.

- ``run`` (the default) runs the bot until SIGINT or SIGTERM, or until it cannot go on (the token revoked);
- ``check`` checks the settings, the database (read-only) and Telegram, changing nothing (see :mod:`bot.ops`);
- ``migrate`` creates the database or brings its schema up to date;
- ``backup PATH`` copies the database to ``PATH``, consistent while the bot runs; ``--keep N`` keeps the newest N
  copies in that folder. ``backup`` and ``migrate`` need only ``DATABASE_PATH``, not the token.

Every failure is one log line naming the cause and the setting to fix, and an exit code from
:class:`bot.settings.ExitCode`. Only the settings are imported before they are read: aiogram and the rest of the
bot take seconds of CPU to import, and a bad setting must stop the bot at once. A relative ``PATH`` is taken from
the folder the operator ran the command in (``CARDBOT_CALLER_DIR``, which ``scripts/run.sh`` sets before it
changes to the checkout), not the checkout.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from pathlib import Path

from bot import logs
from bot.settings import ExitCode, Settings, StartupError, StorageSettings, load_settings

log = logging.getLogger("bot")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Card games in Telegram.")
    parser.add_argument(
        "--incurable-exit",
        type=int,
        metavar="CODE",
        help="exit with CODE instead when the cause is one a restart cannot cure (2 3 5 7 8 9): for a "
        "supervisor that can only restart on failure or not at all (compose's `restart: on-failure`)",
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the bot (the default)")
    commands.add_parser(
        "check",
        help="check the settings, the database (read-only) and Telegram; the exit code says which failed",
    )
    commands.add_parser("migrate", help="create the database or bring its schema up to date")
    backup = commands.add_parser("backup", help="copy the database, consistent while the bot runs")
    backup.add_argument("path", help="the file to write the copy to")
    backup.add_argument(
        "--keep", type=int, metavar="N", help="then delete all but the newest N copies in PATH's folder"
    )
    args = parser.parse_args(argv)
    if args.command == "backup":
        if args.keep is not None and args.keep < 1:
            parser.error("--keep must be 1 or more")
        if args.path.endswith(("/", os.sep)):
            parser.error(f"{args.path} names a folder: give the copy's file name in it")
        args.path = Path(args.path)
        caller = os.environ.get("CARDBOT_CALLER_DIR")
        if caller and not args.path.is_absolute():
            args.path = Path(caller) / args.path
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        code = act(args)
    except SystemExit as exit_:  # a bad setting
        if not isinstance(exit_.code, int):
            raise
        code = exit_.code
    if args.incurable_exit is not None and code in ExitCode.incurable():
        log.warning(
            "exit code %d: a restart cannot cure this; exiting with %d instead", code, args.incurable_exit
        )
        return int(args.incurable_exit)
    return code


def act(args: argparse.Namespace) -> int:
    logs.setup()
    if args.command in ("backup", "migrate"):
        storage = load_settings(StorageSettings)
        logs.setup(storage.log_level.value, storage.log_format)
        from bot import ops

        if args.command == "backup":
            return ops.run_backup(storage, args.path, args.keep)
        return asyncio.run(ops.migrate(storage))
    settings = load_settings(Settings)
    secrets = [settings.token] + (
        [settings.webhook_secret.get_secret_value()] if settings.webhook_secret else []
    )
    logs.setup(settings.log_level.value, settings.log_format, secrets)
    logging.getLogger("aiogram.event").setLevel(max(logging.WARNING, logging.getLogger().level))
    # Imported only now that the settings are known good: a bad token fails fast.
    from bot import ops
    from bot.app import run

    if args.command == "check":
        return asyncio.run(ops.check(settings))
    try:
        asyncio.run(run(settings))
    except StartupError as error:
        log.error("%s: %s", "stopped" if error.while_running else "cannot start", error.message)
        return error.code
    except KeyboardInterrupt:
        pass
    return ExitCode.OK


if __name__ == "__main__":
    raise SystemExit(main())
