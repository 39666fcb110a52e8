"""Every module of bot/ and engine/ imports on its own: each is imported first thing in a process of its own, so
an import cycle or a module that works only after another was imported fails here, not in production.

The processes are forked from one that imported the third-party packages the bot depends on (and nothing of
ours), so each costs milliseconds, not the seconds aiogram's import takes; what is tested — our modules' import
order — is the same as in a fresh interpreter. A package is tried through its modules (:func:`first_imports`).

Importing ``a.b.c`` first imports ``a``, then ``a.b``, then ``a.b.c``: so the processes form a tree — one imports
``a`` and forks a child for each package or module under it, which imports it, and so on down — and each module is
still imported first thing after its own packages, as in a fresh interpreter, while a package's import
(``bot.handlers`` imports ~100 modules) is done once, not once for each module under it: ~7 CPU-s less. A child
that dies (not only one that raises) fails the test too."""

from __future__ import annotations

import ast
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
import importlib, json, os, sys, tempfile, traceback
for third_party in json.loads(sys.argv[2]):
    importlib.import_module(third_party)
import gc
gc.freeze()  # the third-party objects out of the collector's sight: each child's collections skip them
assert not [m for m in sys.modules if m.split(".")[0] in ("bot", "engine", "tests")], "ours imported early"
tried = json.loads(sys.argv[1])
failures = tempfile.mkdtemp()


def under(node):
    return [name for name in tried if name == node or name.startswith(node + ".")]


def fail(node, error):
    for name in under(node):
        if not os.path.exists(os.path.join(failures, name)):
            with open(os.path.join(failures, name), "w") as out:
                out.write(error)


def try_first(node):
    # In a child: import node, its parent packages imported and nothing else of ours; a package on the way to
    # modules to try then tries each of its own nodes, each in a child of its own.
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(node)
        except BaseException:
            fail(node, traceback.format_exc())
            os._exit(0)
        if node not in tried:
            depth = node.count(".") + 2
            for child in dict.fromkeys(".".join(name.split(".")[:depth]) for name in under(node)):
                try_first(child)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if status:
        fail(node, f"the process importing {node} ended with status {status}")


for top in dict.fromkeys(name.split(".")[0] for name in tried):
    try_first(top)
print(json.dumps({name: open(os.path.join(failures, name)).read() for name in sorted(os.listdir(failures))}))
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


def test_a_program_under_tests_starts_nothing_when_imported() -> None:
    """``python -m tests.bot.stalling_bot`` runs a bot; importing it (as the bot players' worker processes do with
    the main module they were spawned from) must not start another: at its top level a program only defines,
    imports and assigns, and runs under ``if __name__ == "__main__":`` (read from its syntax: importing each in a
    fresh interpreter cost ~7 CPU-s of aiogram's import for the same answer)."""
    programs = [
        p for p in ROOT.glob("tests/**/*.py") if "from bot.__main__ import main" in p.read_text("utf-8")
    ]
    assert programs
    inert = (
        ast.Import,
        ast.ImportFrom,
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.ClassDef,
        ast.Assign,
        ast.AnnAssign,
    )
    for program in programs:
        for statement in ast.parse(program.read_text("utf-8")).body:
            docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            guarded = isinstance(statement, ast.If) and ast.unparse(statement.test) in (
                "__name__ == '__main__'",
                "'__main__' == __name__",
            )
            assert isinstance(statement, inert) or docstring or guarded, (
                f"{program.relative_to(ROOT)}:{statement.lineno} runs when imported: {ast.unparse(statement)[:80]}"
            )
