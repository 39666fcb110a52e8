"""Domain refusals: the service raises them, one error handler turns them into localized answers."""

from __future__ import annotations

import enum


class ServiceError(Exception):
    """A press or command the service refuses; ``reason`` is a views ``Answer`` or an engine reason enum."""

    def __init__(self, reason: enum.Enum, **params: object) -> None:
        super().__init__(f"{reason.value}")
        self.reason = reason
        self.params = params
