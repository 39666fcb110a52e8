"""Delivery: what a committed change looks like in Telegram (``publisher`` draws every live message of a game)
and the ``outbox`` that sends, edits and deletes them within Telegram's limits; ``presses`` answers button
presses."""
