"""What every room of the game service shares: its settings, a person as the service sees them, and the two
questions it may ask Telegram (membership and admin rights) outside any game's lock."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram.types import User

AdminCheck = Callable[[int], Awaitable[bool]]
"""Whether the person administers the chat with this id (asked of Telegram, outside any game's lock)."""
MemberCheck = Callable[[int], Awaitable[bool]]
"""Whether the person is a member of the chat with this id (likewise)."""


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    lobby_ttl: float = 1800.0
    turn_timeout: int = 60
    reminder_before: float = 15.0
    afk_strikes: int = 2
    bot_delay: float = 1.0
    game_seed: int | None = None
    default_target: int | None = None
    max_open_lobbies: int = 3
    """Lobbies one person may have open at once (across all groups)."""


@dataclass(frozen=True, slots=True)
class Person:
    """A Telegram user as the service needs them."""

    user_id: int
    name: str
    username: str | None = None
    lang: str | None = None

    @classmethod
    def from_user(cls, user: User) -> Person:
        return cls(user.id, user.full_name, user.username, user.language_code)
