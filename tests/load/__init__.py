"""The load benchmark: simulated people playing G concurrent games against the bot, through the fake Bot API.

    python -m tests.load [--games G] [--seconds S] [--json] [--no-floor] [--seed N] [--think MIN MAX]

See ``run.py`` for one measured run, ``people.py`` for the mix of games and how a person plays, ``recorder.py``
for what is timed, ``floor.py`` for the bare aiogram bot measured the same way as the floor.
"""
