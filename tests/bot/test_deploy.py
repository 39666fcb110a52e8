"""What ``deploy/`` and ``compose.yaml`` ship agrees with the bot: every metric the alert rules and the dashboard
use is one the bot serves (a parser: promtool is not on this machine), the systemd unit restarts on failure but
not on the exit codes a restart cannot cure and is hardened, compose does likewise with a memory limit, and a
backup moves ``cardbot_last_backup_timestamp_seconds``."""

from __future__ import annotations

import configparser
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.ops import run_backup
from bot.settings import ExitCode, StorageSettings
from tests.bot.conftest import BotRunner

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PROMETHEUS_OWN = {"up"}
"""Series Prometheus makes itself."""
PROMQL_WORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool",
    "inf", "nan", "le",
}  # fmt: skip


def promql_metrics(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (functions, keywords, labels and numbers left out)."""
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", expr)
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", expr):
        name, rest = match.group(0), expr[match.end() :].lstrip()
        if rest.startswith("(") or name.lower() in PROMQL_WORDS:
            continue
        if re.fullmatch(r"\d+(e\d+)?", name) or (match.start() > 0 and expr[match.start() - 1].isdigit()):
            continue
        names.add(name)
    return names


def used_expressions() -> dict[str, str]:
    """Every expression in the alert rules and the dashboard, by where it is."""
    found = {}
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text(encoding="utf-8"))
    for group in rules["groups"]:
        for rule in group["rules"]:
            found[f"alert {rule['alert']}"] = rule["expr"]
    dashboard = json.loads((DEPLOY / "grafana" / "cardbot.json").read_text(encoding="utf-8"))
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            found[f"panel «{panel['title']}» {target['refId']}"] = target["expr"]
    return found


def test_the_parser_finds_the_metrics_of_an_expression() -> None:
    assert promql_metrics(
        'histogram_quantile(0.95, sum by (le) (rate(cardbot_update_seconds_bucket{job="x"}[10m]))) > 2e3'
    ) == {"cardbot_update_seconds_bucket"}
    assert promql_metrics("time() - a_b offset 10m and c > 0") == {"a_b", "c"}


async def test_every_metric_the_alerts_and_the_dashboard_use_is_served(
    bot_runner: BotRunner, tmp_path: Path, db_path: Path
) -> None:
    running = await bot_runner()
    scrape = metrics.scraper(running.app)
    text, _ = await scrape()
    served = {
        sample.name for family in text_string_to_metric_families(text.decode()) for sample in family.samples
    }
    assert {"process_resident_memory_bytes", "process_open_fds", "cardbot_build_info"} <= served
    expressions = used_expressions()
    assert len(expressions) >= 20
    missing = {
        where: sorted(promql_metrics(expr) - served - PROMETHEUS_OWN)
        for where, expr in expressions.items()
        if promql_metrics(expr) - served - PROMETHEUS_OWN
    }
    assert missing == {}
    # A backup taken now is what the metric says.
    before = _sample(text.decode(), "cardbot_last_backup_timestamp_seconds")
    assert before == 0
    settings = StorageSettings(_env_file=None, database_path=db_path)  # type: ignore[call-arg]
    assert run_backup(settings, tmp_path / "backups" / "copy.sqlite3") == ExitCode.OK
    after = _sample((await scrape())[0].decode(), "cardbot_last_backup_timestamp_seconds")
    assert abs(after - time.time()) < 60
    # A backup that fails is said by its exit code and, at the next scrape, by the metric the alert
    # CardbotBackupFailed compares with the last success.
    assert _sample((await scrape())[0].decode(), "cardbot_last_backup_failure_timestamp_seconds") == 0
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    failed = run_backup(settings, tmp_path / "not-a-folder" / "copy.sqlite3")
    assert failed == ExitCode.DATABASE
    scraped = (await scrape())[0].decode()
    assert _sample(scraped, "cardbot_last_backup_failure_timestamp_seconds") > _sample(
        scraped, "cardbot_last_backup_timestamp_seconds"
    )
    rule = next(r for g in _alert_groups() for r in g["rules"] if r["alert"] == "CardbotBackupFailed")
    assert rule["expr"].split() == [
        "cardbot_last_backup_failure_timestamp_seconds",
        ">",
        "cardbot_last_backup_timestamp_seconds",
    ]
    assert "for" not in rule  # at the next evaluation, not days later
    assert run_backup(settings, tmp_path / "backups" / "again.sqlite3") == ExitCode.OK  # a success clears it
    scraped = (await scrape())[0].decode()
    assert _sample(scraped, "cardbot_last_backup_failure_timestamp_seconds") < _sample(
        scraped, "cardbot_last_backup_timestamp_seconds"
    )


def _alert_groups() -> list[dict[str, Any]]:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text(encoding="utf-8"))
    return list(rules["groups"])


def _sample(text: str, name: str) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                return float(sample.value)
    raise AssertionError(f"{name} not served")


def _unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / "systemd" / name, encoding="utf-8")
    return parser


def test_the_systemd_unit_restarts_on_failure_but_not_on_what_a_restart_cannot_cure_and_is_hardened() -> None:
    unit = _unit("cardbot.service")
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    prevented = {int(code) for code in service["RestartPreventExitStatus"].split()}
    assert prevented == {int(code) for code in ExitCode.incurable()}
    assert ExitCode.UNREACHABLE not in prevented  # Telegram coming back cures it
    assert service["NoNewPrivileges"] == "yes" and service["ProtectSystem"] == "strict"
    writable = service["ReadWritePaths"].split()
    workdir = Path(service["WorkingDirectory"])
    database = workdir / StorageSettings.model_fields["database_path"].default
    assert writable == [f"-{database.parent}"]  # the data folder, and nothing more
    assert service["ExecStart"].split()[:3] == [f"{workdir}/.venv/bin/python", "-m", "bot"]
    backup, timer = _unit("cardbot-backup.service"), _unit("cardbot-backup.timer")
    assert (
        "python -m bot backup " in backup["Service"]["ExecStart"]
        and "--keep" in backup["Service"]["ExecStart"]
    )
    # the note of the last backup, and the copies; each with `-`: a folder deleted later is the command's own
    # failure (exit code 3, one line; a backup's noted for the metric), not systemd's bare 226/NAMESPACE
    assert backup["Service"]["ReadWritePaths"].split() == [f"-{database.parent}", "-/srv/backups/cardbot"]
    assert "/srv/backups/cardbot/" in backup["Service"]["ExecStart"]
    assert timer["Timer"]["Unit"] == "cardbot-backup.service" and timer["Timer"]["OnCalendar"]
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_compose_stops_restarting_on_incurable_causes_has_a_memory_limit_and_can_be_scraped() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    bot = compose["services"]["bot"]
    assert bot["restart"] == "on-failure" and bot["mem_limit"]
    command = bot["command"]
    assert command[command.index("--incurable-exit") + 1] == "0"
    assert bot["environment"]["METRICS_HOST"] == "0.0.0.0"
    prometheus = compose["services"]["prometheus"]
    for volume in prometheus["volumes"]:
        assert (ROOT / volume.split(":")[0]).is_file(), volume
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text(encoding="utf-8"))
    port = bot["environment"]["METRICS_PORT"]
    assert config["scrape_configs"][0]["static_configs"][0]["targets"] == [f"bot:{port}"]


def test_an_incurable_exit_becomes_the_code_asked_for_and_a_curable_one_stays() -> None:
    """What compose's command relies on: a bad setting (2) exits 0 with --incurable-exit 0, and still says why."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "BOT_TOKEN": "bad"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--incurable-exit", "0", "run"],
        env=env,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "BOT_TOKEN is missing or malformed" in done.stderr
    assert "exit code 2: a restart cannot cure this; exiting with 0 instead" in done.stderr
    plain = subprocess.run(
        [sys.executable, "-m", "bot", "run"], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert plain.returncode == ExitCode.SETTINGS


def test_every_test_the_deploy_files_and_the_docs_cite_exists() -> None:
    """A comment that says «this test runs these commands» names a test that is there to read."""
    cited = {
        (source.name, name)
        for source in [
            ROOT / "Dockerfile",
            ROOT / "compose.yaml",
            ROOT / "README.md",
            ROOT / "CHANGELOG.md",
            *sorted(DEPLOY.rglob("*.*")),
        ]
        for name in re.findall(r"\btests/[\w./-]*\w", source.read_text(encoding="utf-8"))
    }
    assert len(cited) >= 10
    assert [(source, name) for source, name in sorted(cited) if not (ROOT / name).exists()] == []
