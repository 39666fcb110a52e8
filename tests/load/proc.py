"""The bot under test as a separate process: started, measured through /proc (CPU time, peak RSS), stopped."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.forkserver import ForkServer, Process

ROOT = Path(__file__).resolve().parents[2]
"""The project's root: on the child's PYTHONPATH, so ``tests.load.floor`` imports as ``bot`` does."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
STOP_GRACE = 10.0
"""Real seconds a process gets to shut down after SIGINT before SIGKILL."""


@dataclass(frozen=True)
class Usage:
    cpu_s: float
    """User + system CPU seconds of the process (all its threads) so far."""
    peak_rss_mb: float
    """The process's peak resident set size (VmHWM) so far."""
    loop_waited_s: float = 0.0
    """Seconds its main thread (the event loop's) was ready to run but waited for a CPU, so far (schedstat): on
    a busy machine, time a press waits that no profile of the process shows."""


def read_usage(pid: int) -> Usage:
    """CPU time, peak RSS and the main thread's wait for a CPU of a running process, from /proc (Linux)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of stat(5), after pid and comm
    peak_kb = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            peak_kb = int(line.split()[1])
    waited_ns = 0
    with contextlib.suppress(OSError, ValueError, IndexError):  # schedstat: run ns, waited ns, time slices
        waited_ns = int(Path(f"/proc/{pid}/schedstat").read_text().split()[1])
    return Usage((utime + stime) / CLOCK_TICKS, peak_kb / 1024, waited_ns / 1e9)


class BotProcess:
    """``python -m <module>`` with the given environment, its output in ``log_path``."""

    def __init__(
        self,
        module: str,
        env: dict[str, str],
        workdir: Path,
        forkserver: ForkServer | None = None,
        *,
        code: str | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.module = module
        self.env = env
        self.workdir = workdir
        self.forkserver = forkserver
        """Forks the process from an interpreter that did the imports (tests); None: a fresh interpreter."""
        self.code = code
        """``python -c code`` instead of ``python -m module`` (``module`` then names its log only)."""
        self.cwd = cwd or workdir
        """Where it runs: ``workdir`` unless told (the temporary folder: no .env of the checkout is read)."""
        self.log_path = workdir / f"{module.replace('.', '_')}.log"
        self.process: Process | None = None
        self.exit_code: int | None = None

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("not started")
        return self.process.pid

    async def start(self) -> None:
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        with self.log_path.open("wb") as log:
            if self.forkserver is not None:
                self.process = await self.forkserver.spawn(
                    self.module, code=self.code, env=env, cwd=self.cwd, stdout=log, stderr=log
                )
            else:
                run = ["-m", self.module] if self.code is None else ["-c", self.code]
                self.process = await asyncio.create_subprocess_exec(
                    sys.executable, *run, cwd=self.cwd, env=env, stdout=log, stderr=log
                )

    def is_running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    def usage(self) -> Usage:
        return read_usage(self.pid)

    async def stop(self) -> None:
        """SIGINT (aiogram's polling stops gracefully), then SIGKILL after ``STOP_GRACE`` seconds."""
        process = self.process
        if process is None or process.returncode is not None:
            self.exit_code = None if process is None else process.returncode
            return
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGINT)
        try:
            self.exit_code = await asyncio.wait_for(process.wait(), STOP_GRACE)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            self.exit_code = await process.wait()

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
