"""A fake Telegram Bot API server for tests: aiohttp on localhost, Telegram's answers and refusals.

How a test uses it::

    tg = FakeTelegram(speed=60)                      # limits run 60x faster than real time
    base = await tg.start()                          # "http://127.0.0.1:PORT"
    bot = Bot(tg.token, session=AiohttpSession(api=TelegramAPIServer.from_base(base)))
    # or Bot(tg.token, session=tg.session()): the same, minus aiogram's 250 ms sleep on close
    alice = tg.add_user("Аня")
    bob = tg.add_user("Боря", username="borya")
    group = tg.add_group("Друзья", members=[alice, bob], admins=[alice])
    # ... start the bot's dispatcher (polling) against `bot` ...
    await alice.send(group, "/konchinka@konchinka_test_bot")   # an update for the bot
    await tg.wait_for(lambda: group.last_bot_message() is not None, timeout=5)
    lobby = group.last_bot_message()
    assert lobby.button("Присоединиться").url == tg.deep_link(...)
    await alice.send_private("/start j_abc")        # now the bot may write to her
    answer = await alice.press(lobby, "Начать")     # callback query; waits for answerCallbackQuery
    assert answer.answered and answer.text is None
    bob.block_bot()                                 # the bot's next private message to him: 403
    tg.inject_duplicate(tg.last_update_id)          # the same update delivered again
    print(tg.stats.total_calls(), tg.stats.too_many_requests)
    await tg.stop()

What Telegram does and this server does too:
- URLs `{base}/bot{token}/{method}`; method names are case-insensitive; a wrong token gets 401 "Unauthorized",
  an unknown method 404 "Not Found"; answers are `{"ok": true, "result": ...}` or
  `{"ok": false, "error_code": N, "description": ..., "parameters": {"retry_after": S}}`.
- getUpdates: long polling with offset/limit/timeout/allowed_updates; an update stays queued until a later call's
  offset confirms it, so a restarted bot re-reads what it had not confirmed; a second concurrent poll ends the
  first with 409. `inject_duplicate(update_id)` re-sends an update once, ahead of the queue, whatever the offset (a copy in a later
  batch); `tg.copies = 3` queues every new update three times in a row (copies in one batch).
- setWebhook: updates are then POSTed to the URL one at a time, in order, with the secret token in
  X-Telegram-Bot-Api-Secret-Token; one answered with anything but 200 (or not reached) is tried again and shows in
  getWebhookInfo's last_error_message; a method call in the answer's JSON body is executed; getUpdates is refused
  with 409 until deleteWebhook. Plain http:// is accepted for 127.0.0.1 and localhost (Telegram wants HTTPS).
  `tg.webhook_url`, `tg.webhook_deliveries`.
- Private chats: a user who never wrote to the bot → 403 "Forbidden: bot can't initiate conversation with a
  user"; a user who blocked it → 403 "Forbidden: bot was blocked by the user" (sends, edits, chat actions).
  Any private message from the user (e.g. "/start payload") starts and unblocks; block/unblock also produce
  my_chat_member updates.
- Groups (supergroups, privacy mode on by default): the bot receives only commands with no @ or with its own
  @username. The bot is a plain member (it may delete only its own messages) unless `bot_is_admin=True`.
- Messages: text ≤ 4096 UTF-16 code units after entity parsing and trimming ("message is too long", "message text
  is empty"); parse_mode HTML is parsed with a real parser of Telegram's tag subset (see `html.py`; stricter than
  Telegram on one point: a stray "&" is refused); inline keyboards: callback_data 1–64 bytes
  (BUTTON_DATA_INVALID), ≤ 8 per row and ≤ 100 buttons ("too many buttons", an approximation), a button needs an
  action. Edits: "message is not modified" when text, entities and keyboard are all unchanged (editMessageText
  without reply_markup removes the keyboard, as in Telegram); "message to edit not found", "message to delete not
  found", "message can't be edited".
- Inline mode (`FakeTelegram(inline_mode=True)`, what @BotFather's /setinline switches on; getMe reports it):
  `await tg.user_types_inline(user, "ералаш")` delivers an inline_query and returns the bot's answer, each result's
  message parsed like a sent one; answerInlineQuery is refused as Telegram refuses it (see `inline.py`).
- answerCallbackQuery: text ≤ 200 characters (longer: "MESSAGE_TOO_LONG"); answering twice, an unknown id or
  after `callback_ttl` real seconds (default 15; `expire_callback_queries()` ages them at once) → "query is too
  old and response timeout expired or query ID is invalid".
- Flood limits on sends and edits (see `limits.py` for the rule and how `speed` scales it): 429
  "Too Many Requests: retry after N" with parameters.retry_after = N real seconds (≥ 1); a refused request
  changes nothing. `Limits.off()` disables them.

Network faults (see `faults.py`), each for a window of Telegram time and a set of methods (default: every method
but getUpdates): `tg.fail(30, "sendMessage", code=502, html=False)` answers 5xx without executing the call,
`tg.hang(30)` leaves calls unanswered (until the bot gives up on them, or the server stops), `tg.slow(30,
delay=5)` answers late, `tg.garble(30)` answers 200 with a body that is not JSON, `tg.lose(30)` executes calls
but never answers them; `tg.heal()` ends them; `tg.faults.errors` / `hangs` / `delays` / `garbled` / `lost`
count what they did, `tg.calls_in_flight` the requests being handled now.

The machine's wall clock (``time.time``) can be stepped for the whole process with
`tests.fakebot.wallclock.SteppedWallClock` (an NTP correction, a virtual machine resumed).

Knobs: `FakeTelegram(token=..., bot_username=..., speed=..., limits=Limits(...) or Limits.off(),
callback_ttl=..., privacy_mode=..., strict_html=...)`; `add_group(..., forum=True, bot_is_admin=False)` and
`group.add_topic(name)` → message_thread_id; `tg.scaled_clock.freeze()` / `advance(s)` / `resume()` move Telegram
time by hand for exact limit tests. With `speed=60` a bot that honours retry_after waits at least one real second per 429,
so a fast e2e test wants a bot that paces itself and an assertion that `tg.stats.too_many_requests == 0`.

In-process (no HTTP, no real time): `FakeTelegram(speed=60, clock=ManualClock(60))`, never started; the bot is
`Bot(tg.token, session=tg.session())` (an `InProcessSession`: the same method handlers, stats, observer and
faults, aiogram's own `check_response`) built with `clock=tg.clock`, and `DispatcherFeed(tg, dispatcher, bot)`
hands it the updates as users act (a batch 5 ms of Telegram time after they are queued, each update a task, as
polling does). Time moves only when the test waits: `tg.wait_for`, `tg.settle`, `tg.sleep(s)` (a pause of `s`
real seconds at the nominal speed), `tg.finish(coroutine)` (a bot coroutine that needs time), a press waiting for
its answer — each runs the loop until idle (`manual.py`'s `Driver`) and moves the clock to the next wake-up;
`tg.monotonic()` is the time those count. `tests/bot/conftest.py` wires it all (`tg`, `bot_runner`).

Reading the world: `chat.last_bot_message()`, `chat.bot_messages()`, `chat.visible_messages()`,
`message.text`, `message.buttons` / `flat_buttons` / `url_buttons` / `button(text)`, `message.history` (every
version), `message.is_deleted`; `tg.commands` (setMyCommands by (scope JSON, language)); `tg.stats` (calls,
successes and errors per method and per chat). Waiting: `await tg.wait_for(predicate, timeout=...)` polls state;
`await tg.settle()` waits until all updates are confirmed and the bot made no call for a moment (0.2 s:
in-process, of the clock at its nominal speed);
`tg.waiting_polls` counts getUpdates calls now waiting, `tg.polls` all received (a polling bot has started once it
polls); `tg.pending_updates` the unconfirmed updates.
"""

from __future__ import annotations

from tests.fakebot.client import LocalSession
from tests.fakebot.html import Entity, EntityParseError, EntityType, parse_html
from tests.fakebot.limits import Limits, ScaledClock
from tests.fakebot.manual import ManualClock
from tests.fakebot.models import (
    ApiStats,
    Button,
    CallbackAnswer,
    ChatType,
    FakeChat,
    FakeMessage,
    FakeUser,
    MessageVersion,
    UpdateType,
)
from tests.fakebot.server import DEFAULT_TOKEN, ApiError, Description, FakeTelegram

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "ApiStats",
    "Button",
    "CallbackAnswer",
    "ChatType",
    "Description",
    "Entity",
    "EntityParseError",
    "EntityType",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "Limits",
    "LocalSession",
    "ManualClock",
    "MessageVersion",
    "ScaledClock",
    "UpdateType",
    "parse_html",
]
