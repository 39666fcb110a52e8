"""``python -m bot`` for tests in a fraction of a second: children forked from one interpreter that did the imports.

A fresh ``python -m bot`` spends seconds of CPU importing aiogram and the bot before it reads a setting; the
tests start dozens. :class:`ForkServer` starts ``server.py`` once (xdist's controller, for all its workers; the
``forkserver`` fixture, in a session without xdist), which imports them, and forks a child for each
:meth:`ForkServer.spawn` — and each of xdist's workers (``python.py``). The
child is what ``python -m MODULE ARGS`` would be as far as a test can tell: its own pid (signals go to it), the
environment, working directory, argv, stdin/stdout/stderr and exit code asked for, the test process's process
group, signal handlers and stdio buffering as a fresh interpreter sets them. What a fork cannot reproduce (the
interpreter's options, ``PYTHON*`` variables other than ``PYTHONUNBUFFERED`` and ``PYTHONDONTWRITEBYTECODE``
differing from the server's) makes :meth:`ForkServer.spawn` start a fresh interpreter instead.

The one thing that differs: the modules are already imported, and the texts and the rules' search index built
(:func:`server.warm`), so a child does not re-read them from disk and its start costs no import time (0.1 s of
CPU, not 0.6). ``tests/bot/test_settings.py`` and ``tests/test_packaging.py`` start fresh
interpreters, so the real entry point's imports stay covered.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Protocol

from tests.forkserver.server import failed_path

ROOT = Path(__file__).resolve().parents[2]
SERVER = Path(__file__).with_name("server.py")
WORKER_PYTHON = Path(__file__).with_name("python.py")
"""The ``python`` xdist's workers are started with: a child of the server (see ``python.py``)."""
PIPE = asyncio.subprocess.PIPE
DEVNULL = asyncio.subprocess.DEVNULL
APPLIED = frozenset({"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"})
"""``PYTHON*`` variables the server applies to each child; the others must be the server's own."""
THIRD_PARTY = (
    "aiogram",
    "aiogram.types",
    "aiohttp",
    "aiosqlite",
    "prometheus_client",
    "pydantic",
    "pydantic_settings",
    "fluent.runtime",
    "rapidfuzz",
    "pymorphy3",
    "snowballstemmer",
)
"""The third-party packages the bot imports at its start (nothing of ours): what a process that looks only at our
modules imports first — the import test's forker, the press trace's bot before its profiler is on."""
BOT_MODULES = ("bot.app", "bot.ops", "aiogram.webhook.aiohttp_server")
"""What the server imports: everything ``python -m bot`` and ``python -m tests.load.floor`` import (never a
``__main__`` module itself: that must run fresh)."""
READY_TIMEOUT = 120.0
"""Seconds a client waits for a server another process started to take requests."""

Stdio = int | IO[bytes] | IO[str] | None
"""As for :func:`asyncio.create_subprocess_exec`: ``PIPE``, ``DEVNULL``, a file, a descriptor, or None (inherit)."""


class Process(Protocol):
    """What tests use of :class:`asyncio.subprocess.Process` (a forked child has the same)."""

    @property
    def pid(self) -> int: ...
    @property
    def returncode(self) -> int | None: ...

    stdout: asyncio.StreamReader | None
    stderr: asyncio.StreamReader | None

    async def wait(self) -> int: ...
    async def communicate(self, input: bytes | None = None) -> tuple[bytes, bytes]: ...
    def send_signal(self, signal: int) -> None: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...


class _Status(asyncio.Protocol):
    """The server's answers about one child: ``pid N``, later ``exit CODE``."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.pid: asyncio.Future[int] = loop.create_future()
        self.exit: asyncio.Future[int] = loop.create_future()
        self._buffer = b""

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            word, _, value = line.decode().partition(" ")
            if word == "pid":
                self.pid.set_result(int(value))
            elif word == "exit":
                self.exit.set_result(int(value))
            else:
                self._fail(f"the fork server refused: {value}")

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail("the fork server went away")

    def _fail(self, why: str) -> None:
        for future in (self.pid, self.exit):
            if not future.done():
                future.set_exception(RuntimeError(why))


class ForkedProcess:
    """A child of the fork server, used as an :class:`asyncio.subprocess.Process`."""

    def __init__(self, pid: int, status: _Status, transport: asyncio.BaseTransport) -> None:
        self._pid = pid
        self._status = status
        self._transport = transport
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def returncode(self) -> int | None:
        """Known as soon as the event loop has heard it from the server, as asyncio's own processes."""
        exit = self._status.exit
        return exit.result() if exit.done() and exit.exception() is None else None

    async def wait(self) -> int:
        try:
            return await asyncio.shield(self._status.exit)
        finally:
            if self._status.exit.done():
                self._transport.close()

    async def communicate(self, input: bytes | None = None) -> tuple[bytes, bytes]:
        if input is not None:
            raise NotImplementedError("a forked child's stdin is a file or /dev/null")

        async def read(stream: asyncio.StreamReader | None) -> bytes:
            return b"" if stream is None else await stream.read()

        out, err = await asyncio.gather(read(self.stdout), read(self.stderr))
        await self.wait()
        return out, err

    def send_signal(self, signal: int) -> None:
        if self.returncode is None:
            os.kill(self._pid, signal)

    def terminate(self) -> None:
        import signal

        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        import signal

        self.send_signal(signal.SIGKILL)


def sigint_by_default() -> None:
    """In a new process before it runs Python: SIGINT back to its default, as a terminal or a service manager
    starts the bot. A shell without job control starts its background jobs ignoring SIGINT (so would the tests
    and every interpreter they start, run that way), and a process that starts ignoring it keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class ForkServer:
    """One ``server.py`` that imported ``modules``; :meth:`spawn` forks ``python -m MODULE`` children from it."""

    def __init__(self, workdir: Path, modules: Sequence[str] = BOT_MODULES) -> None:
        self.workdir = workdir
        self.modules = tuple(modules)
        self.path = str(workdir / "forkserver.sock")
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}
        """The server's own environment (``python -m bot`` children get ROOT on their path the same way)."""
        self.log = workdir / "forkserver.log"
        self.forked = 0
        self.fresh = 0
        self._server: subprocess.Popen[bytes] | None = None
        self._attached = False

    @classmethod
    def attach(cls, path: str) -> ForkServer:
        """A client of the server at ``path`` that another process started (with ``start(wait=False)``): the
        xdist controller starts one for all its workers. Waits until the server takes requests."""
        client = cls(Path(path).parent)
        client.path = path
        client._attached = True
        deadline = time.monotonic() + READY_TIMEOUT
        failed = Path(failed_path(path))
        while not os.path.exists(path):
            if failed.exists():
                raise RuntimeError(
                    f"the fork server at {path} did not start: {failed.read_text(errors='replace')}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the fork server at {path} did not start in {READY_TIMEOUT:.0f} s: "
                    f"{client.log.read_text(errors='replace')}"
                )
            time.sleep(0.05)
        return client

    def start(self, *, wait: bool = True) -> None:
        """Start the server; with ``wait``, return once it takes requests (else clients :meth:`attach`)."""
        with self.log.open("wb") as log:
            self._server = subprocess.Popen(
                [sys.executable, str(SERVER), self.path, *self.modules],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                preexec_fn=sigint_by_default,
            )
        assert self._server.stdout is not None
        if not wait:
            return
        line = self._server.stdout.readline()
        if line != b"ready\n":
            self.close()
            raise RuntimeError(f"the fork server did not start: {self.log.read_text(errors='replace')}")

    def close(self) -> None:
        """Stop the server; it kills any child still running."""
        server, self._server = self._server, None
        if server is None:
            return
        assert server.stdin is not None and server.stdout is not None
        server.stdin.close()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stdout.close()

    def forks(self, env: Mapping[str, str]) -> bool:
        """Whether a child forked for ``env`` starts as a fresh interpreter would (else one is started)."""

        def interpreter(values: Mapping[str, str]) -> dict[str, str]:
            return {k: v for k, v in values.items() if k.startswith("PYTHON") and k not in APPLIED}

        running = self._server is not None or self._attached
        return running and interpreter(env) == interpreter(self.env)

    async def spawn(
        self,
        module: str,
        *args: str,
        env: Mapping[str, str],
        cwd: Path,
        stdin: Stdio = DEVNULL,
        stdout: Stdio = None,
        stderr: Stdio = None,
        snapshots: Path | None = None,
        code: str | None = None,
    ) -> Process:
        """``python -m module args`` in ``cwd`` with exactly ``env``: forked when it can be, else fresh.

        ``snapshots``: a folder where the child writes tracemalloc snapshots when sent SIGUSR1 (see
        ``server._snapshots``); the only way a child may be asked to differ from ``python -m``, so only forked.
        ``code``: ``python -c code args`` instead (``module`` is then ignored).
        """
        if snapshots is not None and not self.forks(env):
            raise ValueError("only a forked child answers SIGUSR1 with snapshots")
        if not self.forks(env):
            self.fresh += 1
            run = ["-m", module] if code is None else ["-c", code]
            return await asyncio.create_subprocess_exec(
                sys.executable, *run, *args, cwd=cwd, env=dict(env), stdin=stdin, stdout=stdout,
                stderr=stderr, preexec_fn=sigint_by_default,
            )  # fmt: skip
        if stdin == PIPE:
            raise NotImplementedError("a forked child's stdin is a file or /dev/null")
        loop = asyncio.get_running_loop()
        sent: list[int] = []
        """Descriptors opened here for the child: closed here once the server holds its copies."""
        pipes: dict[str, int] = {}

        def descriptor(name: str, own: int, spec: Stdio) -> int:
            if spec is None:
                return own
            if spec == DEVNULL:
                sent.append(os.open(os.devnull, os.O_RDWR))
                return sent[-1]
            if spec == PIPE:
                read, write = os.pipe()
                pipes[name] = read
                sent.append(write)
                return write
            return spec if isinstance(spec, int) else spec.fileno()

        fds = [
            descriptor("stdin", 0, stdin),
            descriptor("stdout", 1, stdout),
            descriptor("stderr", 2, stderr),
        ]
        request = {
            "module": module,
            "args": list(args),
            "env": dict(env),
            "cwd": str(cwd),
            "snapshots": None if snapshots is None else str(snapshots),
            "code": code,
        }
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(self.path)
            socket.send_fds(sock, [b"F"], fds)
            sock.sendall(json.dumps(request).encode())
            sock.shutdown(socket.SHUT_WR)
        except BaseException:
            sock.close()
            for fd in pipes.values():
                os.close(fd)
            raise
        finally:
            for fd in sent:
                os.close(fd)
        sock.setblocking(False)
        transport, status = await loop.create_unix_connection(lambda: _Status(loop), sock=sock)
        pid = await asyncio.wait_for(asyncio.shield(status.pid), 30)
        child = ForkedProcess(pid, status, transport)
        self.forked += 1
        for name, fd in pipes.items():
            setattr(child, name, await _reader(loop, fd))
        return child


async def _reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    """A stream reading the pipe ``fd`` (as asyncio's own ``PIPE``)."""
    reader = asyncio.StreamReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    await loop.connect_read_pipe(lambda: protocol, os.fdopen(fd, "rb", 0))
    return reader
