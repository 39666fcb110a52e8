"""The game in play as data: its seats, the people in them, its party, its moves and what its messages show
(:mod:`~bot.model.game`), what the flow asks of a party (:mod:`~bot.model.party`) and the reasons an answer
gives (:mod:`~bot.model.answers`).

The bottom of the bot: every other package reads these types, and they import nothing of the bot (nor aiogram),
so the database's tools (``python -m bot migrate``, ``backup``) load them in a moment."""
