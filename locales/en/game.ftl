## The table, moves, results

table-empty = The table is empty
table-cards = On the table: { $cards }
table-turn = To move: { $name }
table-replaced = 🤖 a bot plays for now
table-unreachable = ⚠️ the bot can't write

hand-your-turn = 👉 <b>Your move, { $name }!</b>
hand-cards = Your cards: { $cards }
hand-game-over = The game is over.
hand-waiting = ⏳ Moving in turn: { $order } → you. The table and the moves are in the group.

deal-none = The deal is not over yet.

party-title = 🏆 <b>The game is over!</b>
party-places = Final score: { $scores }
party-winner = Winner: { $name } — { $points } { $count ->
    [one] point
   *[other] points
}

notice-start-bot = { $name }, the bot can't write to you. Open it with the button below and press “Start” — your cards will come there.
notice-reminder = ⏰ { $name }, your move! { $time } left.
notice-timed-out = ⏰ { $name }: time ran out, the bot played.
notice-replaced = 🤖 { $name } keeps missing turns — a bot has taken the seat for now. One tap brings the player back.
notice-seat-back = ↩️ { $name } is back in the game.
notice-rematch = 🔁 { $name } calls a rematch: { $players } — your seats are kept; { $host } can start it.
notice-abandoned = 💤 This game is closed: nobody has moved in { $days } { $days ->
    [one] day
   *[other] days
}. Start a new one whenever you like.
notice-cancelled = ✖️ The game was cancelled.

answer-stale = This move has already been made.
answer-old-deal = This message is from an earlier deal — your cards are in the latest one.
answer-not-your-turn = It's { $name }'s move now.
answer-game-over = The game is already over.
answer-not-in-hand = You don't have that card.
answer-malformed = Unknown button — open the latest message.
answer-not-legal = That move is not allowed.
answer-not-a-player = You are not playing in this game.
answer-no-game = No game here — start a new one.
answer-game-running = A game is already running in this chat.
answer-solo-leave = A game with bots has no seat to hand over — /cancel ends it.
answer-lobby-open = A lobby is already open in this chat — join it there.
answer-not-creator = Only the host can do that.
answer-not-creator-or-admin = Only the host or a chat admin can do that.
answer-lobby-closed = This game's lobby has closed — start a new one.
answer-too-many-lobbies = You have too many open games — start or cancel one of them first.
answer-not-in-group = Only members of the group can join this game.
answer-lobby-full = No seats left.
answer-already-joined = You are already in the game.
answer-not-enough-players = { $count ->
    [one] At least one player is needed.
   *[other] At least { $count } players are needed.
}
answer-joined = You're in!
answer-left = You left the game.
answer-bot-added = A bot has joined.
answer-bot-removed = The bot has left the table.
answer-setting-saved = Saved.
answer-game-cancelled = The game was cancelled.
answer-seat-taken-back = You're back at the table.
answer-already-in-game = You are already in the game.
answer-group-only = This command works in a group.
answer-private-only = This command works in a private chat with the bot.
answer-too-fast = Just a second…
answer-unknown = Not allowed.

time-limit = ⏱ { $seconds } s per move
move-auto = ⏰ { $move } — played by the bot: time ran out
hint-line = 💡 The master would play: { $move } — { $why }.
hint-line-bare = 💡 The master would play: { $move }.
hint-only = 💡 There is only one move here: { $move }.
hint-gain = The best other move is worth { $gain } points less on average over the rest of the deal.
hint-gain-none = The best other move is almost as good.
joined-private = ✅ You are in the { $game } game in “{ $group }”. When the host starts it, your cards will come here.

## The game's sheet as a picture and as text (each game's own is in its folder)

sheet-deals = { $count ->
    [one] { $count } deal
   *[other] { $count } deals
}

## The game's history (a text file)

history-title = { $game } · history of game { $id }
history-about = The moves in words; ⏰ — time ran out and the bot moved for the player, 🤖 — a bot player held the player’s seat. The lines with # at the end are the same moves as codes: the bot replays the game from them.
history-players = Players: { $players }
history-deal = Deal { $deal }
history-points = Points: { $points }
history-totals = Totals: { $totals }
history-result = The game is over. Result: { $scores }
history-winners = Winner: { $names }
history-caption = 📜 Game history
sheet-caption = 📋 Score sheet after deal { $deal }: { $scores }
sheet-caption-final = 🏆 Final result: { $scores }
sheet-not-yet = 📋 No score yet: the first deal is still being played — the table is above.
history-dealer = { $name } deals
