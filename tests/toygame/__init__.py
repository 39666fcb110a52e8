"""«Старшая карта», a toy third game that lives entirely in this folder: its engine (``engine.py``), and (to
come) its bot plug-in and texts. Importing the package registers the engine, as a game folder of the project
does; the conformance test then plays it with nothing added outside this folder."""

from tests.toygame.engine import TOY, HighCardGame, HighCardState, HighCardView, Play

__all__ = ["TOY", "HighCardGame", "HighCardState", "HighCardView", "Play"]
