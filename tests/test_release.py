"""The version is one, everywhere: pyproject.toml's, the running package's (what the start line, ``/admin`` and
``cardbot_build_info`` show, with the commit) and CHANGELOG.md's newest release, which has upgrade notes.

Each release says its database schema (``**Database schema N**``) and the migrations that brought it, each with its
rollback step, checked against ``bot/storage/migrations.py`` — today's, and in git's history the one of the commit
that first wrote the release's heading — so a migration added after a release needs a new release (a new version)
that names it: the running bot's version then says which schema it writes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.storage.migrations import MIGRATIONS
from bot.version import commit, described, git_head, version

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
SCHEMA = re.compile(r"\*\*Database schema (\d+)\b", flags=re.I)


def head_commit() -> str:
    """This checkout's commit as ``git`` says it, shown as the bot shows it (12 digits); ``unknown`` without git."""
    if shutil.which("git") is None:
        return "unknown"
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip()[:12] if done.returncode == 0 else "unknown"


@dataclass(frozen=True)
class Release:
    version: str
    text: str

    @property
    def schema(self) -> int:
        found = {int(n) for n in SCHEMA.findall(self.text)}
        assert len(found) == 1, (
            f"{self.version}: says its schema once, as **Database schema N** (found {found})"
        )
        return found.pop()


def releases(changelog: str) -> list[Release]:
    """CHANGELOG's releases, newest first."""
    parts = re.split(r"^## (\d+\.\d+\.\d+)\b", changelog, flags=re.M)
    return [Release(v, text.split("\n## ", 1)[0]) for v, text in zip(parts[1::2], parts[2::2], strict=True)]


def test_the_changelog_the_package_and_pyproject_name_the_same_release() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    changelog = CHANGELOG.read_text(encoding="utf-8")
    versions = [r.version for r in releases(changelog)]
    assert versions and versions[0] == declared, "CHANGELOG.md's newest release is pyproject.toml's version"
    assert version() == declared
    assert versions == sorted(versions, key=lambda v: tuple(map(int, v.split("."))), reverse=True)
    if len(versions) > 1:
        assert f"### Upgrading from {versions[1]}" in releases(changelog)[0].text


def test_the_start_line_admin_and_the_metric_name_the_commit() -> None:
    assert commit() == head_commit()
    assert described() == f"{version()} (commit {head_commit()})"


def test_a_worktree_s_and_a_packed_ref_s_commit_are_read(tmp_path: Path) -> None:
    common = tmp_path / "repo" / ".git"
    (common / "worktrees" / "w").mkdir(parents=True)
    (common / "packed-refs").write_text("# pack-refs with: peeled\n" + "ab" * 20 + " refs/heads/w\n")
    (common / "worktrees" / "w" / "HEAD").write_text("ref: refs/heads/w\n")
    (common / "worktrees" / "w" / "commondir").write_text("../..\n")
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / ".git").write_text(f"gitdir: {common / 'worktrees' / 'w'}\n")
    assert git_head(tmp_path / "w") == "ab" * 20
    (common / "refs" / "heads").mkdir(parents=True)
    (common / "refs" / "heads" / "w").write_text("cd" * 20 + "\n")  # a loose ref wins over the packed one
    assert git_head(tmp_path / "w") == "cd" * 20
    assert git_head(tmp_path / "nothing") is None


def test_each_release_names_its_schema_its_migrations_and_their_rollback() -> None:
    """Newest release: today's migrations. Each release that adds migrations names each (``migration N``) and says
    how to roll back (the backup taken before the upgrade: an older bot refuses a newer schema with exit code 3);
    one that adds none says rolling back needs no restore."""
    listed = list(reversed(releases(CHANGELOG.read_text(encoding="utf-8"))))
    assert listed[-1].schema == len(MIGRATIONS), (
        f"the code has {len(MIGRATIONS)} migrations; CHANGELOG's newest release ({listed[-1].version}) says "
        f"schema {listed[-1].schema}: a migration added needs a new release that names it"
    )
    before = 0
    for release in listed:
        added = range(before + 1, release.schema + 1)
        assert release.schema >= before, f"{release.version}: a schema never goes back"
        for number in added if before else ():  # the first release brings its schema whole
            assert re.search(rf"\bmigrations? (?:\d+ and )?{number}\b", release.text), (
                f"{release.version}: names migration {number}"
            )
        if added and before:
            rollback = re.search(r"\*\*Rolling back\*\*[^\n]*(?:\n  [^\n]*)*", release.text)
            assert rollback, f"{release.version}: adds migrations, and says **Rolling back** how"
            step = " ".join(rollback.group(0).split())
            assert "backup taken before the upgrade" in step and "exit code 3" in step, step
        if not added:
            assert "needs no restore" in release.text, (
                f"{release.version}: schema unchanged, rollback needs none"
            )
        assert not (added and "needs no restore" in release.text), f"{release.version}: a rollback needs one"
        before = release.schema


def test_a_release_s_schema_is_the_one_its_commit_had() -> None:
    """In git's history: the commit that first wrote a release's heading had as many migrations as it says."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("no git history here (an unpacked archive): the text's own check above still runs")
    for release in releases(CHANGELOG.read_text(encoding="utf-8")):
        found = subprocess.run(
            ["git", "log", "--format=%H", "--reverse", "-S", f"## {release.version} ", "--", "CHANGELOG.md"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        if not found:  # written in this very change, not yet committed: today's code is its code
            continue
        shown = subprocess.run(
            ["git", "show", f"{found[0]}:bot/storage/migrations.py"], cwd=ROOT, capture_output=True, text=True
        )
        listed = re.search(r"^MIGRATIONS\b[^=]*= \(([^)]*)\)", shown.stdout, flags=re.M)
        assert listed, f"{release.version}: migrations.py at {found[0][:12]}"
        count = len([name for name in listed.group(1).split(",") if name.strip()])
        assert count == release.schema, (
            f"{release.version} says schema {release.schema}; its commit had {count}"
        )


def test_the_newest_release_restores_a_docker_backup_as_the_readme_does() -> None:
    """The restore deletes every file the database keeps beside it (its WAL and the outbox's journals)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    restore = re.search(r"`(docker compose run --rm --entrypoint sh backup -c 'cp [^`]*)`", readme)
    assert restore and all(
        f"bot.sqlite3-{kind}" in restore.group(1) for kind in ("wal", "shm", "live", "sent")
    )
    assert restore.group(1) in releases(CHANGELOG.read_text(encoding="utf-8"))[0].text
