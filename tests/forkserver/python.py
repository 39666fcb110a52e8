"""The ``python`` pytest-xdist starts its workers with: a worker forked from the fork server instead of a fresh
interpreter, so it starts with aiogram and the bot imported and their texts built (each fresh worker spent ~5 s of
CPU on them before it collected a test, four of them at once on two cores).

execnet runs ``python -I -S python.py SOCKET -u -c BOOTSTRAP`` (``tests/conftest.py`` names it in each ``--tx``
spec); this script, on the standard library alone, waits for the server's socket, hands it its stdin, stdout and
stderr, and asks for a child running ``BOOTSTRAP`` as ``python -u -c`` would (the environment and working
directory its own). It stays as the process execnet knows: SIGTERM, SIGINT and SIGHUP go on to the child, and it
exits as the child did. Where the server could not start (it says so in ``SOCKET.failed``: the bot does not import,
say) or is not there in time, it becomes a fresh ``python`` with the same options instead, so the worker collects
as one always did and pytest reports the error in the test it breaks.
"""

import contextlib
import json
import os
import signal
import socket
import sys
import time

READY_TIMEOUT = 120.0
"""Seconds to wait for the server's socket (it appears once the server has imported the bot, a few seconds)."""


def main() -> int:
    path, *options = sys.argv[1:]
    if options[-2:-1] != ["-c"] or not set(options[:-2]) <= {"-u", "-B"}:
        sys.stderr.write(f"python.py: only -u, -B and -c CODE are understood, not {options[:-1]}\n")
        return 2
    child: list[int] = []
    pending: list[int] = []

    def forward(signum: int, frame: object) -> None:
        """A signal for the worker goes on to the child; one that comes before the child exists, once it does."""
        if not child:
            pending.append(signum)
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(child[0], signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, forward)
    env = dict(os.environ)
    if "-u" in options:
        env["PYTHONUNBUFFERED"] = "1"
    if "-B" in options:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    deadline = time.monotonic() + READY_TIMEOUT
    while not os.path.exists(path):
        # ``.failed``: server.failed_path (this script imports the standard library only, so it is written out).
        if os.path.exists(path + ".failed") or time.monotonic() > deadline:
            # No server (the bot does not import, say): a fresh interpreter, whose collection shows the error.
            os.execv(sys.executable, [sys.executable, *options])
        time.sleep(0.02)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    socket.send_fds(conn, [b"r"], [0, 1, 2])
    request = {"module": "", "code": options[-1], "args": [], "env": env, "cwd": os.getcwd()}
    conn.sendall(json.dumps(request).encode())
    conn.shutdown(socket.SHUT_WR)
    for fd in (0, 1):  # the child has them: execnet sees the pipes close when it ends, not when this does
        os.close(fd)
    answers = conn.makefile("r", encoding="utf-8")
    word, _, value = answers.readline().strip().partition(" ")
    if word != "pid":
        sys.stderr.write(f"python.py: the fork server refused: {value or 'it went away'}\n")
        return 1
    child.append(int(value))
    for early in pending:
        forward(early, None)
    word, _, value = answers.readline().strip().partition(" ")
    code = int(value) if word == "exit" else 1
    if code < 0:  # ended by a signal: so does this process, as the shell and execnet would see the child end
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


if __name__ == "__main__":
    sys.exit(main())
