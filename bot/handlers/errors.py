"""The error handler: a failure in a handler itself (the pipeline reports its own) is logged with its traceback and
who met it, reported to the operators' chat, and a press is still answered — by the pipeline."""

from __future__ import annotations

from aiogram import Router
from aiogram.types import ErrorEvent

from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def on_failure(event: ErrorEvent, pipeline: Pipeline, origin: Origin | None = None) -> bool:
    await pipeline.failed(origin or Origin(event.update.update_id), event.exception)
    return True


def make_router() -> Router:
    """A fresh router (a router can belong to one dispatcher only)."""
    router = Router(name="errors")
    router.errors.register(on_failure)
    return router
