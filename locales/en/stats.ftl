## /stats: each game apart, groups and bots apart

stats-line = { $mode ->
    [group] In groups
   *[solo] With bots
}: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}, { $points }{ $settlement }
stats-points = points: { $points }
stats-settlement = , settlement on paper: { $amount } ({ $owes ->
    [yes] to pay
   *[no] to receive
})
stats-nothing = You haven't finished a game yet. Play with bots: /play.
