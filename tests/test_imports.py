"""Every module of bot/ and engine/ imports on its own: each is imported first thing in a process of its own, so
an import cycle or a module that works only after another was imported fails here, not in production.

The processes are forked from one that imported the third-party packages the bot depends on (and nothing of
ours), so each costs milliseconds, not the seconds aiogram's import takes; what is tested — our modules' import
order — is the same as in a fresh interpreter. A package is tried through its modules (:func:`first_imports`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bot
import engine
from tests.forkserver import THIRD_PARTY

ROOT = Path(__file__).resolve().parents[1]

FORKER = r"""
import importlib, json, os, sys, traceback
for third_party in json.loads(sys.argv[2]):
    importlib.import_module(third_party)
assert not [m for m in sys.modules if m.split(".")[0] in ("bot", "engine", "tests")], "ours imported early"
failed = {}
for name in json.loads(sys.argv[1]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            message = b""
        except BaseException:
            message = traceback.format_exc().encode()
        os.write(write, message)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        error = pipe.read().decode()
    os.waitpid(pid, 0)
    if error:
        failed[name] = error
print(json.dumps(failed))
"""


def _modules() -> list[str]:
    names = []
    for package in (bot, engine):
        root = Path(str(package.__file__)).parent
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def first_imports(modules: list[str]) -> list[str]:
    """The modules whose import must be tried first in a process: a package is left out where one of its modules
    is tried — importing ``a.b.c`` first imports ``a``, then ``a.b``, exactly as importing ``a.b`` first would."""
    return [name for name in modules if not any(other.startswith(name + ".") for other in modules)]


@pytest.mark.long
def test_every_module_of_bot_and_engine_imports_first_in_a_process_of_its_own() -> None:
    modules = _modules()
    assert {"bot.app", "bot.pipeline.service", "engine.ai", "engine.konchinka.state"} <= set(modules)
    tried = first_imports(modules)
    assert "bot.app" in tried and "engine.ai.players" in tried and "engine.ai" not in tried
    done = subprocess.run(
        [sys.executable, "-c", FORKER, json.dumps(tried), json.dumps(THIRD_PARTY)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    failed = json.loads(done.stdout.strip().splitlines()[-1])
    assert failed == {}, "\n\n".join(f"{name}:\n{error}" for name, error in failed.items())
