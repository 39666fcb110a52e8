"""The bot side of the tests' games (as ``bot/`` is the project's)."""
