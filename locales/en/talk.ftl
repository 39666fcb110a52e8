## What a player sees at the table and after the game: one's seat, endings

notice-timed-out-you = ⏰ Time ran out — the bot played { $move } for you.
notice-replaced-you = 🤖 You missed several turns in a row — the bot plays for you now. Tap below to come back.
notice-bot-played-for-you = While you were away the bot made { $count ->
    [one] { $count } move
   *[other] { $count } moves
} for you: { $moves }.
hand-replaced = 🤖 The bot plays for you — tap below to come back.
hand-bot-last = The bot’s last move for you: { $move }

party-you-won = 🎉 <b>You won!</b> — { $points } { $count ->
    [one] point
   *[other] points
}
party-your-place = <b>You came { $place ->
    [1] 1st
    [2] 2nd
    [3] 3rd
   *[other] { $place }th
}</b> — { $points } { $count ->
    [one] point
   *[other] points
}
