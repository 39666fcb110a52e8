"""``python -m tests.bot.stalling_bot``: ``python -m bot`` whose event loop blocks for ``STALL_SECONDS`` each time
the process gets SIGUSR2 — what a handler stuck in a long computation does to a running bot.

A Python signal handler runs on the main thread, the one the event loop runs on: while it sleeps, the loop
runs nothing at all. Nothing of the bot is changed; ``tests/bot/test_running.py`` watches ``/healthz``.
"""

from __future__ import annotations

import os
import signal
import time
from types import FrameType

from bot.__main__ import main


def _stall(signum: int, frame: FrameType | None) -> None:
    time.sleep(float(os.environ.get("STALL_SECONDS", "3")))


if __name__ == "__main__":  # not in the bot players' workers, which import this module: no bot of their own
    signal.signal(signal.SIGUSR2, _stall)
    raise SystemExit(main())
