"""Launch data is believed only as Telegram signed it, for this bot, and while it is fresh."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.webapp.launch import MAX_AGE, MAX_AHEAD, MAX_LENGTH, Launch, Refused, check
from tests.webapp.launching import launch_data, signed

TOKEN = "123456:AAE-our-own-token"
NOW = 1_796_000_000.0


def test_telegrams_launch_data_names_the_person_and_the_link() -> None:
    data = launch_data(TOKEN, 42, NOW - 60, name="Аня", lang="ru", start="g17")
    assert check(data, TOKEN, NOW) == Launch(42, "Аня", "ru", "g17", NOW - 60)


def test_launch_data_without_a_start_parameter_opens_nothing_in_particular() -> None:
    launched = check(launch_data(TOKEN, 42, NOW), TOKEN, NOW)
    assert isinstance(launched, Launch) and launched.start_param == ""


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("user", json.dumps({"id": 43, "first_name": "Аня"})),
        ("auth_date", str(int(NOW))),
        ("start_param", "g18"),
    ],
)
def test_a_changed_field_is_forged(field: str, value: str) -> None:
    fields = dict(parse_qsl(launch_data(TOKEN, 42, NOW - 60, start="g17")))
    fields[field] = value
    assert check(urlencode(fields), TOKEN, NOW) is Refused.FORGED


def test_data_signed_for_another_bot_is_forged() -> None:
    assert check(launch_data("654321:another-bots-token", 42, NOW), TOKEN, NOW) is Refused.FORGED


def test_data_without_its_hash_or_with_a_made_up_one_is_forged() -> None:
    fields = dict(parse_qsl(launch_data(TOKEN, 42, NOW)))
    del fields["hash"]
    assert check(urlencode(fields), TOKEN, NOW) is Refused.FORGED
    assert check(urlencode({**fields, "hash": "0" * 64}), TOKEN, NOW) is Refused.FORGED
    assert check("user=%7B%7D&&hash", TOKEN, NOW) is Refused.FORGED


def test_old_data_and_data_from_the_future_are_refused() -> None:
    assert isinstance(check(launch_data(TOKEN, 42, NOW - MAX_AGE + 1), TOKEN, NOW), Launch)
    assert check(launch_data(TOKEN, 42, NOW - MAX_AGE - 1), TOKEN, NOW) is Refused.EXPIRED
    assert isinstance(check(launch_data(TOKEN, 42, NOW + MAX_AHEAD - 1), TOKEN, NOW), Launch)
    assert check(launch_data(TOKEN, 42, NOW + MAX_AHEAD + 1), TOKEN, NOW) is Refused.EXPIRED


def test_signed_data_without_a_person_or_a_time_opens_nothing() -> None:
    assert check(signed(TOKEN, {"auth_date": str(int(NOW))}), TOKEN, NOW) is Refused.NO_USER
    no_id = {"user": json.dumps({"first_name": "Аня"}), "auth_date": str(int(NOW))}
    assert check(signed(TOKEN, no_id), TOKEN, NOW) is Refused.NO_USER
    assert check(signed(TOKEN, {"user": json.dumps({"id": 42})}), TOKEN, NOW) is Refused.FORGED
    assert check(signed(TOKEN, {"user": "{}", "auth_date": "soon"}), TOKEN, NOW) is Refused.FORGED


def test_nothing_or_too_much_is_missing() -> None:
    assert check("", TOKEN, NOW) is Refused.MISSING
    assert check("a" * (MAX_LENGTH + 1), TOKEN, NOW) is Refused.MISSING
