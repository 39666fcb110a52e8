"""The fork server: one interpreter that imported the bot once, and forks a ``python -m MODULE`` for each request.

Run by path (``python tests/forkserver/server.py SOCKET MODULE...``, so that not even the ``tests`` package is
imported): it imports the modules named (aiogram and the bot's app take seconds of CPU), prints ``ready`` and
serves requests on the Unix socket ``SOCKET``. A request is the child's stdin, stdout and stderr (three file
descriptors), then JSON: the module (or the source to run as ``-c`` runs it: an xdist worker, see ``python.py``),
its arguments, the environment and the working directory. The server forks; the child becomes what ``python -m
MODULE ARGS`` started in that directory with that environment would be, and runs the module as ``-m`` does. The
server answers ``pid N``, and ``exit CODE`` once the child has ended (``CODE`` as
:attr:`subprocess.Popen.returncode` has it: negative for a signal). When its stdin closes (the test process ended,
however it ended), it kills what it started and exits.

What a forked child cannot make as a fresh interpreter does, the client (``tests/forkserver/__init__.py``)
refuses to ask for: interpreter options, and ``PYTHON*`` variables other than the two applied here. The one
deliberate difference, only when a request names a folder for it: the child answers SIGUSR1 with tracemalloc
snapshots (the soak test's measure of what the bot keeps).
"""

from __future__ import annotations

import builtins
import contextlib
import gc
import importlib
import io
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import threading
import traceback
import types
from dataclasses import dataclass
from typing import Any

STDIO = 3
"""File descriptors a request carries: the child's stdin, stdout and stderr."""


@dataclass(frozen=True)
class Request:
    module: str
    args: list[str]
    env: dict[str, str]
    cwd: str
    fds: list[int]
    snapshots: str | None = None
    """A folder: the child answers SIGUSR1 with tracemalloc snapshots written there (see :func:`_snapshots`)."""
    code: str | None = None
    """Source to run as ``python -c`` runs it, instead of the module (an xdist worker: ``python.py``)."""


def receive(conn: socket.socket) -> Request:
    _, fds, _, _ = socket.recv_fds(conn, 1, STDIO)
    chunks = []
    while chunk := conn.recv(65536):
        chunks.append(chunk)
    data: dict[str, Any] = json.loads(b"".join(chunks))
    if len(fds) != STDIO:
        raise ValueError(f"a request carries {STDIO} file descriptors, not {len(fds)}")
    return Request(
        data["module"], data["args"], data["env"], data["cwd"], fds, data.get("snapshots"), data.get("code")
    )


def _send(conn: socket.socket, line: str) -> None:
    with contextlib.suppress(OSError):  # the test that asked is gone: nobody to tell
        conn.sendall(line.encode() + b"\n")


def serve(path: str) -> Request | None:
    """Fork a child per request until stdin closes; in a child, the request it is to run (None in the server)."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(64)
    os.rename(
        path + ".new", path
    )  # the path appears once the server takes requests (clients that attach wait)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)  # only to wake the selector (below)
    signal.set_wakeup_fd(wake_w)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
    children: dict[int, socket.socket] = {}
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                conn, _ = listener.accept()
                try:
                    request = receive(conn)
                except (OSError, ValueError) as exc:
                    _send(conn, f"error {exc}")
                    conn.close()
                    continue
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    selector.close()
                    listener.close()
                    os.close(wake_r)
                    os.close(wake_w)
                    for other in children.values():
                        other.close()
                    conn.close()
                    return request
                for fd in request.fds:
                    os.close(fd)
                children[pid] = conn
                _send(conn, f"pid {pid}")
            elif key.fileobj == wake_r:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_r, 512):
                        pass
                reap(children)
            elif not os.read(sys.stdin.fileno(), 512):
                for pid in children:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                while children:
                    reap(children, block=True)
                with contextlib.suppress(OSError):
                    os.unlink(path)
                return None


def reap(children: dict[int, socket.socket], *, block: bool = False) -> None:
    """Tell each ended child's client its exit code (``block``: wait for one to end first)."""
    while True:
        try:
            pid, status = os.waitpid(-1, 0 if block else os.WNOHANG)
            block = False
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = children.pop(pid, None)
        if conn is not None:
            _send(conn, f"exit {os.waitstatus_to_exitcode(status)}")
            conn.close()


STARTING_SIGINT = signal.getsignal(signal.SIGINT)
"""What this interpreter made of SIGINT at its start: Ctrl-C raising KeyboardInterrupt, or ignored when it was
started ignoring SIGINT (a background job of a shell without job control) — as a fresh one started here would."""

Stdio = dict[str, tuple[str, str]]
"""The encoding and error handler of ``stdin``, ``stdout`` and ``stderr``: the server's own, which the interpreter
chose from the locale as it would for a fresh one."""


def become(request: Request, stdio: Stdio) -> None:
    """In the forked child: the process state a fresh ``python -m MODULE`` would start with."""
    # Signals as the interpreter sets them at start-up: Ctrl-C raises KeyboardInterrupt (unless ignored from the
    # start), the rest default.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, STARTING_SIGINT)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for target, fd in enumerate(request.fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request.cwd)
    os.environ.clear()
    os.environ.update(request.env)
    unbuffered = bool(request.env.get("PYTHONUNBUFFERED"))
    sys.dont_write_bytecode = bool(request.env.get("PYTHONDONTWRITEBYTECODE"))
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        stream = _stream(fd, *stdio[name], unbuffered=unbuffered)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    # ``-m`` puts the working directory first on the path, and the module's file first in argv (runpy does);
    # ``-c`` the working directory too, and ``-c`` first in argv.
    sys.path[0] = os.getcwd()
    sys.argv = ["-c" if request.code is not None else "-m", *request.args]
    if "multiprocessing" in sys.modules:  # its secret is made at import: each bot gets its own, as if fresh
        import multiprocessing

        multiprocessing.current_process().authkey = os.urandom(32)
    if request.snapshots is not None:
        _snapshots(request.snapshots)


SNAPSHOT_FRAMES = 1
"""The line that made each allocation: a bot traced so runs ~3 times slower (with 5 frames, 6 times)."""


def _empty_bounded_caches() -> None:
    """Before a snapshot: empty aiogram's ``lru_cache`` of ``Update.event_type``, which keeps the last 128 updates
    alive. It is bounded, but which updates it holds (a press with its message and keyboard, or a short command)
    differs from one snapshot to the next by up to ~100 KiB: noise in the soak's measure, not what the bot keeps.
    An update the bot itself kept stays alive all the same."""
    module = sys.modules.get("aiogram.types.update")
    if module is not None:
        module.Update.event_type.fget.cache_clear()


def _snapshots(folder: str) -> None:
    """The one addition to a child, made only when asked (a soak test measuring the bot's own allocations):
    the first SIGUSR1 starts tracemalloc and writes ``tracing``, each later one collects the garbage and writes
    ``snapshot-N.pickle`` (N = 1, 2, ...). Each file is written beside and renamed, so one that exists is complete."""
    import tracemalloc

    taken = 0

    def answer(signum: int, frame: object) -> None:
        nonlocal taken
        if not tracemalloc.is_tracing():
            tracemalloc.start(SNAPSHOT_FRAMES)
            name = "tracing"
            open(os.path.join(folder, name + ".partial"), "wb").close()
        else:
            taken += 1
            name = f"snapshot-{taken}.pickle"
            _empty_bounded_caches()
            gc.collect()  # what is kept, not garbage the collector has yet to find
            tracemalloc.take_snapshot().dump(os.path.join(folder, name + ".partial"))
        os.replace(os.path.join(folder, name + ".partial"), os.path.join(folder, name))

    signal.signal(signal.SIGUSR1, answer)


def _stream(fd: int, encoding: str, errors: str, *, unbuffered: bool) -> io.TextIOWrapper:
    """``sys.stdin``/``stdout``/``stderr`` as the interpreter makes them (stderr and terminals line-buffered;
    ``PYTHONUNBUFFERED``: writes go straight through)."""
    if fd == 0:
        return io.TextIOWrapper(io.BufferedReader(io.FileIO(fd, "rb", closefd=False)), encoding, errors)
    raw = io.FileIO(fd, "wb", closefd=False)
    buffer: io.RawIOBase | io.BufferedWriter = raw if unbuffered else io.BufferedWriter(raw)
    line_buffering = not unbuffered and (fd == 2 or os.isatty(fd))
    return io.TextIOWrapper(
        buffer,  # type: ignore[arg-type]  # TextIOWrapper takes a raw file too (the interpreter does so for -u)
        encoding,
        errors,
        line_buffering=line_buffering,
        write_through=unbuffered,
    )


def _streams() -> dict[str, io.TextIOWrapper]:
    streams = {"stdin": sys.stdin, "stdout": sys.stdout, "stderr": sys.stderr}
    return {name: stream for name, stream in streams.items() if isinstance(stream, io.TextIOWrapper)}


def failed_path(path: str) -> str:
    """The file a server that could not start writes its traceback to, beside its socket's ``path``."""
    return path + ".failed"


def warm(modules: list[str]) -> None:
    """What every bot builds at its start and keeps, whatever its settings, built once here: the texts of every
    locale and the rules' search index over the games found (0.5 s of CPU a child would spend in ``make_router``).
    A child whose settings add games or texts (``EXTRA_GAMES``) builds its own: both caches are keyed by them."""
    if "bot.app" in modules:
        from bot.games import rules_library
        from bot.i18n import Locale, translator
        from bot.views.rules_lookup import find_sections

        for locale in Locale:
            translator(locale)
        find_sections(rules_library(), "сколько карт сдают")


def main() -> Request | None:
    path, *modules = sys.argv[1:]
    try:
        for module in modules:
            importlib.import_module(module)
        warm(modules)
        if threading.active_count() != 1:
            raise RuntimeError(
                f"the imports started threads ({threading.enumerate()}): forking would be unsafe"
            )
    except BaseException:
        # Said where the clients wait for the socket (``failed_path``): they need not wait out their timeout.
        # Whole or not at all: written aside and renamed (a client reads it the moment it exists).
        failed = failed_path(path)
        with open(failed + ".part", "w", encoding="utf-8") as part:
            part.write(traceback.format_exc())
        os.replace(failed + ".part", failed)
        raise
    # The imported objects out of the collector's sight: a child's collections (and the one at its exit) would
    # otherwise walk all of them, copying every page they touch (1.7 s for a child that only exits).
    gc.freeze()
    return serve(path)


if __name__ == "__main__":
    _stdio = {name: (stream.encoding, stream.errors or "strict") for name, stream in _streams().items()}
    _request = main()
    if _request is not None:
        become(_request, _stdio)
        # The last statement of the program, as in ``python -m``: SystemExit sets the exit code, an uncaught
        # exception prints its traceback and exits 1, KeyboardInterrupt ends the process by SIGINT.
        if _request.code is not None:
            _main = types.ModuleType("__main__")
            _main.__dict__["__builtins__"] = builtins
            sys.modules["__main__"] = _main
            exec(compile(_request.code, "<string>", "exec"), _main.__dict__)
        else:
            runpy.run_module(_request.module, run_name="__main__", alter_sys=True)
