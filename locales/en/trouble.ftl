# Answers when the bot cannot serve a press right now (the database is busy or the disk is full).

answer-busy = That didn't go through: the bot is overloaded right now. Press again in a few seconds.
answer-failed = Something went wrong, please try again.

# A join link followed while Telegram does not answer whether the person is in the group.
answer-cannot-check = Could not check that you are in this game's group: Telegram did not answer. Please try again in a minute.
answer-thinker-down = «Мастер» cannot work this out right now: its computation failed twice. Please try again later.
answer-cannot-check-rights = Could not ask Telegram whether you administer this group. Please try again in a minute.

# A press while the database file cannot be written (read-only): the move is not made.
answer-read-only = Move not made: the bot cannot save anything right now. Please try again later.
