"""What every router shares: a refusal handed to the pipeline to be drawn."""

from __future__ import annotations

from bot.flow.commands import Refusal
from bot.model.answers import Answer
from bot.pipeline.origin import Origin
from bot.pipeline.service import Pipeline


async def refuse(pipeline: Pipeline, origin: Origin, answer: Answer) -> None:
    """A press or command refused before any game was asked (a button that cannot be, a command out of place)."""
    await pipeline.refused(Refusal(answer), origin)
