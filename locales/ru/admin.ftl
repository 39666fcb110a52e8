# /admin: what the operators (ADMIN_IDS) see of the running bot.

admin-figures =
    🛠 @{ $bot }, версия { $version } (коммит { $commit }), работает (ч:мин) { $uptime }
    Идут игры: { $games } (всего { $total })
    Людей за сегодня: { $people }
    Вызовов Bot API в секунду (за минуту): { $calls }
    Вызовов в очереди: { $queued }, дольше всех ждёт (с) { $waited }
    Сбоев за час: { $failures }
    «Мастер»: { $masters }
admin-game-count = { $game } — { $count }
admin-master-backend = { $backend ->
    [c] { $game } — компилированное ядро
   *[other] { $game } — чистый Python (слабее)
}
admin-no-games = ни одной
admin-troubles = Последние отказы и сбои у { $user }, от новых к старым:
admin-trouble = • { $when }: { $what } (чат { $chat }, игра { $game })
admin-no-troubles = { $user }: с последнего запуска бота ни отказов, ни сбоев.
