"""Games from outside the project, laid out like it, for the tests: ``engine/<game>/`` (its rules and bot
players), ``bot/games/<game>/`` (its plug-in), ``locales/<lang>/<game>/`` (its texts). The bot hosts them when the
setting ``EXTRA_GAMES`` names this package, and finds them as it finds its own (``bot.games.add_place``).

The one game here is «Старшая карта» (``highcard``), a toy third game: nothing outside these folders names it.
"""
