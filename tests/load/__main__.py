"""``python -m tests.load``: G concurrent games against our bot, then against the floor; JSON and a table.

Our bot runs as a separate process (``python -m bot``, a temporary database) against the project's fake Bot
API with Telegram's limits on, at real time; simulated people (seeded think times) set up and play group
Кончинка parties of 2–3 and solo games of Кончинка and Кинг against «новичок», «любитель» and «мастер». After
the warm-up (every game set up) comes the measured window of ``--seconds``; the people then stop, the presses
made in the window get up to ``--drain`` seconds for their answers and edits, and everything is stopped. The
same people then play the floor, a bare aiogram bot that answers each press and edits the pressed message.

With ``--web``, between the two, the same people play our bot again in the Mini App (issue 47): each party set
up in the chat, then played in the page — its stream followed, each press a POST — while the bot keeps the
chat's messages up to date; the table shows it beside the chat's run, with the Mini App's target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from tests.load.people import MIXES
from tests.load.run import Config, benchmark

TABLE_ROWS = (
    ("press→answer ms", "press_to_answer_ms"),
    ("press→own edit ms", "press_to_own_edit_ms"),
    ("press→next turn ms (group)", "press_to_next_turn_ms"),
    ("press→own next turn ms (solo)", "press_to_next_turn_solo_ms"),
)
WEB_ROWS = (
    ("press→own stream ms", "press_to_own_stream_ms"),
    ("press→others' stream ms", "press_to_others_stream_ms"),
)
"""The Mini App's own figures (its press→answer is the POST's answer, which carries the presser's screen)."""


def _quantiles(figures: dict[str, Any], key: str) -> str:
    q = figures.get(key) or {}
    if not q.get("n"):
        return "—"
    return f"{q['p50']:.0f} / {q['p95']:.0f} / {q['p99']:.0f}"


def table(result: dict[str, Any]) -> str:
    """A short human-readable summary of the JSON."""
    columns = [name for name in ("ours", "web", "floor") if name in result]
    lines = [f"{'':32}" + "".join(f"{name:>26}" for name in columns)]

    def row(label: str, cell: Any) -> None:
        lines.append(f"{label:32}" + "".join(f"{cell(result[name]):>26}" for name in columns))

    rows = TABLE_ROWS + WEB_ROWS if "web" in result else TABLE_ROWS
    for label, key in rows:
        row(label + " p50/95/99", lambda f, key=key: _quantiles(f, key))
    row("presses (refused)", lambda f: f"{f['presses']} ({f['refused_presses']})")
    row("moves per s", lambda f: f"{f['moves_per_s']}")
    row("taps per move (group / solo)", _taps)
    row("message calls per move", lambda f: f"{f['message_calls_per_move']}")
    row("bot CPU ms per move", lambda f: f"{f['bot_cpu_ms_per_move']}")
    row("bot CPU ms per press", lambda f: f"{f['bot_cpu_ms_per_press']}")
    row(
        "db transactions / statements per move",
        lambda f: f"{f['db_transactions_per_move']} / {f['db_statements_per_move']}",
    )
    row("bot CPU % of a core", lambda f: f"{f['bot_cpu_percent_of_a_core']}")
    row("429s / not modified", lambda f: f"{f['too_many_requests']} / {f['not_modified']}")
    row("peak RSS MB", lambda f: f"{f['peak_rss_mb']}")
    if "web" in result:
        row("bot loop waited for a CPU %", lambda f: f"{f.get('bot_loop_waited_for_a_cpu_percent', '—')}")
        row(
            "page: 429s (pace) / streams lost",
            lambda f: f"{f['pace_refusals']} / {f['streams_dropped']}" if "pace_refusals" in f else "—",
        )
    load = result.get("machine_before", {}).get("load_average")
    lines.append(
        f"games {result['config']['games']} (mix {result['config']['mix_name']}), window {result['config']['seconds']} s, load before {load}"
    )
    if "web_target" in result:
        lines.append(_target_line(result["web_target"]))
    return "\n".join(lines)


def _taps(figures: dict[str, Any]) -> str:
    by_mode = figures.get("taps_per_move_by_mode") or {}
    return " / ".join("—" if by_mode.get(mode) is None else f"{by_mode[mode]}" for mode in ("group", "solo"))


def _target_line(target: dict[str, Any]) -> str:
    def ms(value: Any) -> str:
        return "—" if value is None else f"{value:.0f} ms"

    verdict = "met" if target["is_met"] else "NOT met"
    times = target["chat_p99_over_web_p99"]
    return (
        f"Mini App target p99 ≤ {target['target_p99_ms']:.0f} ms: {verdict} — press→screen update (others' stream) "
        f"p99 {ms(target['press_to_screen_update_p99_ms'])}, press→answer p99 {ms(target['press_to_answer_p99_ms'])}; "
        f"the chat's press→own edit p99 {ms(target['chat_press_to_own_edit_p99_ms'])}"
        + (f" ({times}× the Mini App's)" if times is not None else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.load", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument(
        "--mix",
        choices=sorted(MIXES),
        default="default",
        help="the games: default (group and solo, both games) or group3 (3-player group Кончинка only)",
    )
    parser.add_argument("--seconds", type=float, default=90.0, help="the measured window (default 90)")
    parser.add_argument("--json", action="store_true", help="print the JSON only")
    parser.add_argument("--no-floor", action="store_true", help="skip the floor (the bare aiogram bot)")
    parser.add_argument(
        "--web",
        action="store_true",
        help="also run every player in the Mini App, beside the chat's run (same games and seed)",
    )
    parser.add_argument("--seed", type=int, default=1, help="the people's and the games' seed (default 1)")
    parser.add_argument(
        "--think", type=float, nargs=2, default=(1.0, 3.0), metavar=("MIN", "MAX"), help="seconds (1 3)"
    )
    parser.add_argument("--warmup", type=float, default=120.0, help="at most this long to set games up")
    parser.add_argument("--drain", type=float, default=60.0, help="at most this long for late answers")
    parser.add_argument("--bot-delay", type=float, default=None, help="BOT_DELAY for our bot (default 1)")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        metavar="PATH",
        help="py-spy's stacks of our bot over the window (--web: the Mini App's run's beside, PATH's name + -web)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or not 0 <= args.think[0] <= args.think[1]:
        parser.error("--games >= 1, --seconds > 0 and 0 <= MIN <= MAX")
    config = Config(
        games=args.games,
        seconds=args.seconds,
        think=(args.think[0], args.think[1]),
        seed=args.seed,
        warmup=args.warmup,
        drain=args.drain,
        bot_delay=args.bot_delay,
        mix=args.mix,
        profile=args.profile,
    )
    result = asyncio.run(benchmark(config, floor=not args.no_floor, web=args.web))
    print(json.dumps(result, ensure_ascii=False, indent=2))
    if not args.json:
        print(table(result), file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
