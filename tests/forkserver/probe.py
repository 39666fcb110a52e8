"""``python -m tests.forkserver.probe CODE``: prints what a started interpreter looks like (for test_forkserver),
then exits with ``CODE`` (``raise``: an uncaught exception; ``wait``: waits for a signal)."""

from __future__ import annotations

import json
import os
import signal
import sys


def looks() -> dict[str, object]:
    main = sys.modules["__main__"]
    return {
        "argv": sys.argv,
        "cwd": os.getcwd(),
        "path": sys.path[:2],
        "env": {k: v for k, v in os.environ.items() if k.startswith("PROBE_")},
        "main": [main.__name__, getattr(main.__spec__, "name", None)],
        "pgid_is_parents": os.getpgid(0) == int(os.environ["PROBE_PGID"]),
        "signals": {
            s.name: repr(signal.getsignal(s))
            for s in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD, signal.SIGPIPE)
        },
        "stdout": _buffering(sys.stdout),
        "stderr": _buffering(sys.stderr),
        "stdin": sys.stdin.read(),
        "dont_write_bytecode": sys.dont_write_bytecode,
    }


def _buffering(stream: object) -> list[object]:
    return [getattr(stream, name) for name in ("line_buffering", "write_through", "encoding", "errors")]


if __name__ == "__main__":
    print(json.dumps(looks(), sort_keys=True))
    print("to stderr", file=sys.stderr)
    what = sys.argv[1]
    if what == "raise":
        raise ValueError("probe")
    if what == "wait":
        sys.stdout.flush()
        signal.pause()
    sys.exit(int(what))
