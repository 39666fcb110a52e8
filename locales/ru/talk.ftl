## Что игрок видит за столом и после партии: «Прикончить» с причиной, свои места, концовки

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

notice-timed-out-you = ⏰ Время вышло — бот сыграл за вас { $move }.
notice-replaced-you = 🤖 Вы пропустили несколько ходов подряд — теперь за вас играет бот. Вернуться можно кнопкой ниже.
hand-replaced = 🤖 За вас играет бот — вернуться можно кнопкой ниже.

party-you-won = 🎉 <b>Вы победили!</b> — { $points } { $count ->
    [one] очко
    [few] очка
   *[many] очков
}
party-your-place = <b>Вы на { $place }-м месте</b> — { $points } { $count ->
    [one] очко
    [few] очка
   *[many] очков
}
deal-short = <b>Раздача { $deal } окончена:</b> { $points }
