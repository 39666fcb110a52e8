"""``/admin``: the operators' look at the running bot (``ADMIN_IDS``); anyone else's ``/admin`` is ignored.

``/admin`` shows the games running by kind, the people seen today, Bot API calls a second, the outbox's queue,
the unexpected failures of the last hour, the version, the uptime and which «мастер» each game plays here
(the compiled kernel's, or pure Python's weaker one); ``/admin <user id>`` shows that person's
latest refusals and failures (why did this press fail?).
"""

from __future__ import annotations

import datetime as dt
import html

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.flow.service import HOUR, GameService, Operator, Publisher
from bot.games import is_hosted, plugin_of
from bot.handlers.common import thread_of, tr_of
from bot.i18n import Translator
from engine.ai import backends


async def on_admin(
    message: Message, command: CommandObject, service: GameService, operator: Operator, publisher: Publisher
) -> None:
    user = message.from_user
    if user is None or not operator.is_admin(user.id):
        return  # as if the command did not exist: nobody learns there is something to try
    tr = tr_of(user)
    argument = (command.args or "").strip()
    if argument.lstrip("-").isdigit():
        text = _troubles(operator, int(argument), tr)
    else:
        text = await _figures(operator, service, tr)
    await publisher.say(message.chat.id, text, thread_id=thread_of(message))


async def _figures(operator: Operator, service: GameService, tr: Translator) -> str:
    games = await operator.games_running()
    named = []
    for kind, count in sorted(games.items()):
        try:
            name = plugin_of(kind).name(tr)
        except ValueError:
            name = kind
        named.append(tr.t("admin-game-count", game=name, count=count))
    uptime = int(operator.uptime())
    waiting, age = operator.backlog()
    masters = []
    for kind, backend in backends().items():
        if not is_hosted(kind):  # an engine's game this bot does not host
            continue
        try:
            name = plugin_of(kind).name(tr)
        except ValueError:
            name = kind
        masters.append(tr.t("admin-master-backend", game=name, backend=backend))
    return tr.t(
        "admin-figures",
        bot=service.bot_username,
        version=operator.version,
        uptime=f"{uptime // 3600}:{uptime % 3600 // 60:02d}",
        games=", ".join(named) or tr.t("admin-no-games"),
        total=sum(games.values()),
        people=len(operator.traffic.seen_today),
        calls=f"{operator.calls_per_second():.1f}",
        queued=waiting,
        waited=f"{age:.0f}",
        failures=operator.failures_within(HOUR),
        masters=", ".join(masters),
    )


def _troubles(operator: Operator, user_id: int, tr: Translator) -> str:
    kept = operator.troubles_of(user_id)
    if not kept:
        return tr.t("admin-no-troubles", user=str(user_id))
    lines = [tr.t("admin-troubles", user=str(user_id))]
    for trouble in kept:
        lines.append(
            tr.t(
                "admin-trouble",
                when=dt.datetime.fromtimestamp(trouble.at, dt.UTC).strftime("%d.%m %H:%M:%S UTC"),
                what=html.escape(trouble.what),
                chat=str(trouble.chat_id),
                game=str(trouble.game_id),
            )
        )
    return "\n".join(lines)


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="admin")
    router.message.register(on_admin, Command("admin"))
    return router
