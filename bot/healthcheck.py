"""``python -I -m bot.healthcheck``: asks the running bot's ``/healthz`` and exits 0 (healthy) or 1.

The container's HEALTHCHECK. It imports nothing of the bot's and nothing outside the standard library, so it
costs a bare interpreter's start (~40 ms), not the bot's (seconds of CPU): the bot itself says whether it is well
(see :mod:`bot.health`). The port is ``METRICS_PORT`` (the image sets it); the host ``METRICS_HOST``, where
``0.0.0.0`` means this machine.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request


def main() -> int:
    port = os.environ.get("METRICS_PORT", "").strip()
    if not port:
        print("METRICS_PORT is not set: the bot serves no /healthz", file=sys.stderr)
        return 1
    host = os.environ.get("METRICS_HOST", "127.0.0.1").strip() or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=5) as response:
            print(response.read().decode(errors="replace").strip())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode(errors="replace").strip() or f"HTTP {exc.code}", file=sys.stderr)
    except OSError as exc:
        print(f"no answer from the bot on {host}:{port}: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
