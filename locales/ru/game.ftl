## Стол, ходы, итоги

table-deal = Раздача { $deal } · сдаёт { $dealer }
table-empty = На столе пусто
table-cards = На столе: { $cards }
table-turn = Ходит: { $name }
table-deck = Колода: { $count }
table-player = { $name } — взято { $pile } (♣ { $clubs })
table-konchinki = { $count ->
    [one] кончинка
   *[other] кончинки
}: { $cards }
table-replaced = 🤖 пока играет бот
table-unreachable = ⚠️ бот не может написать
table-moves = Последние ходы:
tally-title = Запись:
score-line = Счёт: { $scores }

card-instr = { $rank ->
    [2] двойкой
    [3] тройкой
    [4] четвёркой
    [5] пятёркой
    [6] шестёркой
    [7] семёркой
    [8] восьмёркой
    [9] девяткой
    [10] десяткой
    [11] валетом
    [12] дамой
    [13] королём
   *[14] тузом
} { $suit ->
    [c] треф
    [d] бубен
    [h] червей
   *[s] пик
}
move-lay = { $name } кладёт { $card }
move-capture = { $name } берёт { $taken } { $by }
move-sweep = { $name } берёт { $by } весь стол ({ $count ->
    [one] { $count } карта
    [few] { $count } карты
   *[many] { $count } карт
})
move-konchinka = 🎯 { $count ->
    [one] кончинка
   *[other] кончинки
} { $cards }
move-finish = 🏁 { $name } приканчивает партию!
move-leftovers = Остаток стола — { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
} — забирает { $name }
move-leftovers-nobody = Остаток стола — { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
} — не достаётся никому

hand-your-turn = 👉 <b>Ваш ход, { $name }!</b>
hand-pick-card = Ваши карты — выберите, чем ходить:
hand-what-now = <b>{ $card } — что делаем?</b>
hand-card-cannot = { $card } сейчас не сыграть: есть что взять, а брать обязательно.
hand-cards = Ваши карты: { $cards }
hand-game-over = Партия окончена.
hand-waiting = ⏳ Сейчас ходят другие — стол и ходы в группе.

deal-none = Раздача ещё не окончена.
deal-title = <b>Раздача { $deal } окончена</b>
deal-finished-early = 🏁 { $name } приканчивает партию посреди раздачи. За эту раздачу { $name } получает обеспеченные очки, остальные — ничего.
deal-tie = поровну — никому
deal-not-secured = не обеспечено — никому
deal-award = { $name } +{ $points }
deal-cards = 🃏 Карты: { $counts } → { $award }
deal-clubs = ♣ Трефы: { $counts } → { $award }
deal-konchinki = 🎯 { $count ->
    [one] Кончинка: { $held } (+1)
   *[other] Кончинки: { $held } (по +1)
}
deal-no-konchinki = 🎯 Кончинки никто не взял
deal-points = Очки за раздачу: { $points }

party-title = 🏆 <b>Партия окончена!</b>
party-winner = Победа: { $name } — { $points } { $count ->
    [one] очко
    [few] очка
   *[many] очков
}
settle-title-points = Расчёт по очкам — кто сколько недобрал до { $target }:
settle-title-stake = Расчёт (на кон, ставка { $stake }):
settle-pays = { $payer } → { $payee }: { $amount }{ settle-unit }
settle-owes = { $payer } платит { $amount }{ settle-unit }
settle-unit = { $unit ->
    [points] { $amount ->
        [one] {" "}очко
        [few] {" "}очка
       *[many] {" "}очков
    }
   *[stake] {""}
}

notice-start-bot = { $name }, бот не может вам написать. Откройте его кнопкой ниже и нажмите «Запустить» — туда придут ваши карты.
notice-reminder = ⏰ { $name }, ваш ход! Осталось { $time }.
notice-timed-out = ⏰ { $name }: время на ход вышло, сыграл бот.
notice-replaced = 🤖 { $name } пропускает ходы — место временно занял бот. Вернуться можно одной кнопкой.
notice-seat-back = ↩️ { $name } снова за столом.
notice-abandoned = 💤 Партия закрыта: в ней не было ходов { $days } { $days ->
    [one] день
    [few] дня
   *[many] дней
}. Начните новую, когда захотите.
notice-cancelled = ✖️ Партия отменена.

answer-stale = Этот ход уже сделан.
answer-not-your-turn = Сейчас ходит { $name }.
answer-game-over = Партия уже окончена.
answer-not-in-hand = Этой карты у вас нет.
answer-malformed = Непонятная кнопка — откройте свежее сообщение.
answer-not-legal = Так ходить нельзя.
answer-must-capture = Брать обязательно: этой картой нужно что-то взять.
answer-not-on-table = { $card } нет на столе.
answer-bad-group = Так не взять: нужна карта того же достоинства или сумма очков.
answer-one-group-only = За ход — только одна взятка.
answer-overlapping-groups = Одну карту нельзя взять дважды.
answer-jack-sweeps-all = Валет берёт весь стол целиком.
answer-nothing-to-capture = Этой картой нечего взять.
answer-cannot-finish = Прикончить пока нельзя: обеспечено { $secured ->
    [one] { $secured } очко
    [few] { $secured } очка
   *[many] { $secured } очков
}, а нужно { $need }{ $tie ->
    [yes] , чтобы обойти всех соперников
   *[no] {""}
}.
answer-must-follow-suit = Нужно класть карту в масть: у вас есть { $suit }.
answer-no-heart-lead = Заходить с червей нельзя, пока есть другие масти.
answer-must-play-king-of-hearts = Сейчас нужно отдать кинга (К♥).
answer-must-trump = Масти нет — нужно бить козырем { $suit }.
answer-not-a-player = Вы не играете в этой партии.
answer-no-game = Партии нет — начните новую.
answer-game-running = В этом чате уже идёт партия.
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
table-score = счёт { $score }
hint-line = 💡 Мастер сыграл бы так: { $move } — { $why }.
joined-private = ✅ Вы записаны в партию «{ $game }» в группе «{ $group }». Когда организатор начнёт её, карты придут сюда.
hint-move-finish = прикончить партию
hint-move-lay = положить { $card }
hint-move-capture = взять { $taken } картой { $card }
hint-move-capture-finish = взять { $taken } картой { $card } и прикончить партию
hint-move-play = { $card }
hint-move-trump = козырь { $suit }
hint-move-trump-last = козырь по последней карте
hint-why = { $why ->
    [finish] очков уже хватает для победы
    [konchinka] забирает кончинку
    [sweep] валет сметает весь стол
    [last-capture] последняя взятка заберёт и остаток стола
    [clubs] собирает трефы
    [most-cards] берёт больше всего карт
    [capture] самая выгодная взятка
    [safest-lay] оставляет сопернику меньше всего очков
    [hold-back] брать сейчас невыгодно
    [lay] эту карту отдать дешевле остальных
    [trump-suit] в этой масти у вас сила
    [trump-last] ни одна масть не сильна — пусть решит последняя карта
    [dump-penalty] сбрасывает { $card }, пока можно
    [dump-high] масти нет — избавляется от старшей карты
    [duck] пропускает взятку
    [take-empty] берёт взятку, пока она ничего не стоит
    [take-least] так взятка обойдётся дешевле всего
    [lead-low] с этой карты взятку заберёт другой
    [lead-safe] этот заход стоит меньше всего
    [ruff] бьёт козырем
    [win] забирает взятку
    [cash] забирает верную взятку
    [draw-trumps] выбивает козыри
    [discard] взятку не взять — сбрасывает лишнее
   *[lead] готовит взятки на потом
}
hint-dump-what = { $what ->
    [king] кинга
    [queen] даму
    [jack] валета
   *[heart] черву
}
hint-value = В среднем { $value } очка за раздачу.
hint-values = В среднем { $value } очка за раздачу, лучший другой ход — { $other }.

## Запись партии картинкой и текстом (Кончинка)

sheet-konchinka-title = Кончинка · запись
sheet-deals = { $count ->
    [one] { $count } раздача
    [few] { $count } раздачи
   *[many] { $count } раздач
}
sheet-winner = победа
sheet-note-cards = карты { $counts }
sheet-note-clubs = ♣ { $counts }
sheet-note-konchinki = кончинки: { $held }
sheet-note-finish = прикончил(а): { $name }
sheet-col-deal = Р
sheet-col-cards = Кар
sheet-col-konchinki = Кон
sheet-grid-legend = Кар — кому +2 за карты, ♣ — кому +1 за трефы, Кон — у кого кончинки; ! — партию прикончили в этой раздаче.

## История партии (текстовый файл)

history-title = { $game } · история партии { $id }
history-about = Каждый ход записан кодом (его читает бот, чтобы повторить партию) и словами.
history-players = Игроки: { $players }
history-deal = Раздача { $deal }
history-points = Очки: { $points }
history-totals = Итого: { $totals }
history-result = Партия окончена. Итог: { $scores }
history-winners = Победа: { $names }
history-lay = { $card } на стол
history-capture = { $card } берёт { $cards }
history-finish = прикончить
history-trump = козырь { $suit }
history-caption = 📜 История партии
sheet-caption = 📋 Запись после раздачи { $deal }: { $scores }
sheet-caption-final = 🏆 Итог партии: { $scores }
history-dealer = сдаёт { $name }
