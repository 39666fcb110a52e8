## Стол, ходы, итоги

table-empty = На столе пусто
table-cards = На столе: { $cards }
table-turn = Ходит: { $name }
table-replaced = 🤖 пока играет бот
table-unreachable = ⚠️ бот не может написать

hand-your-turn = 👉 <b>Ваш ход, { $name }!</b>
hand-cards = Ваши карты: { $cards }
hand-game-over = Партия окончена.
hand-waiting = ⏳ Ходят по очереди: { $order } → вы. Стол и ходы — в группе.

deal-none = Раздача ещё не окончена.

party-title = 🏆 <b>Партия окончена!</b>
party-places = Итог: { $scores }
party-winner = Победа: { $name } — { $points } { $count ->
    [one] очко
    [few] очка
   *[many] очков
}

notice-start-bot = { $name }, бот не может вам написать. Откройте его кнопкой ниже и нажмите «Запустить» — туда придут ваши карты.
notice-reminder = ⏰ { $name }, ваш ход! Осталось { $time }.
notice-timed-out = ⏰ { $name }: время на ход вышло, сыграл бот.
notice-replaced = 🤖 { $name } пропускает ходы — место временно занял бот. Вернуться можно одной кнопкой.
notice-seat-back = ↩️ { $name } снова за столом.
notice-rematch = 🔁 { $name } зовёт на реванш: { $players } — ваши места за вами, начать партию может { $host }.
notice-abandoned = 💤 Партия закрыта: в ней не было ходов { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
}. Начните новую, когда захотите.
notice-cancelled = ✖️ Партия отменена.

answer-stale = Этот ход уже сделан.
answer-old-deal = Это сообщение из прошлой раздачи — ваши карты в последнем сообщении.
answer-not-your-turn = Сейчас ходит { $name }.
answer-game-over = Партия уже окончена.
answer-not-in-hand = Этой карты у вас нет.
answer-malformed = Непонятная кнопка — откройте свежее сообщение.
answer-not-legal = Так ходить нельзя.
answer-not-a-player = Вы не играете в этой партии.
answer-no-game = Партии нет — начните новую.
answer-game-running = В этом чате уже идёт партия.
answer-solo-leave = В партии с ботами место передавать некому — завершить её можно командой /cancel.
answer-lobby-open = В этом чате уже идёт набор в партию — присоединяйтесь в лобби.
answer-not-creator = Это может только организатор партии.
answer-not-creator-or-admin = Это может только организатор партии или админ чата.
answer-lobby-closed = Набор в эту партию закрыт — начните новую.
answer-too-many-lobbies = У вас уже открыто слишком много партий — начните или отмените одну из них.
answer-not-in-group = Присоединиться к этой партии могут только участники её группы.
answer-lobby-full = Мест больше нет.
answer-already-joined = Вы уже за столом.
answer-not-enough-players = { $count ->
    [1] Нужен хотя бы один игрок.
    [one] Нужен хотя бы { $count } игрок.
    [few] Нужно хотя бы { $count } игрока.
   *[many] Нужно хотя бы { $count } игроков.
}
answer-joined = Вы за столом!
answer-left = Вы вышли из партии.
answer-bot-added = Бот за столом.
answer-bot-removed = Бот ушёл из-за стола.
answer-setting-saved = Сохранено.
answer-game-cancelled = Партия отменена.
answer-seat-taken-back = Вы снова за столом.
answer-already-in-game = Вы и так за столом.
answer-group-only = Эта команда работает в группе.
answer-private-only = Эта команда работает в личке с ботом.
answer-too-fast = Секунду…
answer-unknown = Так нельзя.

time-limit = ⏱ { $seconds } с на ход
move-auto = ⏰ { $move } — сыграл бот: время вышло
hint-line = 💡 Мастер сыграл бы так: { $move } — { $why }.
hint-line-bare = 💡 Мастер сыграл бы так: { $move }.
hint-only = 💡 Ход здесь один: { $move }.
hint-gain = Лучший другой ход в среднем на { $gain } очка хуже — за оставшуюся раздачу.
hint-gain-none = Лучший другой ход почти так же хорош.
joined-private = ✅ Вы записаны в партию «{ $game }» в группе «{ $group }». Когда организатор начнёт её, карты придут сюда.

## Запись партии картинкой и текстом (у каждой игры своя — в её папке)

sheet-deals = { $count ->
    [one] { $count } раздача
    [few] { $count } раздачи
   *[many] { $count } раздач
}

## История партии (текстовый файл)

history-title = { $game } · история партии { $id }
history-about = Ходы записаны словами; ⏰ — время вышло и за игрока сходил бот, 🤖 — за игрока играл бот. Строки с # в конце файла — те же ходы кодами: по ним бот повторяет партию.
history-players = Игроки: { $players }
history-deal = Раздача { $deal }
history-points = Очки: { $points }
history-totals = Итого: { $totals }
history-result = Партия окончена. Итог: { $scores }
history-winners = Победа: { $names }
history-caption = 📜 История партии
sheet-caption = 📋 Запись после раздачи { $deal }: { $scores }
sheet-caption-final = 🏆 Итог партии: { $scores }
sheet-not-yet = 📋 Записи ещё нет: первая раздача не доиграна — стол выше.
history-dealer = сдаёт { $name }
