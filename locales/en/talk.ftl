## What a player sees at the table and after the game: «Finish it» with its reason, one's seat, endings

finish-konchinki = { $cards } { $count ->
    [one] gives
   *[other] give
} +{ $points }
finish-clubs = { $clubs } { $clubs ->
    [one] club gives
   *[other] clubs give
} +{ $points }
finish-cards = { $count } cards give +{ $points }
finish-reason = { $parts } → { $total }
finish-ask = 🏁 <b>Finish the game?</b> { $reason } — and the game is yours.
btn-finish-yes = 🏁 Yes, finish it!

notice-timed-out-you = ⏰ Time ran out — the bot played { $move } for you.
notice-replaced-you = 🤖 You missed several turns in a row — the bot plays for you now. Tap below to come back.
hand-replaced = 🤖 The bot plays for you — tap below to come back.

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
deal-short = <b>Deal { $deal } is over:</b> { $points }
