# /admin: what the operators (ADMIN_IDS) see of the running bot.

admin-figures =
    🛠 @{ $bot }, version { $version } (commit { $commit }), up (h:min) { $uptime }
    Games running: { $games } ({ $total } in all)
    People today: { $people }
    Bot API calls a second (last minute): { $calls }
    Calls queued: { $queued }, the oldest waiting (s) { $waited }
    Failures in the last hour: { $failures }
    «Мастер» (hard bot): { $masters }
admin-game-count = { $game }: { $count }
admin-master-backend = { $backend ->
    [c] { $game }: compiled kernel
   *[other] { $game }: pure Python (weaker)
}
admin-no-games = none
admin-troubles = The latest refusals and failures of { $user }, newest first:
admin-trouble = • { $when }: { $what } (chat { $chat }, game { $game })
admin-no-troubles = { $user }: no refusal or failure since the bot started.
