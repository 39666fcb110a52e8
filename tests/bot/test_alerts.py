"""The alert rules (``deploy/prometheus/alerts.yml``) checked and unit-tested by promtool itself, on the series of
``deploy/prometheus/alerts_test.yml``: a crash loop, a blocked event loop, the memory of the whole service, a
webhook Telegram cannot deliver to, no updates for hours — each fires the alert that names it, and not
``CardbotDown``'s «stopped». promtool is the distribution's (Debian's ``prometheus`` package), which
``scripts/test.sh`` installs where it is missing; without it these tests are skipped, saying so."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

PROMETHEUS = Path(__file__).resolve().parents[2] / "deploy" / "prometheus"
PROMTOOL = shutil.which("promtool")

pytestmark = pytest.mark.skipif(
    PROMTOOL is None,
    reason="promtool is not installed (scripts/test.sh installs the distribution's prometheus package)",
)


def promtool(*args: str) -> str:
    assert PROMTOOL is not None
    done = subprocess.run(
        [PROMTOOL, *args], cwd=PROMETHEUS, capture_output=True, text=True, timeout=120, check=False
    )
    output = done.stdout + done.stderr
    print(output)
    assert done.returncode == 0, output
    return output


def test_promtool_accepts_the_alert_rules() -> None:
    assert "SUCCESS" in promtool("check", "rules", "alerts.yml")


def test_the_alerts_fire_as_their_unit_tests_say() -> None:
    assert "SUCCESS" in promtool("test", "rules", "alerts_test.yml")
