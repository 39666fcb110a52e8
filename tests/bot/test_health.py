"""What ``/healthz`` says for each way a running bot can be stuck, from the figures the loop and the Bot API
calls leave in :class:`Health` (the process-level test, a real blocked loop, is in ``test_running.py``)."""

from __future__ import annotations

import time

from bot.health import API_LIMIT, Fatal, Health
from bot.settings import ExitCode
from bot.storage.files import Trouble


def fresh(at: float, *, polling: bool = True) -> Health:
    health = Health(stall=10.0, polling=polling, ready=True)
    health.started = health.beaten = health.polled = health.delivered = health.waiting_since = at
    return health


def test_a_bot_whose_loop_beats_and_polls_is_healthy() -> None:
    health = fresh(1000.0)
    assert health.problems(now=1005.0) == []


def test_a_loop_that_has_not_beaten_past_its_limit_is_reported_and_a_beat_heals_it() -> None:
    health = fresh(1000.0)
    assert health.problems(now=1011.5) == ["the event loop has been blocked for 11.5 s"]
    health.beaten = 1011.5
    assert health.problems(now=1012.0) == []


def test_polling_that_never_comes_back_is_reported_only_in_polling_mode() -> None:
    later = 1000.0 + API_LIMIT + 5
    health = fresh(1000.0)
    health.beaten = later
    assert health.problems(now=later) == [f"getUpdates has not come back for {API_LIMIT + 5:.0f} s"]
    webhook = fresh(1000.0, polling=False)
    webhook.beaten = later
    assert webhook.problems(now=later) == []


def test_messages_that_wait_while_no_call_succeeds_are_reported_but_an_empty_queue_is_not() -> None:
    later = 1000.0 + API_LIMIT + 1
    health = fresh(1000.0)
    health.beaten = health.polled = later
    assert health.problems(now=later) == []  # nothing to send: nothing was due
    health.queued = 3
    assert health.problems(now=later) == [
        f"messages wait for 3 chats and no Bot API call has succeeded for {API_LIMIT + 1:.0f} s"
    ]
    health.delivered = later
    assert health.problems(now=later) == []


def test_messages_that_only_just_began_to_wait_after_a_long_quiet_are_no_problem() -> None:
    quiet = 1000.0 + API_LIMIT * 10  # nothing was sent for a long while: nothing had to be
    health = fresh(1000.0)
    health.polled = quiet
    health.beaten = quiet - 0.5
    health.beat(queued=1, now=quiet)
    assert health.problems(now=quiet + 1) == []
    health.beaten = health.polled = health.beaten + API_LIMIT + 1
    assert len(health.problems(now=health.beaten)) == 1


def test_a_fatal_answer_makes_the_bot_unhealthy_and_wakes_whoever_waits_for_it() -> None:
    health = fresh(1000.0)
    health.stop_with(Fatal(ExitCode.TOKEN, "the token was revoked"))
    health.stop_with(Fatal(ExitCode.TOKEN, "a second one is ignored"))
    assert health.on_fatal.is_set()
    assert health.problems(now=1001.0) == ["stopping: the token was revoked"]


def test_polls_that_keep_failing_are_reported_with_the_reason_though_each_came_back() -> None:
    """A failed ``getUpdates`` (the Bot API unreachable, a 502) is no sign of life: past the limit it is said,
    with the last failure's reason."""
    health = fresh(1000.0)
    health.poll_failure = "TelegramNetworkError: HTTP Client says - ClientConnectorError"
    later = 1000.0 + API_LIMIT + 5
    health.beaten = later
    assert health.failing(now=later) == [
        (
            "polling",
            f"getUpdates has failed for {API_LIMIT + 5:.0f} s: "
            "TelegramNetworkError: HTTP Client says - ClientConnectorError",
        )
    ]


def test_a_conflict_is_reported_at_once_as_another_process_using_the_token() -> None:
    health = fresh(1000.0)
    health.conflict_since = 1001.0
    health.beaten = 1004.0
    assert health.problems(now=1004.0) == [
        "another process uses this token: Telegram has answered getUpdates with 409 Conflict for 3 s"
    ]


def test_a_database_that_cannot_be_written_is_reported_at_once_and_a_lock_only_when_it_lasts() -> None:
    health = fresh(1000.0)
    health.beat(0, now=1000.5, database=Trouble.FULL.value)
    assert health.failing(now=1001.0) == [
        ("database", "the database cannot be written: it is full (no space left on the disk) (for 0 s)")
    ]
    health.beat(0, now=1001.0, database=Trouble.BUSY.value)
    assert health.failing(now=1002.0) == []
    later = 1001.0 + API_LIMIT + 1
    health.polled = later
    health.beat(0, now=later, database=Trouble.BUSY.value)
    assert [check for check, _ in health.failing(now=later)] == ["database"]
    health.beat(0, now=later + 0.5)
    assert health.failing(now=later + 0.5) == []


def test_a_bot_is_starting_until_its_first_poll_is_answered_and_a_slow_start_is_no_blocked_loop() -> None:
    health = Health(stall=1.0)
    health.started = health.beaten = health.polled = 1000.0
    starting = [("starting", "starting for 5 s: no getUpdates has been answered yet")]
    assert health.failing(now=1005.0) == starting  # not «the event loop has been blocked for 5.0 s»
    health.polls = 1
    health.conflict_since = 1004.0  # what a start cannot get past is said meanwhile
    assert [check for check, _ in health.failing(now=1005.0)] == ["starting", "conflict"]
    health.conflict_since = None
    health.ready = True  # the first getUpdates came back
    health.beaten = health.polled = 1005.0
    assert health.failing(now=1005.5) == []
    webhook = Health(stall=1.0, polling=False)
    webhook.started = webhook.beaten = 1000.0
    assert webhook.problems(now=1002.0) == ["starting for 2 s: the webhook is not set yet"]


URL = "https://bot.example.org/webhook"


def test_webhook_deliveries_failing_since_the_last_update_are_reported_past_the_limit_and_heal() -> None:
    health = fresh(1000.0, polling=False)
    hook = health.webhook
    hook.url = URL
    now = time.time()
    assert health.failing(now=1000.0) == []  # Telegram not asked yet
    hook.told(URL, 4, "Connection refused", now - 5, last_update=now - 600, now=1000.0)
    health.beaten = 1000.0 + API_LIMIT + 1
    assert health.failing(now=1000.0 + API_LIMIT - 1) == []  # a moment's trouble is Telegram's to retry
    [(check, text)] = health.failing(now=1000.0 + API_LIMIT + 1)
    assert check == "webhook"
    assert text.startswith(
        f"4 updates wait at Telegram, whose deliveries to the webhook have failed for {API_LIMIT + 1:.0f} s"
    )
    assert text.endswith(": Connection refused)")
    hook.told(URL, 0, "Connection refused", now - 5, last_update=now, now=1000.0 + API_LIMIT + 2)
    assert health.failing(now=1000.0 + API_LIMIT + 2) == []  # delivered again: the old error is history
    hook.told(URL, 3, "Connection refused", now - 5, last_update=now, now=1000.0 + API_LIMIT + 3)
    assert hook.failing_since is None  # updates wait, but came after the error: on their way


def test_a_webhook_telegram_does_not_deliver_to_is_reported_at_once() -> None:
    health = fresh(1000.0, polling=False)
    health.webhook.url = URL
    health.webhook.told("", 12, "", 0.0, last_update=0.0, now=1001.0)
    assert health.problems(now=1001.0) == [
        f"Telegram delivers this bot's updates nowhere (no webhook is set), not to {URL}"
    ]
    health.webhook.told("https://other.example.org/hook", 0, "", 0.0, last_update=0.0, now=1002.0)
    assert health.problems(now=1002.0) == [
        f"Telegram delivers this bot's updates to https://other.example.org/hook, not to {URL}"
    ]
