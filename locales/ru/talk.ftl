## Что игрок видит за столом и после партии: свои места, концовки

notice-timed-out-you = ⏰ Время вышло — бот сыграл за вас { $move }.
notice-replaced-you = 🤖 Вы пропустили несколько ходов подряд — теперь за вас играет бот. Вернуться можно кнопкой ниже.
notice-bot-played-for-you = Пока вас не было, бот сыграл за вас { $count ->
    [one] { $count } ход
    [few] { $count } хода
   *[many] { $count } ходов
}: { $moves }.
hand-replaced = 🤖 За вас играет бот — вернуться можно кнопкой ниже.
hand-bot-last = Последний ход бота за вас: { $move }

party-you-won = 🎉 <b>Вы победили</b> с { $points } { $count ->
    [one] очком
   *[other] очками
}!
party-your-place = <b>Вы на { $place }-м месте</b> с { $points } { $count ->
    [one] очком
   *[other] очками
}
