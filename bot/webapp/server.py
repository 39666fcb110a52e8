"""The Mini App's server: its page, and the page's calls — what a person sees of a game, a press, the changes as
they happen, and the looks the chat offers beside the moves (a hint, the score sheet's picture, the review) — on
the bot's own event loop, beside the chat.

Every call carries Telegram's launch data (``Authorization: tma <initData>``; the live stream, which a browser opens
without headers, as ``?auth=``), checked before anything else (:mod:`bot.webapp.launch`). A person sees a game they
have a seat in, or the table of a group game when they are a member of the group (asked of Telegram, as the chat's
buttons do); anything else is refused with nothing shown. A press is the chat's button's callback data, turned into
the same command by the same function (:func:`bot.handlers.play.move_command`) and done by the same pipeline; the
page shows what the game is after it. A look is drawn by the very code the chat's answer is (the hint's and the
review's by ``pipeline.replies``, the sheet by ``delivery.paper`` and the outbox's picture cache), for whom the
chat offers it: the hint and the review to the seated person alone, the sheet to whoever may see the game. Every
committed change of a game (``Pipeline.watchers``) goes to the pages that follow it as its new screen; a page that
connects (again, after a dropped network or the bot's restart) is sent the game as stored first, so it catches up
from there. A call the database cannot serve is answered as the chat answers a press then: tried again while a
lock held elsewhere may be let go, else 503 with the chat's own apology, nothing changed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from importlib import resources
from typing import Any, Final, TypeVar

from aiohttp import web

from bot.clock import Clock
from bot.delivery import paper
from bot.delivery.answers import Apology, apology_text, refusal_text
from bot.delivery.web import MOVE_PREFIXES, START_GAME, screen
from bot.flow.commands import Refusal
from bot.guards.throttle import Kind, Rate, Windows
from bot.guards.updates import DatabaseTrouble, Troubled
from bot.handlers.play import move_command
from bot.i18n import translator_for
from bot.model.game import Game, GameMode, Person
from bot.pipeline.origin import Failed, Origin
from bot.pipeline.service import Pipeline
from bot.views.sheets import PictureCache, Sheet, Theme
from bot.webapp.launch import Launch, Refused, check

log = logging.getLogger(__name__)

T = TypeVar("T")

PACE: Final = Rate(20, 4.0)
"""A person's calls, at most this many in any window (5 a second, and at once the page's first screen, its stream
and a few quick taps)."""
STREAMS_PER_PERSON: Final = 4
"""Live streams one person may hold open at once (a page per game, a reload's overlap)."""
RECONNECT_MS: Final = 1000
"""How long a browser waits to connect again once its stream drops (the bot restarting: the page is back within
about a second of it, not the browser's default three)."""
KEEP_ALIVE: Final = 20.0
"""Real seconds between two comments on an idle stream, so proxies keep it open."""
STATIC: Final = ("index.html", "app.js", "app.css")
PAGE_WORDS: Final = ("offline", "no-game", "launch", "time-left", "wait")
"""The page's own texts (``webapp-<key>`` in locales/): no connection, a game not open to the person, not opened
from Telegram, the words before the turn's time left, a look being prepared."""
CSP: Final = (
    "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors https://web.telegram.org "
    "https://*.telegram.org"
)
"""The page's content security policy: its own script and style, Telegram's ``telegram-web-app.js``, calls to
itself, pictures of its own (the score sheet, fetched with the launch data and shown from a ``blob:``); nothing
inline, no other origin."""


class Follower:
    """One open page's stream of a game: the newest game not yet sent (older ones are never worth sending)."""

    def __init__(self) -> None:
        self.newest: Game | None = None
        self.wake = asyncio.Event()

    def changed(self, game: Game) -> None:
        self.newest = game
        self.wake.set()


class WebApp:
    """The Mini App's routes over one pipeline (``token``: the bot's, which Telegram signs launch data with)."""

    def __init__(
        self,
        pipeline: Pipeline,
        token: str,
        clock: Clock,
        trouble: DatabaseTrouble,
        pictures: PictureCache,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.pipeline = pipeline
        self.pictures = pictures
        """The score sheets drawn (the outbox's: a sheet the chat was sent is not drawn again)."""
        self.trouble = trouble
        """The chat's patience with the database (:meth:`_stored`)."""
        self.token = token
        self.wall = wall
        """The wall clock, as Telegram's ``auth_date`` counts (a test's launch data is signed by it too)."""
        self.clock = clock
        self.paces = Windows()
        """Each person's recent calls (:data:`PACE`), as the chat's throttle keeps presses'."""
        self.followers: dict[int, set[Follower]] = defaultdict(set)
        self.streams: dict[int, int] = defaultdict(int)
        pipeline.watchers.append(self.changed)

    def changed(self, game: Game) -> None:
        for follower in self.followers.get(game.id, ()):
            follower.changed(game)

    def application(self) -> web.Application:
        app = web.Application(middlewares=[_headers], client_max_size=4096)
        app.router.add_get("/app", self.page)
        app.router.add_get("/app/", self.page)
        app.router.add_get("/app/{name}", self.static)
        app.router.add_get("/app/api/words", self.words)
        app.router.add_get("/app/api/screen", self.screen)
        app.router.add_post("/app/api/press", self.press)
        app.router.add_get("/app/api/events", self.events)
        app.router.add_get("/app/api/hint", self.hint)
        app.router.add_get("/app/api/review", self.review)
        app.router.add_get("/app/api/sheet", self.sheet)
        return app

    # ------------------------------------------------------------------------------------------------ the page

    async def page(self, request: web.Request) -> web.Response:
        return _file("index.html")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return _file(name)

    async def words(self, request: web.Request) -> web.Response:
        """The page's own few words, in the language Telegram says its person reads (``?lang=``): public texts."""
        tr = translator_for(request.query.get("lang"))
        return _json({key: tr.t(f"webapp-{key}") for key in PAGE_WORDS})

    # ------------------------------------------------------------------------------------------------ the calls

    async def screen(self, request: web.Request) -> web.Response:
        launch = self._launch(request)
        game, viewer = await self._stored(launch, lambda: self._game(request, launch))
        return _json(self._screen_of(game, viewer))

    async def press(self, request: web.Request) -> web.Response:
        launch = self._launch(request)
        try:
            body = await request.json()
            data = str(body["data"])
        except (ValueError, KeyError, TypeError):
            raise _refused(HTTPStatus.BAD_REQUEST, "not-a-press") from None
        if not data.startswith(MOVE_PREFIXES):
            raise _refused(HTTPStatus.BAD_REQUEST, "not-a-move")
        return await self._stored(launch, lambda: self._press(request, launch, data))

    async def _press(self, request: web.Request, launch: Launch, data: str) -> web.Response:
        """The press (:meth:`press`) done: a try the database's trouble may make again, having changed nothing."""
        game, viewer = await self._game(request, launch)
        if viewer is None:
            raise _refused(HTTPStatus.FORBIDDEN, "no-seat")
        origin, who = await self._origin(launch)
        command = move_command(data, who)
        if command is None or getattr(command, "game_id", None) != game.id:
            raise _refused(HTTPStatus.BAD_REQUEST, "not-a-move")
        done = await self.pipeline.run(command, origin)
        if isinstance(
            done, Failed
        ):  # logged and reported by the pipeline; the person is told, as in the chat
            raise _refused(
                HTTPStatus.INTERNAL_SERVER_ERROR, "failed", apology_text(Apology.FAILED, origin.tr)
            )
        refused = None
        if isinstance(done.answer, Refusal):
            refused = refusal_text(done.answer, origin.tr)
        after = await self.pipeline.store.load(game.id) or game
        log.info(
            "game %s: a press in the Mini App by %s: %s%s",
            game.id,
            launch.user_id,
            data,
            " refused" if refused else "",
        )
        return _json({"refused": refused, "screen": self._screen_of(after, viewer)})

    async def events(self, request: web.Request) -> web.StreamResponse:
        launch = self._launch(request, request.query.get("auth", ""))
        game, viewer = await self._stored(launch, lambda: self._game(request, launch))
        if self.streams[launch.user_id] >= STREAMS_PER_PERSON:
            raise _refused(HTTPStatus.TOO_MANY_REQUESTS, "too-many-streams")
        follower = Follower()
        self.followers[game.id].add(follower)
        self.streams[launch.user_id] += 1
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        try:
            # the game as stored first: a catch-up ...
            stored = await self._stored(launch, lambda: self.pipeline.store.load(game.id)) or game
            if follower.newest is None:  # ... unless a change came meanwhile (it is newer)
                follower.changed(stored)
            await response.prepare(request)
            await response.write(f"retry: {RECONNECT_MS}\n\n".encode())
            while True:
                try:
                    await asyncio.wait_for(follower.wake.wait(), KEEP_ALIVE)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                follower.wake.clear()
                newest, follower.newest = follower.newest, None
                if newest is not None:
                    payload = json.dumps(self._screen_of(newest, viewer), ensure_ascii=False)
                    await response.write(f"data: {payload}\n\n".encode())
        except ConnectionResetError:  # the page went away
            pass
        finally:
            self.followers[game.id].discard(follower)
            if not self.followers[game.id]:
                del self.followers[game.id]
            self.streams[launch.user_id] -= 1
            if not self.streams[launch.user_id]:
                del self.streams[launch.user_id]
        return response

    # ------------------------------------------------------------------------------------------------- the looks

    async def hint(self, request: web.Request) -> web.Response:
        """«💡 Подсказка» for the person's own hand at ``?version=`` (the party's, as the screen offered it), in the
        words of the chat's alert: ``{"text"}``, or ``{"refused"}`` saying why not (a turn gone by)."""
        launch = self._launch(request)
        version = request.query.get("version", "")
        if not version.isdigit():
            raise _refused(HTTPStatus.BAD_REQUEST, "no-version")

        async def said() -> web.Response:
            game, viewer = await self._game(request, launch)
            if viewer is None:
                raise _refused(HTTPStatus.FORBIDDEN, "no-seat")
            tr = (await self._origin(launch))[0].tr
            text = await self.pipeline.replies.hint_text(game.id, viewer, int(version), tr)
            if isinstance(text, Refusal):
                return _json({"refused": refusal_text(text, tr)})
            return _json({"text": text})

        return await self._stored(launch, said)

    async def review(self, request: web.Request) -> web.Response:
        """«🔍 Разбор партии» of the person's own moves in the finished party, as the chat's message shows it:
        ``{"html"}`` (Telegram HTML), or ``{"refused"}``. The first asking takes the seconds of a worker's search."""
        launch = self._launch(request)

        async def reviewed() -> web.Response:
            game, viewer = await self._game(request, launch)
            if viewer is None:
                raise _refused(HTTPStatus.FORBIDDEN, "no-seat")
            tr = (await self._origin(launch))[0].tr
            made = await self.pipeline.replies.review_of(game.id, viewer, tr)
            if isinstance(made, Refusal):
                return _json({"refused": refusal_text(made, tr)})
            return _json({"html": made.text})

        return await self._stored(launch, reviewed)

    async def sheet(self, request: web.Request) -> web.Response:
        """The score sheet's picture as the chat's photo shows it (PNG; ``?theme=dark`` on Telegram's dark
        background), in the language of the chat it would go to: 404 before a deal has ended. Kept by the browser
        and asked again by its digest (``ETag``): an unchanged sheet costs a 304."""
        launch = self._launch(request)
        theme = Theme.DARK if request.query.get("theme") == Theme.DARK.value else Theme.LIGHT

        async def sheet_of() -> tuple[Sheet, str] | None:
            game, viewer = await self._game(request, launch)
            return paper.score_sheet(game, paper.reader(game, viewer or game.chat_id))

        made = await self._stored(launch, sheet_of)
        if made is None:
            raise _refused(HTTPStatus.NOT_FOUND, "no-sheet")
        picture = await self.pictures.picture_off_loop(made[0], theme)
        headers = {"ETag": f'"{picture.digest[:32]}"', "Cache-Control": "private, no-cache"}
        if headers["ETag"] in request.headers.get("If-None-Match", ""):
            return web.Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
        return web.Response(body=picture.png, content_type="image/png", headers=headers)

    # -------------------------------------------------------------------------------------------------- checks

    def _launch(self, request: web.Request, init_data: str | None = None) -> Launch:
        """Who calls, from ``init_data`` (by default the ``Authorization: tma ...`` header's), paced."""
        if init_data is None:
            init_data = request.headers.get("Authorization", "").removeprefix("tma ")
        launched = check(init_data, self.token, self.wall())
        if isinstance(launched, Refused):
            log.info("Mini App: %s launch data refused (%s)", launched.value, request.path)
            raise _refused(HTTPStatus.UNAUTHORIZED, f"launch-{launched.value}")
        now, key = self.clock.now(), (Kind.PAGE_USER, launched.user_id)
        self.paces.sweep(now)
        if not self.paces.has_room(key, PACE, now):
            raise _refused(HTTPStatus.TOO_MANY_REQUESTS, "slow-down")
        self.paces.take(key, PACE, now)
        return launched

    async def _game(self, request: web.Request, launch: Launch) -> tuple[Game, int | None]:
        """The game asked for (``?game=`` or the launch link's ``g<id>``) and whom the person sees it as: their
        seat's user id, or None for a group's member without a seat; refused when they may not see it."""
        wanted = request.query.get("game") or launch.start_param.removeprefix(START_GAME)
        game = await self.pipeline.store.load(int(wanted)) if wanted.isdigit() else None
        if game is None:
            raise _refused(HTTPStatus.NOT_FOUND, "no-game")
        if game.seat_of(launch.user_id) is not None:
            return game, launch.user_id
        if game.mode is GameMode.GROUP and await self.pipeline.membership.is_member(
            game.chat_id, launch.user_id
        ):
            return game, None
        raise _refused(HTTPStatus.NOT_FOUND, "no-game")  # as for no game: a stranger learns nothing of it

    async def _stored(self, launch: Launch, work: Callable[[], Awaitable[T]]) -> T:
        """``work`` that reads or writes the database, with the chat's patience (:class:`DatabaseTrouble`): when
        the database cannot serve it, 503 and the chat's own apology in the person's language (nothing changed)."""
        try:
            return await self.trouble.attempt(work, f"a Mini App call of {launch.user_id}")
        except Troubled as troubled:
            said = apology_text(troubled.why, translator_for(launch.language_code))
            raise _refused(HTTPStatus.SERVICE_UNAVAILABLE, "database", said) from None

    async def _origin(self, launch: Launch) -> tuple[Origin, Person]:
        """Where the page's call comes from, as :class:`~bot.guards.updates.OriginMiddleware` says it of an update:
        the person, and their languages (the one they chose with /lang, else Telegram's: :attr:`Origin.tr`)."""
        chosen = await self.pipeline.store.languages.of(launch.user_id)
        lang = chosen.value if chosen is not None else launch.language_code
        who = Person(launch.user_id, launch.name, None, lang)
        return Origin(person=who, language_code=launch.language_code, user_locale=chosen), who

    def _screen_of(self, game: Game, viewer: int | None) -> dict[str, Any]:
        """What ``viewer`` sees of ``game``, with the real seconds the turn has left (None: no limit shown)."""
        shown = screen(game, viewer)
        if shown is None:
            return {"game": game.id, "screen": None}
        left = None
        if shown.deadline is not None:
            left = round(self.clock.real(shown.deadline - self.clock.now()), 1)
        return {"game": game.id, "screen": {**shown.to_json(), "time_left": left}}


def _refused(status: HTTPStatus, why: str, said: str | None = None) -> web.HTTPException:
    """A call refused: ``why`` for the page's code, and ``said`` (the bot's own words) for its person."""
    body = {"error": why} if said is None else {"error": why, "text": said}
    error = web.HTTPException(text=json.dumps(body, ensure_ascii=False), content_type="application/json")
    error.set_status(status)
    return error


def _json(body: dict[str, Any]) -> web.Response:
    return web.json_response(body, dumps=lambda o: json.dumps(o, ensure_ascii=False))


def _file(name: str) -> web.Response:
    text = resources.files("bot.webapp").joinpath("static", name).read_text(encoding="utf-8")
    kind = {"html": "text/html", "js": "text/javascript", "css": "text/css"}[name.rsplit(".", 1)[1]]
    return web.Response(text=text, content_type=kind, charset="utf-8")


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    if response.prepared:  # a stream, its headers sent (its own say what it is)
        return response
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.path.startswith("/app/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
