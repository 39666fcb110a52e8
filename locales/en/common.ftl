## Common words, buttons, lobby and settings

yes = yes
no = no
level-name = { $level ->
    [easy] beginner
    [hard] master
   *[normal] amateur
}
bot-default-name = { $level ->
    [easy] Beginner
    [hard] Master
   *[normal] Amateur
}
player-nameless = Player
player-nobody = nobody

btn-rules = 📖 Rules
btn-join = ✋ Join
btn-leave = 🚪 Leave
btn-add-bot = 🤖 + Bot
btn-bots = 🤖 Bots
btn-remove-bot = ✖️ Remove { $name }
btn-settings = ⚙️ Settings
btn-start = ▶️ Start
btn-cancel = ✖️ Cancel
btn-back = ← Back
btn-done = ✔️ Done
btn-my-cards = 🃏 My cards
btn-rematch = 🔁 Rematch
btn-table = 📋 Table
btn-sheet = 📋 Score sheet
btn-history = 📜 History
btn-page = 🖥 Table and cards
btn-hint = 💡 Hint
btn-open-bot = ▶️ Open the bot
btn-take-seat = ↩️ Back to the game

turn-time = { $seconds ->
    [0] no limit
   *[other] { $seconds } s
}

lobby-turn-time = ⏱ Per move: { $seconds } s
lobby-players = Players ({ $count }/{ $max }):
lobby-empty = — nobody yet
lobby-creator = Host: { $name }
lobby-bots-fill = Bots will fill the empty seats.
lobby-first-dealer = The first dealer is drawn by lot.
lobby-need-more = { $need ->
    [one] One more player needed.
   *[other] { $need } more players needed.
}
lobby-bot-level = How strong a bot?
lobby-status = { $status ->
    [started] ▶️ The game has started.
    [cancelled] ✖️ The game was cancelled.
   *[expired] ⌛ Nobody started the game — the lobby is closed.
}

settings-title = Settings
settings-turn-time = Time per move: { $seconds ->
    [0] no limit
   *[other] { $seconds } s
}

solo-choose-game = What shall we play?
solo-opponents-btn = { $count ->
    [one] { $count } opponent
   *[other] { $count } opponents
}
solo-choose-opponents = { $game }: how many bots at the table?
solo-choose-level = { $game }, { $count ->
    [one] { $count } bot
   *[other] { $count } bots
}. How strong?

top-title = 🏆 <b>The chat's best players</b>
top-line = { $place }. { $name } — { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
} of { $games }, { $points ->
    [one] { $shown } point
   *[other] { $shown } points
}
top-empty = No game has been finished in this chat yet.
stats-yours = Your stats
stats-of = Stats: { $name }
lobby-creator-mark = <i>(host)</i>
