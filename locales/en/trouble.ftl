# Answers when the bot cannot serve a press right now (the database is busy or the disk is full).

answer-busy = That didn't go through: the bot is overloaded right now. Press again in a few seconds.
answer-failed = Something went wrong, please try again.
