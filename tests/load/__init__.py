"""The load benchmark: simulated people playing G concurrent games against the bot, through the fake Bot API.

    python -m tests.load [--games G] [--seconds S] [--json] [--no-floor] [--web] [--seed N] [--think MIN MAX]

See ``run.py`` for one measured run, ``people.py`` for the mix of games and how a person plays, ``recorder.py``
for what is timed, ``floor.py`` for the bare aiogram bot measured the same way as the floor; ``page.py`` and
``page_recorder.py`` for the people who play in the Mini App (``--web``) and what is timed of them.
"""
