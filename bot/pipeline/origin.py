"""Where a command came from and what it came to, and what the pipeline's parts ask of it: the types the pipeline's
steps and its callers share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from bot.clock import Clock
from bot.delivery.outbox import Outbox
from bot.flow.commands import Command, Decision, FlowConfig, Refusal
from bot.i18n import Locale, Translator, translator, translator_for
from bot.model.answers import Answer
from bot.model.game import Game, Person
from bot.operations.operator import Operator
from bot.pipeline.access import Membership
from bot.pipeline.store import Store
from bot.pipeline.thinker import Thinker
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a command came from: its update (whose mark is stored with the change it causes), the chat and topic
    an answer goes to, the person and the languages chosen (the chat's with /lang, the person's for their private
    chat), the command's name, and the pressed button (its query is answered, its message may be adopted)."""

    update_id: int | None = None
    person: Person | None = None
    """Who asked, as commands name them (None: no person, as for a game's timer)."""
    chat_id: int = 0
    thread_id: int = 0
    language_code: str | None = None
    """The person's Telegram language."""
    chat_locale: Locale | None = None
    user_locale: Locale | None = None
    command: str = ""
    query_id: str | None = None
    message_id: int | None = None
    """The message whose button was pressed."""
    question_id: int | None = None
    """The message a person wrote (a command): an answer that must wait marks it as coming."""

    @property
    def tr(self) -> Translator:
        """The texts of an answer: the chat's chosen language, else the person's choice, else Telegram's."""
        chosen = self.chat_locale or self.user_locale
        return translator(chosen) if chosen is not None else translator_for(self.language_code)

    @property
    def user_id(self) -> int:
        return self.person.user_id if self.person is not None else 0


NOWHERE: Final = Origin()
"""A command no update brought: a game's timer, the outbox's report, the hourly upkeep."""


@dataclass(frozen=True, slots=True)
class Done:
    """What a command came to: the answer to its press (a refusal's reason included), the game it concerned (0:
    none) and how many games it showed (a look at every running game)."""

    answer: Answer | Refusal | None = None
    game_id: int = 0
    counted: int = 0


class Answered(Done):
    """A command whose press was answered already (a hint's alert, a link to open)."""


class Failed(Done):
    """A command that failed unexpectedly: logged, reported to the operators, and a press apologized to."""


class GameFailed(Exception):
    """A change of game ``game_id`` failed unexpectedly (the cause is chained)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id}")
        self.game_id = game_id


Handle = Callable[[Any, "Origin"], Awaitable["Done"]]
"""How the pipeline runs one type of command."""


class Parts(Protocol):
    """What the pipeline's parts for people and chats, questions and timers ask of it (``Pipeline`` has it all)."""

    db: Database
    outbox: Outbox
    clock: Clock
    config: FlowConfig
    membership: Membership
    thinker: Thinker
    operator: Operator
    bot_username: str
    store: Store

    async def run(self, command: Command, origin: Origin = ...) -> Done: ...

    async def change(
        self, game_id: int, decide: Callable[[Game], Decision], origin: Origin = ...
    ) -> Decision: ...

    async def refused(self, refusal: Refusal, origin: Origin, game_id: int = 0) -> None: ...

    async def running(self, user_id: int, *, solo_only: bool = False) -> list[Game]: ...
