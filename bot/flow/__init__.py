"""The game flow, pure: commands (a press, a timer, a bot player's move, a lobby action), each decided against the
game in play — its events, or a refusal that changes nothing — and the events, each of which says how it changes
the game. No await, no database, no Telegram, no clock but the time a decision is given.

``commands`` and ``events``; the decisions of ``lobby``, ``moves``, ``people``, ``turns`` (what falls due) and
``hints``. The pipeline (``bot.pipeline``) loads, calls them, stores and has the result drawn."""
