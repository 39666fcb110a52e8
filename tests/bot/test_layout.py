"""The shape of the code: no import circles, between modules or between the bot's packages; each package of the
bot depends only on those below it (docs/ARCHITECTURE.md draws the same order); the flow's decisions are pure; only
the pipeline and delivery name the outbox."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

import bot
import engine
from engine.core import games

pytestmark = pytest.mark.xdist_group("layout")
"""One worker for the module: the files are parsed once (:func:`nodes`), not once in each worker (~2.5 CPU-s)."""

BOT = Path(bot.__file__).parent
ENGINE = Path(engine.__file__).parent

LAYERS = (
    "model",
    "storage",
    "views",
    "games",
    "ratings",
    "flow",
    "delivery",
    "operations",
    "pipeline",
    "guards",
    "handlers",
    "webapp",
)
"""The bot's packages, bottom first: each may import only those before it (and the top-level modules)."""


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a file's syntax tree (``ast.walk``), parsed once in a process."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def imported(path: Path) -> set[str]:
    """The modules a file imports from (``from x import y`` gives ``x``; ``import x`` gives ``x``)."""
    names: set[str] = set()
    for node in nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def modules() -> list[Path]:
    """Every module of every package of ``bot`` and ``engine``."""
    return sorted([*BOT.rglob("*.py"), *ENGINE.rglob("*.py")])


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of ``bot`` and ``engine`` it imports, imports for type hints included (a module
    importing its own package does not count: that is how a package's ``__init__`` is reached)."""
    known = {module_name(path): path for path in modules()}
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in nodes(path):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            found.update(t for t in targets if t in known and t != name and not name.startswith(t + "."))
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            step = next(targets, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_import_circle_in_bot_or_engine_type_hints_included() -> None:
    graph = import_graph()
    assert "bot.pipeline.service" in graph and "engine.core" in graph
    assert circles(graph) == []


def packages_imported() -> dict[str, set[str]]:
    """Each package of ``bot`` → the other packages of ``bot`` its modules import (type hints included)."""
    found: dict[str, set[str]] = {}
    for name, targets in import_graph().items():
        parts = name.split(".")
        if parts[0] != "bot" or len(parts) < 3:
            continue  # the top-level modules: the wiring and its helpers
        found.setdefault(parts[1], set()).update(
            t.split(".")[1]
            for t in targets
            if t.startswith("bot.") and t.count(".") >= 2 and t.split(".")[1] != parts[1]
        )
    return found


def test_no_circle_among_the_bots_packages_type_hints_included() -> None:
    graph = packages_imported()
    assert {"flow", "pipeline", "delivery", "guards", "handlers", "storage", "views"} <= graph.keys()
    assert circles(graph) == []


def test_each_package_of_the_bot_depends_only_on_those_below_it() -> None:
    graph = packages_imported()
    on_disk = {p.name for p in BOT.iterdir() if (p / "__init__.py").exists()}
    assert on_disk == set(LAYERS), "a package the layers do not place"
    for package, targets in graph.items():
        below = set(LAYERS[: LAYERS.index(package)])
        assert targets <= below, f"bot.{package} reaches up to {sorted(targets - below)}"


def test_the_architecture_document_draws_the_layers_in_this_order() -> None:
    text = (BOT.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    drawn = re.findall(r"^\s*\d+\.\s+`bot/(\w+)/`", text, re.MULTILINE)
    assert tuple(drawn) == LAYERS, drawn


DECISIONS = [*(BOT / "flow").glob("*.py"), BOT / "model" / "game.py"]
"""The decisions of the game flow (pure functions of a command, a game and what was loaded for it) and the events
they return, which say how they change a game."""
NOT_IN_DECISIONS = (
    "bot.storage",
    "bot.delivery",
    "bot.pipeline",
    "aiogram",
    "aiosqlite",
    "asyncio",
    "sqlite3",
)


def test_the_decisions_await_nothing_and_reach_no_database_telegram_or_delivery() -> None:
    paths = sorted(DECISIONS)
    assert {"lobby.py", "moves.py", "people.py", "turns.py", "hints.py", "commands.py"} <= {
        p.name for p in paths
    }
    for path in paths:
        awaiting = [
            node.lineno
            for node in nodes(path)
            if isinstance(node, ast.Await | ast.AsyncFunctionDef | ast.AsyncFor | ast.AsyncWith)
        ]
        assert awaiting == [], f"{path.name} awaits (lines {awaiting})"
        reached = {m for m in imported(path) if m.startswith(NOT_IN_DECISIONS)}
        assert reached == set(), f"{path.name} imports {reached}"


def test_the_checks_of_the_decisions_find_an_await_and_a_forbidden_import(tmp_path: Path) -> None:
    """The two checks above fail on code that breaks them (an AST walk that found nothing would pass anything)."""
    sample = tmp_path / "sample.py"
    sample.write_text("from bot.storage import repo\n\nasync def f():\n    await g()\n", encoding="utf-8")
    tree = ast.parse(sample.read_text(encoding="utf-8"))
    assert any(isinstance(node, ast.Await) for node in ast.walk(tree))
    assert "bot.storage" in imported(sample)


DRAWING_NAMES = frozenset({"publisher", "outbox", "_publisher", "_outbox"})


def test_handlers_guards_and_the_flow_name_no_publisher_or_outbox() -> None:
    """Drawing and delivery belong to the one step that draws: handlers, guards and the flow hand it commands,
    refusals and events."""
    named: list[str] = []
    for layer in ("handlers", "guards", "flow"):
        for path in sorted((BOT / layer).rglob("*.py")):
            for node in nodes(path):
                name = (
                    node.id
                    if isinstance(node, ast.Name)
                    else node.attr
                    if isinstance(node, ast.Attribute)
                    else None
                )
                if name is not None and name.lower() in DRAWING_NAMES:
                    named.append(f"{path.relative_to(BOT)}:{getattr(node, 'lineno', 0)} {name}")
    assert named == []


def test_the_circle_finder_finds_a_circle_through_three_modules() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_rules_core_knows_nothing_of_bot_players() -> None:
    graph = import_graph()
    rules = [
        name
        for name in graph
        if name.startswith("engine.") and ".ai" not in name and name not in ("engine.arena", "engine.panel")
    ]  # the arena and the panel play the bot players: tools beside the rules, not part of them
    assert "engine.core" in rules
    for name in rules:
        if name.count(".") == 1 and name.removeprefix("engine.") in games():
            continue  # a game's package registers its bot players beside its rules
        assert not any(".ai" in target for target in graph[name]), f"{name} imports bot players"


def test_the_architecture_document_names_every_package_and_only_real_paths() -> None:
    """docs/ARCHITECTURE.md matches the code: each package of ``bot`` is described, each path it names exists."""
    root = BOT.parent
    text = (root / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:bot|engine)/[\w/<>.]*)`", text))
    assert len(named) > 10
    for path in named:
        if "<" not in path:
            assert (root / path).exists(), f"ARCHITECTURE.md names {path}, which does not exist"
    packages = {f"bot/{p.name}/" for p in BOT.iterdir() if (p / "__init__.py").exists()}
    assert packages - named == set(), "packages ARCHITECTURE.md does not describe"


def test_the_wiring_is_imported_by_the_entry_points_only() -> None:
    """``bot.app`` wires everything together; nothing it wires may import it back, not even for a type hint
    (the metrics read the parts they need through a Protocol of their own)."""
    importers = {module_name(path) for path in BOT.rglob("*.py") if "bot.app" in imported(path)}
    assert importers == {"bot.__main__"}, importers
    assert "bot.app" not in imported(BOT / "metrics.py")
