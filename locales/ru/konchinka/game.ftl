## Кончинка: стол, рука и ход

table-deal = Раздача { $deal } · сдаёт { $dealer }
table-deck = Колода: { $count }
table-player = { $name } — взято { $pile } (♣ { $clubs })
table-konchinki = { $count ->
    [one] кончинка
   *[other] кончинки
}: { $cards }
table-moves = Последние ходы:
score-line = Счёт: { $scores }
table-score = счёт { $score }

hand-pick-card = Ваши карты — выберите, чем ходить:
hand-what-now = <b>{ $card } — что делаем?</b>
hand-card-cannot = { $card } сейчас не сыграть: есть что взять, а брать обязательно.

btn-finish = 🏁 Прикончить!
btn-lay = Положить на стол
btn-sweep = Взять весь стол ({ $count })
btn-capture = Взять { $cards }
btn-and-finish = 🏁 { $action } и прикончить
btn-other-card = ← Другая карта
btn-not-finish = ← Не приканчивать
btn-card-capture = { $card } берёт { $cards }
btn-card-sweep = { $card } берёт всё ({ $count })
btn-card-lay = { $card } на стол

## Кончинка: «Прикончить» с причиной

finish-konchinki = { $cards } { $count ->
    [one] даёт
   *[other] дают
} +{ $points }
finish-clubs = { $clubs } { $clubs ->
    [one] трефа даёт
    [few] трефы дают
   *[many] треф дают
} +{ $points }
finish-cards = { $count } { $count ->
    [one] карта даёт
    [few] карты дают
   *[many] карт дают
} +{ $points }
finish-reason = { $parts } → { $total }
finish-ask = 🏁 <b>Прикончить партию?</b> { $reason } — и партия ваша.
btn-finish-yes = 🏁 Да, прикончить!

## Кончинка: ходы словами и почему так ходить нельзя

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

## Кончинка: итоги раздачи, расчёт, статистика

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
deal-short = <b>Раздача { $deal } окончена:</b> { $points }

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

stats-points-konchinka = очков набрано: { $points }

## Кончинка: подсказка и «🔍 Разбор партии»

hint-move-finish = прикончить партию
hint-move-lay = положить { $card }
hint-move-capture = взять { $taken } картой { $card }
hint-move-capture-finish = взять { $taken } картой { $card } и прикончить партию
hint-move-sweep = взять весь стол ({ $count }) картой { $card }

konchinka-why-only = других ходов нет
konchinka-why-finish = очков уже хватает для победы
konchinka-why-konchinka = { $count ->
    [one] забирает кончинку { $card }
   *[other] забирает обе кончинки: { $card }
}
konchinka-why-sweep = валет забирает весь стол: { $count ->
    [one] { $count } карту
    [few] { $count } карты
   *[many] { $count } карт
}
konchinka-why-last-move = последний ход раздачи: остаток стола тоже ваш
konchinka-why-last-capture = если после вас никто не возьмёт, остаток стола тоже ваш
konchinka-why-clubs = берёт { $count ->
    [one] { $count } трефу
    [few] { $count } трефы
   *[many] { $count } треф
}
konchinka-why-most-cards = берёт со стола { $count ->
    [one] { $count } карту
    [few] { $count } карты
   *[many] { $count } карт
}, больше любой другой взятки
konchinka-why-capture-safest = после неё следующему игроку со стола взять меньше всего
konchinka-why-capture = ещё { $count ->
    [one] { $count } карта
    [few] { $count } карты
   *[many] { $count } карт
} в вашу стопку, к очкам за большинство карт
konchinka-why-safest-lay = после неё следующему игроку со стола взять меньше всего
konchinka-why-safest-lay-empty = стол пуст, а из ваших карт эта меньше всего даст следующему игроку
konchinka-why-hold-back = взять можно, но сейчас это невыгодно
konchinka-why-keep-konchinka = взять нечего, а кончинку { $card } лучше придержать
konchinka-why-lay = взять нечего, а остальные карты нужнее для взяток
review-konchinka-gave = кончинка осталась на столе

review-konchinka-position = <b>{ $n }.</b> Раздача { $deal }. Стол: { $table }
review-empty-table = пусто

## Кончинка: запись партии картинкой и текстом, история партии

sheet-konchinka-title = Кончинка · запись
sheet-winner = победа
sheet-note-cards = карты { $counts }
sheet-note-clubs = ♣ { $counts }
sheet-note-konchinki = кончинки: { $held }
sheet-note-finish = { $name } приканчивает партию

history-lay = { $card } на стол
history-capture = { $card } берёт { $cards }
history-finish = прикончить

## Кончинка: достижения

feat-konchinka-finish-capture = 🎯 Взять и прикончить
feat-konchinka-finish-capture-about = партия выиграна одним ходом «взять … и прикончить»: взятка принесла последние нужные очки.
feat-konchinka-five = 🖐 Пять из пяти
feat-konchinka-five-about = все пять очков одной раздачи: больше всех карт, больше всех треф и обе кончинки.
