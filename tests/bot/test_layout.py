"""The shape of the game service: handlers see only the façade; rooms stay small and never reach back."""

from __future__ import annotations

import ast
from pathlib import Path

import bot

BOT = Path(bot.__file__).parent
ROOMS = ("store", "lobby", "moves", "scheduler", "publisher", "players", "chats", "peeks", "facade")


def imported(path: Path) -> set[str]:
    """The modules a file imports from (``from x import y`` gives ``x``; ``import x`` gives ``x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_handlers_import_only_the_facade_of_the_services() -> None:
    for path in sorted((BOT / "handlers").glob("*.py")):
        services = {m for m in imported(path) if m.startswith(("bot.services", "bot.storage"))}
        assert services <= {"bot.services.facade"}, f"{path.name} reaches past the façade: {services}"


def test_rooms_are_small_and_never_import_the_facade_or_call_the_scheduler_back() -> None:
    for room in ROOMS:
        path = BOT / "services" / f"{room}.py"
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 450, f"{room}.py is too long"
        if room != "facade":
            assert "bot.services.facade" not in imported(path), f"{room}.py imports the façade"
    for room in ("store", "lobby", "moves", "publisher", "players", "chats"):
        assert "bot.services.scheduler" not in imported(BOT / "services" / f"{room}.py"), room
