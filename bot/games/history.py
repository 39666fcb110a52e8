"""The party's history as a short text file (sent with ``sendDocument``): every deal, every move in words (a
move the bot made for a person marked: their time ran out, or a bot player held their seat), each deal's points
and the totals, the result; then, apart, what a program reads — the lines that start with ``#``, the moves'
codes among them: :func:`read_history` gets the game record back from them, and :func:`replay_history` rebuilds
the party with the engine and checks it ends as the file says.

The file looks like this (the words in the reader's language, the codes the engine's)::

    Кончинка · история партии g1
    Ходы записаны словами; ⏰ — время вышло и за игрока сходил бот, 🤖 — за игрока играл бот. …
    Игроки: 1 Аня · 2 Борис · 3 Вера

    Раздача 1 · сдаёт Борис
       1. Вера: 7♦ на стол
       2. Аня: 7♠ берёт 7♦ ⏰
    ...
    Очки: Аня +3 · Борис 0 · Вера +1
    Итого: Аня 3 · Борис 0 · Вера 1
    ...
    Партия окончена. Итог: Аня 15 · Борис 4 · Вера 9
    Победа: Аня

    #game konchinka
    #seed 12345
    #options {"players":3,"target":15}
    #moves l:7d c:7s:7d …
    #result 15 4 9

(A file written before the codes moved to ``#moves`` has each move's code after its number; it reads too.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.games import plugin_of
from bot.games.base import GamePlugin
from bot.games.paper import history_name
from bot.i18n import Translator
from bot.views.common import SeatInfo
from engine.core import GameRecord, State, replay

_MOVE: Final = re.compile(r"^\s*(\d+)\.\s+(\S+)")
_MACHINE: Final = re.compile(r"^#(game|seed|options|result)\s+(.*)$")
_CODES: Final = re.compile(r"^#moves\s+(.*)$")
CODES_PER_LINE: Final = 12
FOR_PERSON: Final = {"afk": "⏰", "bot": "🤖"}
"""The marks of a move the bot made for a person, by its actor (``Move.actor``): their time ran out, or a bot
player held their seat."""


class HistoryError(ValueError):
    """A history file that cannot be read, or that does not replay to the result it states."""


@dataclass(frozen=True, slots=True)
class History:
    """What a history file says: the record to replay and the final scores it states (None: unfinished)."""

    record: GameRecord
    result: tuple[int, ...] | None


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _plain(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def history_filename(kind: str, game_id: str) -> str:
    return f"{kind}-{game_id or 'party'}.txt"


def write_history(
    plugin: GamePlugin[Any, Any],
    record: GameRecord,
    seats: Sequence[SeatInfo],
    tr: Translator,
    game_id: str = "",
    actors: Sequence[str] = (),
) -> str:
    """The history file of the party ``record`` describes (finished or not), with the seats' names; ``actors``:
    who made each move (``Move.actor``'s values), to mark those the bot made for a person."""
    names = [history_name(seat, tr) for seat in seats]

    def name(player: int) -> str:
        return names[player] if 0 <= player < len(names) else f"#{player + 1}"

    def per_seat(values: Sequence[int], show: Any) -> str:
        return " · ".join(f"{name(i)} {show(v)}" for i, v in enumerate(values))

    game = plugin.make_game(record.options)
    state: State[Any, Any] = game.new_initial_state(record.seed)
    lines = [
        tr.t("history-title", game=plugin.name(tr), id=game_id or "—"),
        tr.t("history-about"),
        tr.t("history-players", players=" · ".join(f"{i + 1} {n}" for i, n in enumerate(names))),
    ]
    deal_open = False
    for number, code in enumerate(record.actions, start=1):
        if not deal_open:
            heading = plugin.paper.deal_heading(state, seats, tr)
            title = tr.t("history-deal", deal=state.deals_completed + 1)
            lines += ["", f"{title} · {heading}" if heading else title]
            deal_open = True
        player = state.current_player
        action = game.parse_action(code)
        before = state.deals_completed
        state.apply(action)
        actor = actors[number - 1] if number <= len(actors) else ""
        person = 0 <= player < len(seats) and not seats[player].is_bot
        mark = f" {FOR_PERSON[actor]}" if person and actor in FOR_PERSON else ""
        lines.append(f"{number:>4}. {name(player)}: {plugin.paper.move_words(action, tr)}{mark}")
        if state.deals_completed > before:
            deal_open = False
            result = plugin.paper.deal_result(state)
            if result is not None:
                points, totals = result
                lines.append(tr.t("history-points", points=per_seat(points, _signed)))
                lines.append(tr.t("history-totals", totals=per_seat(totals, _plain)))
    outcome = state.outcome
    if outcome is not None:
        lines += [
            "",
            tr.t("history-result", scores=per_seat(outcome.scores, _plain)),
            tr.t("history-winners", names=", ".join(name(w) for w in outcome.winners)),
        ]
    codes = record.actions
    lines += [
        "",
        f"#game {record.game}",
        f"#seed {record.seed}",
        "#options " + json.dumps(record.options, ensure_ascii=False, separators=(",", ":"), sort_keys=True),
        *(f"#moves {' '.join(codes[i : i + CODES_PER_LINE])}" for i in range(0, len(codes), CODES_PER_LINE)),
    ]
    if outcome is not None:
        lines.append("#result " + " ".join(str(s) for s in outcome.scores))
    return "\n".join(lines) + "\n"


def read_history(text: str) -> History:
    """The record and the stated result of a history file (the moves' codes from its ``#moves`` lines; in an
    older file, after each move's number); HistoryError when its machine lines are missing or an older file's
    moves are not numbered 1, 2, 3…"""
    fields: dict[str, str] = {}
    listed: list[str] = []
    numbered: list[re.Match[str]] = []
    for line in text.splitlines():
        machine = _MACHINE.match(line)
        codes = _CODES.match(line)
        if machine:
            fields[machine.group(1)] = machine.group(2).strip()
        elif codes:
            listed += codes.group(1).split()
        elif move := _MOVE.match(line):
            numbered.append(move)
    if not listed and numbered:  # an older file: each move's code after its number
        for move in numbered:
            if int(move.group(1)) != len(listed) + 1:
                raise HistoryError(f"move {move.group(1)} comes where move {len(listed) + 1} should")
            listed.append(move.group(2))
    missing = {"game", "seed", "options"} - fields.keys()
    if missing:
        raise HistoryError(f"no #{', #'.join(sorted(missing))} line")
    try:
        options = json.loads(fields["options"])
        seed = int(fields["seed"])
        result = tuple(int(s) for s in fields["result"].split()) if "result" in fields else None
    except ValueError as error:
        raise HistoryError(str(error)) from None
    if not isinstance(options, dict):
        raise HistoryError("#options is no JSON object")
    return History(GameRecord(fields["game"], options, seed, tuple(listed)), result)


def replay_history(text: str) -> State[Any, Any]:
    """The party of a history file rebuilt by the engine, move by move; HistoryError if a move is refused or
    the party does not end with the result the file states."""
    history = read_history(text)
    plugin_of(history.record.game)  # a game this bot hosts
    try:
        state: State[Any, Any] = replay(history.record)
    except ValueError as error:  # IllegalActionError, or an unknown game or option
        raise HistoryError(f"the moves do not replay: {error}") from None
    if history.result is not None:
        scores = state.outcome.scores if state.outcome is not None else None
        if scores != history.result:
            raise HistoryError(f"the file says {history.result}, the replay ends with {scores}")
    return state
