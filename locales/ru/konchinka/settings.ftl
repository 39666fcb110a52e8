## Кончинка: название, команда, настройки стола

game-konchinka = Кончинка
game-konchinka-button = 🃏 Кончинка
cmd-konchinka = Новая Кончинка

opt-variant = { $variant ->
    [points] очковая
   *[classic] классика
}
opt-target = до { $target }
opt-multi-on = несколько взяток за ход
opt-forced-on = брать обязательно
opt-early-off = прикончить нельзя
opt-stake = на кон { $stake }
settlement-name = { $settlement ->
    [stake] на кон
   *[points] по очкам
}

settings-variant = Вариант: { $variant ->
    [points] очковая Кончинка
   *[classic] классика
}
settings-target = Играем до: { $target }
settings-multi = Несколько взяток за ход: { $value }
settings-forced = Брать обязательно: { $value }
settings-early = Можно прикончить: { $value }
settings-settlement = Расчёт: { $settlement ->
    [stake] на кон, ставка { $stake }
   *[points] по очкам
}
settings-hint = Менять их может организатор партии, пока она не началась.
settings-multi-short = Несколько взяток
settings-forced-short = Брать обязательно
settings-early-short = Прикончить
