# Answers when the bot cannot serve a press right now (the database is busy or the disk is full).

answer-busy = Не получилось: бот сейчас перегружен. Нажмите ещё раз через несколько секунд.
answer-failed = Что-то пошло не так, попробуйте ещё раз.

# A join link followed while Telegram does not answer whether the person is in the group.
answer-cannot-check = Не получилось проверить, что вы в группе этой партии: Telegram не ответил. Попробуйте ещё раз через минуту.
answer-thinker-down = «Мастер» сейчас не может это обдумать: его вычисление дважды сорвалось. Попробуйте позже.
answer-cannot-check-rights = Не получилось узнать у Telegram, администратор ли вы этой группы. Попробуйте ещё раз через минуту.

# A press while the database file cannot be written (read-only): the move is not made.
answer-read-only = Ход не сделан: бот сейчас не может ничего сохранить. Попробуйте позже.
