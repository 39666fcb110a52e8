"""The plug-ins of the tests' games: each subpackage is one, as in ``bot/games/``."""
