# Answers when the bot cannot serve a press right now (the database is busy or the disk is full).

answer-busy = Не получилось: бот сейчас перегружен. Нажмите ещё раз через несколько секунд.
answer-failed = Что-то пошло не так, попробуйте ещё раз.
