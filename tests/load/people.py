"""Simulated people: the mix of games, setting each one up, and playing it the way a person does.

A person waits until their newest private message offers moves, thinks (a seeded 1–3 s by default), reads the
newest message again and taps one of its buttons — a card, then (Кончинка, a card with several moves) one of
its moves. After a tap they wait until their chat changes, or ``PATIENCE`` seconds, before looking again: a
hand that still shows the old buttons then gets tapped again, and the bot answers «Этот ход уже сделан».

Against the floor (the bare aiogram bot) the same people take turns in the same groups: each taps a button of
their own message, and when it has changed (or ``PATIENCE`` passed) the next one's turn comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.callbacks import LobbyCb, LobbyOp, SoloCb, SoloStep
from engine.ai import Level
from tests.bot.conftest import find_lobby, has_rematch, move_buttons, turn_message
from tests.fakebot import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.load.floor import PREFIX as FLOOR_PREFIX
from tests.load.recorder import MOVE_PREFIX, PICK_PREFIX, Mode, Recorder, parse_game_data

PATIENCE = 5.0
"""Real seconds a person waits for their screen to change after a tap before looking at it again."""
SETUP_TIMEOUT = 120.0
"""Real seconds one step of setting a game up (a lobby, a menu, a level) may take before the game gives up."""
PRESS_TIMEOUT = 15.0
"""Telegram's own limit for answering a callback query."""
FLOOR_ASKS = 10
FLOOR_ASK_AFTER = 5.0
"""A person who got no answer from the floor to ``/play`` asks again after this many seconds, up to
``FLOOR_ASKS`` times."""
STAGGER = 0.05
"""Real seconds between the starts of two games' set-ups (people do not all arrive in the same instant)."""


@dataclass(frozen=True)
class GameSpec:
    """One game of the mix: a group Кончинка of ``people``, or one person alone against bot players."""

    mode: Mode
    kind: str
    people: int
    opponents: int = 0
    level: Level | None = None

    @property
    def label(self) -> str:
        if self.mode is Mode.GROUP:
            return f"group {self.kind} {self.people}p"
        assert self.level is not None
        return f"solo {self.kind} vs {self.opponents} {self.level.value}"


MIX: tuple[GameSpec, ...] = (
    GameSpec(Mode.GROUP, "konchinka", 2),
    GameSpec(Mode.SOLO, "konchinka", 1, 1, Level.EASY),
    GameSpec(Mode.SOLO, "king", 1, 3, Level.NORMAL),
    GameSpec(Mode.GROUP, "konchinka", 3),
    GameSpec(Mode.SOLO, "konchinka", 1, 2, Level.NORMAL),
    GameSpec(Mode.SOLO, "king", 1, 3, Level.HARD),
    GameSpec(Mode.SOLO, "konchinka", 1, 1, Level.HARD),
    GameSpec(Mode.SOLO, "king", 1, 3, Level.EASY),
)
"""Game i of a run is ``MIX[i % len(MIX)]``: a quarter of the games are group parties (about half the people),
the rest solo games against «новичок», «любитель» and «мастер» of both games."""


MIXES: dict[str, tuple[GameSpec, ...]] = {
    "default": MIX,
    "group3": (GameSpec(Mode.GROUP, "konchinka", 3),),
}
"""The mixes ``--mix`` chooses from: ``group3`` is issue 11's unloaded party, 3-player group Кончинка only."""


def mix(games: int, name: str = "default") -> list[GameSpec]:
    specs = MIXES[name]
    return [specs[index % len(specs)] for index in range(games)]


@dataclass
class Sim:
    """What every simulated person shares: the fake Telegram, the recorder, the think times, the stop flag."""

    tg: FakeTelegram
    rec: Recorder
    think: tuple[float, float]
    seed: int
    stopping: bool = False
    started: set[int] = field(default_factory=set)
    setup_failures: Counter[str] = field(default_factory=Counter)
    """Games whose set-up timed out, by their kind (and, for ours, the step that timed out)."""
    parties: int = 0

    async def until(
        self, chat: FakeChat, predicate: Callable[[], object], timeout: float = SETUP_TIMEOUT
    ) -> None:
        """Wait (woken by the chat's changes) until ``predicate()``; TimeoutError after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.stopping:
                raise TimeoutError(f"waited {timeout} s in {chat!r}")
            await self.rec.changed(chat.id, min(remaining, 1.0))


class Person:
    def __init__(self, sim: Sim, user: FakeUser, mode: Mode, kind: str, rng: random.Random) -> None:
        self.sim = sim
        self.user = user
        self.mode = mode
        self.kind = kind
        self.rng = rng
        self.step = ""
        """What the person waits for while setting a game up (named in the set-up failures)."""

    async def think(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.sim.think))

    async def tap(self, message: FakeMessage, data: str) -> bool:
        """Tap a button (recorded for the figures); True when the bot answered without a refusal."""
        if message.is_deleted or data not in {b.callback_data for b in message.flat_buttons}:
            return False
        at = time.monotonic()
        self.sim.rec.pressed(self.user.id, message.chat.id, message.message_id, data, self.mode, at)
        answer = await self.user.press(message, data=data, timeout=PRESS_TIMEOUT)
        await self.sim.rec.changed_since(message.chat.id, at, PATIENCE)
        return answer.answered and not answer.text

    def choose(self, message: FakeMessage, picked: tuple[int, int] | None) -> str | None:
        """A button a person would tap now on ``message`` (``picked``: the message and version of their last
        card's tap)."""
        buttons = move_buttons(message)
        version = version_of(buttons[0]) if buttons else -1
        return choose(self.kind, self.rng, buttons, picked == (message.message_id, version))

    async def play(self, over: Callable[[], bool]) -> None:
        """Take turns until the party is over or the run stops."""
        chat = self.user.private_chat
        picked: tuple[int, int] | None = None
        while not self.sim.stopping and not over():
            if turn_message(self.user) is None:
                await self.sim.rec.changed(chat.id, 1.0)
                continue
            await self.think()
            message = turn_message(self.user)
            if self.sim.stopping or message is None:
                continue
            data = self.choose(message, picked)
            if data is None:
                await self.sim.rec.changed(chat.id, 1.0)
                continue
            if await self.tap(message, data) and data.startswith(PICK_PREFIX):
                picked = (message.message_id, version_of(data))

    # --- setting games up ---------------------------------------------------------------------------------
    async def start_solo(self, spec: GameSpec) -> None:
        """``/play``, then (Кончинка) the number of opponents or (Кинг) the game, then the level."""
        chat = self.user.private_chat
        before = chat.bot_message_count(include_deleted=True)
        await self.user.send_private("/play")
        self.step = "the /play menu"
        await self.sim.until(chat, lambda: chat.bot_message_count(include_deleted=True) > before)
        menu = chat.last_bot_message()
        assert menu is not None and spec.level is not None
        if spec.kind == "king":
            first = SoloCb(step=SoloStep.GAME, game="king").pack()
        else:
            first = SoloCb(step=SoloStep.OPPONENTS, game=spec.kind, opponents=spec.opponents).pack()
        level = SoloCb(step=SoloStep.LEVEL, game=spec.kind, opponents=spec.opponents, level=spec.level.value)
        await self.user.press(menu, data=first, timeout=PRESS_TIMEOUT)
        self.step = "the levels"
        await self.sim.until(chat, lambda: _has_data(menu, level.pack()))
        self.step = "the start"
        await self._final_press(menu, level.pack())

    async def set_up(self, spec: GameSpec, group: FakeChat | None, people: list[Person]) -> bool:
        """This person (the host) sets the next party up in the chat; False (the failure counted) when a step
        timed out."""
        try:
            if group is not None:
                await self.open_group(group, [p.user for p in people])
            else:
                await self.start_solo(spec)
        except TimeoutError:
            if not self.sim.stopping:
                self.sim.setup_failures[f"{spec.label}: {self.step}"] += 1
            return False
        return True

    async def _final_press(self, message: FakeMessage, data: str) -> None:
        """The press that starts the game; TimeoutError when it is not answered, or answered with a refusal."""
        answer = await self.user.press(message, data=data, timeout=PRESS_TIMEOUT)
        if not answer.answered or answer.text:
            self.step += f" (answered {answer.text!r})" if answer.answered else " (not answered)"
            raise TimeoutError(self.step)

    async def open_group(self, group: FakeChat, people: list[FakeUser]) -> None:
        """``/konchinka`` in the group, everyone follows the join link, the creator (this person) starts."""
        old = find_lobby(group)
        await self.user.send(group, "/konchinka")
        self.step = "the lobby"
        await self.sim.until(group, lambda: find_lobby(group) not in (None, old))
        lobby = find_lobby(group)
        assert lobby is not None
        url = next(b.url for b in lobby.flat_buttons if b.url and "start=j_" in b.url)
        payload = url.split("start=", 1)[1]
        for user in people:
            await user.send_private(f"/start {payload}")

        def seated() -> bool:
            current = find_lobby(group)
            return current is not None and all(u.full_name in current.text for u in people)

        self.step = "everyone seated in the lobby"
        await self.sim.until(group, seated)
        lobby = find_lobby(group)
        assert lobby is not None
        start = LobbyCb(game=payload.removeprefix("j_"), op=LobbyOp.START).pack()
        self.step = "the start"
        await self._final_press(lobby, start)


def choose(kind: str, rng: random.Random, buttons: list[str], picked: bool) -> str | None:
    """Of the move ``buttons`` a person sees, the one they tap: any card (Кинг: a playable one), or, once a card
    is ``picked``, one of its moves — in the chat and in the Mini App alike."""
    moves = [d for d in buttons if d.startswith(MOVE_PREFIX)]
    if kind == "king" or picked:
        return rng.choice(moves) if moves else None
    return rng.choice(buttons) if buttons else None


def version_of(data: str) -> int:
    """The state version a move button's data was drawn at (-1: not a move button)."""
    parsed = parse_game_data(data)
    return parsed[1] if parsed is not None else -1


def _has_data(message: FakeMessage, data: str) -> bool:
    return any(b.callback_data == data for b in message.flat_buttons)


def people_for(sim: Sim, index: int, spec: GameSpec, mode: Mode) -> list[Person]:
    """The people of game ``index``: new users of the fake Telegram, each with their own seeded think times."""
    return [
        Person(
            sim,
            sim.tg.add_user(f"Игрок {index}-{seat + 1}"),
            mode,
            spec.kind,
            random.Random(sim.seed * 1_000_003 + index * 10 + seat),
        )
        for seat in range(spec.people)
    ]


async def run_game(sim: Sim, index: int, spec: GameSpec) -> None:
    """One game of ours, party after party, until the run stops; a set-up that times out ends the game."""
    await asyncio.sleep(index * STAGGER)
    people = people_for(sim, index, spec, spec.mode)
    group = sim.tg.add_group(f"Стол {index}", [p.user for p in people]) if spec.mode is Mode.GROUP else None
    host = people[0]
    home = group if group is not None else host.user.private_chat
    while not sim.stopping:
        finished = sum(1 for m in home.bot_messages() if _is_rematch(m))
        if not await host.set_up(spec, group, people):
            return
        sim.started.add(index)
        sim.parties += 1

        def over(home: FakeChat = home, finished: int = finished) -> bool:
            return sum(1 for m in home.bot_messages() if _is_rematch(m)) > finished

        await asyncio.gather(*(person.play(over) for person in people))


def _is_rematch(message: FakeMessage) -> bool:
    return has_rematch([message])


async def run_floor_game(sim: Sim, index: int, spec: GameSpec) -> None:
    """The same people against the floor: ``/play`` each, then taps in turn until the run stops."""
    await asyncio.sleep(index * STAGGER)
    people = people_for(sim, index, spec, Mode.FLOOR)
    for person in people:
        # The floor does not retry a refused (429) send, so a person who got no answer asks again.
        chat = person.user.private_chat
        for _ in range(FLOOR_ASKS):
            await person.user.send_private("/play")
            with contextlib.suppress(TimeoutError):
                await sim.until(chat, chat.last_bot_message, FLOOR_ASK_AFTER)
            if chat.last_bot_message() is not None or sim.stopping:
                break
        if chat.last_bot_message() is None:
            if not sim.stopping:
                sim.setup_failures[spec.label] += 1
            return
    sim.started.add(index)
    sim.parties += 1
    turn = 0
    while not sim.stopping:
        person = people[turn % len(people)]
        await person.think()
        message = person.user.private_chat.last_bot_message()
        buttons = [] if message is None else [b.callback_data or "" for b in message.flat_buttons]
        buttons = [d for d in buttons if d.startswith(FLOOR_PREFIX)]
        if sim.stopping or message is None or not buttons:
            continue
        await person.tap(message, person.rng.choice(buttons))
        turn += 1
