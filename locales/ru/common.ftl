## Общие слова, кнопки, лобби и настройки

yes = да
no = нет
level-name = { $level ->
    [easy] новичок
    [hard] мастер
   *[normal] любитель
}
bot-default-name = { $level ->
    [easy] Новичок
    [hard] Мастер
   *[normal] Любитель
}
player-nameless = Игрок
player-nobody = никто

btn-rules = 📖 Правила
btn-join = ✋ Присоединиться
btn-leave = 🚪 Выйти
btn-add-bot = 🤖 + Бот
btn-bots = 🤖 Боты
btn-remove-bot = ✖️ Убрать: { $name }
btn-settings = ⚙️ Настройки
btn-start = ▶️ Начать
btn-cancel = ✖️ Отмена
btn-back = ← Назад
btn-done = ✔️ Готово
btn-my-cards = 🃏 Мои карты
btn-rematch = 🔁 Реванш
btn-table = 📋 Стол
btn-sheet = 📋 Запись
btn-history = 📜 История
btn-page = 🖥 Стол и карты
btn-hint = 💡 Подсказка
btn-open-bot = ▶️ Открыть бота
btn-take-seat = ↩️ Вернуться за стол

turn-time = { $seconds ->
    [0] без лимита
   *[other] { $seconds } с
}

lobby-turn-time = ⏱ На ход: { $seconds } с
lobby-players = Игроки ({ $count }/{ $max }):
lobby-empty = — пока никого
lobby-creator = Организатор: { $name }
lobby-bots-fill = Пустые места займут боты.
lobby-first-dealer = Кто сдаёт первым — решит жребий.
lobby-need-more = { $need ->
    [one] Нужен ещё { $need } игрок.
    [few] Нужно ещё { $need } игрока.
   *[many] Нужно ещё { $need } игроков.
}
lobby-bot-level = Какой силы бот?
lobby-status = { $status ->
    [started] ▶️ Партия началась.
    [cancelled] ✖️ Партия отменена.
   *[expired] ⌛ Никто не начал партию — набор закрыт.
}

settings-title = Настройки
settings-turn-time = Время на ход: { $seconds ->
    [0] без лимита
   *[other] { $seconds } с
}

solo-choose-game = Во что играем?
solo-opponents-btn = { $count ->
    [one] { $count } соперник
    [few] { $count } соперника
   *[many] { $count } соперников
}
solo-choose-opponents = { $game }: сколько ботов за столом?
solo-choose-level = { $game }, { $count ->
    [one] { $count } бот
    [few] { $count } бота
   *[many] { $count } ботов
}. Какой силы?

top-title = 🏆 <b>Лучшие игроки чата</b>
top-line = { $place }. { $name } — { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
   *[many] { $wins } побед
} из { $games }, { $points ->
    [one] { $shown } очко
    [few] { $shown } очка
   *[many] { $shown } очков
}
top-empty = В этом чате ещё не доиграли ни одной партии.
stats-yours = Ваша статистика
stats-of = Статистика: { $name }
lobby-creator-mark = <i>(организатор)</i>
