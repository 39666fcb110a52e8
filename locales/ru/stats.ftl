## /stats: каждая игра отдельно, в группах и с ботами отдельно

stats-line = { $mode ->
    [group] В группах
   *[solo] С ботами
}: { $games ->
    [one] { $games } партия
    [few] { $games } партии
   *[many] { $games } партий
}, { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
   *[many] { $wins } побед
}, { $points }{ $settlement }
stats-points = очки: { $points }
stats-settlement = , расчёт на бумаге: { $amount } ({ $owes ->
    [yes] столько отдать
   *[no] столько получить
})
stats-nothing = Вы ещё не доиграли ни одной партии. Сыграть с ботами — /play.
