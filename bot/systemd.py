"""systemd's service notifications (``sd_notify``), for the unit's ``Type=notify`` and ``WatchdogSec=``.

systemd gives a service it started the address of its notification socket (``NOTIFY_SOCKET``: a path, or an
abstract address written with a leading ``@``) and, with ``WatchdogSec=``, the watchdog's period in microseconds
(``WATCHDOG_USEC``) and the process it expects to hear from (``WATCHDOG_PID``). A notification is one datagram of
``KEY=value`` lines. The bot says ``READY=1`` once it can take updates (:attr:`bot.health.Health.ready`),
``WATCHDOG=1`` from its event loop's heartbeat at half the period (what ``sd_watchdog_enabled(3)`` advises), and
``STOPPING=1`` when it stops. A loop that stops beating stops the pings: past ``WatchdogSec`` systemd kills the
bot (SIGABRT) and, with ``Restart=on-failure``, starts it again. Outside systemd (no ``NOTIFY_SOCKET``) nothing
is sent. A notification that cannot be sent is dropped: systemd would then act as if the bot were silent.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends the bot's notifications to systemd, if systemd asked for them."""

    def __init__(self, environ: Mapping[str, str] | None = None, pid: int | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        """Where notifications go ("" outside systemd)."""
        watchdog = 0.0
        expected = env.get("WATCHDOG_PID", "")
        if not expected or expected == str(os.getpid() if pid is None else pid):
            try:
                watchdog = int(env.get("WATCHDOG_USEC", "0")) / 1e6
            except ValueError:
                watchdog = 0.0
        self.ping_every = watchdog / 2 if self.address and watchdog > 0 else 0.0
        """Seconds between two watchdog pings (0: no watchdog)."""
        self._pinged = -float("inf")
        self.is_ready = False
        self._failed = False

    def notify(self, state: str) -> bool:
        """Send ``state`` (``"READY=1"``, ...); whether it went."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.setblocking(False)  # a datagram or nothing: never wait on systemd
                sock.sendto(state.encode(), self.address)
        except OSError as exc:
            if not self._failed:
                log.warning("cannot notify systemd at %s (%s): %s", self.address.lstrip("\0"), state, exc)
                self._failed = True
            return False
        return True

    def ready(self) -> None:
        if not self.is_ready:
            self.is_ready = True
            self.notify("READY=1")

    def ping(self, now: float | None = None) -> None:
        """A watchdog ping, if one is due (call it as often as you like: it sends at most one per half period)."""
        if not self.ping_every:
            return
        now = time.monotonic() if now is None else now
        if now - self._pinged >= self.ping_every:
            self._pinged = now
            self.notify("WATCHDOG=1")

    def stopping(self) -> None:
        self.notify("STOPPING=1")
